/* number.c: bounded number parsing; see number.h. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "number.h"

/* Lowest common reasons, also used by tests. */
static const char r_empty[] = "is empty";
static const char r_nan[] = "is not a number";
static const char r_whole[] = "is not a whole number";
static const char r_neg[] = "is negative";
static const char r_small[] = "is too small";
static const char r_large[] = "is too large";

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Accumulate digits into *v; false on overflow of INT64_MAX. */
static bool
acc_digit(int64_t *v, char c)
{
	int	 d = c - '0';

	if (*v > (INT64_MAX - d) / 10)
		return false;
	*v = *v * 10 + d;
	return true;
}

const char *
number_parse_int(const char *s, int64_t min, int64_t max, int64_t *out)
{
	const char	*p;
	int64_t		 v = 0;
	bool		 overflow = false;

	if (*s == '\0')
		return r_empty;
	if (*s == '-') {
		for (p = s + 1; is_digit(*p); p++)
			continue;
		return *p == '\0' && p != s + 1 ? r_neg : r_nan;
	}
	for (p = s; is_digit(*p); p++)
		if (!overflow && !acc_digit(&v, *p))
			overflow = true;
	if (p == s)
		return r_nan;
	if (*p == '.' || *p == 'e' || *p == 'E') {
		/* "2.0" is whole but we keep integers plain: say so. */
		for (p++; is_digit(*p) || *p == '+' || *p == '-'; p++)
			continue;
		return *p == '\0' ? r_whole : r_nan;
	}
	if (*p != '\0')
		return r_nan;
	if (overflow || v > max)
		return r_large;
	if (v < min)
		return r_small;
	*out = v;
	return NULL;
}

const char *
number_parse_count(const char *s, int64_t min, int64_t max, int64_t *out)
{
	const char	*p = s;
	int64_t		 mant = 0, exp10 = 0, e = 0, v;
	int		 esign = 1, nd = 0;
	bool		 overflow = false;

	if (*s == '\0')
		return r_empty;
	if (*p == '-')
		return r_neg;
	/* Mantissa; digits beyond 18 significant ones must be zeros. */
	for (; is_digit(*p); p++, nd++) {
		if (mant > (INT64_MAX - 9) / 10) {
			if (*p != '0')
				overflow = true;
			exp10++;
		} else
			mant = mant * 10 + (*p - '0');
	}
	if (*p == '.') {
		for (p++; is_digit(*p); p++, nd++) {
			if (mant > (INT64_MAX - 9) / 10) {
				if (*p != '0')
					return r_whole;	/* too precise */
				continue;
			}
			mant = mant * 10 + (*p - '0');
			exp10--;
		}
	}
	if (nd == 0)
		return r_nan;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			esign = *p++ == '-' ? -1 : 1;
		if (!is_digit(*p))
			return r_nan;
		for (; is_digit(*p); p++)
			if (!acc_digit(&e, *p) || e > 1000)
				e = 1000;
		exp10 += esign * e;
	}
	switch (*p) {
	case 'k': case 'K':
		exp10 += 3, p++;
		break;
	case 'm': case 'M':
		exp10 += 6, p++;
		break;
	case 'b': case 'B': case 'g': case 'G':
		exp10 += 9, p++;
		break;
	case 't': case 'T':
		exp10 += 12, p++;
		break;
	case 'p': case 'P':
		exp10 += 15, p++;
		break;
	}
	if (*p != '\0')
		return r_nan;
	if (overflow)
		return r_large;

	v = mant;
	for (; exp10 < 0 && v != 0; exp10++) {
		if (v % 10 != 0)
			return r_whole;
		v /= 10;
	}
	for (; exp10 > 0 && v != 0; exp10--) {
		if (v > INT64_MAX / 10)
			return r_large;
		v *= 10;
	}
	if (v > max)
		return r_large;
	if (v < min)
		return r_small;
	*out = v;
	return NULL;
}

