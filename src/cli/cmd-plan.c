/*
 * cmd-plan.c: "mbsbatch plan": size and validate a layout; writes
 * nothing.  See mbsbatch-plan(1).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "error.h"
#include "gpu.h"
#include "job.h"
#include "jsondoc.h"
#include "model-file.h"
#include "bridge.h"
#include "number.h"
#include "recommend.h"
#include "report.h"
#include "search.h"
#include "sizing.h"

static struct error *cmd_plan_exec(const struct cmd_entry *,
    struct cmd_args *, int *);

static const struct cmd_option cmd_plan_options[] = {
	{ "json", 0, NULL, "print one JSON object (also on exit 3)" },
	{ "list-models", 0, NULL, "list the model presets and exit" },
	{ "list-recipes", 0, NULL, "list the Megatron-Bridge recipes of "
	  "--bridge-version and exit" },
	{ "search", 0, NULL, "rank every legal layout that fits on --gpus, "
	  "--nodes or --max-gpus" },
	{ "max-gpus", 0, "N", "with --search: at most N GPUs (N and each "
	  "power-of-two node count below)" },
	{ "best", 0, "N", "with --search: show the best N layouts (default "
	  "5, at most 100)" },
	{ "interconnect", 0, "KIND", "between nodes, for the estimate: ib "
	  "(default), nvlink or ethernet" },
	{ "search-budget", 0, "N", "with --search: size at most N layouts "
	  "(default 2000000), rank those and warn" },
	{ NULL, 0, NULL, NULL }
};

const struct cmd_entry cmd_plan_entry = {
	.name = "plan",
	.usage = "[JOBFILE] [OPTIONS] [--search [--max-gpus N] [--best N]]",
	.summary = "Size and validate a parallel layout: GPUs, nodes, DP, EDP "
	    "and findings.",
	.options = cmd_plan_options,
	.settings = SF_CLI,
	.max_args = 1,
	.exec = cmd_plan_exec,
};

/* A count, or "-" when unknown. */
static void
fmt_num(char *buf, size_t len, int64_t v)
{
	if (v != 0)
		snprintf(buf, len, "%" PRId64, v);
	else
		snprintf(buf, len, "-");
}

static void
list_models_text(FILE *f, const struct model_file *list, size_t n)
{
	const struct model	*m;
	char			 params[16], active[16], experts[24];
	char			 layers[16], hidden[16], heads[16], groups[16];
	size_t			 i;

	fprintf(f, "%-16s %-5s %7s %7s %6s %6s %11s %10s  %s\n", "NAME",
	    "KIND", "PARAMS", "ACTIVE", "LAYERS", "HIDDEN", "HEADS/KV",
	    "EXPERTS", "DESCRIPTION");
	for (i = 0; i < n; i++) {
		m = &list[i].model;
		if (m->params != 0)
			number_format_approx(m->params, params, sizeof params);
		else
			snprintf(params, sizeof params, "-");
		if (m->active_params != 0)
			number_format_approx(m->active_params, active,
			    sizeof active);
		else
			snprintf(active, sizeof active, "-");
		if (m->num_experts != 0 && m->moe_router_topk != 0)
			snprintf(experts, sizeof experts, "%" PRId64 "/top%"
			    PRId64, m->num_experts, m->moe_router_topk);
		else if (m->num_experts != 0)
			snprintf(experts, sizeof experts, "%" PRId64,
			    m->num_experts);
		else
			snprintf(experts, sizeof experts, "-");
		fmt_num(layers, sizeof layers, m->num_layers);
		fmt_num(hidden, sizeof hidden, m->hidden_size);
		fmt_num(heads, sizeof heads, m->num_attention_heads);
		fmt_num(groups, sizeof groups, m->num_query_groups);
		fprintf(f, "%-16s %-5s %7s %7s %6s %6s %5s/%-5s %10s  %s%s%s\n",
		    m->name, m->kind == MODEL_KIND_DENSE ? "dense" :
		    m->kind == MODEL_KIND_MOE ? "moe" : "?", params, active,
		    layers, hidden, heads, groups, experts,
		    m->description != NULL ? m->description : "",
		    list[i].path != NULL && m->description != NULL ? " " : "",
		    list[i].path != NULL ? list[i].path : "");
	}
}

