/*
 * cmd-recommend.c: "mbsbatch recommend": a starting layout with its
 * reasons, checked by the same core as plan.  See mbsbatch-recommend(1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomicfile.h"
#include "cmd.h"
#include "error.h"
#include "job.h"
#include "jsondoc.h"
#include "recommend.h"
#include "report.h"
#include "search.h"
#include "sizing.h"
#include "termtext.h"
#include "xmalloc.h"

static struct error *cmd_recommend_exec(const struct cmd_entry *,
    struct cmd_args *, int *);

static const struct cmd_option cmd_recommend_options[] = {
	{ "json", 0, NULL, "print the plan object with a reasons list" },
	{ "interconnect", 0, "KIND", "between nodes: ib (default), nvlink "
	  "or ethernet" },
	{ "file", 'o', "FILE", "write the recommended job to FILE, a job "
	  "file for plan, gen and submit (atomically)" },
	{ "force", 0, NULL, "replace an existing regular FILE" },
	{ NULL, 0, NULL, NULL }
};

const struct cmd_entry cmd_recommend_entry = {
	.name = "recommend",
	.usage = "[JOBFILE] --model NAME | --params N [OPTIONS] [-o FILE "
	    "[--force]]",
	.summary = "Recommend a starting layout, with its reasons, that "
	    "passes plan and fits in memory.",
	.options = cmd_recommend_options,
	.settings = SF_CLI,
	.max_args = 1,
	.exec = cmd_recommend_exec,
};

/*
 * The layout and the world size are what recommend chooses: given on the
 * command line they would be silently replaced, so they are refused (a
 * job file's are replaced, the job file being shared with plan and gen).
 */
static struct error *
refuse_chosen(const struct settings *cli)
{
	static const enum setting_id chosen[] = { SET_TP, SET_PP, SET_CP,
	    SET_EP, SET_ETP, SET_VPP, SET_SP, SET_NODES, SET_MULTIPLE };
	size_t	 i;

	for (i = 0; i < sizeof chosen / sizeof chosen[0]; i++)
		if (cli->v[chosen[i]].origin != ORIGIN_UNSET)
			return error_new(EXIT_USAGE, "--%s: recommend chooses "
			    "the layout%s; check your own with plan",
			    settings_table[chosen[i]].option,
			    chosen[i] == SET_NODES ||
			    chosen[i] == SET_MULTIPLE ? " and its GPUs (give "
			    "--gpus to fix them)" : "");
	return NULL;
}

/* The smallest multiple of MIN at or above WANT. */
static int64_t
round_up(int64_t want, int64_t min)
{
	return want <= min ? min : (want + min - 1) / min * min;
}

/*
 * Whether LAYERS spread over PP stages evenly, or unevenly with no stage
 * more than one layer above the even share (61 layers over PP 32 would put
 * 16 on the first stage).
 */
static bool
split_ok(int64_t layers, int64_t pp)
{
	int64_t	 first, last, middle, share;

	if (layers == 0 || layers < pp)
		return false;
	if (layers % pp == 0)
		return true;
	if (!sizing_suggest_split(layers, pp, 1, &first, &last))
		return false;
	share = (layers + pp - 1) / pp;
	middle = pp > 2 ? (layers - first - last) / (pp - 2) : 0;
	return first <= share + 1 && last <= share + 1 && middle <= share + 1;
}

/*
 * The layout of JOB, sized as FIG, does not fit: on the same GPUs,
 * Megatron-FSDP shards the weights and gradients over DP too.  When that
 * fits, it is the recommendation, with its reason; else FSDP is off
 * again and FIG as it was.
 */
static const char *
try_fsdp(struct job *job, struct recommendation *r, struct job_figures *fig)
{
	struct sizing_input	*in = &job->in;
	bool			 distopt = in->distributed_optimizer;
	double			 before = fig->sizing.memory.total_gib;
	const char		*why;

	in->fsdp = FSDP_OPTIM_GRADS_PARAMS;
	in->distributed_optimizer = true;
	if ((why = job_figure(job, fig)) != NULL)
		return why;
	if (!fig->sizing.memory_oom) {
		recommend_reason(r, "%.1f GiB per GPU does not fit %.1f GiB: "
		    "Megatron-FSDP (--fsdp) shards the weights and gradients "
		    "over DP %lld too: %.1f GiB", before, in->gpu_gib,
		    (long long)fig->sizing.dp, fig->sizing.memory.total_gib);
		return NULL;
	}
	in->fsdp = FSDP_OFF;
	in->distributed_optimizer = distopt;
	return job_figure(job, fig);
}

