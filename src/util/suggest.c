/*
 * suggest.c: the nearest name by optimal string alignment distance
 * (Levenshtein plus adjacent transpositions), with '-' and '_' counted
 * as equal so "num-layers" finds "num_layers".
 */
#include <string.h>

#include "suggest.h"

#define WORD_MAX	64

static int
same(char a, char b)
{
	if ((a == '-' || a == '_') && (b == '-' || b == '_'))
		return 1;
	if (a >= 'A' && a <= 'Z')
		a += 'a' - 'A';
	if (b >= 'A' && b <= 'Z')
		b += 'a' - 'A';
	return a == b;
}

int
suggest_distance(const char *a, const char *b)
{
	int	 d[WORD_MAX + 1][WORD_MAX + 1];
	size_t	 la = strlen(a), lb = strlen(b), i, j;
	int	 cost, best;

	if (la > WORD_MAX || lb > WORD_MAX)
		return WORD_MAX;
	for (i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			cost = same(a[i - 1], b[j - 1]) ? 0 : 1;
			best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < best)
				best = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) &&
			    same(a[i - 2], b[j - 1]) &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

const char *
suggest(const char *word, const char *const *names, size_t n)
{
	const char	*best = NULL;
	size_t		 i, len = strlen(word);
	int		 dist, best_dist, limit;

	/* Short words need a closer match: "tp" must not suggest "ep". */
	limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
	best_dist = limit + 1;
	for (i = 0; i < n; i++) {
		dist = suggest_distance(word, names[i]);
		if (dist < best_dist) {
			best_dist = dist;
			best = names[i];
		}
	}
	return best;
}
