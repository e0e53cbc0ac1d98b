/*
 * job.c: merge defaults, cluster profile, job file and command line into
 * one job; see job.h.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "error.h"
#include "job.h"
#include "jsondoc.h"
#include "rules.h"
#include "xmalloc.h"

void
job_request_init(struct job_request *req)
{
	memset(req, 0, sizeof *req);
	settings_init(&req->cli);
}

void
job_request_release(struct job_request *req)
{
	settings_release(&req->cli);
	memset(req, 0, sizeof *req);
}

void
job_release(struct job *job)
{
	settings_release(&job->set);
	settings_release(&job->recipe_set);
	config_release(&job->config);
	model_file_release(&job->model);
	free(job->jobfile);
	free(job->presets_dir);
	free(job->recipe_missing);
	memset(job, 0, sizeof *job);
}

static struct error *
load_jobfile(const char *path, struct settings *out)
{
	struct jsondoc	 doc;
	struct error	*err;

	if ((err = jsondoc_load_file(&doc, path, "job file")) != NULL)
		return err;
	if (!json_is_object(doc.root))
		err = jsondoc_error(&doc, NULL, EXIT_USAGE,
		    "must be a JSON object of settings");
	else
		err = settings_from_json(out, &doc, doc.root, NULL, SF_JOB,
		    ORIGIN_JOB);
	jsondoc_release(&doc);
	return err;
}

char *
job_path(const struct job *job, enum setting_id id, bool (*is_path)(const
    char *))
{
	const struct setting_value	*v = &job->set.v[id];
	const char			*slash;

	if (v->origin == ORIGIN_UNSET)
		return NULL;
	slash = job->jobfile != NULL ? strrchr(job->jobfile, '/') : NULL;
	if (v->origin == ORIGIN_JOB && slash != NULL && v->s[0] != '/' &&
	    is_path(v->s))
		return xasprintf("%.*s/%s", (int)(slash - job->jobfile),
		    job->jobfile, v->s);
	return xstrdup(v->s);
}

/*
 * With no model named, the preset the recipe's model is (its Hugging Face
 * name), if one is: the sizing then checks the model the recipe builds.
 */
static struct error *
model_of_recipe(struct job *job)
{
	struct model_file	*list;
	struct error		*err;
	size_t			 i, n;

	if ((err = model_list(job->presets_dir, &list, &n)) != NULL)
		return err;
	for (i = 0; i < n; i++)
		if (list[i].model.hf_model != NULL && strcmp(
		    list[i].model.hf_model, job->recipe->hf_model) == 0)
			break;
	if (i < n) {
		err = model_resolve(list[i].path != NULL ? list[i].path :
		    list[i].model.name, job->presets_dir, &job->model);
		job->has_model = err == NULL;
	}
	model_list_free(list, n);
	return err;
}

/* The model: a preset (if named) with explicit fields over it. */
static struct error *
resolve_model(struct job *job)
{
	const struct setting_value	*name = &job->set.v[SET_MODEL];
	struct error			*err;
	char				 reason[160];
	size_t				 i;

	if (name->origin != ORIGIN_UNSET) {
		/* A relative preset path in a job file is relative to it. */
		char	*path = job_path(job, SET_MODEL, model_is_path);

		err = model_resolve(path, job->presets_dir, &job->model);
		free(path);
		if (err != NULL)
			return err;
		job->has_model = true;
		if (job->recipe != NULL && job->recipe->hf_model != NULL &&
		    job->model.model.hf_model != NULL &&
		    strcmp(job->recipe->hf_model, job->model.model.hf_model)
		    != 0)
			return error_new(EXIT_USAGE, "model '%s' is not the "
			    "model recipe '%s' builds (%s): leave --model out, "
			    "or give that model's recipe",
			    job->model.model.name, job->recipe->name,
			    job->recipe->hf_model);
		/* A recipe that names no model builds its own: a GPT
		 * (vanilla_gpt) or another hybrid model, never this one,
		 * since no override turns a provider hybrid. */
		if (job->recipe != NULL && job->recipe->hf_model == NULL &&
		    job->model.model.hybrid_pattern != NULL)
			return error_new(EXIT_USAGE, "model '%s' is a hybrid "
			    "model, which recipe '%s' does not build: give "
			    "that model's recipe", job->model.model.name,
			    job->recipe->name);
	} else if (job->recipe != NULL && job->recipe->hf_model != NULL &&
	    (err = model_of_recipe(job)) != NULL)
		return err;
	for (i = 0; i < SET__COUNT; i++)
		if ((settings_table[i].flags & SF_MODEL) &&
		    job->set.v[i].origin != ORIGIN_UNSET)
			job->has_model = true;
	/* An architecture no preset describes is the recipe's model with
	 * the sizes given: its embeddings tied or not as the recipe builds
	 * it (recipe-rules.tsv), when that is known. */
	if (job->model.model.name == NULL && job->recipe != NULL &&
	    job->recipe->tie_embeddings != TRI_UNSET)
		job->model.model.tied_embeddings =
		    job->recipe->tie_embeddings == TRI_ON;
	model_apply(&job->model.model, &job->set);
	model_hybrid_defaults(&job->model.model);
	if (model_check(&job->model.model, reason, sizeof reason) == -1)
		return error_new(EXIT_USAGE, "model%s%s%s: %s",
		    job->model.model.name != NULL ? " '" : " architecture",
		    job->model.model.name != NULL ? job->model.model.name : "",
		    job->model.model.name != NULL ? "'" : "", reason);
	return NULL;
}

