/* report.c: the plan object and the plan text; see report.h. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibration.h"
#include "number.h"
#include "hybrid.h"
#include "report.h"
#include "settings.h"

#define GIB	(1024.0 * 1024.0 * 1024.0)

static json_t *
int_or_null(int64_t v)
{
	return v != 0 ? json_integer(v) : json_null();
}

json_t *
report_model_json(const struct model *m)
{
	json_t	*o;

	o = json_object();
	json_object_set_new(o, "name", m->name != NULL ?
	    json_string(m->name) : json_null());
	json_object_set_new(o, "kind", json_string(
	    m->kind == MODEL_KIND_DENSE ? "dense" :
	    m->kind == MODEL_KIND_MOE ? "moe" : "unknown"));
	json_object_set_new(o, "num_layers", int_or_null(m->num_layers));
	json_object_set_new(o, "hidden_size", int_or_null(m->hidden_size));
	json_object_set_new(o, "ffn_hidden_size",
	    int_or_null(m->ffn_hidden_size));
	json_object_set_new(o, "num_attention_heads",
	    int_or_null(m->num_attention_heads));
	json_object_set_new(o, "num_query_groups",
	    int_or_null(m->num_query_groups));
	json_object_set_new(o, "vocab_size", int_or_null(m->vocab_size));
	json_object_set_new(o, "num_experts", m->kind == MODEL_KIND_DENSE ?
	    json_integer(0) : int_or_null(m->num_experts));
	json_object_set_new(o, "moe_router_topk",
	    int_or_null(m->moe_router_topk));
	json_object_set_new(o, "moe_ffn_hidden_size",
	    int_or_null(m->moe_ffn_hidden_size));
	json_object_set_new(o, "moe_shared_experts",
	    json_integer(m->moe_shared_experts));
	json_object_set_new(o, "moe_dense_layers",
	    json_integer(m->moe_dense_layers));
	json_object_set_new(o, "kv_channels", int_or_null(m->kv_channels));
	json_object_set_new(o, "tied_embeddings",
	    json_boolean(m->tied_embeddings));
	json_object_set_new(o, "params", int_or_null(m->params));
	json_object_set_new(o, "active_params", int_or_null(m->active_params));
	if (m->hybrid_pattern != NULL) {
		json_object_set_new(o, "hybrid_layer_pattern",
		    json_string(m->hybrid_pattern));
		json_object_set_new(o, "mamba_state_dim",
		    json_integer(m->mamba_state_dim));
		json_object_set_new(o, "mamba_head_dim",
		    json_integer(m->mamba_head_dim));
		json_object_set_new(o, "mamba_num_heads",
		    json_integer(hybrid_mamba_heads(m)));
		json_object_set_new(o, "mamba_num_groups",
		    json_integer(m->mamba_num_groups));
		json_object_set_new(o, "moe_latent_size",
		    int_or_null(m->moe_latent_size));
	}
	return o;
}

/* "env" and "env_origin": the launch environment. */
static void
env_json(json_t *o, const struct launchenv *env)
{
	json_t	*e = json_object(), *w = json_object();
	char	 name[256];
	int	 i;

	for (i = 0; i < env->nvars; i++) {
		snprintf(name, sizeof name, "%.*s", env->vars[i].name_len,
		    env->vars[i].name);
		json_object_set_new(e, name, json_string(env->vars[i].value));
		json_object_set_new(w, name, json_string(env->vars[i].origin));
	}
	json_object_set_new(o, "env", e);
	json_object_set_new(o, "env_origin", w);
}

static json_t *
overlap_json(const struct launchenv *env)
{
	json_t	*o = json_object();
	int	 i;

	/* Keys without their "comm_overlap." / "ddp." prefix, so that
	 * templates can name them. */
	for (i = 0; i < env->nflags; i++)
		json_object_set_new(o, strchr(env->flags[i].key, '.') + 1,
		    json_boolean(env->flags[i].on));
	json_object_set_new(o, "bucket_size", env->ddp_bucket_size != 0 ?
	    json_integer(env->ddp_bucket_size) : json_null());
	return o;
}