const char *
number_parse_decimal(const char *s, double min, double max, double *out)
{
	const char	*p = s;
	double		 v = 0, scale = 1;
	int		 nd = 0;

	if (*s == '\0')
		return r_empty;
	if (*p == '-')
		return r_neg;
	for (; is_digit(*p); p++, nd++)
		v = v * 10 + (*p - '0');
	if (*p == '.')
		for (p++; is_digit(*p); p++, nd++) {
			scale /= 10;
			v += (*p - '0') * scale;
		}
	if (nd == 0 || *p != '\0')
		return r_nan;
	if (v > max)
		return r_large;
	if (v < min)
		return r_small;
	*out = v;
	return NULL;
}

const char *
number_parse_real(const char *s, double min, double max, double *out)
{
	const char	*e = s + strcspn(s, "eE"), *why, *p;
	char		 mant[64];
	double		 v;
	int64_t		 x = 0;
	bool		 neg = false;

	if ((size_t)(e - s) >= sizeof mant || (e == s && *s != '\0'))
		return r_nan;
	snprintf(mant, sizeof mant, "%.*s", (int)(e - s), s);
	if ((why = number_parse_decimal(mant, 0, 1e300, &v)) != NULL)
		return why;
	if (*e != '\0') {
		p = e + 1;
		if (*p == '-' || *p == '+')
			neg = *p++ == '-';
		if ((why = number_parse_int(p, 0, 300, &x)) != NULL)
			return why == r_large ? r_large : r_nan;
		for (; x > 0; x--)
			v = neg ? v / 10 : v * 10;
	}
	if (v > max)
		return r_large;
	if (v < min)
		return r_small;
	*out = v;
	return NULL;
}

void
number_format_count(int64_t v, char *out, size_t len)
{
	static const struct {
		int64_t	 div;
		char	 suffix;
	} units[] = {
		{ INT64_C(1000000000000000), 'P' },
		{ INT64_C(1000000000000), 'T' },
		{ INT64_C(1000000000), 'B' },
		{ INT64_C(1000000), 'M' },
		{ INT64_C(1000), 'K' },
	};
	size_t	 i;

	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		int64_t	 d = units[i].div;

		if (v < d)
			continue;
		if (v % d == 0)
			snprintf(out, len, "%lld%c", (long long)(v / d),
			    units[i].suffix);
		else if (v % (d / 10) == 0)
			snprintf(out, len, "%lld.%lld%c", (long long)(v / d),
			    (long long)(v % d / (d / 10)), units[i].suffix);
		else if (v % (d / 100) == 0)
			snprintf(out, len, "%lld.%02lld%c", (long long)(v / d),
			    (long long)(v % d / (d / 100)), units[i].suffix);
		else
			break;
		return;
	}
	snprintf(out, len, "%lld", (long long)v);
}

/* "70.6B": three significant figures, for people. */
void
number_format_approx(int64_t v, char *out, size_t len)
{
	static const struct {
		double	 div;
		char	 suffix;
	} units[] = {
		{ 1e15, 'P' }, { 1e12, 'T' }, { 1e9, 'B' }, { 1e6, 'M' },
		{ 1e3, 'K' },
	};
	size_t	 i;
	double	 x;

	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		if ((double)v < units[i].div)
			continue;
		x = (double)v / units[i].div;
		snprintf(out, len, x >= 100 ? "%.0f" : x >= 10 ? "%.1f" :
		    "%.2f", x);
		/* Drop trailing zeros: "70B", not "70.0B". */
		if (strchr(out, '.') != NULL) {
			size_t	 n = strlen(out);

			while (n > 0 && out[n - 1] == '0')
				out[--n] = '\0';
			if (n > 0 && out[n - 1] == '.')
				out[--n] = '\0';
		}
		snprintf(out + strlen(out), len - strlen(out), "%c",
		    units[i].suffix);
		return;
	}
	snprintf(out, len, "%lld", (long long)v);
}