void
job_layout(const struct settings *set, int64_t unset, struct layout *l)
{
	const struct setting_value	*v = set->v;

	l->tp = v[SET_TP].origin ? v[SET_TP].i : unset;
	l->pp = v[SET_PP].origin ? v[SET_PP].i : unset;
	l->cp = v[SET_CP].origin ? v[SET_CP].i : unset;
	l->ep = v[SET_EP].origin ? v[SET_EP].i : unset;
	l->etp = v[SET_ETP].origin ? v[SET_ETP].i : unset;
	l->vpp = v[SET_VPP].origin ? v[SET_VPP].i : unset;
	l->sp = v[SET_SP].origin && v[SET_SP].b;
}

static bool	 runs_bridge(const struct job *);

static void
fill_sizing_input(struct job *job)
{
	const struct setting_value	*v = job->set.v;
	struct sizing_input		*in = &job->in;

	sizing_input_init(in);
	job_layout(&job->set, 1, &in->layout);

	if (v[SET_GPUS].origin) {
		in->world_from = WORLD_FROM_GPUS;
		in->gpus = v[SET_GPUS].i;
	} else if (v[SET_NODES].origin) {
		in->world_from = WORLD_FROM_NODES;
		in->nodes = v[SET_NODES].i;
	} else if (v[SET_MULTIPLE].origin)
		in->multiple = v[SET_MULTIPLE].i;

	if (v[SET_GPUS_PER_NODE].origin)
		in->gpus_per_node = v[SET_GPUS_PER_NODE].i;
	else if (job->gpu != NULL)
		in->gpus_per_node = job->gpu->gpus_per_node;
	if (v[SET_NVLINK_DOMAIN].origin)
		in->nvlink_domain = v[SET_NVLINK_DOMAIN].i;
	else if (job->gpu != NULL &&
	    job->gpu->nvlink_domain != job->gpu->gpus_per_node)
		in->nvlink_domain = job->gpu->nvlink_domain;

	in->model = job->model.model;
	if (v[SET_FIRST_STAGE_LAYERS].origin)
		in->first_stage_layers = v[SET_FIRST_STAGE_LAYERS].i;
	if (v[SET_LAST_STAGE_LAYERS].origin)
		in->last_stage_layers = v[SET_LAST_STAGE_LAYERS].i;
	in->account_embedding = job_bool(job, SET_ACCOUNT_EMBEDDING, false);
	in->account_loss = job_bool(job, SET_ACCOUNT_LOSS, false);
	in->pipeline_layout = job->recipe_layout;
	if (v[SET_SEQ_LENGTH].origin)
		in->seq_length = v[SET_SEQ_LENGTH].i;
	if (v[SET_GLOBAL_BATCH_SIZE].origin)
		in->global_batch = v[SET_GLOBAL_BATCH_SIZE].i;
	if (v[SET_MICRO_BATCH_SIZE].origin)
		in->micro_batch = v[SET_MICRO_BATCH_SIZE].i;
	/* A recipe's TP overlap without TP >= 2 and SP: Bridge switches it
	 * off (comm_overlap.py), so it is off, not an error. */
	if (v[SET_TP_COMM_OVERLAP].origin == ORIGIN_RECIPE &&
	    !sizing_tp_overlap_runs(&in->layout))
		in->tp_comm_overlap = TRI_OFF;
	else if (v[SET_TP_COMM_OVERLAP].origin)
		in->tp_comm_overlap = v[SET_TP_COMM_OVERLAP].b ? TRI_ON :
		    TRI_OFF;
	if (v[SET_GPU_MEMORY].origin)
		in->gpu_gib = v[SET_GPU_MEMORY].d;
	else if (job->gpu != NULL)
		in->gpu_gib = job->gpu->memory_gib;
	in->fsdp = job_fsdp(job);
	/* Megatron-FSDP runs the distributed optimizer, asked or not
	 * (rules.c: fsdp-distributed-optimizer). */
	in->distributed_optimizer = in->fsdp != FSDP_OFF ||
	    !v[SET_DISTRIBUTED_OPTIMIZER].origin ||
	    v[SET_DISTRIBUTED_OPTIMIZER].b;
	in->memory_method = job_choice(job, SET_MEMORY_MODEL,
	    MEMORY_MEGATRON);
	in->params_dtype = job_dtype(job, SET_PARAMS_DTYPE);
	in->fp8_params = job_fp8_param_gather(job);
	in->fp8 = job_fp8(job);
	in->dispatcher = job_dispatcher(job);
	in->moe_a2a_overlap = job_bool(job, SET_MOE_A2A_OVERLAP, false);
	in->grads_dtype = job_dtype(job, SET_GRADS_DTYPE);
	in->optimizer_dtype = job_dtype(job, SET_OPTIMIZER_DTYPE);
	in->recompute = job_choice(job, SET_RECOMPUTE, RECOMPUTE_SELECTIVE);
	/* The recipe's recompute modules (memory.h): the script
	 * overrides recompute_granularity alone (script-bridge.c
	 * recompute()), so the recipe's list holds, an empty one
	 * ("[]") too: nothing recomputed. */
	if (job->recipe != NULL && runs_bridge(job) &&
	    job->recipe->recompute_modules != NULL)
		in->recompute_modules |= recompute_modules_parse(
		    job->recipe->recompute_modules);
	/* No recipe table carries cuda_graph_impl (job-recipe.c): the
	 * job's, else none (Megatron's default). */
	in->cuda_graphs = job_choice(job, SET_CUDA_GRAPHS, CUDA_GRAPH_NONE);
	if (job->recipe != NULL)
		in->memory_unsized = bridge_recipe_unsized(job->recipe->name);
	/* A PEFT recipe's frozen weights: the adapters alone train. */
	if (job->recipe != NULL && runs_bridge(job) &&
	    bridge_recipe_task(job->recipe) == BRIDGE_LORA &&
	    !bridge_recipe_lora(job->recipe, &in->lora) &&
	    in->memory_unsized == NULL)
		in->memory_unsized = "the recipe trains adapters on frozen "
		    "weights (PEFT) whose rank and targets mbsbatch does not "
		    "know";
	in->smoke = job_is_smoke(job);
}

