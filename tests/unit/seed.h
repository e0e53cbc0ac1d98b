/*
 * seed.h: the seed of a randomized Check program (MBS_TEST_SEED, else
 * the time), printed so that a failure can be replayed, and splitmix64,
 * a stream that is the same on every machine.
 */
#ifndef MBSBATCH_TESTS_SEED_H
#define MBSBATCH_TESTS_SEED_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* The seed, said on standard output as "NAME: seed N (...)". */
static inline uint64_t
test_seed(const char *name)
{
	const char	*e = getenv("MBS_TEST_SEED");
	uint64_t	 seed;

	seed = e != NULL && *e != '\0' ? strtoull(e, NULL, 0) :
	    (uint64_t)time(NULL);
	printf("%s: seed %" PRIu64 " (MBS_TEST_SEED=%" PRIu64 " replays it)\n",
	    name, seed, seed);
	fflush(stdout);
	return seed;
}

/* The next number of the stream whose state is *S. */
static inline uint64_t
splitmix64(uint64_t *s)
{
	uint64_t	 z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

#endif
