/*
 * logscan.c: a training log's lines into bounded figures; see logscan.h.
 * Each line is judged once, by its first bytes where it can be: the
 * common ones (iteration lines, everything else) must cost little, so
 * that a log of gigabytes reads at disk speed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "logscan.h"

const char *const logscan_dim_names[LD_NDIMS] = {
	"world", "nodes", "tp", "pp", "vpp", "cp", "ep", "etp", "dp", "edp"
};

const char *const logscan_cause_names[LC_NCAUSES] = {
	"none", "cuda_oom", "nccl_timeout", "nan", "traceback", "time_limit",
	"cancelled", "node_failure", "preempted", "task_failure", "host_oom",
	"task_exit"
};

/* Megatron's names of the sizes: the arguments dump and Bridge's YAML. */
static const struct {
	const char		*name;
	enum logscan_dim	 dim;
} arg_names[] = {
	{ "world_size", LD_WORLD },
	{ "data_parallel_size", LD_DP },
	{ "tensor_model_parallel_size", LD_TP },
	{ "pipeline_model_parallel_size", LD_PP },
	{ "virtual_pipeline_model_parallel_size", LD_VPP },
	{ "context_parallel_size", LD_CP },
	{ "expert_model_parallel_size", LD_EP },
	{ "expert_tensor_parallel_size", LD_ETP },
};

/* A + B, at most INT64_MAX (A, B >= 0): a count a log cannot overflow. */
int64_t
logscan_add(int64_t a, int64_t b)
{
	return b > INT64_MAX - a ? INT64_MAX : a + b;
}

static void
samples_init(struct logscan_samples *s)
{
	s->n = 0;
	s->seen = 0;
	s->stride = 1;
}

/* Keep V when it falls on the stride; when full, keep every other. */
static void
samples_add(struct logscan_samples *s, double v)
{
	size_t	 i;

	if (s->seen++ % s->stride != 0)
		return;
	if (s->n == LOGSCAN_SAMPLES) {
		for (i = 0; i < LOGSCAN_SAMPLES / 2; i++)
			s->v[i] = s->v[2 * i];
		s->n = LOGSCAN_SAMPLES / 2;
		s->stride *= 2;
		if ((s->seen - 1) % s->stride != 0)
			return;
	}
	s->v[s->n++] = v;
}

static int
cmp_double(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double
logscan_median(struct logscan_samples *s)
{
	if (s->n == 0)
		return -1;
	qsort(s->v, s->n, sizeof s->v[0], cmp_double);
	if (s->n % 2 == 1)
		return s->v[s->n / 2];
	return (s->v[s->n / 2 - 1] + s->v[s->n / 2]) / 2;
}

void
logscan_init(struct logscan *ls)
{
	int	 i;

	memset(ls, 0, sizeof *ls);
	ls->it.step_ms = ls->it.tflops = ls->it.tokens_s = -1;
	ls->it.lr = ls->it.grad_norm = -1;
	samples_init(&ls->step);
	samples_init(&ls->tflops);
	samples_init(&ls->tokens);
	ls->max_allocated_gib = ls->max_reserved_gib = -1;
	ls->theoretical_gib = -1;
	for (i = 0; i < LD_NDIMS; i++)
		ls->marker.v[i] = ls->used.v[i] = -1;
	ls->tb_rank = -1;
}

static bool
starts(const char *s, size_t n, const char *lit)
{
	size_t	 l = strlen(lit);

	return n >= l && memcmp(s, lit, l) == 0;
}

static const char *
find(const char *s, size_t n, const char *lit)
{
	return memmem(s, n, lit, strlen(lit));
}

/* Digits at *P (before END) into *V; *P moves past them. */
static bool
take_int(const char **p, const char *end, int64_t *v)
{
	const char	*s = *p;
	int64_t		 x = 0;

	if (s >= end || *s < '0' || *s > '9')
		return false;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (x > (INT64_MAX - 9) / 10)
			return false;
		x = x * 10 + (*s - '0');
	}
	*p = s;
	*v = x;
	return true;
}

static const char *
skip_spaces(const char *p, const char *end)
{
	while (p < end && *p == ' ')
		p++;
	return p;
}

