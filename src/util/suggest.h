/*
 * suggest.h: "did you mean" for mistyped names (options, keys, commands,
 * presets).  Pure.
 */
#ifndef MBSBATCH_SUGGEST_H
#define MBSBATCH_SUGGEST_H

#include <stddef.h>

/* The candidate closest to WORD if it is close enough, else NULL. */
const char	*suggest(const char *, const char *const *, size_t);

/* Edit distance with transpositions, capped at 64-character words. */
int		 suggest_distance(const char *, const char *);

#endif