/*
 * LAYOUT into IN, with the split its layers need over PP·VPP chunks, the
 * one plan --search gives (search_split(): even, the embedding and the
 * loss counted as layers, uneven).  A recipe's split was made for the
 * recipe's own PP (job-recipe.c clears it the same way for a PP given).
 */
static void
place(struct sizing_input *in, const struct layout *layout)
{
	in->layout = *layout;
	in->pipeline_layout = false;
	if (!search_split(in->model.num_layers, layout->pp, layout->vpp, in))
		in->first_stage_layers = in->last_stage_layers = 0;
}

/* Can LAYERS split over PP stages of VPP chunks? */
static bool
splits(const struct sizing_input *in, int64_t pp, int64_t vpp)
{
	struct sizing_input	 tmp = *in;

	return search_split(in->model.num_layers, pp, vpp, &tmp);
}

/* The reason for the split place() gave, if not even. */
static void
split_reason(const struct sizing_input *in, struct recommendation *r)
{
	const char	*chunks = in->layout.vpp > 1 ? " in VPP chunks" : "";

	if (in->first_stage_layers != 0 || in->last_stage_layers != 0)
		recommend_reason(r, "%lld layers do not split evenly over PP "
		    "%lld%s: %lld on the first stage, %lld on the last",
		    (long long)in->model.num_layers, (long long)in->layout.pp,
		    chunks, (long long)in->first_stage_layers,
		    (long long)in->last_stage_layers);
	else if (in->account_embedding || in->account_loss)
		recommend_reason(r, "%lld layers do not split evenly over PP "
		    "%lld%s: the %s counted as a layer, as Bridge's recipes "
		    "split theirs", (long long)in->model.num_layers,
		    (long long)in->layout.pp, chunks, in->account_embedding ?
		    "embedding and the loss each" : "loss");
}

/*
 * Put the recommendation in the job and run the core; when it does not
 * fit, try Megatron-FSDP on the same GPUs (unless the job says), then,
 * when the GPU count is ours to choose, double PP (and the GPUs) while
 * the layers allow.
 */
static const char *
figure(struct job *job, struct recommendation *r, bool gpus_given,
    struct job_figures *fig)
{
	bool			 fsdp_free = job->set.v[SET_FSDP].origin ==
	    ORIGIN_UNSET;
	struct sizing_input	*in = &job->in;
	const char		*why;
	int			 tries;

	for (tries = 0;; tries++) {
		place(in, &r->layout);
		in->world_from = WORLD_FROM_MULTIPLE;
		in->multiple = 1;
		if ((why = sizing_compute(in, &fig->sizing)) != NULL)
			return why;
		if (gpus_given) {
			in->world_from = WORLD_FROM_GPUS;
			in->gpus = r->gpus;
		} else
			in->multiple = round_up(r->gpus,
			    fig->sizing.min_gpus) / fig->sizing.min_gpus;
		if ((why = job_figure(job, fig)) != NULL)
			return why;
		r->gpus = fig->sizing.world;
		if (!fig->sizing.memory_oom)
			return NULL;
		if (fsdp_free && fig->sizing.dp > 1) {
			if ((why = try_fsdp(job, r, fig)) != NULL)
				return why;
			if (!fig->sizing.memory_oom)
				return NULL;
		}
		if (gpus_given || tries == 3 ||
		    !split_ok(in->model.num_layers, r->layout.pp * 2))
			return NULL;
		recommend_reason(r, "%.1f GiB per GPU does not "
			    "fit %.1f GiB: PP %lld -> %lld and twice the GPUs",
			    fig->sizing.memory.total_gib, in->gpu_gib,
			    (long long)r->layout.pp,
			    (long long)r->layout.pp * 2);
		r->layout.pp *= 2;
		r->gpus *= 2;
	}
}

static bool
has_finding(const struct sizing *s, const char *code)
{
	int	 k;

	for (k = 0; k < s->nfindings; k++)
		if (strcmp(s->findings[k].code, code) == 0)
			return true;
	return false;
}