static json_t *
list_models_json(const struct model_file *list, size_t n)
{
	const struct model	*m;
	json_t			*a = json_array(), *o;
	size_t			 i;

	for (i = 0; i < n; i++) {
		m = &list[i].model;
		o = report_model_json(m);
		json_object_set_new(o, "description", m->description != NULL ?
		    json_string(m->description) : json_null());
		json_object_set_new(o, "source", m->source != NULL ?
		    json_string(m->source) : json_null());
		json_object_set_new(o, "path", list[i].path != NULL ?
		    json_string(list[i].path) : json_null());
		json_array_append_new(a, o);
	}
	return a;
}

static struct error *
list_models(struct cmd_args *args, bool json)
{
	struct model_file	*list;
	struct config		 cfg;
	struct error		*err;
	char			*dir;
	size_t			 n;
	json_t			*a;

	config_init(&cfg);
	if ((err = config_load(&cfg, args->req.config_path)) != NULL)
		return err;
	dir = cfg.presets_dir != NULL ? strdup(cfg.presets_dir) :
	    config_default_presets_dir();
	config_release(&cfg);
	err = model_list(dir, &list, &n);
	free(dir);
	if (err != NULL)
		return err;
	if (json) {
		a = list_models_json(list, n);
		err = jsondoc_print(stdout, a, JSON_INDENT(2));
		json_decref(a);
	} else
		list_models_text(stdout, list, n);
	model_list_free(list, n);
	return err;
}

/* The recipes of the Bridge version the command line names. */
static struct error *
list_recipes(struct cmd_args *args, bool json)
{
	const struct setting_value	*v = &args->req.cli.v[SET_BRIDGE_VERSION];
	const struct bridge_target	*t;
	const struct bridge_recipe	*r;
	struct error			*err;
	json_t				*a;

	t = bridge_target_find(v->origin != ORIGIN_UNSET ? v->s : NULL);
	if (json) {
		a = json_array();
		for (r = t->recipes; r->name != NULL; r++)
			json_array_append_new(a, json_pack("{s:s,s:s,s:o,s:I,"
			    "s:I,s:I,s:I,s:I,s:I,s:I}", "name", r->name, "kind",
			    r->kind, "hf_model", r->hf_model != NULL ?
			    json_string(r->hf_model) : json_null(),
			    "tp", (json_int_t)r->sizes.tp,
			    "pp", (json_int_t)r->sizes.pp,
			    "cp", (json_int_t)r->sizes.cp,
			    "ep", (json_int_t)r->sizes.ep,
			    "vpp", (json_int_t)r->sizes.vpp,
			    "seq_length", (json_int_t)r->dataset_seq_length,
			    "global_batch_size", (json_int_t)r->global_batch));
		err = jsondoc_print(stdout, a, JSON_INDENT(2));
		json_decref(a);
		return err;
	}
	printf("# Megatron-Bridge %s (%.8s); 0 is the recipe's default\n",
	    t->name, t->revision);
	printf("%-56s %-13s %3s %3s %3s %4s %3s %7s  %s\n", "RECIPE", "KIND",
	    "TP", "PP", "CP", "EP", "VPP", "SEQ", "MODEL");
	for (r = t->recipes; r->name != NULL; r++)
		printf("%-56s %-13s %3lld %3lld %3lld %4lld %3lld %7lld  %s\n",
		    r->name, r->kind, (long long)r->sizes.tp,
		    (long long)r->sizes.pp, (long long)r->sizes.cp,
		    (long long)r->sizes.ep, (long long)r->sizes.vpp,
		    (long long)r->dataset_seq_length,
		    r->hf_model != NULL ? r->hf_model : "-");
	return NULL;
}

