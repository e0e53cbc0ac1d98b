/*
 * script.c: the template context and the rendering of a job's script;
 * see script.h and mbsbatch-template(5).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "autoconf.h"

#include "buf.h"
#include "error.h"
#include "report.h"
#include "script.h"
#include "template.h"
#include "tmpl.h"
#include "xmalloc.h"

static void
add_str(json_t *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
add_str(json_t *a, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	json_array_append_new(a, json_string(s));
	free(s);
}

static const char *
tf(bool v)
{
	return v ? "true" : "false";
}

static const char *
dispatcher_type(const char *d)
{
	if (d == NULL)
		return NULL;
	return strcmp(d, "deepep") == 0 || strcmp(d, "hybridep") == 0 ?
	    "flex" : d;
}

/* torch's name of a dtype setting's value, as Megatron-Bridge reads it. */
static const char *
torch_dtype(const char *s)
{
	return strcmp(s, "fp32") == 0 ? "torch.float32" :
	    strcmp(s, "bf16") == 0 ? "torch.bfloat16" : "torch.float16";
}

/*
 * The dtypes the user chose, as Megatron-Bridge overrides; unset ones are
 * left to the recipe (bf16 mixed precision in every recipe mbsbatch
 * knows, which is what the memory estimate assumes).
 */
static void
bridge_precision(json_t *a, const struct job *job)
{
	const char	*p = job_str(job, SET_PARAMS_DTYPE);
	const char	*g = job_str(job, SET_GRADS_DTYPE);
	const char	*o = job_str(job, SET_OPTIMIZER_DTYPE);

	if (p != NULL)
		add_str(a, "mixed_precision=%s", strcmp(p, "fp32") == 0 ?
		    "null" : strcmp(p, "bf16") == 0 ? "bf16_mixed" :
		    "fp16_mixed");
	if (g != NULL)
		add_str(a, "ddp.grad_reduce_in_fp32=%s",
		    tf(strcmp(g, "fp32") == 0));
	if (o != NULL) {
		add_str(a, "optimizer.use_precision_aware_optimizer=%s",
		    tf(strcmp(o, "fp32") != 0));
		add_str(a, "optimizer.exp_avg_dtype=%s", torch_dtype(o));
		add_str(a, "optimizer.exp_avg_sq_dtype=%s", torch_dtype(o));
	}
}

/* Megatron-LM's dtype flags: the weights' always (Megatron-LM trains in
 * fp32 without one), the others when chosen. */
static void
mlm_precision(json_t *a, const struct job *job)
{
	const char	*p = job_str(job, SET_PARAMS_DTYPE);
	const char	*g = job_str(job, SET_GRADS_DTYPE);
	const char	*o = job_str(job, SET_OPTIMIZER_DTYPE);

	if (p == NULL || strcmp(p, "bf16") == 0)
		add_str(a, "--bf16");
	else if (strcmp(p, "fp16") == 0)
		add_str(a, "--fp16");
	if (g != NULL && strcmp(g, "bf16") == 0)
		add_str(a, "--grad-reduce-in-bf16");
	if (o != NULL && strcmp(o, "fp32") != 0) {
		add_str(a, "--use-precision-aware-optimizer");
		add_str(a, "--exp-avg-dtype");
		add_str(a, "%s", o);
		add_str(a, "--exp-avg-sq-dtype");
		add_str(a, "%s", o);
	}
}