enum fsdp_sharding
job_fsdp(const struct job *job)
{
	if (!job_bool(job, SET_FSDP, false))
		return FSDP_OFF;
	return job_choice(job, SET_FSDP_SHARDING, FSDP_OPTIM_GRADS_PARAMS);
}

/* A sharding without FSDP would be silently ignored. */
static struct error *
check_fsdp(const struct job *job)
{
	if (job->set.v[SET_FSDP_SHARDING].origin != ORIGIN_UNSET &&
	    !job_bool(job, SET_FSDP, false))
		return error_new(EXIT_USAGE, "--fsdp-sharding: a sharding "
		    "of Megatron-FSDP needs --fsdp (job key 'fsdp')");
	return NULL;
}

/* Combinations of dtypes no Megatron runs; each names the values of
 * the two that the recipe set (job-blame.c). */
static struct error *
check_precision(const struct job *job)
{
	enum precision	 p = job_dtype(job, SET_PARAMS_DTYPE);
	enum precision	 g = job_dtype(job, SET_GRADS_DTYPE);
	char		 a[160], b[160];

	job_blame_setting(job, SET_GRADS_DTYPE, a, sizeof a);
	job_blame_setting(job, SET_PARAMS_DTYPE, b, sizeof b);
	if (g == PRECISION_BF16 && p != PRECISION_DEFAULT &&
	    p != PRECISION_BF16)
		return error_new(EXIT_USAGE, "--grads-dtype: bf16 gradients "
		    "need bf16 weights (--params-dtype bf16)%s%s", a, b);
	if (g == PRECISION_FP16 && p != PRECISION_FP16)
		return error_new(EXIT_USAGE, "--grads-dtype: fp16 gradients "
		    "need fp16 weights (--params-dtype fp16)%s%s", a, b);
	job_blame_setting(job, SET_FP8, a, sizeof a);
	if (job_fp8(job) != FP8_NO && p == PRECISION_FP32)
		return error_new(EXIT_USAGE, "--fp8: FP8 training runs with "
		    "bf16 or fp16 weights, not fp32 (--params-dtype)%s%s", a,
		    b);
	return NULL;
}

/* Does the job run Megatron-Bridge: the default template, or a template
 * of the user's given a recipe? */
static bool
runs_bridge(const struct job *job)
{
	enum template_name	 t = job_template(job);

	return t == TEMPLATE_MEGATRON_BRIDGE || (t == TEMPLATE_OTHER &&
	    job_str(job, SET_RECIPE) != NULL);
}

