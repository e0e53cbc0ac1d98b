/*
 * logcheck-report.c: a judged log's report, for people (the verdict line
 * first, then the figures) and as one JSON object whose keys
 * mbsbatch-check-log(1) documents.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "error.h"
#include "jsondoc.h"
#include "logcheck.h"
#include "termtext.h"
#include "xmalloc.h"

static const char *
verdict(const struct logcheck *lc)
{
	return lc->status == 0 ? "pass" : lc->status == 3 ? "fail" :
	    "unusable";
}

/*
 * A real, or null when unknown (negative) or not finite: jansson refuses
 * inf and NaN, and a key set to its refusal would be dropped.
 */
static json_t *
jreal(double v)
{
	json_t	*j;

	if (!(v >= 0 && isfinite(v)) || (j = json_real(v)) == NULL)
		return json_null();
	return j;
}

/* A string made valid UTF-8 (a log's line is any bytes), or null when
 * it is NULL: never dropped. */
static json_t *
jstr(const char *s)
{
	return termtext_json(s);
}

/*
 * V with PREC decimals, in at most about 20 characters whatever V is (a
 * step time of 1e308 ms is a figure the log gave, not 309 digits): fixed
 * below 1e12, else in exponent form.
 */
static const char *
num(char *buf, size_t len, double v, int prec)
{
	if (isfinite(v) && fabs(v) < 1e12)
		snprintf(buf, len, "%.*f", prec, v);
	else
		snprintf(buf, len, "%.*e", prec > 3 ? prec : 3, v);
	return buf;
}
#define NUM(v, prec)	num((char[32]){ 0 }, 32, (v), (prec))

/* A size in GiB as text; "unknown" when the log did not give it (or
 * gave nothing a GPU could hold). */
static void
gib(FILE *f, double v)
{
	if (v >= 0 && v < 1e6)
		fprintf(f, "%.2f GiB", v);
	else
		fputs("unknown", f);
}

static json_t *
jint(int64_t v)
{
	return v > 0 ? json_integer(v) : json_null();
}


static json_t *
jlayout(const struct logscan_layout *l, bool any)
{
	json_t	*o;
	int	 d;

	if (!any)
		return json_null();
	o = json_object();
	for (d = 0; d < LD_NDIMS; d++)
		json_object_set_new(o, logscan_dim_names[d], jint(l->v[d]));
	return o;
}

static bool
layout_any(const struct logscan_layout *l)
{
	int	 d;

	for (d = 0; d < LD_NDIMS; d++)
		if (l->v[d] > 0)
			return true;
	return false;
}

/* measured / estimated, or null (also when it is not finite). */
static json_t *
jratio(double measured, double est)
{
	return measured > 0 && est > 0 ? jreal(measured / est) : json_null();
}

/* {"measured", "estimated", "ratio"}: a speed, measured over estimated. */
static json_t *
measured_json(double measured, double est)
{
	json_t	*x = json_object();

	json_object_set_new(x, "measured", jreal(measured));
	json_object_set_new(x, "estimated", jreal(est));
	json_object_set_new(x, "ratio", jratio(measured, est));
	return x;
}

static const char *
framework(const struct logscan *ls)
{
	if (ls->bridge)
		return "megatron-bridge";
	if (ls->megatron_lm)
		return "megatron-lm";
	return NULL;
}