static json_t *
slurm_json(const struct slurmopt *so)
{
	const struct slurm_directive	*d;
	json_t				*a = json_array();
	int				 i;

	for (i = 0; i < so->n; i++) {
		d = &so->d[i];
		json_array_append_new(a, json_pack("{s:s,s:o,s:b,s:s}",
		    "option", d->option, "value", d->is_number ?
		    json_integer(d->number) : d->value == NULL ? json_null() :
		    json_string(d->value), "flag", !d->is_number &&
		    d->value == NULL, "origin", d->origin));
	}
	return a;
}

/* The recompute mode in a sentence: "no recompute", "full recompute". */
static const char *
recompute_name(enum recompute rc)
{
	return rc == RECOMPUTE_NONE ? "no" : settings_word(SET_RECOMPUTE, rc);
}

/* A dtype's name, the default resolved for the state it is of. */
static const char *
precision_name(enum precision p, const char *dflt)
{
	return p != PRECISION_DEFAULT ? settings_word(SET_PARAMS_DTYPE, p) :
	    dflt;
}

/* GiB to the hundredth, as printed. */
static json_t *
gib(double v)
{
	return json_real(round(v * 100) / 100);
}

static json_t *
memory_json(const struct sizing_input *in, const struct sizing *s)
{
	const struct memory_estimate	*m = &s->memory;
	json_t				*o;

	if (!s->has_memory)
		return json_null();
	o = json_object();
	json_object_set_new(o, "params_gib", gib(m->params_gib));
	json_object_set_new(o, "grads_gib", gib(m->grads_gib));
	if (in->lora.rank != 0)
		json_object_set_new(o, "lora", json_pack("{s:I,s:f}", "rank",
		    (json_int_t)in->lora.rank, "adapter_params",
		    m->adapter_params));
	json_object_set_new(o, "optimizer_gib", gib(m->optimizer_gib));
	json_object_set_new(o, "activations_gib", gib(m->activations_gib));
	json_object_set_new(o, "total_gib", gib(m->total_gib));
	json_object_set_new(o, "gpu_gib", in->gpu_gib > 0 ? gib(in->gpu_gib) :
	    json_null());
	json_object_set_new(o, "params_per_gpu", json_integer((json_int_t)
	    llround(m->params)));
	json_object_set_new(o, "model_params", json_integer((json_int_t)
	    llround(m->model_params)));
	json_object_set_new(o, "distributed_optimizer",
	    json_boolean(in->distributed_optimizer));
	json_object_set_new(o, "recompute", json_string(settings_word(
	    SET_RECOMPUTE, in->recompute)));
	json_object_set_new(o, "method", json_string(settings_word(
	    SET_MEMORY_MODEL, in->memory_method)));
	json_object_set_new(o, "params_dtype", json_string(in->fp8_params ?
	    (in->fp8 == FP8_NVFP4 ? "nvfp4" : "fp8") :
	    precision_name(in->params_dtype, "bf16")));
	json_object_set_new(o, "grads_dtype",
	    json_string(precision_name(in->grads_dtype, "fp32")));
	json_object_set_new(o, "optimizer_dtype",
	    json_string(precision_name(in->optimizer_dtype, "fp32")));
	json_object_set_new(o, "moe_activations_gib",
	    gib(m->moe_activations_gib));
	return o;
}

