/*
 * logscan.c: a training log's lines into bounded figures; see logscan.h.
 * Each line is judged once, by its first bytes where it can be: the
 * common ones (iteration lines, everything else) must cost little, so
 * that a log of gigabytes reads at disk speed.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logscan.h"
#include "pyformat.h"

const char *const logscan_dim_names[LD_NDIMS] = {
	"world", "nodes", "tp", "pp", "vpp", "cp", "ep", "etp", "dp", "edp"
};

const char *const logscan_cause_names[LC_NCAUSES] = {
	"none", "cuda_oom", "nccl_timeout", "nan", "traceback", "time_limit",
	"cancelled", "node_failure", "preempted", "task_failure", "host_oom",
	"task_exit", "script_not_found", "module_not_found",
	"command_not_found", "container"
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
	/* Not (a + b) / 2: two step times of 1e308 ms would make inf. */
	return s->v[s->n / 2 - 1] + (s->v[s->n / 2] - s->v[s->n / 2 - 1]) / 2;
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

bool
logscan_starts(const char *s, size_t n, const char *lit)
{
	return starts(s, n, lit);
}

const char *
logscan_find(const char *s, size_t n, const char *lit)
{
	return find(s, n, lit);
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
 * The figure in [P, END) after spaces, in the format SPEC prints
 * (pyformat.h), nothing but spaces after it; NONFINITE: inf and nan too.
 */
static bool
take_py(const char *p, const char *end, enum pyformat spec, bool nonfinite,
    double *v)
{
	const char	*q;

	p = skip_spaces(p, end);
	for (q = p; q < end && *q != ' '; q++)
		;
	return skip_spaces(q, end) == end &&
	    pyformat_real(p, (size_t)(q - p), spec, nonfinite, v);
}

/* The same for "{:d}" (with its width's spaces). */
static bool
take_py_int(const char *p, const char *end, int64_t *v)
{
	const char	*q;

	p = skip_spaces(p, end);
	for (q = p; q < end && *q != ' '; q++)
		;
	return skip_spaces(q, end) == end &&
	    pyformat_int(p, (size_t)(q - p), v);
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
	ls->fatal.detail[0] = '\0';
}

/* What stops a run before its program starts. */
static bool
setup_cause(enum logscan_cause kind)
{
	return kind == LC_SCRIPT_NOT_FOUND || kind == LC_MODULE_NOT_FOUND ||
	    kind == LC_COMMAND_NOT_FOUND || kind == LC_CONTAINER;
}

/* What Slurm says once a task has ended or a step is torn down: the
 * consequence of a cause, not one (srun --kill-on-bad-exit cancels the
 * step when a task fails: "*** STEP 1.0 ON n CANCELLED AT T ***" on
 * 22.05, "... DUE TO TASK FAILURE ***" later). */
static bool
consequence(enum logscan_cause kind)
{
	return kind == LC_TASK_EXIT || kind == LC_TASK_FAILURE ||
	    kind == LC_CANCELLED;
}

/*
 * A fatal cause: the first is kept, but for a consequence, which a later
 * setup cause replaces (srun's "Exited with exit code 2" may come before
 * the "python: can't open file" that made it, from another node, or in
 * another file).  True when it is the one kept now.
 */
static bool
cause(struct logscan *ls, enum logscan_cause kind, int64_t rank,
    const char *s, size_t n, const char *frame)
{
	ls->causes++;
	if (ls->fatal.kind != LC_NONE && !(consequence(ls->fatal.kind) &&
	    setup_cause(kind)))
		return false;
	set_fatal(ls, kind, rank, s, n, frame);
	return true;
}

/* A line of a known kind with a figure in no format its program prints:
 * WHAT (K: the key, V..END its value) is said for the first. */
static void
malformed(struct logscan *ls, const char *k, size_t kn, const char *v,
    const char *end)
{
	char	 buf[LOGSCAN_TEXT_MAX];
	size_t	 o;

	ls->malformed++;
	if (ls->malformed_line != 0)
		return;
	ls->malformed_line = ls->lines;
	v = skip_spaces(v, end);
	while (end > v && end[-1] == ' ')
		end--;
	o = (size_t)snprintf(buf, sizeof buf, "%.*s: '", (int)(kn < 80 ? kn :
	    80), k);
	if ((size_t)(end - v) > sizeof buf - o - 2)
		end = v + (sizeof buf - o - 2);
	memcpy(buf + o, v, (size_t)(end - v));
	o += (size_t)(end - v);
	buf[o++] = '\'';
	copy_text(ls->malformed_what, buf, o);
}

/* One iteration line's figures, taken only when all are well formed. */
struct iteration {
	int64_t		 iter, total;
	bool		 has_loss;
	double		 loss, step_ms, tflops, tokens_s, lr, grad_norm;
	int64_t		 skipped, nan, gbs;
};

/*
 * training_log's keys mbsbatch reads and the format each is printed in:
 * the same in Megatron-LM (megatron/training/training.py, core_v0.19.0
 * 2845-2905) and Bridge (training/utils/train_utils.py, v0.6.0
 * 1174-1221); toks/s is Megatron-LM's RL step's (megatron/rl/rl_utils.py
 * 381).  Elapsed time and throughput are quotients Python would have
 * raised on rather than made inf; the loss is printed only when "avg >=
 * 0.0", which NaN fails; a NaN gradient prints "nan".
 */
enum iteration_key {
	IK_LOSS, IK_STEP, IK_TFLOPS, IK_TOKENS, IK_LR, IK_GRAD_NORM,
	IK_SKIPPED, IK_NAN, IK_GBS
};
static const struct {
	const char		*key;
	size_t			 len;
	enum iteration_key	 id;
	enum pyformat		 spec;
	bool			 inf, nan;
	bool			 integer;	/* "{:3d}" */
} iteration_keys[] = {
#define K(s) s, sizeof(s) - 1
	{ K("lm loss"), IK_LOSS, PYF_E6, true, false, false },
	{ K("elapsed time per iteration (ms)"), IK_STEP, PYF_F1, false,
	  false, false },
	{ K("throughput per GPU (TFLOP/s/GPU)"), IK_TFLOPS, PYF_F1, false,
	  false, false },
	{ K("toks/s"), IK_TOKENS, PYF_F0, false, false, false },
	{ K("learning rate"), IK_LR, PYF_E6, false, false, false },
	{ K("grad norm"), IK_GRAD_NORM, PYF_F3, true, true, false },
	{ K("number of skipped iterations"), IK_SKIPPED, PYF_F0, false,
	  false, true },
	{ K("number of nan iterations"), IK_NAN, PYF_F0, false, false,
	  true },
	/* " global batch size: {:5d} |" (the same training_log). */
	{ K("global batch size"), IK_GBS, PYF_F0, false, false, true },
#undef K
};

#define NKEYS	(sizeof iteration_keys / sizeof iteration_keys[0])

/*
 * The row of key K (KN bytes), or NKEYS when none reads it.  Each key
 * has a length of its own: one comparison a field, not one a row (an
 * iteration line has a dozen fields, a log millions of lines).  The
 * index by length is made on the first call.
 */
static size_t
iteration_key(const char *k, size_t kn)
{
	static unsigned char	 by_len[64];
	static bool		 ready;
	size_t			 i;

	if (!ready) {
		memset(by_len, NKEYS, sizeof by_len);
		for (i = 0; i < NKEYS; i++) {
			/* A new key of a length taken: index by more. */
			assert(iteration_keys[i].len < sizeof by_len &&
			    by_len[iteration_keys[i].len] == NKEYS);
			by_len[iteration_keys[i].len] = (unsigned char)i;
		}
		ready = true;
	}
	if (kn >= sizeof by_len || (i = by_len[kn]) == NKEYS ||
	    memcmp(k, iteration_keys[i].key, kn) != 0)
		return NKEYS;
	return i;
}

/* One "key: value" field of an iteration line into IT; false when the
 * key is one read and its value is not in its format. */
static bool
iteration_field(struct iteration *it, const char *k, size_t kn,
    const char *v, const char *end)
{
	size_t	 i;
	double	 x;
	int64_t	 n;

	if ((i = iteration_key(k, kn)) == NKEYS)
		return true;
	if (iteration_keys[i].integer) {
		if (!take_py_int(v, end, &n))
			return false;
		if (iteration_keys[i].id == IK_SKIPPED)
			it->skipped = n;
		else if (iteration_keys[i].id == IK_GBS)
			it->gbs = n;
		else
			it->nan = n;
		return true;
	}
	if (!take_py(v, end, iteration_keys[i].spec, iteration_keys[i].inf,
	    &x) || (isnan(x) && !iteration_keys[i].nan))
		return false;
	switch (iteration_keys[i].id) {
	case IK_LOSS:
		it->has_loss = true;
		it->loss = x;
		break;
	case IK_STEP:
		it->step_ms = x;
		break;
	case IK_TFLOPS:
		it->tflops = x;
		break;
	case IK_TOKENS:
		it->tokens_s = x;
		break;
	case IK_LR:
		it->lr = x;
		break;
	case IK_GRAD_NORM:
		it->grad_norm = x;
		break;
	default:
		break;
	}
	return true;
}

/* The iteration IT (well formed) into LS's figures. */
static void
iteration_take(struct logscan *ls, const struct iteration *it)
{
	ls->it.logged++;
	ls->it.prev = ls->it.last;
	ls->it.last = it->iter;
	ls->it.total = it->total;
	ls->it.has_loss = it->has_loss;
	ls->it.loss = it->loss;
	ls->it.line_skipped = it->skipped;
	ls->it.step_ms = it->step_ms;
	ls->it.tflops = it->tflops;
	ls->it.tokens_s = it->tokens_s;
	ls->it.lr = it->lr;
	ls->it.grad_norm = it->grad_norm;
	ls->it.gbs = it->gbs;
	ls->it.skipped = logscan_add(ls->it.skipped, it->skipped);
	if (it->nan > 0) {
		ls->it.nan = logscan_add(ls->it.nan, it->nan);
		if (ls->it.first_nan_line == 0)
			ls->it.first_nan_line = ls->lines;
	}
	if (it->has_loss) {
		if (!isfinite(it->loss)) {
			ls->it.nonfinite_loss++;
			if (ls->it.first_nan_line == 0)
				ls->it.first_nan_line = ls->lines;
		} else if (!ls->it.has_first_loss && it->skipped == 0) {
			ls->it.has_first_loss = true;
			ls->it.first_loss = it->loss;
			ls->it.first_loss_iter = it->iter;
		}
	}
	/*
	 * Megatron adds a NaN loss to the interval's sum unless the
	 * iteration was skipped (training_log), and prints no average that
	 * is not >= 0: a line with no loss and nothing skipped had a NaN.
	 */
	if (!it->has_loss && it->skipped == 0) {
		ls->it.noloss++;
		if (ls->it.first_nan_line == 0)
			ls->it.first_nan_line = ls->lines;
	}
	if (ls->it.logged > LOGSCAN_WARMUP) {
		if (it->step_ms >= 0)
			samples_add(&ls->step, it->step_ms);
		if (it->tflops >= 0)
			samples_add(&ls->tflops, it->tflops);
		if (it->tokens_s >= 0)
			samples_add(&ls->tokens, it->tokens_s);
	}
}

/* What a later iteration shows was not fatal: a Python exception, or a
 * setup failure (a step before training's, a shell's line). */
static bool
survivable(enum logscan_cause kind)
{
	return kind == LC_TRACEBACK || setup_cause(kind);
}

/*
 * " [DATE] iteration        3/       3 | key: value | ... |": Megatron-LM
 * and Bridge print the same keys (training_log), the iteration "{:8d}" of
 * a loop that runs from 1 to train_iters (Megatron-LM training.py
 * core_v0.19.0:3725 "while iteration < args.train_iters", Bridge
 * train.py v0.6.0:377).  False when S is not one; a line of that shape
 * with a figure Megatron cannot print is malformed.
 */
static bool
iteration_line(struct logscan *ls, const char *s, size_t n)
{
	const char	*end = s + n, *p, *q, *bar, *colon, *head;
	struct iteration it;
	size_t		 lead = n < 64 ? n : 64;

	/* The stamp's ']' is the first: no memmem() on every line. */
	if ((p = memchr(s, ']', lead)) == NULL ||
	    !starts(p, end - p, "] iteration "))
		return false;
	head = p + 2;
	p = skip_spaces(p + 12, end);
	if (!take_int(&p, end, &it.iter) || p >= end || *p != '/')
		return false;
	p = skip_spaces(p + 1, end);
	if (!take_int(&p, end, &it.total))
		return false;
	p = skip_spaces(p, end);
	if (p >= end || *p != '|')
		return false;
	if (it.iter < 1 || it.iter > it.total) {
		malformed(ls, head, 9, head + 9, p);
		return true;
	}
	it.has_loss = false;
	it.loss = 0;
	it.step_ms = it.tflops = it.tokens_s = it.lr = it.grad_norm = -1;
	it.skipped = it.nan = it.gbs = 0;
	for (q = p + 1; q < end; q = bar + (bar < end)) {
		if ((bar = memchr(q, '|', end - q)) == NULL)
			bar = end;
		q = skip_spaces(q, bar);
		if ((colon = memchr(q, ':', bar - q)) == NULL)
			continue;
		if (!iteration_field(&it, q, colon - q, colon + 1, bar)) {
			malformed(ls, q, colon - q, colon + 1, bar);
			return true;
		}
	}
	/* Megatron-LM's stamp has microseconds, Bridge's none. */
	if (ls->it.logged == 0 && (q = memchr(s, '[', p - s)) != NULL) {
		if (memchr(q, '.', p - q) != NULL)
			ls->megatron_lm = true;
		else
			ls->bridge = true;
	}
	iteration_take(ls, &it);
	/* Training went on: what came before was not fatal. */
	if (survivable(ls->fatal.kind) && it.iter > ls->fatal.iteration) {
		ls->fatal.kind = LC_NONE;
		ls->survived++;
	}
	return true;
}

/*
 * "[Rank R] (after N iterations) memory (MB) | allocated: ... | max
 * allocated: M | reserved: ... | max reserved: M" (Megatron-LM
 * report_memory, megatron/training/utils/common_utils.py: "{:.2f}" MiB)
 * or "... memory (GB) | mem-max-allocated-gigabytes: X | ..." (Bridge
 * train_utils.py v0.6.0:1233 and report_memory: "{}" of a float rounded
 * to five digits, GB).
 */
static bool
memory_line(struct logscan *ls, const char *s, size_t n)
{
	const char	*end = s + n, *p, *bar, *colon, *q;
	double		 scale, x, alloc = -1, resv = -1;
	bool		 gb, a, r;
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
	for (p += 13; p < end; p = bar + (bar < end)) {
		if ((bar = memchr(p, '|', end - p)) == NULL)
			bar = end;
		q = skip_spaces(p, bar);
		if ((colon = memchr(q, ':', bar - q)) == NULL)
			continue;
		kn = colon - q;
		a = gb ? kn == 27 && memcmp(q, "mem-max-allocated-gigabytes",
		    27) == 0 : kn == 13 && memcmp(q, "max allocated", 13) == 0;
		r = gb ? kn == 26 && memcmp(q, "mem-max-reserved-gigabytes",
		    26) == 0 : kn == 12 && memcmp(q, "max reserved", 12) == 0;
		if (!a && !r)
			continue;
		if (!take_py(colon + 1, bar, gb ? PYF_REPR : PYF_F2, false,
		    &x)) {
			malformed(ls, q, kn, colon + 1, bar);
			return true;
		}
		if (a)
			alloc = x * scale;
		else
			resv = x * scale;
	}
	ls->memory_lines++;
	ls->memory_bridge = gb;
	if (alloc > ls->max_allocated_gib)
		ls->max_allocated_gib = alloc;
	if (resv > ls->max_reserved_gib)
		ls->max_reserved_gib = resv;
	return true;
}

/*
 * Megatron's estimate, printed before the first memory line (Megatron-LM
 * theoretical_memory_usage.py core_v0.19.0:482, Bridge
 * theoretical_memory_utils.py v0.6.0:341-351, "{:.2f} MB" each): the
 * total in MiB, or only the weights and optimizer when it cannot count
 * the activations (no SP or no selective recompute).
 */
static bool
theoretical_line(struct logscan *ls, const char *s, size_t n)
{
	const char	*end = s + n, *p, *q, *k;
	double		 x;
	bool		 total;

	if (!starts(s, n, "Theoretical memory footprints: "))
		return false;
	if ((p = find(s, n, "total=")) != NULL) {
		k = p;
		p += 6;
		total = true;
	} else if ((p = find(s, n, "weight and optimizer=")) != NULL) {
		k = p;
		p += 21;
		total = false;
	} else
		return true;
	if ((q = memchr(p, ' ', end - p)) == NULL || !starts(q, end - q,
	    " MB") || !pyformat_real(p, q - p, PYF_F2, false, &x)) {
		malformed(ls, k, p - 1 - k, p, q != NULL ? q : end);
		return true;
	}
	ls->theoretical_gib = x / 1024;
	ls->theoretical_total = total;
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
 * pyxis's errors, which slurmstepd prints as "slurmstepd: error: pyxis:
 * ..." (pyxis_slurmstepd.c, 0.24.0): the container could not be set up,
 * then enroot's log, each line "pyxis:     LINE", of which the first
 * "[ERROR]" or "failed" line says why.  True when P is one.
 */
static bool
pyxis_line(struct logscan *ls, const char *p, size_t n, int64_t rank)
{
	static const char *const failed[] = {
		"pyxis: failed to import docker image",		/* :753 */
		"pyxis: failed to create container filesystem",	/* :788 */
		"pyxis: couldn't start container",
		"pyxis: failed to start container",		/* :1137 */
		"pyxis: container start failed",		/* :1149 */
		"pyxis: container exited too soon",		/* :1156 */
		"pyxis: --container-mounts: source path does not exist",
		"pyxis: error: a container with name",		/* :1339 */
	};
	const char	*end = p + n, *q;
	size_t		 i;

	for (i = 0; i < sizeof failed / sizeof failed[0]; i++)
		if (starts(p, n, failed[i])) {
			cause(ls, LC_CONTAINER, rank, p, n, NULL);
			return true;
		}
	if (starts(p, n, "pyxis:     ") && ls->fatal.kind == LC_CONTAINER &&
	    ls->fatal.detail[0] == '\0' && (find(p, n, "[ERROR]") != NULL ||
	    find(p, n, "failed") != NULL)) {
		q = skip_spaces(p + 6, end);
		copy_text(ls->fatal.detail, q, (size_t)(end - q));
		return true;
	}
	return false;
}

/*
 * Where the message of a slurmstepd error line starts, or NULL: the line
 * is "slurmstepd: error: MSG" or "slurmstepd-NODE: error: MSG" up to
 * Slurm 24.11, "[TIME] error: MSG" from 25.05 on, a daemon's lines to
 * stderr carrying the log's time, not its name (src/common/log.c,
 * 25.05.0:1388-1392, 25.11.0:1418-1422; commit 892539ae).
 */
static const char *
stepd_error(const char *s, size_t n)
{
	const char	*end = s + n, *p;

	if (starts(s, n, "slurmstepd"))
		return (p = find(s, n < 40 ? n : 40, "error: ")) != NULL ?
		    p + 7 : NULL;
	if (n > 0 && s[0] == '[' && (p = memchr(s, ']', n < 48 ? n : 48)) !=
	    NULL && starts(p, end - p, "] error: "))
		return p + 9;
	return NULL;
}

/*
 * srun's "srun: error: node1: task 3: Exited with exit code 1" / "Out Of
 * Memory" / signal lines (src/srun/launch.c).
 */
static bool
srun_line(struct logscan *ls, const char *s, size_t n)
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
	return false;
}

/*
 * slurmstepd's error P (the line's from stepd_error() on): the "*** JOB
 * 123 ON node1 CANCELLED AT T DUE TO TIME LIMIT ***" family
 * (src/slurmd/slurmstepd/req.c), its oom_kill line (task/cgroup), a
 * program it cannot run, pyxis's lines.
 */
static bool
stepd_line(struct logscan *ls, const char *p, const char *end, int64_t rank)
{
	enum logscan_cause	 kind;

	if (starts(p, end - p, "Detected ") &&
	    find(p, end - p, "oom_kill event") != NULL) {
		cause(ls, LC_HOST_OOM, rank, p, end - p, NULL);
		return true;
	}
	/* The task's program cannot be run (slurmstepd/task.c exec_task:
	 * "execve(): %s: %m", 22.05:542, 25.11:546; exit code errno). */
	if (starts(p, end - p, "execve(): ")) {
		cause(ls, LC_COMMAND_NOT_FOUND, rank, p, end - p, NULL);
		return true;
	}
	if (starts(p, end - p, "pyxis: "))
		return pyxis_line(ls, p, end - p, rank);
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
	if (starts(s, n, "ModuleNotFoundError: No module named "))
		return LC_MODULE_NOT_FOUND;
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
	} else
		ls->tb_owns = cause(ls, exception_kind(s, n), rank, s, n,
		    ls->tb_frame[0] != '\0' ? ls->tb_frame : NULL);
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

/* The N bytes at S after their last '/', in *N. */
static const char *
base_name(const char *s, size_t *n)
{
	const char	*b = s, *p;

	for (p = s; p < s + *n; p++)
		if (*p == '/')
			b = p + 1;
	*n -= (size_t)(b - s);
	return b;
}

/* Whether the N bytes at S name Python: python, python3, python3.12, by
 * any path. */
static bool
python_name(const char *s, size_t n)
{
	const char	*b = base_name(s, &n), *p;

	if (!starts(b, n, "python"))
		return false;
	for (p = b + 6; p < b + n; p++)
		if ((*p < '0' || *p > '9') && *p != '.')
			return false;
	return true;
}

/* Whether they name a program that starts training: Python, torchrun,
 * srun. */
static bool
launcher(const char *s, size_t n)
{
	const char	*b = base_name(s, &n);

	return python_name(b, n) || (n == 8 && memcmp(b, "torchrun", 8) ==
	    0) || (n == 4 && memcmp(b, "srun", 4) == 0);
}

static bool
ends(const char *s, size_t n, const char *lit)
{
	size_t	 l = strlen(lit);

	return n >= l && memcmp(s + n - l, lit, l) == 0;
}

/*
 * A shell's line for a command it cannot run, after "NAME" (P at the
 * colon that ends it): bash's "NAME: line N: exec: CMD: not found" (the
 * templates' srun launcher execs python so), "NAME: line N: CMD: command
 * not found", "NAME: line N: /PATH/CMD: No such file or directory", and
 * dash's "NAME: N: CMD: not found".  The exec builtin's is always a
 * cause; the others only for a launcher (a script may name a missing
 * command and go on).
 */
static bool
shell_not_found(const char *p, const char *end)
{
	const char	*cmd, *c;
	int64_t		 line;

	if (!starts(p, end - p, ": "))
		return false;
	p += 2;
	if (starts(p, end - p, "line "))
		p += 5;
	if (!take_int(&p, end, &line) || !starts(p, end - p, ": "))
		return false;
	p += 2;
	if (starts(p, end - p, "exec: "))
		return ends(p, end - p, ": not found");
	cmd = p;
	if ((c = memchr(cmd, ':', end - cmd)) == NULL)
		return false;
	return launcher(cmd, c - cmd) && (ends(c, end - c,
	    ": command not found") || ends(c, end - c, ": not found") ||
	    ends(c, end - c, ": No such file or directory"));
}

/*
 * What stops the program before it runs, from a line no other rule took:
 *   CPython (Modules/main.c pymain_run_file_obj, 3.10 to 3.12):
 *     "PROG: can't open file 'X': [Errno N] MSG" (exit 2),
 *     "PROG: can't find '__main__' module in 'X'",
 *     "PROG: 'X' is a directory, cannot continue";
 *     runpy's "PROG: Error while finding module specification for 'M'
 *     (ModuleNotFoundError: ...)" and "PROG: No module named M" (-m);
 *   "ModuleNotFoundError: No module named 'M'" outside a traceback;
 *   a shell's or env(1)'s command not found (shell_not_found);
 *   an srun without pyxis: glibc getopt's "srun: unrecognized option
 *   '--container-image=X'" (srun/opt.c: opterr on the second pass).
 */
static bool
setup_line(struct logscan *ls, const char *s, size_t n, int64_t rank)
{
	const char		*end = s + n, *p;
	enum logscan_cause	 kind;
	bool			 py;

	if ((p = memchr(s, ':', n)) == NULL)
		return false;
	/* CPython's lines begin with its program name: python's. */
	py = python_name(s, p - s);
	if (py && (((starts(p, end - p, ": can't open file '") ||
	    starts(p, end - p, ": can't open file \"")) &&
	    find(p, end - p, ": [Errno ") != NULL) ||
	    starts(p, end - p, ": can't find '__main__' module in ") ||
	    ends(p, end - p, " is a directory, cannot continue")))
		kind = LC_SCRIPT_NOT_FOUND;
	else if ((py && ((starts(p, end - p, ": Error while finding module "
	    "specification for ") && find(p, end - p,
	    "(ModuleNotFoundError: ") != NULL) ||
	    starts(p, end - p, ": No module named "))) ||
	    starts(s, n, "ModuleNotFoundError: No module named "))
		kind = LC_MODULE_NOT_FOUND;
	else if ((starts(s, n, "env: ") && ends(s, n,
	    ": No such file or directory")) || shell_not_found(p, end))
		kind = LC_COMMAND_NOT_FOUND;
	else if (starts(p, end - p, ": unrecognized option '--container-") &&
	    ends(s, p - s, "srun"))
		kind = LC_CONTAINER;
	else
		return false;
	cause(ls, kind, rank, s, n, NULL);
	return true;
}

void
logscan_line(struct logscan *ls, const char *s, size_t n)
{
	const char	*msg;
	int64_t		 rank;
	bool		 known = false;

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
		else if ((msg = stepd_error(s, n)) != NULL &&
		    stepd_line(ls, msg, s + n, rank))
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
		known = srun_line(ls, s, n) || ((msg = stepd_error(s, n)) !=
		    NULL && stepd_line(ls, msg, s + n, rank));
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
	if (!known && n > 8)
		known = setup_line(ls, s, n, rank);
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
	const char	*p = buf, *end = buf + n, *nl, *z, *r;
	size_t		 len, room;

	ls->bytes += n;
	/* NUL bytes, a run at a time (a binary file is mostly runs). */
	for (z = buf; (z = memchr(z, '\0', end - z)) != NULL; z = r) {
		for (r = z; r < end && *r == '\0'; r++)
			;
		ls->nul_bytes = logscan_add(ls->nul_bytes, r - z);
	}
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
logscan_feed_zeros(struct logscan *ls, uint64_t n)
{
	size_t	 room = LOGSCAN_LINE_MAX - ls->len, k;

	ls->bytes += n;
	ls->hole_bytes += n;
	ls->nul_bytes = n > (uint64_t)INT64_MAX ? INT64_MAX :
	    logscan_add(ls->nul_bytes, (int64_t)n);
	/* No newline in them: the current line goes on, as logscan_feed()
	 * would keep it. */
	if (n > room) {
		if (!ls->cut)
			ls->long_lines++;
		ls->cut = true;
	}
	k = n < room ? (size_t)n : room;
	memset(ls->line + ls->len, 0, k);
	ls->len += k;
}

void
logscan_finish(struct logscan *ls)
{
	if (ls->len > 0 || ls->cut)
		logscan_line(ls, ls->line, ls->len);
	ls->len = 0;
	ls->cut = false;
}