/* The Bridge version, and the recipe when the job runs Bridge: an
 * unknown recipe fails before anything is written. */
static struct error *
check_dataset(const struct job *job)
{
	const char	*d = job_str(job, SET_DATASET);

	if (d == NULL)
		return NULL;
	if (runs_bridge(job)) {
		if (bridge_dataset(job->bridge, d) != NULL)
			return NULL;
		return error_new(EXIT_USAGE, "--dataset: '%s' is not a "
		    "dataset of Megatron-Bridge %s's run_recipe.py (mock "
		    "data: 'mock')", d, job->bridge->name);
	}
	/* Dataset names, not a choice: Bridge's are in bridge.c. */
	if (job_template(job) == TEMPLATE_MEGATRON_LM &&
	    strcmp(d, "mock") != 0 && strcmp(d, "llm-pretrain-mock") != 0)
		return error_new(EXIT_USAGE, "--dataset: the megatron-lm "
		    "template takes only 'mock'; give pretrain_gpt.py's data "
		    "arguments with --override");
	return NULL;
}

/*
 * A benchmark recipe owns its dataset: run_recipe.py refuses --dataset
 * with one (0.6.0 scripts/training/recipe_metadata.py:227, main 252,
 * validate_benchmark_recipe_scope), also for a library name both
 * packages export, whose benchmark definition runs (recipe-rules.tsv).
 */
static struct error *
check_benchmark_dataset(const struct job *job)
{
	struct error	*err;

	if (!job->recipe->benchmark || job_str(job, SET_DATASET) == NULL)
		return NULL;
	if (bridge_recipe_twin(job->recipe))
		err = error_new(EXIT_USAGE, "--dataset: Megatron-Bridge %s runs "
		    "recipe '%s' as a benchmark recipe (both recipe packages "
		    "have the name), which brings its own data: run_recipe.py "
		    "refuses --dataset with it", job->bridge->name,
		    job->recipe->name);
	else
		err = error_new(EXIT_USAGE, "--dataset: recipe '%s' is a "
		    "benchmark recipe of Megatron-Bridge %s, which brings its "
		    "own data: run_recipe.py refuses --dataset with it",
		    job->recipe->name, job->bridge->name);
	error_hint(err, "leave --dataset (and the job file's \"dataset\") "
	    "out, or give a library recipe");
	return err;
}

/*
 * A fine-tuning recipe starts from pretrained weights that only the user
 * can name (bridge_recipe_needs_pretrained() says which runs load them),
 * and trains on data of its own kind (a library recipe's own is SQuAD
 * from Hugging Face: recipes/common.py _sft_common and _peft_common,
 * default_squad_config, 0.5.1 198 and 295, 0.6.0 and main 199 and 298;
 * a benchmark recipe's its own too): the mock and indexed datasets make
 * a pretraining run (run_recipe.py refuses them with an SFT or LoRA
 * recipe in 0.6.0 and main, and 0.5.1 would pretrain).  The directory is
 * checked where it can be seen: a path of the cluster's only is a
 * warning (the rule "pretrained-checkpoint-unseen").
 */
static struct error *
check_finetune(struct job *job)
{
	const struct bridge_recipe	*r = job->recipe;
	const char			*dir = job_str(job,
	    SET_PRETRAINED_CHECKPOINT), *d = job_str(job, SET_DATASET);
	struct stat			 st;
	struct error			*err;

	if (r != NULL && bridge_recipe_task(r) != BRIDGE_PRETRAIN &&
	    d != NULL && bridge_dataset_pretrain(job->bridge,
	    bridge_dataset(job->bridge, d))) {
		err = error_new(EXIT_USAGE, "--dataset: '%s' is pretraining "
		    "data, and recipe '%s' fine-tunes", d, r->name);
		error_hint(err, "leave --dataset out for the recipe's own "
		    "data, or give a fine-tuning one (such as squad)");
		return err;
	}
	if (dir == NULL) {
		if (r == NULL || !bridge_recipe_needs_pretrained(r))
			return NULL;
		err = error_new(EXIT_USAGE, "pretrained-checkpoint: recipe "
		    "'%s' %s the weights of a pretrained checkpoint, and "
		    "Megatron-Bridge does not run it without one",
		    r->name, bridge_recipe_task(r) == BRIDGE_LORA ?
		    "trains adapters on" : "fine-tunes");
		error_hint(err, "give --pretrained-checkpoint DIR (job key "
		    "\"pretrained_checkpoint\"): a Megatron checkpoint or a "
		    "Hugging Face model directory");
		return err;
	}
	if (stat(dir, &st) == -1) {
		if (errno != ENOENT && errno != ENOTDIR)
			return error_new(EXIT_FAILURE_OP, "pretrained-checkpoint: "
			    "'%s': %s", dir, strerror(errno));
		job->pretrained_unseen = true;
	} else if (!S_ISDIR(st.st_mode))
		return error_new(EXIT_USAGE, "pretrained-checkpoint: '%s' is "
		    "not a directory", dir);
	return NULL;
}