/* Megatron-Bridge overrides (Hydra style), every parallel size explicit. */
static json_t *
bridge_overrides(const struct job *job, const struct job_figures *fig)
{
	const struct layout		*l = &job->in.layout;
	const struct launchenv		*env = &fig->env;
	const struct setting_value	*user = &job->set.v[SET_OVERRIDES];
	const char			*disp = job_str(job, SET_MOE_DISPATCHER);
	const char			*rc = job_str(job, SET_RECOMPUTE);
	json_t				*a = json_array();
	bool				 dist = job_bool(job,
	    SET_DISTRIBUTED_OPTIMIZER, true);
	size_t				 i;
	int				 k;

	add_str(a, "model.tensor_model_parallel_size=%lld", (long long)l->tp);
	add_str(a, "model.pipeline_model_parallel_size=%lld", (long long)l->pp);
	if (l->vpp > 1)
		add_str(a, "model.virtual_pipeline_model_parallel_size=%lld",
		    (long long)l->vpp);
	else
		add_str(a, "model.virtual_pipeline_model_parallel_size=null");
	add_str(a, "model.context_parallel_size=%lld", (long long)l->cp);
	add_str(a, "model.sequence_parallel=%s", tf(l->sp));
	if (fig->sizing.moe) {
		add_str(a, "model.expert_model_parallel_size=%lld",
		    (long long)l->ep);
		add_str(a, "model.expert_tensor_parallel_size=%lld",
		    (long long)l->etp);
	}
	if (job->in.first_stage_layers != 0 || job->in.last_stage_layers != 0)
		/* A recipe's own layout would contradict the split. */
		add_str(a, "model.pipeline_model_parallel_layout=null");
	if (job->in.first_stage_layers != 0)
		add_str(a, "model.num_layers_in_first_pipeline_stage=%lld",
		    (long long)job->in.first_stage_layers);
	if (job->in.last_stage_layers != 0)
		add_str(a, "model.num_layers_in_last_pipeline_stage=%lld",
		    (long long)job->in.last_stage_layers);
	if (job->in.seq_length != 0) {
		add_str(a, "model.seq_length=%lld",
		    (long long)job->in.seq_length);
		add_str(a, "dataset.seq_length=%lld",
		    (long long)job->in.seq_length);
	}
	if (job->in.global_batch != 0)
		add_str(a, "train.global_batch_size=%lld",
		    (long long)job->in.global_batch);
	if (job->set.v[SET_MICRO_BATCH_SIZE].origin != ORIGIN_UNSET)
		add_str(a, "train.micro_batch_size=%lld",
		    (long long)job->in.micro_batch);
	if (disp != NULL && fig->sizing.moe) {
		add_str(a, "model.moe_token_dispatcher_type=%s",
		    dispatcher_type(disp));
		if (strcmp(disp, "deepep") == 0 || strcmp(disp, "hybridep") == 0)
			add_str(a, "model.moe_flex_dispatcher_backend=%s", disp);
	}
	for (k = 0; k < env->nflags; k++)
		add_str(a, "%s=%s", env->flags[k].key, tf(env->flags[k].on));
	if (env->ddp_bucket_size != 0)
		add_str(a, "ddp.bucket_size=%lld",
		    (long long)env->ddp_bucket_size);
	add_str(a, "ddp.use_distributed_optimizer=%s", tf(dist));
	add_str(a, "optimizer.use_distributed_optimizer=%s", tf(dist));
	bridge_precision(a, job);
	if (rc != NULL && strcmp(rc, "none") == 0)
		add_str(a, "model.recompute_granularity=null");
	else if (rc != NULL && strcmp(rc, "selective") == 0)
		add_str(a, "model.recompute_granularity=selective");
	else if (rc != NULL) {
		add_str(a, "model.recompute_granularity=full");
		add_str(a, "model.recompute_method=uniform");
		add_str(a, "model.recompute_num_layers=1");
	}
	for (i = 0; i < user->nlist; i++)
		add_str(a, "%s", user->list[i]);
	return a;
}

static void
add_arg(json_t *a, const char *flag, int64_t v)
{
	add_str(a, "%s", flag);
	add_str(a, "%lld", (long long)v);
}