json_t *
report_json(const struct plan *plan)
{
	const struct sizing_input	*in = plan->in;
	const struct job_figures	*fig = plan->fig;
	const struct sizing		*s = &fig->sizing;
	const struct layout		*l = &in->layout;
	struct report_estimate		 e;
	json_t				*o, *p, *a, *f;
	int				 k;

	o = json_object();
	p = json_object();
	json_object_set_new(p, "tp", json_integer(l->tp));
	json_object_set_new(p, "pp", json_integer(l->pp));
	json_object_set_new(p, "cp", json_integer(l->cp));
	json_object_set_new(p, "ep", json_integer(l->ep));
	json_object_set_new(p, "etp", json_integer(l->etp));
	json_object_set_new(p, "vpp", json_integer(l->vpp));
	json_object_set_new(p, "sp", json_boolean(l->sp));
	json_object_set_new(p, "fsdp", in->fsdp == FSDP_OFF ? json_null() :
	    json_string(settings_word(SET_FSDP_SHARDING, in->fsdp)));

	json_object_set_new(o, "parallelism", p);

	json_object_set_new(o, "num_layers_in_first_pipeline_stage",
	    int_or_null(in->first_stage_layers));
	json_object_set_new(o, "num_layers_in_last_pipeline_stage",
	    int_or_null(in->last_stage_layers));
	json_object_set_new(o, "pipeline_split", !s->split_known ?
	    json_null() : json_pack("{s:I,s:I,s:I,s:I}",
	    "first", (json_int_t)s->split_first,
	    "middle", (json_int_t)s->split_middle,
	    "middle_stages", (json_int_t)s->split_middle_stages,
	    "last", (json_int_t)s->split_last));
	json_object_set_new(o, "min_gpus", json_integer(s->min_gpus));
	json_object_set_new(o, "naive_product", json_integer(s->naive_product));
	json_object_set_new(o, "mesh", json_pack("{s:I,s:I,s:I}",
	    "dense", (json_int_t)s->dense_mesh,
	    "expert", (json_int_t)s->expert_mesh,
	    "lcm", (json_int_t)s->mesh_lcm));
	json_object_set_new(o, "multiple", int_or_null(s->multiple));
	json_object_set_new(o, "world_size", json_integer(s->world));
	json_object_set_new(o, "world_from", json_string(
	    in->world_from == WORLD_FROM_GPUS ? "gpus" :
	    in->world_from == WORLD_FROM_NODES ? "nodes" : "multiple"));
	json_object_set_new(o, "dp", int_or_null(s->dp));
	json_object_set_new(o, "edp", int_or_null(s->edp));
	json_object_set_new(o, "nodes", json_integer(s->nodes));
	json_object_set_new(o, "gpus_per_node", json_integer(in->gpus_per_node));
	json_object_set_new(o, "tasks_per_node", int_or_null(s->tasks_per_node));
	json_object_set_new(o, "nvlink_domain", json_integer(s->nvlink_domain));
	json_object_set_new(o, "moe", json_boolean(s->moe));
	json_object_set_new(o, "model", plan->model != NULL ?
	    report_model_json(plan->model) : json_null());
	json_object_set_new(o, "seq_length", int_or_null(in->seq_length));
	json_object_set_new(o, "global_batch_size",
	    int_or_null(in->global_batch));
	json_object_set_new(o, "micro_batch_size",
	    json_integer(in->micro_batch));
	json_object_set_new(o, "bridge", report_bridge_json(plan));
	json_object_set_new(o, "calibration", calibration_json_of(
	    &plan->calibration));
	json_object_set_new(o, "cluster", plan->cluster != NULL ?
	    json_string(plan->cluster) : json_null());
	json_object_set_new(o, "memory", memory_json(in, s));
	report_estimate_of_plan(&e, plan);
	report_estimate_json(o, &e);

	env_json(o, &fig->env);
	json_object_set_new(o, "comm_overlap", overlap_json(&fig->env));
	json_object_set_new(o, "slurm", slurm_json(&fig->slurm));

	a = json_array();
	for (k = 0; k < s->nfindings; k++) {
		f = json_pack("{s:s,s:s,s:s}", "code", s->findings[k].code,
		    "severity", sizing_severity_word(s->findings[k].severity),
		    "message", s->findings[k].message);
		json_array_append_new(a, f);
	}
	json_object_set_new(o, "findings", a);
	a = json_array();
	for (k = 0; k < s->nskipped; k++)
		json_array_append_new(a, json_pack("{s:s,s:s}", "code",
		    s->skipped[k].code, "reason", s->skipped[k].reason));
	json_object_set_new(o, "skipped", a);
	return o;
}

bool
report_failed(const struct sizing *s, bool strict)
{
	return s->nerrors > 0 || (strict && sizing_nwarnings(s) > 0);
}