/* At most this many candidates are named when a model has several. */
#define PICK_MAX	6

/*
 * No recipe given: the model's own pretraining recipe for the target
 * version (bridge_recipe_pick()), when it has exactly one; else
 * job->recipe_missing says why there is none, naming the candidates,
 * for the command that needs a recipe (gen) and for plan.
 */
static struct error *
pick_recipe(struct job *job)
{
	const struct bridge_recipe	*c[PICK_MAX];
	struct model_file		 m;
	struct error			*err;
	struct buf			 names;
	const char			*hf;
	char				*path;
	size_t				 i, n;

	memset(&m, 0, sizeof m);
	path = job_path(job, SET_MODEL, model_is_path);
	err = model_resolve(path, job->presets_dir, &m);
	free(path);
	if (err != NULL) {
		model_file_release(&m);
		return err;
	}
	hf = m.model.hf_model;
	n = bridge_recipe_pick(job->bridge, hf, m.model.name, c, PICK_MAX);
	if (n == 1) {
		job->recipe = c[0];
		job->recipe_from_model = true;
	} else if (hf == NULL)
		job->recipe_missing = xasprintf("model '%s' names no Hugging "
		    "Face model, so no recipe is known for it",
		    m.model.name != NULL ? m.model.name : "?");
	else if (n == 0)
		job->recipe_missing = xasprintf("no pretraining recipe of "
		    "Megatron-Bridge %s builds model '%s' (%s)",
		    job->bridge->name, m.model.name, hf);
	else {
		buf_init(&names);
		for (i = 0; i < n && i < PICK_MAX; i++)
			buf_addf(&names, "%s%s", i > 0 ? ", " : "",
			    c[i]->name);
		if (n > PICK_MAX)
			buf_addf(&names, " and %zu more", n - PICK_MAX);
		job->recipe_missing = xasprintf("%zu pretraining recipes of "
		    "Megatron-Bridge %s build model '%s' (%s): %s", n,
		    job->bridge->name, m.model.name, hf, names.data);
		buf_release(&names);
	}
	model_file_release(&m);
	return NULL;
}

static struct error *
find_recipe(struct job *job)
{
	const char	*name = job_str(job, SET_RECIPE), *near;
	struct error	*err;

	job->bridge = bridge_target_find(job_str(job, SET_BRIDGE_VERSION));
	if ((err = check_dataset(job)) != NULL)
		return err;
	if (name == NULL && runs_bridge(job) &&
	    job->set.v[SET_MODEL].origin != ORIGIN_UNSET) {
		if ((err = pick_recipe(job)) != NULL || job->recipe == NULL)
			return err;
		return check_benchmark_dataset(job);
	}
	if (name == NULL || !runs_bridge(job))
		return NULL;
	if ((job->recipe = bridge_recipe_find(job->bridge, name)) != NULL)
		return check_benchmark_dataset(job);
	if ((near = bridge_recipe_suggest(job->bridge, name)) != NULL)
		err = error_new(EXIT_USAGE, "recipe '%s': not a recipe of "
		    "Megatron-Bridge %s (did you mean '%s'?)", name,
		    job->bridge->name, near);
	else
		err = error_new(EXIT_USAGE, "recipe '%s': not a recipe of "
		    "Megatron-Bridge %s (--bridge-version chooses another)",
		    name, job->bridge->name);
	error_hint(err, "'mbsbatch plan --list-recipes --bridge-version %s' "
	    "lists them", job->bridge->name);
	return err;
}

/*
 * The site's GRES type of the job's GPU type, when the profile maps GPU
 * types to the site's (gres_types).  A profile that maps some but not
 * this one names the GPUs the site has: a job of another type would be
 * sent untyped and run on whatever GPUs are free, so it is refused.
 */