/*
 * The common case of take_real() without strtod(), which costs most of a
 * large log's reading: [-]digits[.digits][(e|E)[+-]digits] whose digits
 * make a whole number M below 2^53 and whose exponent E is within 22:
 * then M and 10^|E| are exact doubles, and one multiplication or division
 * rounds as strtod() does (Clinger's fast path).  False otherwise: the
 * caller asks strtod().
 */
static bool
fast_real(const char *s, size_t n, double *v)
{
	static const double pow10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21,
		1e22
	};
	const char	*p = s, *end = s + n;
	uint64_t	 m = 0;
	int		 e = 0, x = 0, digits = 0;
	bool		 neg = false, xneg = false;

	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	for (; p < end && *p >= '0' && *p <= '9'; p++, digits++)
		m = m * 10 + (uint64_t)(*p - '0');
	if (p < end && *p == '.')
		for (p++; p < end && *p >= '0' && *p <= '9'; p++, digits++) {
			m = m * 10 + (uint64_t)(*p - '0');
			e--;
		}
	if (digits == 0 || digits > 15)
		return false;
	if (p < end && (*p == 'e' || *p == 'E')) {
		if (++p < end && (*p == '-' || *p == '+'))
			xneg = *p++ == '-';
		if (p == end || end - p > 3)
			return false;
		for (; p < end && *p >= '0' && *p <= '9'; p++)
			x = x * 10 + (*p - '0');
		e += xneg ? -x : x;
	}
	if (p != end || e < -22 || e > 22)
		return false;
	*v = e < 0 ? (double)m / pow10[-e] : (double)m * pow10[e];
	if (neg)
		*v = -*v;
	return true;
}

/* A number as Python printed it ("1.003808E+01", "1234.5", "nan", "INF")
 * from [P, END) up to a space or '|'; false when there is none. */
static bool
take_real(const char *p, const char *end, double *v)
{
	char		 buf[48], *e;
	const char	*q;
	size_t		 n;

	p = skip_spaces(p, end);
	for (q = p; q < end && *q != ' ' && *q != '|' && *q != ','; q++)
		;
	n = q - p;
	if (n == 0 || n >= sizeof buf)
		return false;
	if (fast_real(p, n, v))
		return true;
	memcpy(buf, p, n);
	buf[n] = '\0';
	*v = strtod(buf, &e);
	return *e == '\0' && e != buf;
}

/* "[rankN]:" with OPEN "[rank": past it, *R = N; NULL when not one. */
static const char *
bracket_rank(const char *s, const char *end, const char *open, int64_t *r)
{
	const char	*p;

	if (!starts(s, end - s, open))
		return NULL;
	p = s + strlen(open);
	if (!take_int(&p, end, r) || end - p < 2 || p[0] != ']' ||
	    p[1] != ':')
		return NULL;
	return p + 2;
}

const char *
logscan_strip_rank(const char *s, size_t *n, int64_t *rank)
{
	const char	*end = s + *n, *p;
	int64_t		 r;

	*rank = -1;
	for (;;) {
		p = skip_spaces(s, end);
		/* srun --label: "%*d: " */
		if (p < end && *p >= '0' && *p <= '9' && p - s < 8) {
			const char *q = p;

			if (take_int(&q, end, &r) && q - p <= 7 &&
			    end - q >= 2 && q[0] == ':' && q[1] == ' ') {
				*rank = r;
				s = q + 2;
				continue;
			}
		}
		if ((p = bracket_rank(s, end, "[rank", &r)) != NULL) {
			/* torch puts a space before Python's lines. */
			*rank = r;
			s = p < end && *p == ' ' ? p + 1 : p;
			continue;
		}
		if ((p = bracket_rank(s, end, "[default", &r)) != NULL) {
			*rank = r;
			s = p;
			continue;
		}
		break;
	}
	*n = end - s;
	return s;
}

