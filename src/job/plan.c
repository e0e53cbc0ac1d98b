/*
 * plan.c: resolve a job once into the typed plan the renderers read
 * (plan.h): each setting decoded here, by the job's accessors, once.
 */
#include "plan.h"

/* Was setting ID given by the user (not the recipe's own value)? */
static bool
given(const struct job *job, enum setting_id id)
{
	return job->set.v[id].origin > ORIGIN_RECIPE;
}

/* Is choice setting ID the recipe's own value (given again, or not)? */
static bool
same_as_recipe(const struct job *job, enum setting_id id)
{
	const struct setting_value	*r = &job->recipe_set.v[id];
	const struct setting_value	*v = &job->set.v[id];

	if (job->recipe == NULL)
		return false;
	if (r->origin == ORIGIN_UNSET || v->origin == ORIGIN_UNSET)
		return r->origin == v->origin;
	return r->choice == v->choice;
}

static struct plan_int
number(const struct job *job, enum setting_id id)
{
	struct plan_int	 n;

	n.set = job->set.v[id].origin != ORIGIN_UNSET;
	n.v = n.set ? job->set.v[id].i : 0;
	return n;
}

static void
resolve_given(struct plan_given *g, const struct job *job)
{
	static const enum setting_id arch[PLAN_ARCH_N] = {
		[PLAN_ARCH_NUM_LAYERS] = SET_NUM_LAYERS,
		[PLAN_ARCH_HIDDEN_SIZE] = SET_HIDDEN_SIZE,
		[PLAN_ARCH_FFN_HIDDEN_SIZE] = SET_FFN_HIDDEN_SIZE,
		[PLAN_ARCH_NUM_ATTENTION_HEADS] = SET_NUM_ATTENTION_HEADS,
		[PLAN_ARCH_NUM_QUERY_GROUPS] = SET_NUM_QUERY_GROUPS,
		[PLAN_ARCH_NUM_EXPERTS] = SET_NUM_EXPERTS,
		[PLAN_ARCH_MOE_ROUTER_TOPK] = SET_MOE_ROUTER_TOPK,
		[PLAN_ARCH_MOE_FFN_HIDDEN_SIZE] = SET_MOE_FFN_HIDDEN_SIZE,
	};
	int	 i;

	for (i = 0; i < PLAN_ARCH_N; i++) {
		g->arch[i].set = given(job, arch[i]);
		g->arch[i].v = g->arch[i].set ? job->set.v[arch[i]].i : 0;
	}
	g->seq_length = given(job, SET_SEQ_LENGTH);
	g->global_batch = given(job, SET_GLOBAL_BATCH_SIZE);
	g->micro_batch = given(job, SET_MICRO_BATCH_SIZE);
	g->params_dtype = given(job, SET_PARAMS_DTYPE);
	g->grads_dtype = given(job, SET_GRADS_DTYPE);
	g->optimizer_dtype = given(job, SET_OPTIMIZER_DTYPE);
	g->fp8 = given(job, SET_FP8);
	g->fp8_param_gather = given(job, SET_FP8_PARAM_GATHER);
	g->distributed_optimizer = given(job, SET_DISTRIBUTED_OPTIMIZER);
	g->recompute = given(job, SET_RECOMPUTE);
	g->dispatcher = given(job, SET_MOE_DISPATCHER);
	g->cuda_graphs = given(job, SET_CUDA_GRAPHS);
}

/*
 * The hang rule's floor when --hang-timeout is not given: 10 estimated
 * steps, and never under 5 minutes (a step's estimate leaves out data
 * loading and the pauses between log lines), or 5 minutes with no
 * estimate.  Megatron's default process-group timeout is 10 minutes.
 */
#define HANG_FLOOR_MIN		300
#define HANG_FLOOR_STEPS	10

static int64_t
hang_floor(const struct job_figures *fig)
{
	double	 s;

	if (fig == NULL || fig->cost_reason != NULL || !(fig->cost.step_s > 0))
		return HANG_FLOOR_MIN;
	s = fig->cost.step_s * HANG_FLOOR_STEPS;
	if (s > 7 * 24 * 3600)
		return 7 * 24 * 3600;
	return s > HANG_FLOOR_MIN ? (int64_t)s + 1 : HANG_FLOOR_MIN;
}

static void
resilience(struct plan *p, const struct job *job,
    const struct job_figures *fig)
{
	p->gate = job_bool(job, SET_GATE, fig != NULL &&
	    fig->sizing.nodes > 1);
	p->hang_floor_given = job->set.v[SET_HANG_TIMEOUT].origin !=
	    ORIGIN_UNSET;
	p->hang_floor = p->hang_floor_given ?
	    job->set.v[SET_HANG_TIMEOUT].i : hang_floor(fig);
	p->stall_restarts = job->set.v[SET_STALL_RESTARTS].origin !=
	    ORIGIN_UNSET ? job->set.v[SET_STALL_RESTARTS].i : 3;
}