json_t *
logcheck_json(const char *path, const struct logcheck *lc)
{
	const struct logscan	*ls = &lc->scan;
	const struct logscan_iters *it = &ls->it;
	json_t			*o, *a, *x, *e;
	int			 i, d;

	o = json_object();
	/* A file name need not be UTF-8. */
	json_object_set_new(o, "log", jstr(path));
	json_object_set_new(o, "verdict", json_string(verdict(lc)));
	json_object_set_new(o, "status", json_integer(lc->status));
	a = json_array();
	for (i = 0; i < lc->nreasons; i++)
		json_array_append_new(a, jstr(lc->reasons[i]));
	json_object_set_new(o, "reasons", a);
	json_object_set_new(o, "lines", json_integer(ls->lines));
	json_object_set_new(o, "bytes", json_integer(ls->bytes > INT64_MAX ?
	    INT64_MAX : (json_int_t)ls->bytes));
	json_object_set_new(o, "hole_bytes", json_integer(ls->hole_bytes >
	    INT64_MAX ? INT64_MAX : (json_int_t)ls->hole_bytes));
	json_object_set_new(o, "malformed_lines", json_integer(ls->malformed));
	json_object_set_new(o, "framework", jstr(framework(ls)));
	json_object_set_new(o, "smoke", json_boolean(ls->smoke));

	x = json_object();
	json_object_set_new(x, "last", jint(it->last));
	json_object_set_new(x, "expected", jint(lc->expected));
	json_object_set_new(x, "expected_from", jstr(lc->expected_from));
	json_object_set_new(x, "logged", json_integer(it->logged));
	json_object_set_new(x, "skipped", json_integer(it->skipped));
	json_object_set_new(x, "nan", json_integer(logcheck_nan(it)));
	json_object_set_new(x, "first_nan_line", jint(it->first_nan_line));
	json_object_set_new(x, "restarts", json_integer(ls->restarts));
	json_object_set_new(o, "iterations", x);

	x = json_object();
	json_object_set_new(x, "last", it->has_loss ? jreal(it->loss) :
	    json_null());
	json_object_set_new(x, "last_finite", json_boolean(it->has_loss &&
	    isfinite(it->loss)));
	json_object_set_new(x, "first", it->has_first_loss ?
	    jreal(it->first_loss) : json_null());
	json_object_set_new(x, "first_iteration", it->has_first_loss ?
	    json_integer(it->first_loss_iter) : json_null());
	json_object_set_new(o, "loss", x);

	x = json_object();
	json_object_set_new(x, "median_ms", jreal(lc->step_ms));
	json_object_set_new(x, "last_ms", jreal(it->step_ms));
	json_object_set_new(x, "samples", json_integer((json_int_t)
	    ls->step.n));
	json_object_set_new(x, "warmup_skipped", json_integer(
	    it->logged < LOGSCAN_WARMUP ? it->logged : LOGSCAN_WARMUP));
	json_object_set_new(o, "step_time", x);

	x = json_object();
	json_object_set_new(x, "tflops_per_gpu", jreal(lc->tflops));
	json_object_set_new(x, "tokens_per_s", jreal(lc->tokens_s));
	json_object_set_new(o, "throughput", x);
	json_object_set_new(o, "learning_rate", jreal(it->lr));
	json_object_set_new(o, "grad_norm", jreal(it->grad_norm));

	if (ls->memory_lines > 0 || ls->theoretical_gib >= 0) {
		x = json_object();
		json_object_set_new(x, "max_allocated_gib",
		    jreal(ls->max_allocated_gib));
		json_object_set_new(x, "max_reserved_gib",
		    jreal(ls->max_reserved_gib));
		json_object_set_new(x, "lines", json_integer(ls->memory_lines));
		json_object_set_new(x, "unit", ls->memory_lines == 0 ?
		    json_null() : json_string(ls->memory_bridge ? "GB" : "MB"));
		json_object_set_new(x, "megatron_estimate_gib",
		    jreal(ls->theoretical_gib));
		json_object_set_new(x, "megatron_estimate_of",
		    ls->theoretical_gib < 0 ? json_null() : json_string(
		    ls->theoretical_total ? "total" : "weight_and_optimizer"));
		json_object_set_new(o, "memory", x);
	} else
		json_object_set_new(o, "memory", json_null());

	x = json_object();
	json_object_set_new(x, "verdict", jstr(lc->layout));
	json_object_set_new(x, "planned", jlayout(&lc->planned,
	    lc->planned_from != NULL));
	json_object_set_new(x, "planned_from", jstr(lc->planned_from));
	json_object_set_new(x, "used", jlayout(&lc->used,
	    layout_any(&lc->used)));
	json_object_set_new(x, "used_from", jstr(lc->used_from));
	json_object_set_new(x, "world_from", jstr(lc->world_from));
	a = json_array();
	for (d = 0; d < LD_NDIMS; d++)
		if (lc->mismatch[d])
			json_array_append_new(a,
			    json_string(logscan_dim_names[d]));
	json_object_set_new(x, "mismatches", a);
	json_object_set_new(o, "layout", x);

	if (ls->fatal.kind != LC_NONE) {
		x = json_object();
		json_object_set_new(x, "kind",
		    json_string(logscan_cause_names[ls->fatal.kind]));
		json_object_set_new(x, "line", json_integer(ls->fatal.line));
		json_object_set_new(x, "rank", ls->fatal.rank >= 0 ?
		    json_integer(ls->fatal.rank) : json_null());
		json_object_set_new(x, "iteration", jint(ls->fatal.iteration));
		json_object_set_new(x, "text", jstr(ls->fatal.text));
		json_object_set_new(x, "frame", jstr(ls->fatal.frame[0] !=
		    '\0' ? ls->fatal.frame : NULL));
		json_object_set_new(x, "detail", jstr(ls->fatal.detail[0] !=
		    '\0' ? ls->fatal.detail : NULL));
		json_object_set_new(x, "hint", jstr(lc->hint[0] != '\0' ?
		    lc->hint : NULL));
		json_object_set_new(x, "after_end", json_boolean(
		    lc->after_end));
		json_object_set_new(o, "fatal", x);
	} else
		json_object_set_new(o, "fatal", json_null());
	json_object_set_new(o, "fatal_lines", json_integer(ls->causes));

	if (lc->has_job) {
		e = json_object();
		json_object_set_new(e, "gpu", jstr(lc->gpu));
		json_object_set_new(e, "interconnect", jstr(lc->interconnect));
		json_object_set_new(e, "precision", jstr(lc->precision));
		json_object_set_new(e, "fp8_recipe", jstr(lc->fp8_recipe));
		json_object_set_new(e, "site_factor", jreal(lc->site_factor));
		x = json_object();
		json_object_set_new(x, "measured_ms", jreal(lc->step_ms));
		json_object_set_new(x, "estimated_ms", jreal(lc->est_step_ms));
		json_object_set_new(x, "ratio", jratio(lc->step_ms,
		    lc->est_step_ms));
		json_object_set_new(x, "reason", jstr(lc->est_step_reason));
		json_object_set_new(e, "step_time", x);
		json_object_set_new(e, "tflops_per_gpu", measured_json(
		    lc->tflops, lc->est_tflops));
		json_object_set_new(e, "tokens_per_second_per_gpu",
		    measured_json(lc->tokens_gpu, lc->est_tokens_gpu));
		x = json_object();
		json_object_set_new(x, "measured_allocated_gib",
		    jreal(ls->max_allocated_gib));
		json_object_set_new(x, "measured_reserved_gib",
		    jreal(ls->max_reserved_gib));
		json_object_set_new(x, "estimated_gib",
		    jreal(lc->est_memory_gib));
		json_object_set_new(x, "ratio", jratio(ls->max_allocated_gib,
		    lc->est_memory_gib));
		json_object_set_new(x, "reason", jstr(lc->est_memory_reason));
		json_object_set_new(e, "memory", x);
		json_object_set_new(o, "estimate", e);
	} else
		json_object_set_new(o, "estimate", json_null());
	return o;
}

static void
print_layout(FILE *f, const struct logscan_layout *l)
{
	int	 d;
	bool	 first = true;

	for (d = 0; d < LD_NDIMS; d++) {
		if (l->v[d] <= 0)
			continue;
		fprintf(f, "%s%s=%" PRId64, first ? "" : " ",
		    logscan_dim_names[d], l->v[d]);
		first = false;
	}
	if (first)
		fputs("-", f);
}

void
logcheck_print(FILE *f, const char *path, const struct logcheck *lc)
{
	const struct logscan	*ls = &lc->scan;
	const struct logscan_iters *it = &ls->it;
	int			 i;

	/* A path and the log's own lines: escaped (termtext.h). */
	termtext_printf(f, "%s: %s", path, verdict(lc));
	for (i = 0; i < lc->nreasons; i++)
		termtext_printf(f, "%s%s", i == 0 ? ": " : "; ",
		    lc->reasons[i]);
	fputc('\n', f);
	if (lc->status == 2)
		return;

	fprintf(f, "iterations: %" PRId64, it->last);
	if (lc->expected > 0)
		fprintf(f, " of %" PRId64, lc->expected);
	fprintf(f, " (%" PRId64 " logged, %" PRId64 " skipped, %" PRId64
	    " NaN", it->logged, it->skipped, logcheck_nan(it));
	if (ls->restarts > 0)
		fprintf(f, ", %" PRId64 " restart%s", ls->restarts,
		    ls->restarts == 1 ? "" : "s");
	fputs(")\n", f);
	if (it->has_loss && isfinite(it->loss))
		fprintf(f, "last loss: %.6E\n", it->loss);	/* <= 13 chars */
	else if (it->logged > 0)
		fprintf(f, "last loss: none finite\n");
	if (lc->step_ms >= 0) {
		fprintf(f, "step time: %s ms median of %zu (first %d "
		    "iterations left out)", NUM(lc->step_ms, 1), ls->step.n,
		    LOGSCAN_WARMUP);
		if (lc->est_step_ms > 0) {
			fprintf(f, "; estimate %s ms on %s (%s%s%s", NUM(
			    lc->est_step_ms, 1), lc->gpu, lc->precision,
			    lc->fp8_recipe != NULL ? " " : "",
			    lc->fp8_recipe != NULL ? lc->fp8_recipe : "");
			if (lc->site_factor != 1)
				fprintf(f, ", site factor %s",
				    NUM(lc->site_factor, 2));
			fprintf(f, "), ratio %s", NUM(lc->step_ms /
			    lc->est_step_ms, 2));
		}
		fputc('\n', f);
	} else if (it->step_ms >= 0)
		fprintf(f, "step time: %s ms (last; too few iterations for "
		    "a median)\n", NUM(it->step_ms, 1));
	if (lc->has_job && lc->est_step_reason != NULL)
		fprintf(f, "step time estimate: none (%s)\n",
		    lc->est_step_reason);
	if (lc->tflops >= 0 || lc->tokens_s >= 0) {
		fprintf(f, "throughput:");
		if (lc->tflops >= 0)
			fprintf(f, " %s TFLOP/s/GPU", NUM(lc->tflops, 1));
		if (lc->tokens_s >= 0)
			fprintf(f, " %s tokens/s", NUM(lc->tokens_s, 0));
		fputs(" (median)", f);
		if (lc->tflops >= 0 && lc->est_tflops > 0)
			fprintf(f, "; estimate %s TFLOP/s/GPU, ratio %s",
			    NUM(lc->est_tflops, 1), NUM(lc->tflops /
			    lc->est_tflops, 2));
		fputc('\n', f);
	}
	if (lc->tokens_gpu > 0) {
		fprintf(f, "tokens/s per GPU: %s (global batch x sequence over "
		    "the median step)", NUM(lc->tokens_gpu, 0));
		if (lc->est_tokens_gpu > 0)
			fprintf(f, "; estimate %s, ratio %s",
			    NUM(lc->est_tokens_gpu, 0), NUM(lc->tokens_gpu /
			    lc->est_tokens_gpu, 2));
		fputc('\n', f);
	}
	if (ls->memory_lines > 0) {
		fputs("memory: max allocated ", f);
		gib(f, ls->max_allocated_gib);
		fputs(", max reserved ", f);
		gib(f, ls->max_reserved_gib);
		if (lc->est_memory_gib > 0 && ls->max_allocated_gib > 0)
			fprintf(f, "; estimate %s GiB, ratio %s",
			    NUM(lc->est_memory_gib, 2),
			    NUM(ls->max_allocated_gib / lc->est_memory_gib, 2));
		if (ls->theoretical_gib >= 0)
			fprintf(f, "; Megatron's %s %s GiB",
			    ls->theoretical_total ? "estimate" :
			    "weights and optimizer", NUM(ls->theoretical_gib,
			    2));
		fputc('\n', f);
	}
	fprintf(f, "layout: planned ");
	if (lc->planned_from != NULL) {
		print_layout(f, &lc->planned);
		termtext_printf(f, " (%s)", lc->planned_from);
	} else
		fputs("- (no job file, no mbsbatch layout line)", f);
	fprintf(f, "; used ");
	print_layout(f, &lc->used);
	if (lc->used_from != NULL)
		termtext_printf(f, " (%s)", lc->used_from);
	fprintf(f, ": %s\n", lc->layout);
	if (ls->fatal.kind != LC_NONE) {
		fprintf(f, "fatal: line %" PRId64 ": %s", ls->fatal.line,
		    logscan_cause_names[ls->fatal.kind]);
		if (ls->fatal.rank >= 0)
			fprintf(f, " (rank %" PRId64 ")", ls->fatal.rank);
		termtext_printf(f, ": %s\n", ls->fatal.text);
		if (ls->fatal.frame[0] != '\0')
			termtext_printf(f, "  last frame: %s\n",
			    ls->fatal.frame);
		if (ls->fatal.detail[0] != '\0')
			termtext_printf(f, "  detail: %s\n", ls->fatal.detail);
		if (lc->hint[0] != '\0')
			fprintf(f, "  hint: %s\n", lc->hint);
		if (lc->after_end)
			fprintf(f, "  after the run's last iteration: not "
			    "counted\n");
	}
}

struct error *
logcheck_file_opts(const char *path, const struct job *job,
    const struct logcheck_opts *o, bool json, FILE *out, int *status)
{
	struct logcheck	*lc;
	struct error	*err;
	json_t		*j;

	*status = EXIT_USAGE;
	lc = xmalloc(sizeof *lc);
	if ((err = logcheck_read(path, job, o, lc)) != NULL) {
		free(lc);
		return err;
	}
	if (json) {
		j = logcheck_json(path, lc);
		err = jsondoc_print(out, j, LOGCHECK_JSON_FLAGS);
		json_decref(j);
	} else if ((err = logcheck_unusable(path, lc)) == NULL)
		logcheck_print(out, path, lc);
	*status = lc->status;
	free(lc);
	return err;
}