/*
 * The pipeline bubble plan warns of (pp-bubble, sizing.c check_bubble):
 * more virtual stages, the next VPP the layers split into, while the
 * layout stays free of errors and fits; else the layout as it was.
 */
static const char *
avoid_bubble(struct job *job, struct recommendation *r, bool gpus_given,
    struct job_figures *fig)
{
	const struct sizing_input *in = &job->in;
	struct layout		 before;
	int64_t			 L = in->model.num_layers, pp, v, m;
	int64_t			 gpus;
	double			 share;
	const char		*why;

	while (L != 0 && has_finding(&fig->sizing, "pp-bubble")) {
		before = r->layout;
		gpus = r->gpus;
		pp = before.pp;
		for (v = before.vpp + 1; v <= L / pp; v++)
			if (splits(in, pp, v))
				break;
		if (v > L / pp)
			return NULL;
		m = sizing_microbatches(in, &fig->sizing);
		share = sizing_bubble_share(pp, before.vpp, m);
		r->layout.vpp = v;
		if ((why = figure(job, r, gpus_given, fig)) != NULL)
			return why;
		if (fig->sizing.nerrors > 0 || fig->sizing.memory_oom) {
			r->layout = before;
			r->gpus = gpus;
			return figure(job, r, gpus_given, fig);
		}
		recommend_reason(r, "the pipeline would idle %.1f%% of each "
		    "step at VPP %lld (PP %lld, %lld micro-batches): VPP %lld, "
		    "the interleaved schedule", 100 * share,
		    (long long)before.vpp, (long long)pp, (long long)m,
		    (long long)v);
	}
	return NULL;
}

/* The code of S's first error or warning ("pp-bubble"), static. */
static const char *
first_code(const struct sizing *s)
{
	int	 k;

	for (k = 0; k < s->nfindings; k++)
		if (s->findings[k].severity != SEVERITY_INFO)
			return s->findings[k].code;
	return s->memory_oom ? "memory-oom" : "findings";
}

/*
 * The tables' layout on its R->gpus GPUs draws a finding of plan's (a
 * warning, an error, memory): the layouts of exactly that many GPUs
 * plan --search finds, the fastest that draws none.  When none does:
 * with MUST (--gpus N the tables' layout does not take) the fastest
 * that passes, and WHY filled when there is none at all; else the
 * tables' layout is kept, with a reason.
 */