/* Megatron-LM pretrain_gpt.py arguments. */
static json_t *
mlm_args(const struct job *job, const struct job_figures *fig)
{
	const struct layout		*l = &job->in.layout;
	const struct model		*m = &job->in.model;
	const struct launchenv		*env = &fig->env;
	const struct setting_value	*user = &job->set.v[SET_OVERRIDES];
	const char			*disp = job_str(job, SET_MOE_DISPATCHER);
	const char			*rc = job_str(job, SET_RECOMPUTE);
	json_t				*a = json_array();
	size_t				 i;
	int				 k;

	add_arg(a, "--tensor-model-parallel-size", l->tp);
	add_arg(a, "--pipeline-model-parallel-size", l->pp);
	if (l->vpp > 1)
		add_arg(a, "--num-virtual-stages-per-pipeline-rank", l->vpp);
	add_arg(a, "--context-parallel-size", l->cp);
	if (l->sp)
		add_str(a, "--sequence-parallel");
	if (fig->sizing.moe) {
		add_arg(a, "--expert-model-parallel-size", l->ep);
		add_arg(a, "--expert-tensor-parallel-size", l->etp);
	}
	if (job->in.first_stage_layers != 0)
		add_arg(a, "--decoder-first-pipeline-num-layers",
		    job->in.first_stage_layers);
	if (job->in.last_stage_layers != 0)
		add_arg(a, "--decoder-last-pipeline-num-layers",
		    job->in.last_stage_layers);
	add_arg(a, "--num-layers", m->num_layers);
	add_arg(a, "--hidden-size", m->hidden_size);
	if (m->ffn_hidden_size != 0)
		add_arg(a, "--ffn-hidden-size", m->ffn_hidden_size);
	add_arg(a, "--num-attention-heads", m->num_attention_heads);
	if (m->num_query_groups != 0 &&
	    m->num_query_groups != m->num_attention_heads) {
		add_str(a, "--group-query-attention");
		add_arg(a, "--num-query-groups", m->num_query_groups);
	}
	if (m->kv_channels != 0)
		add_arg(a, "--kv-channels", m->kv_channels);
	if (m->num_experts != 0) {
		add_arg(a, "--num-experts", m->num_experts);
		if (m->moe_router_topk != 0)
			add_arg(a, "--moe-router-topk", m->moe_router_topk);
		if (m->moe_ffn_hidden_size != 0)
			add_arg(a, "--moe-ffn-hidden-size",
			    m->moe_ffn_hidden_size);
		if (disp != NULL) {
			add_str(a, "--moe-token-dispatcher-type");
			add_str(a, "%s", dispatcher_type(disp));
			if (strcmp(disp, "deepep") == 0 ||
			    strcmp(disp, "hybridep") == 0) {
				add_str(a, "--moe-flex-dispatcher-backend");
				add_str(a, "%s", disp);
			}
		}
	}
	add_arg(a, "--seq-length", job->in.seq_length);
	add_arg(a, "--max-position-embeddings", job->in.seq_length);
	add_arg(a, "--micro-batch-size", job->in.micro_batch);
	if (job->in.global_batch != 0)
		add_arg(a, "--global-batch-size", job->in.global_batch);
	if (job_bool(job, SET_DISTRIBUTED_OPTIMIZER, true))
		add_str(a, "--use-distributed-optimizer");
	mlm_precision(a, job);
	if (rc != NULL && strcmp(rc, "selective") == 0)
		add_str(a, "--recompute-activations");
	else if (rc != NULL && strcmp(rc, "full") == 0) {
		add_str(a, "--recompute-granularity");
		add_str(a, "full");
		add_str(a, "--recompute-method");
		add_str(a, "uniform");
		add_str(a, "--recompute-num-layers");
		add_str(a, "1");
	}
	for (k = 0; k < env->nflags; k++)
		if (env->flags[k].mlm_flag != NULL && env->flags[k].on)
			add_str(a, "%s", env->flags[k].mlm_flag);
	if (env->ddp_bucket_size != 0)
		add_arg(a, "--ddp-bucket-size", env->ddp_bucket_size);
	for (i = 0; i < user->nlist; i++)
		add_str(a, "%s", user->list[i]);
	return a;
}