/* The search's options, parsed; an error names the option. */
static struct error *
search_options(const struct cmd_entry *self, struct cmd_args *args,
    struct search_input *si, int64_t *best, enum interconnect *ic)
{
	static const char *const only[] = { "max-gpus", "best",
	    "search-budget" };
	const char	*v, *why;
	size_t		 i;
	int		 k;

	*ic = INTERCONNECT_IB;
	if ((v = cmd_value(self, args, "interconnect")) != NULL) {
		if ((k = recommend_interconnect(v)) < 0)
			return error_new(EXIT_USAGE, "--interconnect: '%s' is "
			    "not an interconnect (ib, nvlink or ethernet)", v);
		*ic = k;
	}
	if (cmd_value(self, args, "search") == NULL) {
		for (i = 0; i < sizeof only / sizeof only[0]; i++)
			if (cmd_value(self, args, only[i]) != NULL)
				return error_new(EXIT_USAGE, "--%s: only with "
				    "--search", only[i]);
		return NULL;
	}
	*best = 5;
	if ((v = cmd_value(self, args, "best")) != NULL &&
	    (why = number_parse_int(v, 1, SEARCH_MAX_BEST, best)) != NULL)
		return error_new(EXIT_USAGE, "--best: '%s' %s (expected 1 to "
		    "%d)", v, why, SEARCH_MAX_BEST);
	if ((v = cmd_value(self, args, "max-gpus")) != NULL &&
	    (why = number_parse_int(v, 1, SEARCH_MAX_WORLD,
	    &si->max_gpus)) != NULL)
		return error_new(EXIT_USAGE, "--max-gpus: '%s' %s (expected 1 "
		    "to %lld)", v, why, (long long)SEARCH_MAX_WORLD);
	if ((v = cmd_value(self, args, "search-budget")) != NULL &&
	    (why = number_parse_int(v, 1, SEARCH_MAX_BUDGET,
	    &si->budget)) != NULL)
		return error_new(EXIT_USAGE, "--search-budget: '%s' %s "
		    "(expected 1 to %lld)", v, why,
		    (long long)SEARCH_MAX_BUDGET);
	if (si->max_gpus != 0 && (args->req.cli.v[SET_GPUS].origin ||
	    args->req.cli.v[SET_NODES].origin))
		return error_new(EXIT_USAGE, "--max-gpus and --%s cannot be "
		    "used together: each sets the GPUs searched",
		    args->req.cli.v[SET_GPUS].origin ? "gpus" : "nodes");
	return NULL;
}

/*
 * The search input from the job: its model, sequence, batch, node shape
 * and memory; sizes given on the command line stay fixed; the GPU's
 * speeds for the cost model (an h100's when no --gpu-type).
 */
static const char *
search_input(const struct job *job, const struct cmd_args *args,
    struct search_input *si)
{
	si->base = job->in;
	if (si->max_gpus == 0) {
		if (job->in.world_from == WORLD_FROM_GPUS)
			si->world = job->in.gpus;
		else if (job->in.world_from == WORLD_FROM_NODES)
			si->world = job->in.nodes * job->in.gpus_per_node;
		else
			return "give the GPUs to search: --gpus, --nodes or "
			    "--max-gpus";
	}
	/* Like the sizes: what the command line does not give is searched. */
	si->vary_micro_batch =
	    args->req.cli.v[SET_MICRO_BATCH_SIZE].origin == ORIGIN_UNSET;
	si->vary_recompute = args->req.cli.v[SET_RECOMPUTE].origin ==
	    ORIGIN_UNSET;
	si->vary_fsdp = args->req.cli.v[SET_FSDP].origin == ORIGIN_UNSET &&
	    args->req.cli.v[SET_FSDP_SHARDING].origin == ORIGIN_UNSET;
	job_layout(&args->req.cli, 0, &si->fixed);
	job_cost_hw(job, &si->hw);
	return NULL;
}

