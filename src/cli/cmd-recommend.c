/*
 * cmd-recommend.c: "mbsbatch recommend": a starting layout with its
 * reasons, checked by the same core as plan.  See mbsbatch-recommend(1).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "error.h"
#include "job.h"
#include "jsondoc.h"
#include "recommend.h"
#include "report.h"
#include "sizing.h"

static struct error *cmd_recommend_exec(const struct cmd_entry *,
    struct cmd_args *, int *);

static const struct cmd_option cmd_recommend_options[] = {
	{ "json", 0, NULL, "print the plan object with a reasons list" },
	{ "interconnect", 0, "KIND", "between nodes: ib (default), nvlink "
	  "or ethernet" },
	{ NULL, 0, NULL, NULL }
};

const struct cmd_entry cmd_recommend_entry = {
	.name = "recommend",
	.usage = "[JOBFILE] --model NAME | --params N [OPTIONS]",
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
		in->layout = r->layout;
		/* A recipe's split was made for its own PP (job-recipe.c
		 * clears it the same way for a PP given). */
		in->first_stage_layers = in->last_stage_layers = 0;
		in->account_embedding = in->account_loss = false;
		in->pipeline_layout = false;
		if (in->model.num_layers != 0 &&
		    in->model.num_layers % r->layout.pp != 0 &&
		    sizing_suggest_split(in->model.num_layers, r->layout.pp,
		    1, &in->first_stage_layers, &in->last_stage_layers))
			recommend_reason(r, "%lld layers do not split "
			    "evenly over PP %lld: %lld on the first stage, "
			    "%lld on the last", (long long)in->model.num_layers,
			    (long long)r->layout.pp,
			    (long long)in->first_stage_layers,
			    (long long)in->last_stage_layers);
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
	    "interconnect");
	bool			 json;
	json_t			*o, *a;
	int			 k, kind = INTERCONNECT_IB;

	*status = EXIT_OK;
	json = cmd_value(self, args, "json") != NULL;
	if (ic != NULL && (kind = recommend_interconnect(ic)) < 0)
		return error_new(EXIT_USAGE, "--interconnect: '%s' is not an "
		    "interconnect (ib, nvlink or ethernet)", ic);
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
	if ((why = recommend(&ri, &r)) != NULL ||
	    (why = figure(&job, &r, ri.gpus != 0, &fig)) != NULL) {
		if (ri.model->name != NULL)
			err = error_new(EXIT_USAGE, "recommend: model '%s' %s",
			    ri.model->name, why);
		else
			err = error_new(EXIT_USAGE, "recommend: %s", why);
		job_release(&job);
		return err;
	}
	if (ri.gpus != 0 && fig.sizing.multiple == 0)
		recommend_reason(&r, "the tables' layout needs a multiple of "
		    "%lld GPUs; --gpus %lld is not one", (long long)
		    fig.sizing.min_gpus, (long long)ri.gpus);
	if (fig.sizing.memory_oom)
		recommend_reason(&r, "no layout from the tables fits: "
		    "%.1f GiB per GPU of %.1f GiB; %s",
		    fig.sizing.memory.total_gib,
		    job.in.gpu_gib, ri.gpus != 0 ? "leave out --gpus so "
		    "that PP may grow, or try --recompute full" :
		    "try --recompute full, or a larger --gpu-type");
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
	job_release(&job);
	return err;
}