static const char *
exact_gpus(struct job *job, struct recommendation *r, struct job_figures *fig,
    bool must, char *why, size_t len)
{
	struct sizing_input		 kept = job->in;
	const char			*code = first_code(&fig->sizing);
	static struct search_result	 res[SEARCH_MAX_BEST];
	struct search_input		 si;
	struct search_stats		 st;
	const char			*bad;
	int				 i, n, pick = -1;

	*why = '\0';
	memset(&si, 0, sizeof si);
	si.base = job->in;
	si.world = r->gpus;
	si.vary_fsdp = job->set.v[SET_FSDP].origin == ORIGIN_UNSET &&
	    job->set.v[SET_FSDP_SHARDING].origin == ORIGIN_UNSET;
	job_cost_hw(job, &si.hw);
	if ((bad = search_run(&si, res, SEARCH_MAX_BEST, &n, &st)) != NULL)
		return bad;
	if (n == 0 && !must) {
		recommend_reason(r, "no layout of %lld GPUs passes "
		    "plan", (long long)r->gpus);
		return NULL;
	}
	if (n == 0) {
		snprintf(why, len, "--gpus %lld: no layout of exactly %lld "
		    "GPUs passes plan: of %lld layouts, %lld pass every rule, "
		    "none fits in %.1f GiB", (long long)r->gpus,
		    (long long)r->gpus, (long long)st.candidates,
		    (long long)st.legal, job->in.gpu_gib);
		return NULL;
	}
	for (i = 0; i < n && pick < 0; i++) {
		job->in = res[i].in;
		if ((bad = job_figure(job, fig)) != NULL)
			return bad;
		if (fig->sizing.nerrors == 0 && sizing_nwarnings(&fig->sizing)
		    == 0 && !fig->sizing.memory_oom)
			pick = i;
	}
	if (pick < 0 && !must) {
		job->in = kept;
		recommend_reason(r, "plan's warnings stay: no layout of "
		    "exactly %lld GPUs passes without one", (long long)r->gpus);
		return job_figure(job, fig);
	}
	if (pick < 0)
		pick = 0;
	if (must)
		recommend_reason(r, "the tables' layout (TP %lld, PP %lld, CP "
		    "%lld, EP %lld) does not take exactly %lld GPUs: of the "
		    "%lld layouts that do and fit%s, the fastest by the "
		    "estimate%s", (long long)r->layout.tp,
		    (long long)r->layout.pp, (long long)r->layout.cp,
		    (long long)r->layout.ep, (long long)r->gpus,
		    (long long)st.fit, job->in.gpu_gib > 0 ? "" : " (memory "
		    "not checked: no --gpu-type or --gpu-memory)", pick == 0 ?
		    "" : " that draws no warning");
	else
		recommend_reason(r, "the tables' layout (TP %lld, PP %lld, "
		    "VPP %lld, CP %lld, EP %lld) draws plan's %s: of the %lld "
		    "layouts of %lld GPUs that fit, the fastest by the "
		    "estimate that draws no warning", (long long)r->layout.tp,
		    (long long)r->layout.pp, (long long)r->layout.vpp,
		    (long long)r->layout.cp, (long long)r->layout.ep,
		    code, (long long)st.fit,
		    (long long)r->gpus);
	job->in = res[pick].in;
	r->layout = job->in.layout;
	if ((bad = job_figure(job, fig)) != NULL || must)
		return bad;
	/* The GPUs were recommend's: a multiple of the minimum, as
	 * figure() sizes them, not "given". */
	job->in.world_from = WORLD_FROM_MULTIPLE;
	job->in.multiple = fig->sizing.world / fig->sizing.min_gpus;
	return job_figure(job, fig);
}

/* The recommended job as a job file, to FILE (atomically); nothing when
 * its layout fails plan. */
static struct error *
write_job(const struct cmd_entry *self, struct cmd_args *args,
    const struct job *job, const struct job_figures *fig, const char *file)
{
	struct error	*err;
	json_t		*o;
	char		*text, *data;
	bool		 streamed;

	if (report_failed(&fig->sizing, false) || fig->sizing.memory_oom)
		return error_new(EXIT_LAYOUT, "recommend: no job file written: "
		    "the layout above does not pass plan");
	o = job_file_json(job, &job->in, fig->sizing.world);
	text = json_dumps(o, JSON_INDENT(2));
	json_decref(o);
	if (text == NULL)
		return error_new(EXIT_FAILURE_OP, "recommend: out of memory");
	data = xasprintf("%s\n", text);
	free(text);
	err = atomicfile_write(file, data, strlen(data),
	    cmd_value(self, args, "force") != NULL, 0644, &streamed);
	free(data);
	if (err == NULL && !args->quiet)
		termtext_printf(stderr, "mbsbatch: recommend: wrote %s (%lld "
		    "GPU%s)\n", file, (long long)fig->sizing.world,
		    fig->sizing.world == 1 ? "" : "s");
	return err;
}

/*
 * The layout chosen, into the job's settings too, over a recipe's: the
 * report then lists the recipe values it replaced, and no finding names
 * a size as the recipe's that recommend chose.
 */
static void
chosen(struct job *job)
{
	const struct layout	*l = &job->in.layout;
	const int64_t		 v[] = { l->tp, l->pp, l->cp, l->ep, l->etp,
	    l->vpp };
	enum setting_id		 id;

	for (id = SET_TP; id <= SET_VPP; id++) {
		job->set.v[id].i = v[id - SET_TP];
		job->set.v[id].origin = ORIGIN_CLI;
	}
	job->set.v[SET_SP].b = l->sp;
	job->set.v[SET_SP].origin = ORIGIN_CLI;
}

