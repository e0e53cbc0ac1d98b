/*
 * number.h: parse numbers from the command line and from files, with
 * bounds and a reason (like tmux's args_strtonum), never atoi().
 *
 * Each returns NULL on success and stores the value, or returns a static
 * reason ("is not a whole number") and leaves *out alone.  Callers build
 * the message: "--tp: '2.5' is not a whole number (expected 1 to 65536)".
 * Pure: no allocation, no locale, no errno.
 */
#ifndef MBSBATCH_NUMBER_H
#define MBSBATCH_NUMBER_H

#include <stddef.h>
#include <stdint.h>

/* A whole decimal number, digits only: "8". */
const char	*number_parse_int(const char *, int64_t, int64_t, int64_t *);

/*
 * A count such as a parameter count: "70000000000", "70B", "1.5T", "7e9",
 * "340M".  Suffixes K, M, B (or G), T, P are powers of 1000, any case.  The
 * value must come out whole and in [min, max].
 */
const char	*number_parse_count(const char *, int64_t, int64_t, int64_t *);

/* A decimal number without exponent, such as GiB of memory: "79.6". */
const char	*number_parse_decimal(const char *, double, double, double *);

/* A decimal number with an optional exponent: "1e-6", "2.446", "0.5". */
const char	*number_parse_real(const char *, double, double, double *);

/* Write a count the way --params reads it, exactly: "70B", "1.5T",
 * "123456". */
void		 number_format_count(int64_t, char *, size_t);

/* Write a count for people, to three significant figures: "70.6B". */
void		 number_format_approx(int64_t, char *, size_t);

#endif