void
plan_resolve(struct plan *p, const struct job *job,
    const struct job_figures *fig)
{
	const struct setting_value	*user = &job->set.v[SET_OVERRIDES];

	p->fig = fig;
	p->in = &job->in;
	p->bridge = job->bridge;
	p->recipe = job->recipe;
	p->recipe_layout = job->recipe_layout;

	p->launcher = job_launcher(job);
	p->launcher_word = settings_word(SET_LAUNCHER, p->launcher);
	p->template = job_template(job);
	p->name = job_name(job);
	p->smoke = job_is_smoke(job);
	p->strict = job_bool(job, SET_STRICT, false);

	p->params_dtype = job_dtype(job, SET_PARAMS_DTYPE);
	p->grads_dtype = job_dtype(job, SET_GRADS_DTYPE);
	p->optimizer_dtype = job_dtype(job, SET_OPTIMIZER_DTYPE);
	p->fp8 = job_fp8(job);
	p->fp8_param_gather = job_fp8_param_gather(job);

	p->dispatcher = job_dispatcher(job);
	p->dispatcher_word = job_dispatcher_name(job);
	p->recompute = job_choice(job, SET_RECOMPUTE, RECOMPUTE_NONE);
	/* On with Megatron-FSDP, whatever was asked (job.c). */
	p->distributed_optimizer = job->in.distributed_optimizer;
	p->moe_a2a_overlap = job_bool(job, SET_MOE_A2A_OVERLAP, false);
	p->requeue = job_bool(job, SET_REQUEUE, false);
	p->max_restarts = job->set.v[SET_MAX_RESTARTS].origin ?
	    job->set.v[SET_MAX_RESTARTS].i : 3;
	resilience(p, job, fig);

	p->train_iters = number(job, SET_TRAIN_ITERS);
	p->save_interval = number(job, SET_SAVE_INTERVAL);
	p->lr.set = job->set.v[SET_LR].origin != ORIGIN_UNSET;
	p->lr.v = p->lr.set ? job->set.v[SET_LR].d : 0;

	p->train_script = job_str(job, SET_TRAIN_SCRIPT);
	/* A recipe the model picked is no setting of the user's. */
	p->recipe_name = job->recipe != NULL ? job->recipe->name :
	    job_str(job, SET_RECIPE);
	p->recipe_from_model = job->recipe_from_model;
	p->recipe_missing = job->recipe_missing;
	p->dataset = job_str(job, SET_DATASET);
	p->command = job_str(job, SET_COMMAND);
	p->container_image = job_str(job, SET_CONTAINER_IMAGE);
	p->container_mounts = job_str(job, SET_CONTAINER_MOUNTS);
	p->container_workdir = job_str(job, SET_CONTAINER_WORKDIR);
	p->checkpoint_dir = job_str(job, SET_CHECKPOINT_DIR);
	p->pretrained_checkpoint = job_str(job, SET_PRETRAINED_CHECKPOINT);

	p->chdir = job_str(job, SET_CHDIR);
	p->cpus_per_task = job->set.v[SET_CPUS_PER_TASK].origin !=
	    ORIGIN_UNSET ? job->set.v[SET_CPUS_PER_TASK].i : 0;
	p->setup = job->set.v[SET_SETUP].list;
	p->nsetup = job->set.v[SET_SETUP].nlist;
	p->srun_options = job->set.v[SET_SRUN_OPTIONS].list;
	p->nsrun_options = job->set.v[SET_SRUN_OPTIONS].nlist;

	p->overrides = user->list;
	p->noverrides = user->nlist;

	resolve_given(&p->given, job);
	p->same_as_recipe.params_dtype = same_as_recipe(job, SET_PARAMS_DTYPE);
	p->same_as_recipe.grads_dtype = same_as_recipe(job, SET_GRADS_DTYPE);
	p->same_as_recipe.optimizer_dtype = same_as_recipe(job,
	    SET_OPTIMIZER_DTYPE);
	p->same_as_recipe.fp8 = same_as_recipe(job, SET_FP8);

	p->model = job->has_model ? &job->model.model : NULL;
	p->cluster = job->cluster;
	p->config = &job->config;
	p->gpu = job->gpu;
	p->interconnect = job->interconnect;
	calibration_of(job, &p->calibration);
	p->set = &job->set;
	p->recipe_set = &job->recipe_set;
	p->cleared = job->cleared;
	p->ncleared = job->ncleared;
}