static void __attribute__((format(printf, 3, 4)))
add_detail(char *buf, size_t len, const char *fmt, ...)
{
	size_t	 n = strlen(buf);
	va_list	 ap;

	if (n != 0 && n + 2 < len) {
		memcpy(buf + n, ", ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

static void
text_model(struct lines *out, const struct plan *p)
{
	const struct model	*m = p->model;
	char			 a[32], b[32], detail[256];

	if (m == NULL) {
		lines_addf(out, "%-13s none given (--model, or the architecture "
		    "options): model rules not checked\n", "model");
		return;
	}
	lines_addf(out, "%-13s ", "model");
	if (m->name != NULL)
		lines_addf(out, "%s%s%s%s, ", m->name,
		    m->description != NULL ? " (" : "",
		    m->description != NULL ? m->description : "",
		    m->description != NULL ? ")" : "");
	lines_addf(out, "%s", m->kind == MODEL_KIND_DENSE ? "dense" :
	    m->kind == MODEL_KIND_MOE ? "MoE" : "dense or MoE: unknown");
	if (m->params != 0) {
		number_format_approx(m->params, a, sizeof a);
		lines_addf(out, ", %s parameters", a);
		if (m->active_params != 0) {
			number_format_approx(m->active_params, b, sizeof b);
			lines_addf(out, " (%s active)", b);
		}
	}
	lines_addf(out, "\n");
	detail[0] = '\0';
	if (m->num_layers != 0)
		add_detail(detail, sizeof detail, "%" PRId64 " layers",
		    m->num_layers);
	if (m->hidden_size != 0)
		add_detail(detail, sizeof detail, "hidden %" PRId64,
		    m->hidden_size);
	if (m->num_attention_heads != 0)
		add_detail(detail, sizeof detail, "%" PRId64 " heads",
		    m->num_attention_heads);
	if (m->num_query_groups != 0)
		add_detail(detail, sizeof detail, "%" PRId64 " query groups",
		    m->num_query_groups);
	if (m->num_experts != 0 && m->moe_router_topk != 0)
		add_detail(detail, sizeof detail, "%" PRId64 " experts (top %"
		    PRId64 ")", m->num_experts, m->moe_router_topk);
	else if (m->num_experts != 0)
		add_detail(detail, sizeof detail, "%" PRId64 " experts",
		    m->num_experts);
	if (m->vocab_size != 0)
		add_detail(detail, sizeof detail, "vocab %" PRId64,
		    m->vocab_size);
	/* An architecture without a preset, on a recipe's model: whether
	 * the output layer shares the embedding, and who says so. */
	if (m->name == NULL && p->recipe != NULL)
		add_detail(detail, sizeof detail, "%s", p->recipe->
		    tie_embeddings != TRI_UNSET ? (m->tied_embeddings ?
		    "tied embeddings (the recipe's model)" :
		    "untied embeddings (the recipe's model)") :
		    p->recipe->hf_model != NULL ? "untied embeddings assumed "
		    "(the recipe takes the tie from its Hugging Face config)" :
		    "untied embeddings assumed (not known of this recipe)");
	if (detail[0] != '\0')
		lines_addf(out, "%-13s %s\n", "", detail);
}

static void
text_world(struct lines *out, const struct plan *p)
{
	const struct sizing_input	*in = p->in;
	const struct sizing		*s = &p->fig->sizing;

	switch (in->world_from) {
	case WORLD_FROM_MULTIPLE:
		lines_addf(out, "%-13s %" PRId64 " = %" PRId64 " × min GPUs\n",
		    "world size", s->world, s->multiple);
		break;
	case WORLD_FROM_GPUS:
		if (s->multiple != 0)
			lines_addf(out, "%-13s %" PRId64 " (given) = %" PRId64
			    " × min GPUs\n", "world size", s->world,
			    s->multiple);
		else
			lines_addf(out, "%-13s %" PRId64 " (given): not a multiple "
			    "of min GPUs %" PRId64 "\n", "world size", s->world,
			    s->min_gpus);
		break;
	case WORLD_FROM_NODES:
		lines_addf(out, "%-13s %" PRId64 " = %" PRId64 " nodes × %" PRId64
		    " GPUs per node", "world size", s->world, in->nodes,
		    in->gpus_per_node);
		if (s->multiple != 0)
			lines_addf(out, " = %" PRId64 " × min GPUs\n", s->multiple);
		else
			lines_addf(out, ": not a multiple of min GPUs %" PRId64 "\n",
			    s->min_gpus);
		break;
	}
}

void
report_figures(struct lines *out, const struct plan *p)
{
	const struct sizing	*s = &p->fig->sizing;
	const struct layout	*l = &p->in->layout;
	int64_t			 g = p->in->gpus_per_node;

	lines_addf(out, "%-13s TP %" PRId64 " · PP %" PRId64 " · CP %" PRId64
	    " · EP %" PRId64 " · ETP %" PRId64 " · VPP %" PRId64 " · SP %s\n",
	    "layout", l->tp, l->pp, l->cp, l->ep, l->etp, l->vpp,
	    l->sp ? "on" : "off");
	if (p->in->fsdp != FSDP_OFF)
		lines_addf(out, "%-13s Megatron-FSDP, %s sharded over DP\n", "",
		    settings_word(SET_FSDP_SHARDING, p->in->fsdp));
	text_model(out, p);
	report_bridge_text(out, p);
	if (s->mesh_lcm == s->mesh_max)
		lines_addf(out, "%-13s %" PRId64 " = PP·max(TP·CP, EP·ETP) = %"
		    PRId64 "·max(%" PRId64 "·%" PRId64 ", %" PRId64 "·%" PRId64
		    ")\n", "min GPUs", s->min_gpus, l->pp, l->tp, l->cp, l->ep,
		    l->etp);
	else
		lines_addf(out, "%-13s %" PRId64 " = PP·lcm(TP·CP, EP·ETP) = %"
		    PRId64 "·lcm(%" PRId64 "·%" PRId64 ", %" PRId64 "·%" PRId64
		    "), not PP·max = %" PRId64 " (see mesh-lcm)\n", "min GPUs",
		    s->min_gpus, l->pp, l->tp, l->cp, l->ep, l->etp,
		    l->pp * s->mesh_max);
	if (s->naive_product != s->min_gpus)
		lines_addf(out, "%-13s not %" PRId64 " = PP·TP·CP·EP·ETP: the dense "
		    "and expert meshes share each stage's GPUs\n", "",
		    s->naive_product);
	text_world(out, p);
	if (s->dp != 0)
		lines_addf(out, "%-13s %" PRId64 " = world / (TP·CP·PP) = %" PRId64
		    " / (%" PRId64 "·%" PRId64 "·%" PRId64 ")\n", "DP", s->dp,
		    s->world, l->tp, l->cp, l->pp);
	else
		lines_addf(out, "%-13s none: %" PRId64 " is not divisible by "
		    "TP·CP·PP = %" PRId64 "\n", "DP", s->world,
		    l->tp * l->cp * l->pp);
	if (s->edp != 0)
		lines_addf(out, "%-13s %" PRId64 " = world / (EP·ETP·PP) = %" PRId64
		    " / (%" PRId64 "·%" PRId64 "·%" PRId64 ")\n", "EDP", s->edp,
		    s->world, l->ep, l->etp, l->pp);
	else
		lines_addf(out, "%-13s none: %" PRId64 " is not divisible by "
		    "EP·ETP·PP = %" PRId64 "\n", "EDP", s->world,
		    l->ep * l->etp * l->pp);
	lines_addf(out, "%-13s %" PRId64 " = ceil(%" PRId64 " / %" PRId64
	    " GPUs per node)", "nodes", s->nodes, s->world, g);
	if (s->tasks_per_node != 0)
		lines_addf(out, ", %" PRId64 " task%s per node\n", s->tasks_per_node,
		    s->tasks_per_node == 1 ? "" : "s");
	else
		lines_addf(out, ", but %" PRId64 " GPUs do not spread evenly\n",
		    s->world);
	if (s->nvlink_domain != g)
		lines_addf(out, "%-13s %" PRId64 " GPUs\n", "NVLink domain",
		    s->nvlink_domain);
	if (s->split_known && s->split_first == s->split_middle &&
	    s->split_last == s->split_middle)
		lines_addf(out, "%-13s %" PRId64 " per stage = %" PRId64 " / PP %"
		    PRId64 "%s\n", "layers", s->split_middle,
		    p->in->model.num_layers, l->pp, l->vpp > 1 ?
		    ", in VPP chunks" : "");
	else if (s->split_known && s->split_middle_stages > 0)
		lines_addf(out, "%-13s %" PRId64 " = %" PRId64 " + %" PRId64 "×%"
		    PRId64 " + %" PRId64 " (first stage, middle stages, last "
		    "stage)\n", "layers", p->in->model.num_layers,
		    s->split_first, s->split_middle_stages, s->split_middle,
		    s->split_last);
	else if (s->split_known)
		lines_addf(out, "%-13s %" PRId64 " = %" PRId64 " + %" PRId64
		    " (first stage, last stage)\n", "layers",
		    p->in->model.num_layers, s->split_first, s->split_last);
}

static void
text_memory(FILE *f, const struct plan *p)
{
	const struct sizing_input	*in = p->in;
	const struct sizing		*s = &p->fig->sizing;
	const struct memory_estimate	*m = &s->memory;
	double				 gpu = in->gpu_gib;
	bool				 hybrid = in->model.hybrid_pattern !=
	    NULL;
	bool				 moe = in->model.kind ==
	    MODEL_KIND_MOE && !hybrid;

	if (!s->has_memory) {
		fprintf(f, "%-13s not estimated: %s\n", "memory",
		    s->memory_reason);
		return;
	}
	fprintf(f, "%-13s %.2f GiB per GPU", "memory", m->total_gib);
	if (gpu > 0)
		fprintf(f, " of %.1f GiB (%.0f%%)", gpu,
		    100 * m->total_gib / gpu);
	if (p->in->memory_method == MEMORY_SKILL) {
		fprintf(f, ", the skill's rule of thumb (%.2f GB)\n",
		    m->total_gib * GIB / 1e9);
		fprintf(f, "%-13s %8.2f GiB  %.2f GB: fp16 weights, %.4g B "
		    "parameters over TP·PP\n", "  params", m->params_gib,
		    m->params_gib * GIB / 1e9, m->model_params / 1e9);
		fprintf(f, "%-13s %8.2f GiB  %.2f GB: fp16 gradients\n",
		    "  grads", m->grads_gib, m->grads_gib * GIB / 1e9);
		fprintf(f, "%-13s %8.2f GiB  %.2f GB: Adam moments, 4 bytes "
		    "per parameter\n", "  optimizer", m->optimizer_gib,
		    m->optimizer_gib * GIB / 1e9);
		fprintf(f, "%-13s %8.2f GiB  %.2f GB: 48 GB per 70B parameters "
		    "at batch 1, sequence 4096, over TP·PP\n",
		    "  activations", m->activations_gib,
		    m->activations_gib * GIB / 1e9);
		return;
	}
	fprintf(f, hybrid ? ", mbsbatch's count for hybrid layers\n" :
	    ", Megatron's theoretical formulas\n");
	fprintf(f, "%-13s %8.2f GiB  %s weights, %.3g B parameters on "
	    "this GPU of %.4g B%s\n", "  params", m->params_gib,
	    p->in->fp8_params ? (p->in->fp8 == FP8_NVFP4 ? "nvfp4" : "fp8") :
	    precision_name(p->in->params_dtype, "bf16"), m->params / 1e9,
	    m->model_params / 1e9, p->in->fsdp == FSDP_OPTIM_GRADS_PARAMS ?
	    ", sharded over DP, two layers gathered whole" : "");
	fprintf(f, "%-13s %8.2f GiB  %s gradients%s", "  grads",
	    m->grads_gib, precision_name(p->in->grads_dtype, "fp32"),
	    p->in->fsdp == FSDP_OPTIM_GRADS_PARAMS ||
	    p->in->fsdp == FSDP_OPTIM_GRADS ? ", sharded over DP, two "
	    "layers whole" : "");
	if (p->in->lora.rank != 0)
		fprintf(f, " and optimizer state of the LoRA adapters alone "
		    "(rank %lld, %.3g M parameters on this GPU)",
		    (long long)p->in->lora.rank, m->adapter_params / 1e6);
	fputc('\n', f);
	fprintf(f, "%-13s %8.2f GiB  %s%s Adam moments, %g bytes a "
	    "parameter%s\n", "  optimizer", m->optimizer_gib,
	    p->in->params_dtype == PRECISION_FP32 ? "" :
	    "fp32 master weights and ",
	    precision_name(p->in->optimizer_dtype, "fp32"),
	    m->optimizer_bytes,
	    p->in->distributed_optimizer ? ", sharded over DP" : "");
	fprintf(f, "%-13s %8.2f GiB  %s recompute%s, %s, first pipeline "
	    "stage%s\n", "  activations", m->activations_gib,
	    recompute_name(p->in->recompute),
	    p->in->recompute == RECOMPUTE_SELECTIVE &&
	    (p->in->recompute_modules & RECOMPUTE_MOE_ACT) ?
	    " (and the experts' activation)" : "", p->in->layout.sp ? "SP" :
	    "no SP", moe ? "," : "");
	if (moe)
		fprintf(f, "%-13s %8s      of which %.2f GiB for the MoE layers "
		    "beyond Megatron's dense count (mbsbatch's estimate)\n",
		    "", "", m->moe_activations_gib);
}

/* The step's estimate, its terms beyond compute, and how far to trust it. */
static void
text_estimate(FILE *f, const struct plan *p)
{
	const struct job_figures	*fig = p->fig;
	char			 lines[COST_NTERMS][REPORT_LINE_MAX];
	struct report_estimate	 e;
	int			 k, n;

	report_estimate_of_plan(&e, p);
	report_estimate_line(&e, lines[0], sizeof lines[0]);
	fprintf(f, "%-13s %s\n", "estimate", lines[0]);
	if (e.reason != NULL)
		return;
	fprintf(f, "%-13s compute %.2f s over %" PRId64 " micro-batches%s\n",
	    "", report_estimate_seconds(&e, COST_COMPUTE),
	    fig->cost.microbatches, fig->cost.microbatches_assumed ?
	    " (assumed: no global batch size)" : "");
	n = report_estimate_terms(&e, fig->sizing.dp, lines, COST_NTERMS);
	for (k = 0; k < n; k++)
		fprintf(f, "%-13s %s\n", "", lines[k]);
	fprintf(f, "%-13s %s\n", "", report_estimate_accuracy());
}

void
report_findings(FILE *f, const struct sizing *s)
{
	int	 k;

	for (k = 0; k < s->nfindings; k++)
		fprintf(f, "%-7s  %-20s  %s\n",
		    sizing_severity_word(s->findings[k].severity),
		    s->findings[k].code, s->findings[k].message);
}

static void
text_inputs(FILE *f, const struct plan *p)
{
	const struct setting_def	*d;
	const struct setting_value	*v;
	size_t				 i, j;

	fprintf(f, "settings\n");
	for (i = 0; i < p->config->nfiles; i++)
		fprintf(f, "  %-34s %s\n", "config file",
		    p->config->files[i]);
	if (p->cluster != NULL)
		fprintf(f, "  %-34s %s\n", "cluster", p->cluster);
	for (i = 0; i < SET__COUNT; i++) {
		d = &settings_table[i];
		v = &p->set->v[i];
		if (v->origin == ORIGIN_UNSET || d->id == SET_CLUSTER)
			continue;
		fprintf(f, "  %-34s ", d->key);
		switch (d->type) {
		case ST_INT:
		case ST_COUNT:
			fprintf(f, "%" PRId64, v->i);
			break;
		case ST_GIB:
		case ST_REAL:
			fprintf(f, "%g", v->d);
			break;
		case ST_BOOL:
			fprintf(f, "%s", v->b ? "true" : "false");
			break;
		case ST_STRING:
		case ST_CHOICE:
			fprintf(f, "%s", v->s);
			break;
		case ST_LIST:
		case ST_ENV:
		case ST_OPTIONS:
			for (j = 0; j < v->nlist; j++)
				fprintf(f, "%s%s", j ? ", " : "", v->list[j]);
			break;
		}
		fprintf(f, "  (%s)\n", d->type == ST_ENV ||
		    d->type == ST_OPTIONS ? "merged" :
		    settings_origin_name(v->origin));
	}
	fputc('\n', f);
}

static void
text_env(FILE *f, const struct launchenv *env)
{
	int	 i;

	fprintf(f, "\nlaunch environment\n");
	for (i = 0; i < env->nvars; i++)
		fprintf(f, "  %.*s=%s%*s  %s\n", env->vars[i].name_len,
		    env->vars[i].name, env->vars[i].value,
		    (int)(36 - env->vars[i].name_len -
		    (int)strlen(env->vars[i].value) > 0 ? 36 -
		    env->vars[i].name_len - (int)strlen(env->vars[i].value) :
		    0), "", env->vars[i].origin);
	fprintf(f, "\ncommunication overlap\n");
	for (i = 0; i < env->nflags; i++)
		fprintf(f, "  %-30s %-5s  %s\n", env->flags[i].key,
		    env->flags[i].on ? "true" : "false", env->flags[i].origin);
	if (env->ddp_bucket_size != 0) {
		char	 v[32];

		snprintf(v, sizeof v, "%lld", (long long)env->ddp_bucket_size);
		fprintf(f, "  %-30s %-5s  %s\n", "ddp.bucket_size", v,
		    env->ddp_bucket_origin);
	}
}

static void
text_slurm(FILE *f, const struct slurmopt *so)
{
	const char	*v;
	char		 d[96], num[32];
	int		 i;

	fprintf(f, "\nSlurm\n");
	for (i = 0; i < so->n; i++) {
		v = slurmopt_value(&so->d[i], num, sizeof num);
		snprintf(d, sizeof d, "--%s%s%s", so->d[i].option,
		    v != NULL ? "=" : "", v != NULL ? v : "");
		fprintf(f, "  %-36s %s\n", d, so->d[i].origin);
	}
}

void
report_text(FILE *f, const struct plan *p, int verbose, bool strict)
{
	const struct job_figures *fig = p->fig;
	const struct sizing	*s = &fig->sizing;
	struct lines		 figures;
	int			 k, nwarn = sizing_nwarnings(s);

	if (verbose > 0)
		text_inputs(f, p);
	lines_init(&figures);
	report_figures(&figures, p);
	for (k = 0; k < (int)figures.n; k++)
		fprintf(f, "%s\n", figures.v[k]);
	lines_release(&figures);
	calibration_print_of(f, "\n", &p->calibration);
	text_memory(f, p);
	text_estimate(f, p);
	text_env(f, &fig->env);
	text_slurm(f, &fig->slurm);
	if (s->nfindings > 0) {
		fprintf(f, "\nfindings\n");
		for (k = 0; k < s->nfindings; k++)
			fprintf(f, "  %-7s  %-20s  %s\n",
			    sizing_severity_word(s->findings[k].severity),
			    s->findings[k].code, s->findings[k].message);
	}
	if (s->nskipped > 0) {
		fprintf(f, "\nnot checked\n");
		for (k = 0; k < s->nskipped; k++)
			fprintf(f, "  %-29s  %s\n", s->skipped[k].code,
			    s->skipped[k].reason);
	}
	fprintf(f, "\n%d error%s, %d warning%s", s->nerrors,
	    s->nerrors == 1 ? "" : "s", nwarn, nwarn == 1 ? "" : "s");
	if (s->ninfos > 0)
		fprintf(f, ", %d info", s->ninfos);
	fprintf(f, "%s\n", strict && nwarn > 0 ?
	    " (--strict: warnings fail the layout)" : "");
}