static struct error *
cmd_recommend_exec(const struct cmd_entry *self, struct cmd_args *args,
    int *status)
{
	struct recommend_input	 ri = { 0 };
	struct recommendation	 r;
	struct job_figures	 fig;
	struct job		 job;
	struct plan		 p;
	struct error		*err;
	const char		*why, *ic = cmd_value(self, args,
	    "interconnect"), *file = cmd_value(self, args, "file");
	char			 none[RECOMMEND_REASON_MAX] = "";
	bool			 json;
	json_t			*o, *a;
	int			 k, kind = INTERCONNECT_IB;

	*status = EXIT_OK;
	json = cmd_value(self, args, "json") != NULL;
	if (ic != NULL && (kind = recommend_interconnect(ic)) < 0)
		return error_new(EXIT_USAGE, "--interconnect: '%s' is not an "
		    "interconnect (ib, nvlink or ethernet)", ic);
	if (cmd_value(self, args, "force") != NULL && file == NULL)
		return error_new(EXIT_USAGE, "recommend: --force goes with "
		    "-o FILE");
	if (file != NULL && strcmp(file, "-") == 0)
		return error_new(EXIT_USAGE, "recommend: -o -: the report is "
		    "on standard output; give -o a file");
	args->req.jobfile = args->nargs > 0 ? args->args[0] : NULL;
	if ((err = refuse_chosen(&args->req.cli)) != NULL)
		return err;
	if ((err = job_load(&job, &args->req)) != NULL)
		return err;
	job.interconnect = kind;
	ri.model = &job.model.model;
	ri.params = job.in.model.params;
	ri.gpus = job.set.v[SET_GPUS].origin ? job.set.v[SET_GPUS].i : 0;
	ri.seq_length = job.in.seq_length;
	ri.nvlink_domain = job.in.nvlink_domain != 0 ?
	    job.in.nvlink_domain : job.in.gpus_per_node;
	ri.interconnect = kind;
	if ((why = recommend(&ri, &r)) == NULL &&
	    (why = figure(&job, &r, ri.gpus != 0, &fig)) == NULL) {
		why = avoid_bubble(&job, &r, ri.gpus != 0, &fig);
	}
	if (why == NULL && (fig.sizing.multiple == 0 || fig.sizing.nerrors >
	    0 || fig.sizing.memory_oom || sizing_nwarnings(&fig.sizing) > 0))
		why = exact_gpus(&job, &r, &fig, ri.gpus != 0 &&
		    (fig.sizing.multiple == 0 || fig.sizing.nerrors > 0 ||
		    fig.sizing.memory_oom), none, sizeof none);
	if (why == NULL)
		split_reason(&job.in, &r);
	if (why == NULL && none[0] != '\0') {
		job_release(&job);
		return error_new(EXIT_LAYOUT, "recommend: %s", none);
	}
	if (why != NULL) {
		if (ri.model->name != NULL)
			err = error_new(EXIT_USAGE, "recommend: model '%s' %s",
			    ri.model->name, why);
		else
			err = error_new(EXIT_USAGE, "recommend: %s", why);
		job_release(&job);
		return err;
	}
	if (fig.sizing.memory_oom)
		recommend_reason(&r, "no layout from the tables fits: "
		    "%.1f GiB per GPU of %.1f GiB; %s",
		    fig.sizing.memory.total_gib,
		    job.in.gpu_gib, ri.gpus != 0 ? "leave out --gpus so "
		    "that PP may grow, or try --recompute full" :
		    "try --recompute full, or a larger --gpu-type");
	/* Sized again: its findings name no size of the recipe's. */
	chosen(&job);
	if ((why = job_figure(&job, &fig)) != NULL) {
		job_release(&job);
		return error_new(EXIT_USAGE, "recommend: %s", why);
	}
	plan_resolve(&p, &job, &fig);
	if (json) {
		o = report_json(&p);
		a = json_array();
		for (k = 0; k < r.nreasons; k++)
			json_array_append_new(a, json_string(r.reasons[k]));
		json_object_set_new(o, "reasons", a);
		err = jsondoc_print(stdout, o, JSON_INDENT(2));
		json_decref(o);
	} else {
		printf("reasons\n");
		for (k = 0; k < r.nreasons; k++)
			printf("  %s\n", r.reasons[k]);
		printf("\n");
		report_text(stdout, &p, args->verbose, false);
	}
	if (report_failed(&fig.sizing, false) || fig.sizing.memory_oom)
		*status = EXIT_LAYOUT;
	if (err == NULL && file != NULL)
		err = write_job(self, args, &job, &fig, file);
	job_release(&job);
	return err;
}