/* What a search the budget stopped may have missed, on stderr. */
static void
budget_warning(const struct search_stats *st)
{
	fprintf(stderr, "mbsbatch: plan: warning: search stopped after %lld "
	    "candidates (--search-budget %lld): results may miss better "
	    "layouts\n", (long long)st->candidates, (long long)st->budget);
}

static struct error *
plan_search(struct cmd_args *args, struct search_input *si, int64_t best,
    enum interconnect ic, bool json, int *status)
{
	static struct search_result	 r[SEARCH_MAX_BEST];
	struct search_stats		 st;
	struct job			 job;
	struct plan			 p;
	struct error			*err;
	const char			*why;
	json_t				*o;
	int				 n;

	if ((err = job_load(&job, &args->req)) != NULL)
		return err;
	job.interconnect = ic;
	if ((why = search_input(&job, args, si)) != NULL ||
	    (why = search_run(si, r, (int)best, &n, &st)) != NULL) {
		job_release(&job);
		return error_new(EXIT_USAGE, "plan --search: %s", why);
	}
	plan_resolve(&p, &job, NULL);	/* the job itself is not sized */
	if (json) {
		o = report_search_json(&p, si, r, n, &st);
		err = jsondoc_print(stdout, o, JSON_INDENT(2));
		json_decref(o);
	} else
		report_search_text(stdout, &p, si, r, n, &st);
	if (st.stopped && !args->quiet)
		budget_warning(&st);
	if (n == 0)
		*status = EXIT_LAYOUT;
	job_release(&job);
	return err;
}

static struct error *
cmd_plan_exec(const struct cmd_entry *self, struct cmd_args *args,
    int *status)
{
	struct job_figures fig;
	struct job	 job;
	struct plan	 p;
	struct error	*err;
	const char	*reason;
	bool		 json = cmd_value(self, args, "json") != NULL;
	bool		 strict;
	json_t		*o;
	struct search_input si;
	enum interconnect ic = INTERCONNECT_IB;
	int64_t		 best = 5;

	*status = EXIT_OK;
	if (cmd_value(self, args, "list-models") != NULL) {
		if (args->nargs > 0)
			return error_new(EXIT_USAGE, "plan --list-models: "
			    "takes no JOBFILE ('%s')", args->args[0]);
		return list_models(args, json);
	}
	if (cmd_value(self, args, "list-recipes") != NULL) {
		if (args->nargs > 0)
			return error_new(EXIT_USAGE, "plan --list-recipes: "
			    "takes no JOBFILE ('%s')", args->args[0]);
		return list_recipes(args, json);
	}

	args->req.jobfile = args->nargs > 0 ? args->args[0] : NULL;
	memset(&si, 0, sizeof si);
	if ((err = search_options(self, args, &si, &best, &ic)) != NULL)
		return err;
	if (cmd_value(self, args, "search") != NULL)
		return plan_search(args, &si, best, ic, json, status);
	if ((err = job_load(&job, &args->req)) != NULL)
		return err;
	job.interconnect = ic;
	if ((reason = job_figure(&job, &fig)) != NULL) {
		job_release(&job);
		return error_new(EXIT_USAGE, "plan: %s", reason);
	}
	plan_resolve(&p, &job, &fig);
	strict = p.strict;
	if (json) {
		o = report_json(&p);
		err = jsondoc_print(stdout, o, JSON_INDENT(2));
		json_decref(o);
	} else if (args->quiet)
		report_findings(stdout, &fig.sizing);
	else
		report_text(stdout, &p, args->verbose, strict);
	if (report_failed(&fig.sizing, strict))
		*status = EXIT_LAYOUT;
	job_release(&job);
	return err;
}