/* The length of the valid UTF-8 sequence at S (N bytes left), or 0
 * (RFC 3629: no overlong form, no surrogate, nothing past U+10FFFF). */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	unsigned char	 lo = 0x80, hi = 0xbf;
	size_t		 len, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		if (s[0] == 0xe0)
			lo = 0xa0;
		else if (s[0] == 0xed)
			hi = 0x9f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		if (s[0] == 0xf0)
			lo = 0x90;
		else if (s[0] == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

/* Keep a text printable and valid UTF-8 (JSON and terminals get it):
 * control characters and invalid bytes become '?'. */
static void
copy_text(char *dst, const char *src, size_t n)
{
	const unsigned char	*s = (const unsigned char *)src;
	size_t			 i = 0, o = 0, l;

	while (i < n && o < LOGSCAN_TEXT_MAX - 1) {
		l = utf8_len(s + i, n - i);
		if (l == 0 || (l == 1 && (s[i] < 0x20 || s[i] == 0x7f))) {
			dst[o++] = '?';
			i++;
			continue;
		}
		if (o + l > LOGSCAN_TEXT_MAX - 1)
			break;
		memcpy(dst + o, s + i, l);
		o += l;
		i += l;
	}
	dst[o] = '\0';
}

static void
set_fatal(struct logscan *ls, enum logscan_cause kind, int64_t rank,
    const char *s, size_t n, const char *frame)
{
	ls->fatal.kind = kind;
	ls->fatal.line = ls->lines;
	ls->fatal.rank = rank;
	ls->fatal.iteration = ls->it.last;
	copy_text(ls->fatal.text, s, n);
	if (frame != NULL)
		copy_text(ls->fatal.frame, frame, strlen(frame));
	else
		ls->fatal.frame[0] = '\0';
}

/* A fatal cause; only the first is kept. */
static void
cause(struct logscan *ls, enum logscan_cause kind, int64_t rank,
    const char *s, size_t n, const char *frame)
{
	ls->causes++;
	if (ls->fatal.kind == LC_NONE)
		set_fatal(ls, kind, rank, s, n, frame);
}

/* One "key: value" field of an iteration line. */
static void
iteration_field(struct logscan *ls, const char *k, size_t kn,
    const char *v, const char *end)
{
	double	 x;
	int64_t	 i;

#define KEY(lit) (kn == sizeof(lit) - 1 && memcmp(k, lit, kn) == 0)
	if (KEY("lm loss")) {
		if (take_real(v, end, &x)) {
			ls->it.has_loss = true;
			ls->it.loss = x;
		}
	} else if (KEY("elapsed time per iteration (ms)")) {
		if (take_real(v, end, &x))
			ls->it.step_ms = x;
	} else if (KEY("throughput per GPU (TFLOP/s/GPU)")) {
		if (take_real(v, end, &x))
			ls->it.tflops = x;
	} else if (KEY("toks/s")) {
		/* Megatron-LM's RL steps only (rl_utils.py
		 * log_rl_throughput_metrics). */
		if (take_real(v, end, &x))
			ls->it.tokens_s = x;
	} else if (KEY("learning rate")) {
		if (take_real(v, end, &x))
			ls->it.lr = x;
	} else if (KEY("grad norm")) {
		if (take_real(v, end, &x))
			ls->it.grad_norm = x;
	} else if (KEY("number of skipped iterations")) {
		v = skip_spaces(v, end);
		if (take_int(&v, end, &i)) {
			ls->it.skipped = logscan_add(ls->it.skipped, i);
			ls->it.line_skipped = i;
		}
	} else if (KEY("number of nan iterations")) {
		v = skip_spaces(v, end);
		if (take_int(&v, end, &i) && i > 0) {
			ls->it.nan = logscan_add(ls->it.nan, i);
			if (ls->it.first_nan_line == 0)
				ls->it.first_nan_line = ls->lines;
		}
	}
#undef KEY
}

/*
 * " [DATE] iteration        3/       3 | key: value | ... |": Megatron-LM
 * and Bridge print the same keys (training_log).  False when S is not one.
 */
static bool
iteration_line(struct logscan *ls, const char *s, size_t n)
{
	const char	*end = s + n, *p, *q, *bar, *colon;
	int64_t		 iter, total;
	size_t		 head = n < 64 ? n : 64;

	/* The stamp's ']' is the first: no memmem() on every line. */
	if ((p = memchr(s, ']', head)) == NULL ||
	    !starts(p, end - p, "] iteration "))
		return false;
	p = skip_spaces(p + 12, end);
	if (!take_int(&p, end, &iter) || p >= end || *p != '/')
		return false;
	p = skip_spaces(p + 1, end);
	if (!take_int(&p, end, &total))
		return false;
	p = skip_spaces(p, end);
	if (p >= end || *p != '|')
		return false;

	/* Megatron-LM's stamp has microseconds, Bridge's none. */
	if (ls->it.logged == 0 && (q = memchr(s, '[', p - s)) != NULL) {
		if (memchr(q, '.', p - q) != NULL)
			ls->megatron_lm = true;
		else
			ls->bridge = true;
	}
	ls->it.logged++;
	ls->it.prev = ls->it.last;
	ls->it.last = iter;
	ls->it.total = total;
	ls->it.has_loss = false;
	ls->it.line_skipped = 0;
	ls->it.step_ms = ls->it.tflops = ls->it.tokens_s = -1;
	ls->it.lr = ls->it.grad_norm = -1;
	for (p++; p < end; p = bar + (bar < end)) {
		if ((bar = memchr(p, '|', end - p)) == NULL)
			bar = end;
		q = skip_spaces(p, bar);
		if ((colon = memchr(q, ':', bar - q)) == NULL)
			continue;
		iteration_field(ls, q, colon - q, colon + 1, bar);
	}
	if (ls->it.has_loss) {
		if (!isfinite(ls->it.loss)) {
			ls->it.nonfinite_loss++;
			if (ls->it.first_nan_line == 0)
				ls->it.first_nan_line = ls->lines;
		} else if (!ls->it.has_first_loss && ls->it.line_skipped == 0) {
			ls->it.has_first_loss = true;
			ls->it.first_loss = ls->it.loss;
			ls->it.first_loss_iter = iter;
		}
	}
	/*
	 * Megatron adds a NaN loss to the interval's sum unless the
	 * iteration was skipped (training_log), and prints no average that
	 * is not >= 0: a line with no loss and nothing skipped had a NaN.
	 */
	if (!ls->it.has_loss && ls->it.line_skipped == 0) {
		ls->it.noloss++;
		if (ls->it.first_nan_line == 0)
			ls->it.first_nan_line = ls->lines;
	}
	if (ls->it.logged > LOGSCAN_WARMUP) {
		if (ls->it.step_ms >= 0)
			samples_add(&ls->step, ls->it.step_ms);
		if (ls->it.tflops >= 0)
			samples_add(&ls->tflops, ls->it.tflops);
		if (ls->it.tokens_s >= 0)
			samples_add(&ls->tokens, ls->it.tokens_s);
	}
	/* Training went on after a traceback: it was not fatal. */
	if (ls->fatal.kind == LC_TRACEBACK && iter > ls->fatal.iteration) {
		ls->fatal.kind = LC_NONE;
		ls->survived++;
	}
	return true;
}

/*
 * "[Rank R] (after N iterations) memory (MB) | allocated: ... | max
 * allocated: M | reserved: ... | max reserved: M" (Megatron-LM, MiB) or
 * "... memory (GB) | mem-max-allocated-gigabytes: X | ..." (Bridge, GB).
 */
static bool
memory_line(struct logscan *ls, const char *s, size_t n)
{
	const char	*end = s + n, *p, *bar, *colon, *q;
	double		 scale, x;
	bool		 gb;
	size_t		 kn;

	if (!starts(s, n, "[Rank "))
		return false;
	if ((p = find(s, n, " memory (MB) |")) != NULL)
		gb = false;
	else if ((p = find(s, n, " memory (GB) |")) != NULL)
		gb = true;
	else
		return false;
	scale = gb ? 1e9 / (1024.0 * 1024 * 1024) : 1 / 1024.0;
	ls->memory_lines++;
	ls->memory_bridge = gb;
	for (p += 13; p < end; p = bar + (bar < end)) {
		if ((bar = memchr(p, '|', end - p)) == NULL)
			bar = end;
		q = skip_spaces(p, bar);
		if ((colon = memchr(q, ':', bar - q)) == NULL ||
		    !take_real(colon + 1, bar, &x) || !isfinite(x))
			continue;
		kn = colon - q;
		x *= scale;
		if ((kn == 13 && memcmp(q, "max allocated", 13) == 0) ||
		    (kn == 27 && memcmp(q, "mem-max-allocated-gigabytes",
		    27) == 0)) {
			if (x > ls->max_allocated_gib)
				ls->max_allocated_gib = x;
		} else if ((kn == 12 && memcmp(q, "max reserved", 12) == 0) ||
		    (kn == 26 && memcmp(q, "mem-max-reserved-gigabytes",
		    26) == 0)) {
			if (x > ls->max_reserved_gib)
				ls->max_reserved_gib = x;
		}
	}
	return true;
}

/*
 * Megatron's estimate, printed before the first memory line (Megatron-LM
 * theoretical_memory_usage.py, Bridge theoretical_memory_utils.py): the
 * total in MiB, or only the weights and optimizer when it cannot count
 * the activations (no SP or no selective recompute).
 */
static bool
theoretical_line(struct logscan *ls, const char *s, size_t n)
{
	const char	*end = s + n, *p;
	double		 x;
	bool		 total;

	if (!starts(s, n, "Theoretical memory footprints: "))
		return false;
	if ((p = find(s, n, "total=")) != NULL) {
		p += 6;
		total = true;
	} else if ((p = find(s, n, "weight and optimizer=")) != NULL) {
		p += 21;
		total = false;
	} else
		return true;
	if (take_real(p, end, &x) && x >= 0 && isfinite(x) &&
	    find(p, end - p, " MB") != NULL) {
		ls->theoretical_gib = x / 1024;
		ls->theoretical_total = total;
	}
	return true;
}

static void
set_used(struct logscan *ls, enum logscan_dim d, int64_t v,
    enum logscan_source from)
{
	ls->used.v[d] = v;
	ls->used_from = from;
}

/* The value after LABEL in S, a whole number; -1 when absent. */
static int64_t
int_after(const char *s, size_t n, const char *label)
{
	const char	*p, *end = s + n;
	int64_t		 v;

	if ((p = find(s, n, label)) == NULL)
		return -1;
	p = skip_spaces(p + strlen(label), end);
	return take_int(&p, end, &v) ? v : -1;
}

/* Megatron-LM's "using world size: W, data-parallel size: D, ...". */
static bool
world_line(struct logscan *ls, const char *s, size_t n)
{
	static const struct {
		const char		*label;
		enum logscan_dim	 dim;
	} f[] = {
		{ "using world size:", LD_WORLD },
		{ "data-parallel size:", LD_DP },
		{ "context-parallel size:", LD_CP },
		{ "tensor-model-parallel size:", LD_TP },
		{ "pipeline-model-parallel size:", LD_PP },
	};
	size_t		 i;
	int64_t		 v;

	if (!starts(s, n, "using world size: "))
		return false;
	for (i = 0; i < sizeof f / sizeof f[0]; i++)
		if ((v = int_after(s, n, f[i].label)) >= 0)
			set_used(ls, f[i].dim, v, LS_MEGATRON_LM);
	ls->megatron_lm = true;
	return true;
}

/*
 * A size by Megatron's argument name: "  NAME ........ VALUE" (Megatron-LM
 * _print_args) or, in the model: section of Bridge's YAML, "  NAME: VALUE".
 */
static bool
size_line(struct logscan *ls, const char *s, size_t n)
{
	const char	*end = s + n, *p;
	size_t		 i, l;
	int64_t		 v;
	bool		 yaml;

	if (!starts(s, n, "  ") || n < 3 || s[2] < 'a' || s[2] > 'z')
		return false;
	for (i = 0; i < sizeof arg_names / sizeof arg_names[0]; i++) {
		l = strlen(arg_names[i].name);
		if (n < 2 + l + 2 || memcmp(s + 2, arg_names[i].name, l) != 0)
			continue;
		p = s + 2 + l;
		if (*p == ':' && ls->yaml_model)
			yaml = true;
		else if (*p == ' ' && p + 1 < end && p[1] == '.')
			yaml = false;
		else
			continue;
		p++;
		while (p < end && (*p == '.' || *p == ' '))
			p++;
		if (take_int(&p, end, &v) && p == end && v > 0)
			;
		else if ((starts(p, end - p, "None") ||
		    starts(p, end - p, "null")) &&
		    arg_names[i].dim == LD_VPP)
			v = 1;
		else
			return true;
		set_used(ls, arg_names[i].dim, v, yaml ? LS_BRIDGE :
		    LS_MEGATRON_LM);
		if (yaml)
			ls->bridge = true;
		else
			ls->megatron_lm = true;
		return true;
	}
	return false;
}

/*
 * "> initialized ..." lines: Bridge's training/initialize.py and
 * Megatron-LM's megatron/training/initialize.py print the first two alike;
 * HyperCommGrid is Bridge's alone.
 */
static bool
bridge_line(struct logscan *ls, const char *s, size_t n)
{
	int64_t	 v;

	if (!starts(s, n, "> initialized "))
		return false;
	if (starts(s, n, "> initialized tensor model parallel with size ")) {
		if ((v = int_after(s, n, "with size")) > 0)
			set_used(ls, LD_TP, v, LS_BRIDGE);
	} else if (starts(s, n,
	    "> initialized pipeline model parallel with size ")) {
		if ((v = int_after(s, n, "with size")) > 0)
			set_used(ls, LD_PP, v, LS_BRIDGE);
	} else if (starts(s, n, "> initialized HyperCommGrid with ")) {
		ls->bridge = true;
		if ((v = int_after(s, n, "tp=")) > 0)
			set_used(ls, LD_TP, v, LS_BRIDGE);
		if ((v = int_after(s, n, "pp=")) > 0)
			set_used(ls, LD_PP, v, LS_BRIDGE);
		if ((v = int_after(s, n, "cp=")) > 0)
			set_used(ls, LD_CP, v, LS_BRIDGE);
		if ((v = int_after(s, n, "dp=")) > 0)
			set_used(ls, LD_DP, v, LS_BRIDGE);
	} else
		return false;
	return true;
}

/* Our scripts' "mbsbatch: layout: world=W nodes=N tp=T ..." and the
 * expected iterations. */
static bool
marker_line(struct logscan *ls, const char *s, size_t n)
{
	const char	*end = s + n, *p, *eq;
	int64_t		 v;
	int		 d;

	if (!starts(s, n, "mbsbatch: "))
		return false;
	if (starts(s, n, "mbsbatch: smoke: iterations=") ||
	    starts(s, n, "mbsbatch: train: iterations=")) {
		p = s + 28;
		if (take_int(&p, end, &v) && p == end && v > 0) {
			ls->expected_iters = v;
			ls->smoke = s[10] == 's';
		}
		return true;
	}
	if (!starts(s, n, "mbsbatch: layout: "))
		return false;
	/* A requeued job appends its next run to the same file. */
	if (ls->has_marker && (ls->it.logged > 0 ||
	    ls->fatal.kind != LC_NONE)) {
		ls->restarts++;
		ls->fatal.kind = LC_NONE;
		ls->tb_open = ls->tb_after = ls->tb_chained = false;
	}
	for (p = s + 18; p < end; p++) {
		p = skip_spaces(p, end);
		if ((eq = memchr(p, '=', end - p)) == NULL)
			break;
		for (d = 0; d < LD_NDIMS; d++)
			if ((size_t)(eq - p) == strlen(logscan_dim_names[d]) &&
			    memcmp(p, logscan_dim_names[d], eq - p) == 0)
				break;
		p = eq + 1;
		if (take_int(&p, end, &v) && d < LD_NDIMS && v > 0)
			ls->marker.v[d] = v;
		while (p < end && *p != ' ')
			p++;
	}
	ls->has_marker = true;
	return true;
}

/*
 * slurmstepd's "error: *** JOB 123 ON node1 CANCELLED AT T DUE TO TIME
 * LIMIT ***" family (src/slurmd/slurmstepd/req.c), its oom_kill line
 * (task/cgroup), and srun's "srun: error: node1: task 3: Exited with exit
 * code 1" / "Out Of Memory" / signal lines (src/srun/launch.c).
 */
static bool
slurm_line(struct logscan *ls, const char *s, size_t n, int64_t rank)
{
	const char		*end = s + n, *p, *q;
	enum logscan_cause	 kind;
	int64_t			 task;

	if (starts(s, n, "srun: error: ")) {
		if ((p = find(s, n, ": task ")) != NULL)
			p += 7;
		else if ((p = find(s, n, ": tasks ")) != NULL)
			p += 8;
		else
			return false;
		q = p;
		if (!take_int(&q, end, &task))
			task = -1;
		while (p < end && *p != ':')
			p++;
		if (end - p < 2)
			return false;
		p += 2;
		kind = starts(p, end - p, "Out Of Memory") ? LC_HOST_OOM :
		    LC_TASK_EXIT;
		cause(ls, kind, task, s, n, NULL);
		return true;
	}
	if (!starts(s, n, "slurmstepd") ||
	    (p = find(s, n < 40 ? n : 40, "error: ")) == NULL)
		return false;
	p += 7;
	if (starts(p, end - p, "Detected ") &&
	    find(p, end - p, "oom_kill event") != NULL) {
		cause(ls, LC_HOST_OOM, rank, p, end - p, NULL);
		return true;
	}
	if (!starts(p, end - p, "*** ") || starts(p, end - p, "*** REASON"))
		return false;
	if (find(p, end - p, "DUE TO TIME LIMIT") != NULL)
		kind = LC_TIME_LIMIT;
	else if (find(p, end - p, "DUE TO NODE FAILURE") != NULL)
		kind = LC_NODE_FAILURE;
	else if (find(p, end - p, "DUE TO PREEMPTION") != NULL)
		kind = LC_PREEMPTED;
	else if (find(p, end - p, "DUE TO TASK FAILURE") != NULL ||
	    find(p, end - p, " FAILED (") != NULL)
		kind = LC_TASK_FAILURE;
	else if (find(p, end - p, "UNCORRECTABLE MEMORY ERROR") != NULL)
		kind = LC_NODE_FAILURE;
	else if (find(p, end - p, " CANCELLED AT ") != NULL ||
	    find(p, end - p, "STEPD TERMINATED") != NULL)
		kind = LC_CANCELLED;
	else
		return false;
	cause(ls, kind, rank, p, end - p, NULL);
	return true;
}

/* An exception line's kind by its text. */
static enum logscan_cause
exception_kind(const char *s, size_t n)
{
	if (find(s, n, "CUDA out of memory") != NULL ||
	    find(s, n, "OutOfMemoryError") != NULL)
		return LC_CUDA_OOM;
	/* megatron/core/rerun_state_machine.py: "Rank R, node N, device D,
	 * iteration I: Unexpected result nan (message='found NaN in local
	 * forward loss calculation')". */
	if (find(s, n, "Unexpected result nan") != NULL ||
	    find(s, n, "Unexpected result inf") != NULL ||
	    find(s, n, "found NaN in") != NULL)
		return LC_NAN;
	if (find(s, n, "NCCL") != NULL || find(s, n, "Watchdog") != NULL ||
	    find(s, n, "DistBackendError") != NULL)
		return LC_NCCL_TIMEOUT;
	return LC_TRACEBACK;
}

/* A line while a traceback of TB_RANK is open: true when it was one. */
static bool
traceback_line(struct logscan *ls, const char *s, size_t n, int64_t rank)
{
	const char	*p;
	size_t		 k;

	if (rank != ls->tb_rank)
		return false;
	if (starts(s, n, "  File \"")) {
		p = s + 2;
		k = n - 2;
		copy_text(ls->tb_frame, p, k);
		return true;
	}
	if (starts(s, n, "Traceback (most recent call last):")) {
		ls->tb_frame[0] = '\0';
		return true;
	}
	if (n == 0 || starts(s, n, "  "))
		return true;
	/* The exception: the traceback ends, maybe to go on chained. */
	ls->tb_open = false;
	ls->tb_after = true;
	if (ls->tb_ignored) {
		ls->tb_ignored = false;
		ls->tb_after = false;
		return true;
	}
	if (ls->tb_chained && ls->tb_owns) {
		/* The last exception of a chain is the one that killed. */
		ls->causes++;
		set_fatal(ls, exception_kind(s, n), rank, s, n,
		    ls->tb_frame[0] != '\0' ? ls->tb_frame : NULL);
	} else {
		ls->tb_owns = ls->fatal.kind == LC_NONE;
		cause(ls, exception_kind(s, n), rank, s, n,
		    ls->tb_frame[0] != '\0' ? ls->tb_frame : NULL);
	}
	ls->tb_chained = false;
	return true;
}

/*
 * A line of TB_RANK after its exception: blank, or Python's "During
 * handling of the above exception, another exception occurred:" or "The
 * above exception was the direct cause of the following exception:",
 * which chain the next traceback to it.  True when it was one.
 */
static bool
chain_line(struct logscan *ls, const char *s, size_t n, int64_t rank)
{
	if (rank != ls->tb_rank)
		return false;
	if (n == 0)
		return true;
	ls->tb_after = false;
	if (starts(s, n, "During handling of the above exception") ||
	    starts(s, n, "The above exception was the direct cause")) {
		ls->tb_open = true;
		ls->tb_chained = true;
		ls->tb_frame[0] = '\0';
		return true;
	}
	return false;
}

void
logscan_line(struct logscan *ls, const char *s, size_t n)
{
	int64_t	 rank;
	bool	 known = false;

	ls->lines++;
	if (n > 0 && s[n - 1] == '\r')
		n--;
	s = logscan_strip_rank(s, &n, &rank);
	if ((ls->tb_open && traceback_line(ls, s, n, rank)) ||
	    (ls->tb_after && chain_line(ls, s, n, rank))) {
		ls->recognised++;
		return;
	}
	if (n == 0)
		return;
	switch (s[0]) {
	case ' ':
		known = iteration_line(ls, s, n) || size_line(ls, s, n);
		break;
	case '[':
		if (memory_line(ls, s, n))
			known = true;
		else if (find(s, n,
		    "Watchdog caught collective operation timeout") != NULL ||
		    (starts(s, n, "[E") && find(s, n, "ProcessGroupNCCL") !=
		    NULL && find(s, n, "NCCL error") != NULL)) {
			/* torch's glog lines: "[E1202 ... ProcessGroupNCCL.cpp:
			 * 632] [Rank 1] Watchdog caught ...". */
			cause(ls, LC_NCCL_TIMEOUT, rank, s, n, NULL);
			known = true;
		} else
			known = iteration_line(ls, s, n);
		break;
	case '>':
		known = bridge_line(ls, s, n);
		break;
	case 'm':
		if (starts(s, n, "model:")) {
			ls->yaml_model = n == 6 || (n == 7 && s[6] == ' ');
			known = ls->yaml_model;
		} else
			known = marker_line(ls, s, n);
		break;
	case 's':
		known = slurm_line(ls, s, n, rank);
		break;
	case 'u':
		known = world_line(ls, s, n);
		break;
	case 'T':
		if (theoretical_line(ls, s, n))
			known = true;
		else if (starts(s, n, "Traceback (most recent call last):")) {
			if (!ls->tb_open) {
				ls->tb_open = true;
				ls->tb_rank = rank;
				ls->tb_line = ls->lines;
				ls->tb_frame[0] = '\0';
				ls->tb_ignored = ls->ignored_next &&
				    ls->ignored_rank == rank;
			}
			ls->ignored_next = false;
			known = true;
		}
		break;
	case 'E':
		/* Python's unraisable-exception hook (a __del__ at exit):
		 * its traceback follows, and the process goes on. */
		if (starts(s, n, "Exception ignored in")) {
			ls->ignored_next = true;
			ls->ignored_rank = rank;
			known = true;
		}
		break;
	case 't':
		if (starts(s, n, "torch.") &&
		    find(s, n, "OutOfMemoryError") != NULL) {
			cause(ls, LC_CUDA_OOM, rank, s, n, NULL);
			known = true;
		}
		break;
	default:
		break;
	}
	/* A YAML section other than model: ends it. */
	if (ls->yaml_model && s[0] >= 'a' && s[0] <= 'z' &&
	    !starts(s, n, "model:") && s[n - 1] == ':')
		ls->yaml_model = false;
	if (known)
		ls->recognised++;
}

void
logscan_feed(struct logscan *ls, const char *buf, size_t n)
{
	const char	*p = buf, *end = buf + n, *nl, *z;
	size_t		 len, room;

	ls->bytes += n;
	for (z = buf; (z = memchr(z, '\0', end - z)) != NULL; z++)
		ls->nul_bytes++;
	while (p < end) {
		nl = memchr(p, '\n', end - p);
		len = (nl != NULL ? nl : end) - p;
		if (ls->len == 0 && !ls->cut && nl != NULL) {
			/* The whole line is in BUF: judge it there. */
			if (len > LOGSCAN_LINE_MAX) {
				ls->long_lines++;
				len = LOGSCAN_LINE_MAX;
			}
			logscan_line(ls, p, len);
			p = nl + 1;
			continue;
		}
		room = LOGSCAN_LINE_MAX - ls->len;
		if (len > room) {
			if (!ls->cut)
				ls->long_lines++;
			ls->cut = true;
		}
		memcpy(ls->line + ls->len, p, len < room ? len : room);
		ls->len += len < room ? len : room;
		if (nl == NULL)
			break;
		logscan_line(ls, ls->line, ls->len);
		ls->len = 0;
		ls->cut = false;
		p = nl + 1;
	}
}

void
logscan_finish(struct logscan *ls)
{
	if (ls->len > 0 || ls->cut)
		logscan_line(ls, ls->line, ls->len);
	ls->len = 0;
	ls->cut = false;
}