static struct error *
resolve_gres_type(struct job *job)
{
	const struct setting_value	*v = &job->set.v[SET_GRES_TYPES];
	struct buf			 known;
	struct error			*err;
	size_t				 i, n;

	if (job->gpu == NULL || v->nlist == 0)
		return NULL;
	n = strlen(job->gpu->name);
	for (i = 0; i < v->nlist; i++)
		if (strncmp(v->list[i], job->gpu->name, n) == 0 &&
		    v->list[i][n] == '=') {
			job->gres_type = v->list[i] + n + 1;
			return NULL;
		}
	buf_init(&known);
	for (i = 0; i < v->nlist; i++)
		buf_addf(&known, "%s%.*s", i > 0 ? ", " : "",
		    (int)strcspn(v->list[i], "="), v->list[i]);
	err = error_hint(error_new(EXIT_USAGE, "--gpu-type: the cluster "
	    "profile's gres_types has no GRES type for %s (it maps %s)",
	    job->gpu->name, known.data), "give --gpu-type of one of "
	    "those, or add \"%s\" to gres_types (mbsbatch.conf(5))",
	    job->gpu->name);
	buf_release(&known);
	return err;
}

struct error *
job_load(struct job *job, const struct job_request *req)
{
	const struct config_cluster	*profile = NULL;
	const struct setting_def	*a, *b;
	struct settings			 fromfile;
	struct error			*err;
	const char			*cluster;
	int64_t				 g, d;

	memset(job, 0, sizeof *job);
	settings_init(&job->set);
	settings_init(&job->recipe_set);
	settings_init(&fromfile);
	config_init(&job->config);

	if ((a = settings_world_conflict(&req->cli)) != NULL) {
		b = settings_world_conflict_other(&req->cli, a);
		err = error_new(EXIT_USAGE, "--%s and --%s cannot be used "
		    "together: each sets the world size", a->option,
		    b->option);
		goto fail;
	}
	if ((err = config_load(&job->config, req->config_path)) != NULL)
		goto fail;
	if (req->jobfile != NULL) {
		job->jobfile = xstrdup(req->jobfile);
		if ((err = load_jobfile(req->jobfile, &fromfile)) != NULL)
			goto fail;
	}

	cluster = req->cluster;
	if (cluster == NULL && fromfile.v[SET_CLUSTER].origin)
		cluster = fromfile.v[SET_CLUSTER].s;
	if (cluster == NULL)
		cluster = job->config.default_cluster;
	if (cluster != NULL) {
		err = config_cluster(&job->config, cluster, &profile);
		if (err != NULL && req->new_cluster && cluster == req->cluster) {
			error_free(err);
			err = NULL;
		} else if (err != NULL)
			goto fail;
		else {
			job->cluster = profile->name;
			settings_merge(&job->set, &profile->set);
		}
	}
	settings_merge(&job->set, &fromfile);
	settings_merge(&job->set, &req->cli);
	job->presets_dir = job->config.presets_dir != NULL ?
	    xstrdup(job->config.presets_dir) : config_default_presets_dir();
	if ((err = find_recipe(job)) != NULL)
		goto fail;
	if (job->recipe != NULL) {
		/* Again, over the recipe's own values. */
		settings_release(&job->set);
		job_recipe_layer(job->recipe, &job->recipe_set);
		settings_merge(&job->set, &job->recipe_set);
		if (profile != NULL)
			settings_merge(&job->set, &profile->set);
		settings_merge(&job->set, &fromfile);
		settings_merge(&job->set, &req->cli);
		job_recipe_conflicts(job);
	}
	if ((err = check_finetune(job)) != NULL)
		goto fail;

	if ((err = resolve_model(job)) != NULL)
		goto fail;
	if (job->set.v[SET_GPU_TYPE].origin)
		job->gpu = gpu_type_find(job->set.v[SET_GPU_TYPE].s);
	if ((err = resolve_gres_type(job)) != NULL)
		goto fail;

	if ((err = check_fsdp(job)) != NULL)
		goto fail;
	if ((err = check_precision(job)) != NULL)
		goto fail;
	fill_sizing_input(job);
	g = job->in.gpus_per_node;
	d = job->in.nvlink_domain;
	if (d != 0 && d % g != 0 && g % d != 0) {
		err = error_new(EXIT_USAGE, "--nvlink-domain: %lld GPUs "
		    "neither divides nor is a multiple of %lld GPUs per node",
		    (long long)d, (long long)g);
		goto fail;
	}
	settings_release(&fromfile);
	return NULL;

fail:
	settings_release(&fromfile);
	job_release(job);
	return err;
}

const char *
job_str(const struct job *job, enum setting_id id)
{
	return job->set.v[id].origin != ORIGIN_UNSET ? job->set.v[id].s : NULL;
}

bool
job_bool(const struct job *job, enum setting_id id, bool def)
{
	return job->set.v[id].origin != ORIGIN_UNSET ? job->set.v[id].b : def;
}

static enum tristate
job_tri(const struct job *job, enum setting_id id)
{
	if (job->set.v[id].origin == ORIGIN_UNSET)
		return TRI_UNSET;
	return job->set.v[id].b ? TRI_ON : TRI_OFF;
}

