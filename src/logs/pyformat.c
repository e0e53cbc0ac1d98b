/*
 * pyformat.c: numbers as Python's format() prints them; see pyformat.h.
 * The shapes are CPython's (Python/pystrtod.c, format_float_short: "f"
 * prints every digit before the point and exactly the precision after it;
 * "E" one digit, the precision, and an exponent of at least two digits;
 * repr the shortest digits, positional when 1e-4 <= x < 1e16, else
 * "d.ddde+XX"; inf and nan in the spec's case).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pyformat.h"

static bool
digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Digits at [*P, END): how many; *P moves past them. */
static size_t
digits(const char **p, const char *end)
{
	const char	*s = *p;

	while (*p < end && digit(**p))
		(*p)++;
	return (size_t)(*p - s);
}

/*
 * The common case without strtod(), which costs most of a large log's
 * reading: DIGITS (a whole number M below 10^15, the point dropped) times
 * 10^E with |E| <= 22: M and 10^|E| are exact doubles, and one
 * multiplication or division rounds as strtod() does (Clinger's fast
 * path).  False otherwise.
 */
static bool
fast_value(const char *s, const char *end, int e, double *v)
{
	static const double pow10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21,
		1e22
	};
	uint64_t	 m = 0;
	int		 n = 0;

	for (; s < end; s++) {
		if (*s == '.')
			continue;
		if (!digit(*s) || ++n > 15)
			return false;
		m = m * 10 + (uint64_t)(*s - '0');
	}
	if (e < -22 || e > 22)
		return false;
	*v = e < 0 ? (double)m / pow10[-e] : (double)m * pow10[e];
	return true;
}

/* strtod() of the N bytes at S, which are a finite number's digits:
 * false when they are out of a double's range (no Python float prints
 * so). */
static bool
slow_value(const char *s, size_t n, double *v)
{
	char	 buf[PYFORMAT_MAX + 1], *e;
	size_t	 i;
	bool	 zero = true;

	memcpy(buf, s, n);
	buf[n] = '\0';
	*v = strtod(buf, &e);
	for (i = 0; i < n && buf[i] != 'e' && buf[i] != 'E'; i++)
		if (buf[i] >= '1' && buf[i] <= '9')
			zero = false;
	return *e == '\0' && isfinite(*v) && (zero || *v != 0);
}

/* "inf" or "nan" in the case of SPEC: the value, or false. */
static bool
special(const char *s, size_t n, enum pyformat spec, double *v)
{
	bool	 upper = spec == PYF_E6;

	if (n != 3)
		return false;
	if (memcmp(s, upper ? "INF" : "inf", 3) == 0) {
		*v = INFINITY;
		return true;
	}
	if (memcmp(s, upper ? "NAN" : "nan", 3) == 0) {
		*v = NAN;
		return true;
	}
	return false;
}

/* A whole part: "0" or digits not starting with 0. */
static bool
whole(const char **p, const char *end)
{
	const char	*s = *p;
	size_t		 n = digits(p, end);

	return n == 1 || (n > 1 && s[0] != '0');
}

/* "{:.Nf}": whole part, and with PREC > 0 a point and PREC digits. */
static bool
fixed(const char *s, const char *end, int prec, double *v)
{
	const char	*p = s;

	if (!whole(&p, end))
		return false;
	if (prec > 0 && (p == end || *p++ != '.' ||
	    digits(&p, end) != (size_t)prec))
		return false;
	if (p != end)
		return false;
	return fast_value(s, end, -prec, v) || slow_value(s, end - s, v);
}

/* An exponent "e+05", "E-308": two digits, or three not starting 0; its
 * value in *X. */
static bool
exponent(const char **p, const char *end, int *x)
{
	const char	*s;
	bool		 neg;
	size_t		 n;

	if (*p == end || (**p != '+' && **p != '-'))
		return false;
	neg = *(*p)++ == '-';
	s = *p;
	n = digits(p, end);
	if (n < 2 || n > 3 || (n == 3 && s[0] == '0'))
		return false;
	for (*x = 0; s < *p; s++)
		*x = *x * 10 + (*s - '0');
	if (neg)
		*x = -*x;
	return true;
}

/* "{:.6E}": "d.ddddddE+XX"; 0 only as "0.000000E+00". */
static bool
sci6(const char *s, const char *end, double *v)
{
	const char	*p = s;
	int		 x;

	if (end - s < 12 || !digit(s[0]) || s[1] != '.')
		return false;
	p = s + 2;
	if (digits(&p, end) != 6 || p == end || *p++ != 'E' ||
	    !exponent(&p, end, &x) || p != end)
		return false;
	if (s[0] == '0' && (memcmp(s, "0.000000E+00", 12) != 0 || end - s !=
	    12))
		return false;
	return fast_value(s, s + 8, x - 6, v) || slow_value(s, end - s, v);
}

/*
 * repr: positional ("21.475", "0.0": a point, at least one digit after
 * it, none of them a trailing 0 but a lone one) for 1e-4 <= x < 1e16 and
 * 0; else scientific ("1e-05", "1.2345e+16": one digit, maybe a point and
 * digits not ending in 0, an exponent).
 */
static bool
repr(const char *s, const char *end, double *v)
{
	const char	*p = s;
	size_t		 n = 0;
	int		 x;

	if (!whole(&p, end))
		return false;
	if (p < end && *p == '.') {
		p++;
		if ((n = digits(&p, end)) == 0 || (n > 1 && p[-1] == '0'))
			return false;
	}
	if (p == end) {
		if (n == 0 || !(fast_value(s, end, -(int)n, v) ||
		    slow_value(s, end - s, v)))
			return false;
		return *v == 0 || (*v >= 1e-4 && *v < 1e16);
	}
	/* Scientific: one digit, 1 to 9, before the point; no lone 0
	 * after it. */
	if (p - s - (n > 0 ? (ptrdiff_t)n + 1 : 0) != 1 || s[0] == '0' ||
	    (n > 0 && p[-1] == '0') || *p++ != 'e' ||
	    !exponent(&p, end, &x) || p != end)
		return false;
	if (!slow_value(s, end - s, v))
		return false;
	return *v < 1e-4 || *v >= 1e16;
}

bool
pyformat_real(const char *s, size_t n, enum pyformat spec, bool nonfinite,
    double *v)
{
	const char	*end = s + n;

	if (n == 0 || n > PYFORMAT_MAX)
		return false;
	if (!digit(s[0]))
		return nonfinite && special(s, n, spec, v);
	switch (spec) {
	case PYF_F0:
		return fixed(s, end, 0, v);
	case PYF_F1:
		return fixed(s, end, 1, v);
	case PYF_F2:
		return fixed(s, end, 2, v);
	case PYF_F3:
		return fixed(s, end, 3, v);
	case PYF_E6:
		return sci6(s, end, v);
	case PYF_REPR:
		return repr(s, end, v);
	}
	return false;
}

bool
pyformat_int(const char *s, size_t n, int64_t *v)
{
	const char	*p = s, *end = s + n;
	int64_t		 x = 0;

	if (!whole(&p, end) || p != end)
		return false;
	for (p = s; p < end; p++) {
		if (x > (INT64_MAX - (*p - '0')) / 10)
			return false;
		x = x * 10 + (*p - '0');
	}
	*v = x;
	return true;
}