static json_t *
str_or_null(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}

static json_t *
exports_json(const struct launchenv *env, struct buf *names)
{
	json_t	*a = json_array();
	char	 name[256];
	int	 i;

	for (i = 0; i < env->nvars; i++) {
		snprintf(name, sizeof name, "%.*s", env->vars[i].name_len,
		    env->vars[i].name);
		json_array_append_new(a, json_pack("{s:s,s:s}", "name", name,
		    "value", env->vars[i].value));
		if (i > 0)
			buf_addc(names, ',');
		buf_adds(names, name);
	}
	return a;
}

static json_t *
launch_json(const struct job *job, const struct job_figures *fig,
    const char *template, const char *env_names)
{
	const char	*launcher = job_str(job, SET_LAUNCHER);
	const char	*script = job_str(job, SET_TRAIN_SCRIPT);
	json_t		*o = json_object();
	bool		 torchrun = launcher != NULL &&
	    strcmp(launcher, "torchrun") == 0;

	if (script == NULL)
		script = strcmp(template, "megatron-lm") == 0 ?
		    "pretrain_gpt.py" : "scripts/training/run_recipe.py";
	json_object_set_new(o, "launcher", json_string(torchrun ? "torchrun" :
	    "srun"));
	json_object_set_new(o, "srun", json_boolean(!torchrun));
	json_object_set_new(o, "torchrun", json_boolean(torchrun));
	json_object_set_new(o, "train_script", json_string(script));
	json_object_set_new(o, "recipe", str_or_null(job_str(job, SET_RECIPE)));
	json_object_set_new(o, "dataset", str_or_null(job_str(job,
	    SET_DATASET)));
	json_object_set_new(o, "command", str_or_null(job_str(job,
	    SET_COMMAND)));
	json_object_set_new(o, "overrides", bridge_overrides(job, fig));
	json_object_set_new(o, "args", mlm_args(job, fig));
	if (job_str(job, SET_CONTAINER_IMAGE) != NULL)
		json_object_set_new(o, "container", json_pack("{s:s,s:o,s:o,"
		    "s:s}", "image", job_str(job, SET_CONTAINER_IMAGE),
		    "mounts", str_or_null(job_str(job, SET_CONTAINER_MOUNTS)),
		    "workdir", str_or_null(job_str(job, SET_CONTAINER_WORKDIR)),
		    "env", env_names));
	else
		json_object_set_new(o, "container", json_null());
	if (job_bool(job, SET_REQUEUE, false))
		json_object_set_new(o, "requeue", json_pack("{s:s,s:I}",
		    "signal", fig->slurm.trap_signal, "max_restarts",
		    (json_int_t)(job->set.v[SET_MAX_RESTARTS].origin ?
		    job->set.v[SET_MAX_RESTARTS].i : 3)));
	else
		json_object_set_new(o, "requeue", json_null());
	return o;
}

/* The derivation lines of "plan", for the script's header. */
static json_t *
figures_json(const struct job *job, const struct sizing *s)
{
	json_t	*a = json_array();
	char	*text = NULL, *line, *p;
	size_t	 len = 0;
	FILE	*f;

	if ((f = open_memstream(&text, &len)) == NULL)
		return a;
	report_figures(f, job, s);
	fclose(f);
	for (p = text; (line = strsep(&p, "\n")) != NULL;)
		if (*line != '\0')
			json_array_append_new(a, json_string(line));
	free(text);
	return a;
}

json_t *
script_context(const struct job *job, const struct job_figures *fig,
    const char *template, const char *regen)
{
	struct buf	 names;
	json_t		*ctx = report_json(job, fig);

	buf_init(&names);
	json_object_set_new(ctx, "mbsbatch_version",
	    json_string(PACKAGE_VERSION));
	json_object_set_new(ctx, "template", json_string(template));
	json_object_set_new(ctx, "job_name", json_string(job_name(job)));
	json_object_set_new(ctx, "header", json_pack("{s:s,s:o}", "command",
	    regen, "figures", figures_json(job, &fig->sizing)));
	json_object_set_new(ctx, "exports", exports_json(&fig->env, &names));
	/* The rendezvous is exported before srun too. */
	buf_adds(&names, ",MASTER_ADDR,MASTER_PORT");
	json_object_set_new(ctx, "launch", launch_json(job, fig, template,
	    names.data));
	buf_release(&names);
	return ctx;
}

