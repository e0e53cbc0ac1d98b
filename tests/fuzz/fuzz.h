/*
 * fuzz.h: what every fuzz target shares.  Each target defines
 * LLVMFuzzerTestOneInput(); built with clang -fsanitize=fuzzer it is a
 * libFuzzer program (make fuzz), built with replay.c it replays its seed
 * corpus and every input that once crashed it (make check).
 */
#ifndef MBSBATCH_FUZZ_H
#define MBSBATCH_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* The input as a NUL-terminated string (cut at its first NUL). */
static inline char *
fuzz_string(const uint8_t *data, size_t size)
{
	char	*s = malloc(size + 1);

	if (s == NULL)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif
