/*
 * logcheck.c: read a training log in chunks and judge it; see logcheck.h.
 * The report's output is logcheck-report.c's.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "error.h"
#include "job.h"
#include "logcheck.h"
#include "logfile.h"
#include "report.h"
#include "xmalloc.h"

static void
reason(struct logcheck *lc, const char *fmt, ...)
{
	va_list	 ap;

	if (lc->nreasons == LOGCHECK_MAX_REASONS)
		return;
	va_start(ap, fmt);
	vsnprintf(lc->reasons[lc->nreasons++], LOGCHECK_REASON_MAX, fmt, ap);
	va_end(ap);
}

void
logcheck_fail(struct logcheck *lc, const char *fmt, ...)
{
	va_list	 ap;

	if (lc->status == EXIT_USAGE)
		return;
	lc->status = EXIT_LAYOUT;
	if (lc->nreasons == LOGCHECK_MAX_REASONS)
		return;
	va_start(ap, fmt);
	vsnprintf(lc->reasons[lc->nreasons++], LOGCHECK_REASON_MAX, fmt, ap);
	va_end(ap);
}

/* The plan: the job's sizes, else our marker's. */
static const char *
plan_layout(struct logcheck *lc, const struct job *job,
    const struct job_figures *fig)
{
	const struct logscan	*ls = &lc->scan;
	struct logscan_layout	*p = &lc->planned;
	int			 d;

	for (d = 0; d < LD_NDIMS; d++)
		p->v[d] = -1;
	if (job != NULL) {
		p->v[LD_WORLD] = fig->sizing.world;
		p->v[LD_NODES] = fig->sizing.nodes;
		p->v[LD_TP] = job->in.layout.tp;
		p->v[LD_PP] = job->in.layout.pp;
		p->v[LD_VPP] = job->in.layout.vpp > 0 ? job->in.layout.vpp : 1;
		p->v[LD_CP] = job->in.layout.cp;
		p->v[LD_EP] = job->in.layout.ep;
		p->v[LD_ETP] = job->in.layout.etp;
		p->v[LD_DP] = fig->sizing.dp > 0 ? fig->sizing.dp : -1;
		p->v[LD_EDP] = fig->sizing.edp > 0 ? fig->sizing.edp : -1;
		return "jobfile";
	}
	if (ls->has_marker) {
		*p = ls->marker;
		return "marker";
	}
	return NULL;
}

/*
 * What ran: Megatron's own lines; the world size from Megatron-LM, else
 * from our marker (computed from what Slurm gave); DP from the world when
 * Megatron does not print it.
 */
static void
used_layout(struct logcheck *lc)
{
	const struct logscan	*ls = &lc->scan;
	struct logscan_layout	*u = &lc->used;
	int64_t			 mesh;

	*u = ls->used;
	lc->used_from = ls->used_from == LS_NONE ? NULL : ls->bridge ?
	    "megatron-bridge" : ls->megatron_lm ? "megatron-lm" : "megatron";
	lc->world_from = u->v[LD_WORLD] > 0 ? "megatron-lm" : NULL;
	if (u->v[LD_WORLD] <= 0 && ls->marker.v[LD_WORLD] > 0) {
		u->v[LD_WORLD] = ls->marker.v[LD_WORLD];
		lc->world_from = "marker";
	}
	if (u->v[LD_NODES] <= 0)
		u->v[LD_NODES] = ls->marker.v[LD_NODES];
	if (u->v[LD_DP] <= 0 && u->v[LD_WORLD] > 0 && u->v[LD_TP] > 0 &&
	    u->v[LD_PP] > 0) {
		if (!__builtin_mul_overflow(u->v[LD_TP], u->v[LD_PP], &mesh) &&
		    !__builtin_mul_overflow(mesh, u->v[LD_CP] > 0 ?
		    u->v[LD_CP] : 1, &mesh) && u->v[LD_WORLD] % mesh == 0)
			u->v[LD_DP] = u->v[LD_WORLD] / mesh;
	}
}

static void
judge_layout(struct logcheck *lc)
{
	char	 buf[LOGCHECK_REASON_MAX];
	size_t	 off = 0;
	int	 d;
	bool	 any = false, shown = false, dense;

	if (lc->planned_from == NULL) {
		lc->layout = "unchecked";
		return;
	}
	/* Megatron-LM's world line and Bridge's "> initialized" lines each
	 * give both: one size alone (a stray "data-parallel size") is not
	 * a layout. */
	shown = lc->used.v[LD_TP] > 0 && lc->used.v[LD_PP] > 0;
	if (!shown) {
		lc->layout = "unknown";
		/* A program that never started shows none: its cause says
		 * it all. */
		if (!(lc->scan.it.logged == 0 && lc->scan.fatal.kind != LC_NONE &&
		    !lc->after_end && (lc->scan.fatal.kind == LC_SCRIPT_NOT_FOUND ||
		    lc->scan.fatal.kind == LC_MODULE_NOT_FOUND ||
		    lc->scan.fatal.kind == LC_COMMAND_NOT_FOUND ||
		    lc->scan.fatal.kind == LC_CONTAINER)))
			reason(lc, "the log does not show the layout the run "
			    "used");
		return;
	}
	buf[0] = '\0';
	/* Without experts ETP and EDP mean nothing: Megatron sets ETP to
	 * TP, mbsbatch sizes it 1. */
	dense = lc->planned.v[LD_EP] <= 1 && lc->used.v[LD_EP] <= 1;
	for (d = 0; d < LD_NDIMS; d++) {
		if (dense && (d == LD_ETP || d == LD_EDP))
			continue;
		if (lc->planned.v[d] <= 0 || lc->used.v[d] <= 0 ||
		    lc->planned.v[d] == lc->used.v[d])
			continue;
		lc->mismatch[d] = true;
		any = true;
		if (off < sizeof buf)
			off += snprintf(buf + off, sizeof buf - off,
			    "%s%s %" PRId64 " planned, %" PRId64 " used",
			    off > 0 ? "; " : "", logscan_dim_names[d],
			    lc->planned.v[d], lc->used.v[d]);
	}
	lc->layout = any ? "mismatch" : "ok";
	if (any)
		reason(lc, "layout: %s", buf);
}

int64_t
logcheck_nan(const struct logscan_iters *it)
{
	return logscan_add(logscan_add(it->nan, it->nonfinite_loss),
	    it->noloss);
}

/* The last iteration the run should reach: --iterations, our marker,
 * Megatron's own "/ M". */
static void
expected_last(struct logcheck *lc, const struct logcheck_opts *o)
{
	const struct logscan_iters *it = &lc->scan.it;

	if (o != NULL && o->iterations > 0) {
		lc->expected = o->iterations;
		lc->expected_from = "option";
	} else if (lc->scan.expected_iters > 0) {
		lc->expected = lc->scan.expected_iters;
		lc->expected_from = "marker";
	} else if (it->total > 0) {
		lc->expected = it->total;
		lc->expected_from = "log";
	}
}

/*
 * Whether the fatal cause came once the run was done: a Python traceback,
 * an NCCL error (not the watchdog's timeout) or a program that could not
 * start (a later step's, a shell's line) after the expected last
 * iteration was logged with a finite loss.  Those are teardown: a rank
 * exiting before another's communicator is destroyed (Megatron-LM never
 * destroys the default group), a separate error file read after the
 * output.  The job's own state still tells a failure (--check).
 */
static bool
cause_after_end(const struct logcheck *lc)
{
	const struct logscan		*ls = &lc->scan;
	const struct logscan_iters	*it = &ls->it;

	switch (ls->fatal.kind) {
	case LC_TRACEBACK:
	case LC_NCCL_TIMEOUT:
	case LC_SCRIPT_NOT_FOUND:
	case LC_MODULE_NOT_FOUND:
	case LC_COMMAND_NOT_FOUND:
	case LC_CONTAINER:
		break;
	default:
		return false;
	}
	if (strstr(ls->fatal.text, "Watchdog caught collective operation "
	    "timeout") != NULL)
		return false;
	return lc->expected > 0 && it->last >= lc->expected &&
	    ls->fatal.iteration >= lc->expected && it->has_loss &&
	    isfinite(it->loss);
}

static void
judge_iterations(struct logcheck *lc)
{
	const struct logscan_iters *it = &lc->scan.it;
	int64_t			 interval;

	if (it->logged == 0) {
		reason(lc, "no iteration logged");
		return;
	}
	/* With log_interval > 1 the last logged can be short of the end by
	 * less than the interval. */
	interval = it->prev > 0 && it->last > it->prev ?
	    it->last - it->prev : 1;
	if (lc->expected > 0 && (it->last > lc->expected ||
	    lc->expected - it->last >= interval))
		reason(lc, "last iteration %" PRId64 ", expected %" PRId64,
		    it->last, lc->expected);
	if (!it->has_loss)
		reason(lc, "no loss at iteration %" PRId64 " (Megatron prints "
		    "none when it is NaN)", it->last);
	else if (!isfinite(it->loss))
		reason(lc, "loss at iteration %" PRId64 " is not finite",
		    it->last);
	if (logcheck_nan(it) > 0)
		reason(lc, "NaN iterations: %" PRId64 " (first at line %"
		    PRId64 ")", logcheck_nan(it), it->first_nan_line);
}

/* Lines whose figures Megatron cannot print: not read, and said. */
static void
judge_malformed(struct logcheck *lc)
{
	const struct logscan	*ls = &lc->scan;

	if (ls->malformed > 0)
		reason(lc, "%" PRId64 " line%s with a figure Megatron does not "
		    "print (first at line %" PRId64 ", %s)", ls->malformed,
		    ls->malformed == 1 ? "" : "s", ls->malformed_line,
		    ls->malformed_what);
}

/* The text between the first quote (' or ") after AFTER in S and its
 * match, into BUF as " 'TEXT'" (to follow a noun); "" when none. */
static const char *
quoted(const char *s, const char *after, char *buf, size_t len)
{
	const char	*p, *q;

	buf[0] = '\0';
	if ((p = strstr(s, after)) == NULL)
		return buf;
	p += strlen(after);
	if (*p != '\'' && *p != '"')
		return buf;
	if ((q = strchr(p + 1, *p)) != NULL)
		snprintf(buf, len, " '%.*s'", (int)(q - p - 1), p + 1);
	return buf;
}

/*
 * The program a command-not-found line names, into BUF: the field before
 * the last ": " ("execve(): torchrun: No such file or directory", "NAME:
 * line 1: exec: python: not found", "env: 'python': ..."), unquoted; a
 * script's interpreter ("execve(): bad interpreter(/usr/bin/python3):
 * ...").
 */
static void
command_name(const char *text, char *buf, size_t len)
{
	const char	*end, *p, *q;

	if ((p = strstr(text, "bad interpreter(")) != NULL &&
	    (q = strchr(p, ')')) != NULL) {
		p += 16;
		snprintf(buf, len, "%.*s", (int)(q - p), p);
		return;
	}
	for (end = NULL, p = text; (q = strstr(p, ": ")) != NULL; p = q + 2)
		end = q;
	if (end == NULL) {
		snprintf(buf, len, "the program");
		return;
	}
	for (p = end; p > text && !(p[-1] == ' ' && p - 1 > text &&
	    p[-2] == ':'); p--)
		;
	if ((*p == '\'' || *p == '"') && end - p >= 2 && end[-1] == *p) {
		p++;
		end--;
	}
	/* env(1) in a UTF-8 locale quotes with U+2018 and U+2019. */
	if (end - p >= 6 && memcmp(p, "\xe2\x80\x98", 3) == 0 &&
	    memcmp(end - 3, "\xe2\x80\x99", 3) == 0) {
		p += 3;
		end -= 3;
	}
	snprintf(buf, len, "%.*s", (int)(end - p), p);
}

/* What to do about a cause that stopped the program before it ran (the
 * options are plan's and gen's). */
static void
hint(struct logcheck *lc)
{
	const struct logscan_fatal	*f = &lc->scan.fatal;
	char				 what[160];

	lc->hint[0] = '\0';
	switch (f->kind) {
	case LC_SCRIPT_NOT_FOUND:
		quoted(f->text, strstr(f->text, "can't find") != NULL ?
		    "module in " : strstr(f->text, "can't open") != NULL ?
		    "open file " : ": ", what, sizeof what);
		snprintf(lc->hint, sizeof lc->hint, "the ranks could not run "
		    "the training script%s on the nodes (a relative path "
		    "starts at the job's working directory, in a container at "
		    "--container-workdir): check --train-script, or use a "
		    "container image that has it (--container-image)", what);
		break;
	case LC_MODULE_NOT_FOUND:
		quoted(f->text, "No module named ", what, sizeof what);
		snprintf(lc->hint, sizeof lc->hint, "the Python the ranks run "
		    "has no module%s: use a container image that has it "
		    "(--container-image), or install it for that Python (or "
		    "set PYTHONPATH in the job's environment)", what);
		break;
	case LC_COMMAND_NOT_FOUND:
		command_name(f->text, what, sizeof what);
		snprintf(lc->hint, sizeof lc->hint, "the nodes (or the "
		    "container) cannot run '%s' as the job names it: use a "
		    "container image that has it (--container-image), or set "
		    "PATH in the job's environment%s", what,
		    strcmp(what, "torchrun") == 0 ? "; torchrun comes with "
		    "PyTorch, and --launcher srun needs only python" : "");
		break;
	case LC_CONTAINER:
		if (strstr(f->text, "unrecognized option") != NULL)
			snprintf(lc->hint, sizeof lc->hint, "this cluster's "
			    "srun has no pyxis plugin (--container-image is "
			    "pyxis's): run without a container, or where pyxis "
			    "and enroot are installed");
		else
			snprintf(lc->hint, sizeof lc->hint, "pyxis could not "
			    "set up the container: check --container-image "
			    "(REGISTRY#IMAGE:TAG for a registry's image, an "
			    "absolute path for a squashfs file), "
			    "--container-mounts, and enroot's credentials for "
			    "the registry");
		break;
	default:
		break;
	}
}

/*
 * plan's estimates for the job's layout and GPU, as job_figure() made
 * them (the job's precision, interconnect and site factor); and the
 * measured tokens/s per GPU the job's batch and the median step give.
 */
static void
estimate(struct logcheck *lc, const struct job *job,
    const struct job_figures *fig)
{
	struct report_estimate	 e;
	struct plan		 p;
	const struct cost	*c = &fig->cost;
	int64_t			 tokens;

	lc->has_job = true;
	plan_resolve(&p, job, fig);
	report_estimate_of_plan(&e, &p);
	lc->gpu = job->gpu != NULL ? job->gpu->name : "h100";
	lc->interconnect = report_estimate_interconnect(&e);
	lc->precision = report_estimate_precision(&e);
	lc->fp8_recipe = report_estimate_fp8_recipe(&e);
	lc->site_factor = fig->hw.site_factor;
	if (fig->sizing.has_memory) {
		lc->est_memory_gib = fig->sizing.memory.total_gib;
		lc->est_memory_reason = NULL;
	} else
		lc->est_memory_reason = fig->sizing.memory_reason != NULL ?
		    fig->sizing.memory_reason : "no memory estimate";
	tokens = job->in.global_batch * job->in.seq_length;
	if (lc->step_ms > 0 && tokens > 0 && fig->sizing.world > 0)
		lc->tokens_gpu = (double)tokens / (lc->step_ms / 1000) /
		    (double)fig->sizing.world;
	if ((lc->est_step_reason = fig->cost_reason) != NULL)
		return;
	lc->est_step_ms = c->step_s * 1000;
	lc->est_tflops = c->tflops_per_gpu;
	lc->est_tokens_gpu = c->tokens_per_s / (double)fig->sizing.world;
}

struct error *
logcheck_judge(struct logcheck *lc, const struct job *job,
    const struct logcheck_opts *o)
{
	const struct logscan	*ls = &lc->scan;
	struct job_figures	*fig = NULL;
	const char		*why;

	lc->status = 0;
	lc->nreasons = 0;
	lc->expected = 0;
	lc->expected_from = NULL;
	lc->after_end = false;
	memset(lc->mismatch, 0, sizeof lc->mismatch);
	lc->has_job = false;
	lc->gpu = lc->interconnect = lc->precision = lc->fp8_recipe = NULL;
	lc->site_factor = 1;
	lc->est_step_ms = lc->est_memory_gib = -1;
	lc->est_tflops = lc->est_tokens_gpu = lc->tokens_gpu = -1;
	lc->est_step_reason = lc->est_memory_reason = NULL;
	if (job != NULL) {
		fig = xcalloc(1, sizeof *fig);
		if ((why = job_figure(job, fig)) != NULL) {
			free(fig);
			return error_new(EXIT_USAGE, "plan: %s", why);
		}
	}
	lc->hint[0] = '\0';
	lc->step_ms = logscan_median(&lc->scan.step);
	lc->tflops = logscan_median(&lc->scan.tflops);
	lc->tokens_s = logscan_median(&lc->scan.tokens);

	lc->planned_from = plan_layout(lc, job, fig);
	used_layout(lc);
	if (job != NULL)
		estimate(lc, job, fig);
	free(fig);

	if (ls->recognised == 0) {
		lc->status = EXIT_USAGE;
		lc->layout = "unchecked";
		if (ls->bytes == 0)
			reason(lc, "empty");
		else if (ls->hole_bytes == ls->bytes)
			reason(lc, "only holes (a sparse file of %" PRIu64
			    " bytes never written)", ls->bytes);
		else if (ls->nul_bytes > 0)
			reason(lc, "binary (NUL bytes) and no log line "
			    "recognised");
		else
			reason(lc, "no Megatron, Slurm or mbsbatch line");
		return NULL;
	}
	expected_last(lc, o);
	lc->after_end = cause_after_end(lc);
	if (ls->fatal.kind != LC_NONE && !lc->after_end)
		reason(lc, "%s at line %" PRId64,
		    logscan_cause_names[ls->fatal.kind], ls->fatal.line);
	if (ls->fatal.kind != LC_NONE)
		hint(lc);
	judge_iterations(lc);
	judge_malformed(lc);
	judge_layout(lc);
	lc->status = lc->nreasons > 0 ? EXIT_LAYOUT : EXIT_OK;
	return NULL;
}

void
logcheck_begin(struct logcheck *lc)
{
	logscan_init(&lc->scan);
	lc->files = 0;
}

static int
sink_data(void *arg, const char *buf, size_t n)
{
	logscan_feed(arg, buf, n);
	return 0;
}

static int
sink_hole(void *arg, uint64_t n)
{
	logscan_feed_zeros(arg, n);
	return 0;
}

int
logcheck_feed(struct logcheck *lc, struct logfile *lf)
{
	struct logfile_sink	 k = { sink_data, sink_hole, &lc->scan };
	off_t			 off = 0;

	/* Standard input redirected from a file: from where it stands. */
	if (!lf->owned && S_ISREG(lf->st.st_mode) &&
	    (off = lseek(lf->fd, 0, SEEK_CUR)) == -1)
		off = 0;

	/* A file's last line ends with it, newline or not. */
	if (lc->files++ > 0 && (lc->scan.len > 0 || lc->scan.cut))
		logscan_feed(&lc->scan, "\n", 1);
	return logfile_read(lf, &off, lf->st.st_size, &k);
}

struct error *
logcheck_end(struct logcheck *lc, const struct job *job,
    const struct logcheck_opts *o)
{
	logscan_finish(&lc->scan);
	return logcheck_judge(lc, job, o);
}

struct error *
logcheck_read(const char *path, const struct job *job,
    const struct logcheck_opts *o, struct logcheck *lc)
{
	struct logfile	 lf;
	char		 why[160];
	int		 rc;

	/* The reader named the file: a link is followed, to a regular
	 * file (a FIFO or a device would be read for ever; '-' takes any
	 * stream). */
	if (strcmp(path, "-") == 0)
		rc = logfile_fdopen(&lf, STDIN_FILENO);
	else
		rc = logfile_open(&lf, path, LOGFILE_FOLLOW,
		    LOGFILE_ANY_OWNER);
	if (rc == LOGFILE_ENOTREG && (S_ISFIFO(lf.st.st_mode) ||
	    S_ISSOCK(lf.st.st_mode)))
		return error_hint(error_new(EXIT_USAGE, "log '%s': %s", path,
		    logfile_why(rc, &lf, why, sizeof why)), "a stream is read "
		    "from standard input: 'mbsbatch check-log - < %s'", path);
	if (rc != 0)
		return error_new(EXIT_USAGE, "log '%s': %s", path,
		    logfile_why(rc, &lf, why, sizeof why));
	logcheck_begin(lc);
	rc = logcheck_feed(lc, &lf);
	logfile_close(&lf);
	if (rc != 0)
		return error_new(EXIT_USAGE, "log '%s': %s", path,
		    strerror(rc));
	return logcheck_end(lc, job, o);
}

struct error *
logcheck_unusable(const char *path, const struct logcheck *lc)
{
	struct error	*err;
	struct buf	 why;
	int		 i;

	if (lc->status != EXIT_USAGE)
		return NULL;
	buf_init(&why);
	for (i = 0; i < lc->nreasons; i++)
		buf_addf(&why, "%s%s", i == 0 ? ": " : "; ", lc->reasons[i]);
	err = error_new(EXIT_USAGE, "log '%s': unusable%s", path,
	    why.len > 0 ? why.data : "");
	buf_release(&why);
	return err;
}