/* What a template may need and how the user provides it. */
static const struct {
	const char	*name;		/* as written in a tag */
	const char	*path;		/* into the context */
	const char	*hint;
} needs[] = {
	{ "launch.recipe", "launch.recipe", "--recipe NAME" },
	{ "launch.command", "launch.command", "--command CMD" },
	{ "model.num_layers", "model.num_layers", "--model or --num-layers" },
};

static json_t *
ctx_get(json_t *ctx, const char *path)
{
	char	 key[64];
	const char *dot;

	while (ctx != NULL && (dot = strchr(path, '.')) != NULL) {
		snprintf(key, sizeof key, "%.*s", (int)(dot - path), path);
		ctx = json_object_get(ctx, key);
		path = dot + 1;
	}
	return ctx != NULL ? json_object_get(ctx, path) : NULL;
}

/* Does TEXT write NAME in a tag ({{name}} or {{ name }})? */
static bool
mentions(const char *text, const char *name)
{
	const char	*p = text, *q;
	size_t		 n = strlen(name);

	while ((p = strstr(p, "{{")) != NULL) {
		p += 2;
		while (*p == ' ')
			p++;
		q = p + strspn(p, "abcdefghijklmnopqrstuvwxyz_.");
		if ((size_t)(q - p) == n && strncmp(p, name, n) == 0)
			return true;
	}
	return false;
}

static struct error *
check_needs(const struct job *job, const struct template *t, json_t *ctx)
{
	const struct model	*m = &job->in.model;
	json_t			*v;
	size_t			 i;

	for (i = 0; i < sizeof needs / sizeof needs[0]; i++) {
		if (needs[i].path == NULL || !mentions(t->text, needs[i].path))
			continue;
		v = ctx_get(ctx, needs[i].path);
		if (v == NULL || json_is_null(v))
			return error_new(EXIT_USAGE, "gen: template '%s' needs "
			    "%s: give %s", t->name, needs[i].path,
			    needs[i].hint);
	}
	/* pretrain_gpt.py cannot run without the model's shape. */
	if (strstr(t->text, "{{#launch.args}}") != NULL &&
	    (m->num_layers == 0 || m->hidden_size == 0 ||
	    m->num_attention_heads == 0 || job->in.seq_length == 0))
		return error_new(EXIT_USAGE, "gen: template '%s' needs the "
		    "model's layers, hidden size and heads and the sequence "
		    "length: give --model (or --num-layers, --hidden-size, "
		    "--num-attention-heads) and --seq-length", t->name);
	return NULL;
}

struct error *
script_render(const struct job *job, const struct job_figures *fig,
    const struct template *t, const char *regen, struct buf *out)
{
	struct error	*err;
	json_t		*ctx = script_context(job, fig, t->name, regen);
	size_t		 start = out->len;

	const char	*name = t->path != NULL ? t->path : t->name;

	/* The template's syntax first, then what it needs of the job. */
	if ((err = tmpl_check(name, t->text)) == NULL &&
	    (err = check_needs(job, t, ctx)) == NULL)
		err = tmpl_render(name, t->text, ctx, out);
	/* sbatch refuses a script that does not start with #!. */
	if (err == NULL && (out->len - start < 2 ||
	    strncmp(out->data + start, "#!", 2) != 0))
		err = error_new(EXIT_USAGE, "gen: template '%s': the script it "
		    "writes does not start with '#!' (sbatch would refuse it)",
		    name);
	json_decref(ctx);
	return err;
}
