/*
 * pyformat.h: a number read only as Python's format() prints it.  Every
 * figure of a Megatron training log is a Python number formatted with one
 * format spec (training_log in Megatron-LM's megatron/training/training.py
 * and Bridge's training/utils/train_utils.py, report_memory, the
 * theoretical memory line); a text that spec cannot print is not a figure
 * of that log: "-0", "-1e308", "0x1p3", "1e308" where "{:.1f}" prints 309
 * digits.  Only numbers >= 0 are taken: no figure Megatron prints is
 * negative (the loss is printed when "avg >= 0.0", and its sum starts at
 * +0.0, so it is never -0.0).  Pure: no I/O, no allocation.
 */
#ifndef MBSBATCH_PYFORMAT_H
#define MBSBATCH_PYFORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The longest text taken: "{:.3f}" of the largest double is 313 bytes. */
#define PYFORMAT_MAX	320

enum pyformat {
	PYF_F0,		/* "{:.0f}": "81234" */
	PYF_F1,		/* "{:.1f}": "790.6" (any number of digits before
			   the point, none left out); "inf", "nan" */
	PYF_F2,		/* "{:.2f}": "6656.51" */
	PYF_F3,		/* "{:.3f}": "3.200" */
	PYF_E6,		/* "{:.6E}": "1.003808E+01", exponent of two
			   digits or three; "INF", "NAN" */
	PYF_REPR,	/* "{}" of a float (repr): "21.475", "0.0", "1e-05",
			   "1.2345e+16"; "inf", "nan" */
};

/*
 * Whether the N bytes at S are what SPEC prints for some number >= 0, with
 * *V its value (as strtod() reads it).  NONFINITE: "inf" and "nan" (in
 * SPEC's case) are taken too, else only finite numbers.
 */
bool		 pyformat_real(const char *, size_t, enum pyformat, bool,
		    double *);

/*
 * Whether the N bytes at S are "{:d}" of a whole number >= 0 ("0", "42",
 * no sign, no leading zero), at most INT64_MAX; *V its value.
 */
bool		 pyformat_int(const char *, size_t, int64_t *);

#endif