const char *
job_name(const struct job *job)
{
	if (job_str(job, SET_JOB_NAME) != NULL)
		return job_str(job, SET_JOB_NAME);
	if (job->model.model.name != NULL)
		return job->model.model.name;
	if (job_str(job, SET_RECIPE) != NULL)
		return job_str(job, SET_RECIPE);
	return "mbsbatch";
}

int
job_choice(const struct job *job, enum setting_id id, int def)
{
	return job->set.v[id].origin != ORIGIN_UNSET ? job->set.v[id].choice :
	    def;
}

enum moe_dispatcher
job_dispatcher(const struct job *job)
{
	return job_choice(job, SET_MOE_DISPATCHER, DISPATCH_ALLTOALL);
}

const char *
job_dispatcher_name(const struct job *job)
{
	return settings_word(SET_MOE_DISPATCHER, job_dispatcher(job));
}

enum fp8_recipe
job_fp8(const struct job *job)
{
	return job_choice(job, SET_FP8, FP8_NO);
}

bool
job_fp8_param_gather(const struct job *job)
{
	enum fp8_recipe	 f = job_fp8(job);

	return f != FP8_NO && job_bool(job, SET_FP8_PARAM_GATHER,
	    f != FP8_BLOCKWISE);
}

enum precision
job_dtype(const struct job *job, enum setting_id id)
{
	return job_choice(job, id, PRECISION_DEFAULT);
}

enum launcher
job_launcher(const struct job *job)
{
	return job_choice(job, SET_LAUNCHER, LAUNCHER_SRUN);
}

enum template_name
job_template(const struct job *job)
{
	return job_choice(job, SET_TEMPLATE, TEMPLATE_MEGATRON_BRIDGE);
}

/* The value the user's --override list gives KEY (Hydra's KEY=, +KEY=,
 * ++KEY=; Megatron-LM's --flag=), the last one; NULL: none. */
static const char *
user_override_value(const struct job *job, const char *key)
{
	const struct setting_value	*v = &job->set.v[SET_OVERRIDES];
	const char			*o, *val = NULL;
	size_t				 i, n = strlen(key);

	for (i = 0; i < v->nlist; i++) {
		o = v->list[i] + strspn(v->list[i], "+");
		if (strncmp(o, key, n) == 0 && o[n] == '=')
			val = o + n + 1;
	}
	return val;
}

/* Whether the user's --override list sets KEY. */
static bool
user_override(const struct job *job, const char *key)
{
	return user_override_value(job, key) != NULL;
}

const char *
job_figure(const struct job *job, struct job_figures *fig)
{
	const struct setting_value	*v = job->set.v;
	struct launchenv_input		 le;
	struct rules_input		 ri;
	struct slurmopt_input		 so;
	const char			*reason;

	if ((reason = sizing_compute(&job->in, &fig->sizing)) != NULL)
		return reason;

	launchenv_input_init(&le);
	le.layout = job->in.layout;
	le.dp = fig->sizing.dp;
	le.gpu_type = job->gpu != NULL ? job->gpu->name : NULL;
	le.moe = fig->sizing.moe;
	le.dispatcher = job_dispatcher(job);
	le.moe_a2a_overlap = job_bool(job, SET_MOE_A2A_OVERLAP, false);
	le.distributed_optimizer = job->in.distributed_optimizer;
	le.fsdp = job->in.fsdp != FSDP_OFF;
	if (v[SET_CUDA_DEVICE_MAX_CONNECTIONS].origin)
		le.cuda_device_max_connections =
		    v[SET_CUDA_DEVICE_MAX_CONNECTIONS].i;
	if (v[SET_LAYERNORM_SM_MARGIN].origin)
		le.layernorm_sm_margin = v[SET_LAYERNORM_SM_MARGIN].i;
	le.tp_comm_overlap = job->in.tp_comm_overlap;
	le.overlap_p2p_comm = job_tri(job, SET_OVERLAP_P2P_COMM);
	le.batch_p2p_comm = job_tri(job, SET_BATCH_P2P_COMM);
	le.overlap_grad_reduce = job_tri(job, SET_OVERLAP_GRAD_REDUCE);
	le.overlap_param_gather = job_tri(job, SET_OVERLAP_PARAM_GATHER);
	le.align_param_gather = job_tri(job, SET_ALIGN_PARAM_GATHER);
	if (v[SET_DDP_BUCKET_SIZE].origin)
		le.ddp_bucket_size = v[SET_DDP_BUCKET_SIZE].i;
	le.user_origin = "given";
	le.tp_overlap_recipe = v[SET_TP_COMM_OVERLAP].origin == ORIGIN_RECIPE;
	le.a2a_overlap_recipe = v[SET_MOE_A2A_OVERLAP].origin == ORIGIN_RECIPE;
	le.ln_margin_rule = !runs_bridge(job) || job->bridge->ln_margin_rule;
	le.recipe_env = runs_bridge(job) && job->recipe != NULL ?
	    job->recipe->env_vars : NULL;
	le.layout_given = v[SET_TP].origin > ORIGIN_RECIPE ||
	    v[SET_CP].origin > ORIGIN_RECIPE ||
	    v[SET_EP].origin > ORIGIN_RECIPE ||
	    v[SET_MOE_DISPATCHER].origin > ORIGIN_RECIPE ||
	    v[SET_MOE_A2A_OVERLAP].origin > ORIGIN_RECIPE ||
	    v[SET_GPU_TYPE].origin != ORIGIN_UNSET ||
	    v[SET_GPUS_PER_NODE].origin != ORIGIN_UNSET ||
	    v[SET_NVLINK_DOMAIN].origin != ORIGIN_UNSET;
	le.nvlink_domain = fig->sizing.nvlink_domain;
	le.gpus_per_node = job->in.gpus_per_node;
	le.user_env = (const char *const *)v[SET_ENV].list;
	le.nuser_env = (int)v[SET_ENV].nlist;
	if ((reason = launchenv_compute(&le, &fig->env)) != NULL)
		return reason;

	memset(&ri, 0, sizeof ri);
	ri.in = &job->in;
	ri.dispatcher = le.dispatcher;
	ri.moe_a2a_overlap = le.moe_a2a_overlap;
	ri.a2a_from_recipe = v[SET_MOE_A2A_OVERLAP].origin == ORIGIN_RECIPE;
	ri.fp8 = job_fp8(job) != FP8_NO;
	ri.fp8_param_gather = ri.fp8 ?
	    job_fp8_param_gather(job) : job_bool(job, SET_FP8_PARAM_GATHER,
	    false);
	ri.cc_major = job->gpu != NULL ? job->gpu->cc_major : 0;
	ri.exit_handler = !runs_bridge(job) || job->bridge->exit_handler;
	ri.megatron_lm = job_template(job) == TEMPLATE_MEGATRON_LM;
	ri.local_graphs_refused = runs_bridge(job) &&
	    !job->bridge->local_cuda_graphs;
	ri.save_interval = job->set.v[SET_SAVE_INTERVAL].origin != ORIGIN_UNSET;
	ri.distributed_optimizer_off = v[SET_DISTRIBUTED_OPTIMIZER].origin &&
	    !v[SET_DISTRIBUTED_OPTIMIZER].b;
	ri.ckpt_format = user_override_value(job, ri.megatron_lm ?
	    "--ckpt-format" : "checkpoint.ckpt_format");
	/* The command template has nothing Megatron to checkpoint. */
	ri.requeue = job_bool(job, SET_REQUEUE, false) &&
	    job_template(job) != TEMPLATE_COMMAND;
	ri.checkpoint = job_str(job, SET_CHECKPOINT_DIR) != NULL;
	ri.own_checkpoints = ri.checkpoint ||
	    (user_override(job, "checkpoint.save") &&
	    user_override(job, "checkpoint.load"));
	ri.recipe = runs_bridge(job) && job->recipe != NULL;
	ri.pretrained_unseen = job->pretrained_unseen;
	ri.recipe_checkpoints = ri.recipe && job->recipe->checkpoints;
	if (ri.recipe) {
		ri.recipe_checkpoint_dir = job->bridge->checkpoint_dir;
		ri.recipe_checkpoint_base = job->bridge->checkpoint_base;
	}
	rules_check(&ri, &fig->env, &fig->sizing);
	job_blame_recipe(job, &fig->sizing);

	if (v[SET_SLURM_EXTRA].nlist > SLURMOPT_EXTRA_MAX)
		return "--slurm-opt: more options than mbsbatch writes "
		    "(at most 32)";
	memset(&so, 0, sizeof so);
	so.set = &job->set;
	so.nodes = fig->sizing.nodes;
	so.tasks_per_node = fig->sizing.tasks_per_node;
	so.gpus_per_node = job->in.gpus_per_node;
	so.nvlink_domain = fig->sizing.nvlink_domain;
	so.gpu_type = le.gpu_type;
	so.gres_type = job->gres_type;
	if (v[SET_GPU_REQUEST].origin != ORIGIN_UNSET)
		so.gpu_request = (enum slurmopt_gpu_request)
		    v[SET_GPU_REQUEST].choice;
	so.job_name = job_name(job);
	slurmopt_compute(&so, &fig->slurm);
	job_site_check(job, fig);
	job_estimate(job, fig);
	return NULL;
}

bool
job_is_smoke(const struct job *job)
{
	return job->set.v[SET_TRAIN_ITERS].origin == ORIGIN_SMOKE;
}
