/*
 * perfrows.c: read tests/data/perf/bridge-performance-summary.csv into
 * sizing inputs (perfrows.h).
 *
 * What a column means is the summary's own (README.md there).  The
 * mappings a new user would make:
 * - system: DGX-H100 h100, DGX-B200 b200, DGX-B300 b300, DGX-GB200
 *   gb200, DGX-GB300 gb300 (gpu.c: node shape, NVLink domain, memory).
 * - precision ("?": the 25.09 tables' footnote, same meaning): BF16 no
 *   --fp8; FP8 and FP8-CS --fp8 tensorwise (the performance scripts'
 *   compute_dtype fp8_cs, current scaling: Megatron-Bridge
 *   scripts/performance/argument_parser.py:698 at 067f987d, and the
 *   scripts' tables of runs dump_perf_configs.py name every plain FP8 run
 *   fp8_cs); FP8-MX and MXFP8 --fp8 mxfp8; FP8-blockwise --fp8
 *   blockwise (fp8_sc, 128x128 weights and 1x128 activations: the 25.09
 *   archive table's footnote); NVFP4 --fp8 nvfp4 (compute_dtype nvfp4,
 *   bf16_with_nvfp4_mixed: perf_recipes/_common.py:118-119), its weights
 *   gathered in NVFP4 as that recipe has them (mixed_precision.py:415),
 *   but Nemotron 3 Super's, whose perf recipes turn the gather off and
 *   keep the last 14 layers in BF16 (perf_recipes/nemotronh/
 *   common.py:65-69).
 * - model: the built-in preset; "(w/o MTP)" drops the MTP layer of the
 *   DeepSeek-V3 preset; "(w/ MTP)", "(dropless)" and "(tokendrop)"
 *   change nothing (the runs force-balance the experts' tokens, so a
 *   token-dropping run drops none: the summary's MoE footnote).
 * - layout: TP, PP, CP, VP (n/a: 1), EP (n/a: 1), ETP 1, SP with TP > 1
 *   (Bridge's performance recipes turn it on with TP), --fsdp
 *   (optim_grads_params) when fsdp > 0, the split of split_of(), the
 *   settings of the row's performance recipe as its release ran it
 *   (configs_of(): TP overlap, dispatcher, a2a overlap, recompute, CUDA
 *   graphs), the
 *   rest mbsbatch's defaults (distributed optimizer, selective
 *   recompute, the alltoall dispatcher where the recipe sets none), and
 *   gradients reduced in BF16 and FP8 weights with --fp8 as the runs had
 *   them (input_of()).
 * Fine-tuning rows: finetune_of().
 * Rows it cannot express get why_not: models without a preset,
 * Megatron-FSDP over less than DP (HSDP), and a layout whose
 * minimum GPUs (PP x lcm(TP x CP, EP)) does not divide the row's GPUs
 * (the 25.09 GB200 DeepSeek-V3 alternative, PP 8 with EP 64 on 256).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "model-file.h"
#include "perfrows.h"

#define NFIELDS	19

static const struct {
	const char	*system, *gpu;
} systems[] = {
	{ "DGX-H100", "h100" }, { "DGX-B200", "b200" },
	{ "DGX-B300", "b300" }, { "DGX-GB200", "gb200" },
	{ "DGX-GB300", "gb300" },
};

static const struct {
	const char	*model, *preset;
} presets[] = {
	{ "LLAMA3_8B", "llama3-8b" }, { "LLAMA3_70B", "llama3-70b" },
	{ "LLAMA3.1_405B", "llama3.1-405b" },
	{ "Qwen3_30B_a3B", "qwen3-30b-a3b" },
	{ "Qwen3_235B_a22B", "qwen3-235b-a22b" },
	{ "DeepSeekV3", "deepseek-v3" }, { "Kimi_K2", "kimi-k2" },
	{ "GPT OSS 120B", "gpt-oss-120b" },
	{ "Nemotron_3_Nano", "nemotron-3-nano" },
	{ "Nemotron_3_Super", "nemotron-3-super" },
	{ "Nemotron_3_Ultra", "nemotron-3-ultra" },
	/* Nemotron 3.5 Lightning is Nano's architecture: its recipes
	 * start from the Nano's (recipes/nemotronh/gb200/
	 * nemotron_3_nano.py:160-185) and load its Hugging Face config. */
	{ "Nemotron_3_5_Lightning", "nemotron-3-nano" },
};

/*
 * The MTP the benchmark recipes of these hybrid models train with (the
 * presets have none): two depths of an attention and a MoE layer,
 * mtp_num_layers 2 (data/megatron/megatron-bridge-main-067f987d/
 * recipes.tsv, every benchmark recipe of the three) of
 * mtp_hybrid_override_pattern "*E": Lightning's perf_recipes/nemotronh/
 * gb200/nemotronh.py:479-480 (gb300 537-538, h100 222-223), Super's
 * Hugging Face config (tests/unit_tests/recipes/nemotronh/
 * test_nemotron_3_super.py:113), Ultra's taken to be the same (its
 * config was not read).
 */
static const struct {
	const char	*model, *pattern;
	int64_t		 depths;
} hybrid_mtp[] = {
	{ "Nemotron_3_Super", "*E", 2 },
	{ "Nemotron_3_Ultra", "*E", 2 },
	{ "Nemotron_3_5_Lightning", "*E", 2 },
};

/* Models of the tables without a preset, by prefix. */
static const struct {
	const char	*prefix, *why;
} nopreset[] = {
	{ "DeepSeekV4", "no preset for DeepSeek V4" },
};

static const struct {
	const char	*word;
	enum fp8_recipe	 fp8;
} precisions[] = {
	{ "BF16", FP8_NO }, { "FP8", FP8_TENSORWISE },
	{ "FP8-CS", FP8_TENSORWISE }, { "FP8-MX", FP8_MXFP8 },
	{ "MXFP8", FP8_MXFP8 }, { "FP8-blockwise", FP8_BLOCKWISE },
	{ "NVFP4", FP8_NVFP4 },
};

const char *
perfrows_path(void)
{
	static char	 path[4096];
	const char	*top = getenv("top_srcdir");

	if (top == NULL || *top == '\0')
		top = ".";
	snprintf(path, sizeof path,
	    "%s/tests/data/perf/bridge-performance-summary.csv", top);
	return path;
}

/* Split LINE in place at commas into F[NFIELDS]; false on a wrong count. */
static bool
split(char *line, char *f[NFIELDS])
{
	int	 n = 0;

	line[strcspn(line, "\r\n")] = '\0';
	f[n++] = line;
	for (; *line != '\0'; line++)
		if (*line == ',') {
			if (n == NFIELDS)
				return false;
			*line = '\0';
			f[n++] = line + 1;
		}
	return n == NFIELDS;
}

/* A size: empty or "n/a" is DEF; false when not a number >= 0. */
static bool
size(const char *s, int64_t def, int64_t *out)
{
	char		*end;
	long long	 v;

	if (*s == '\0' || strcmp(s, "n/a") == 0) {
		*out = def;
		return true;
	}
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < 0)
		return false;
	*out = v;
	return true;
}

static bool
rate(const char *s, double *out)
{
	char	*end;

	errno = 0;
	*out = strtod(s, &end);
	return errno == 0 && end != s && *end == '\0' && *out > 0;
}

static void
copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

/* The preset of R's model, its variant applied; why_not when none. */
static void
model_of(struct perf_row *r)
{
	const struct model	*m = NULL;
	char			 base[64];
	const char		*variant;
	size_t			 i, n;

	variant = strchr(r->model, '(');
	n = variant != NULL ? (size_t)(variant - r->model) : strlen(r->model);
	while (n > 0 && r->model[n - 1] == ' ')
		n--;
	snprintf(base, sizeof base, "%.*s", (int)n, r->model);
	for (i = 0; i < sizeof presets / sizeof presets[0]; i++)
		if (strcmp(base, presets[i].model) == 0)
			m = model_builtin_find(presets[i].preset);
	if (m == NULL) {
		r->why_not = "no preset for the model";
		for (i = 0; i < sizeof nopreset / sizeof nopreset[0]; i++)
			if (strncmp(base, nopreset[i].prefix,
			    strlen(nopreset[i].prefix)) == 0)
				r->why_not = nopreset[i].why;
		return;
	}
	r->in.model = *m;
	for (i = 0; i < sizeof hybrid_mtp / sizeof hybrid_mtp[0]; i++)
		if (strcmp(base, hybrid_mtp[i].model) == 0) {
			r->in.model.mtp_pattern = hybrid_mtp[i].pattern;
			r->in.model.mtp_layers = hybrid_mtp[i].depths;
		}
	if (variant == NULL || strcmp(variant, "(tokendrop)") == 0 ||
	    strcmp(variant, "(dropless)") == 0 ||
	    strcmp(variant, "(w/ MTP)") == 0)
		return;
	if (strcmp(variant, "(w/o MTP)") == 0)
		r->in.model.mtp_layers = 0;
	else
		r->why_not = "a model variant the harness does not know";
}

/* --fp8 from R's precision; why_not for an unknown word. */
static void
precision_of(struct perf_row *r)
{
	char	 word[24];
	size_t	 i;

	copy(word, sizeof word, r->precision);
	word[strcspn(word, "?")] = '\0';
	for (i = 0; i < sizeof precisions / sizeof precisions[0]; i++)
		if (strcmp(word, precisions[i].word) == 0) {
			r->in.fp8 = precisions[i].fp8;
			return;
		}
	r->why_not = "an unknown precision";
}

/*
 * The pipeline split of R's layers: even when PP x VPP divides them; else
 * with the embedding and the loss counted as layers when that makes it
 * even (Llama 3.1 405B's recipes: 126 + 2 over 8 x 8); else the recipe's
 * own per-stage layout (DeepSeek-V3, Kimi-K2, Qwen3-235B: Bridge's
 * pipeline_model_parallel_layout), which the sizing core leaves unsplit.
 */
static void
split_of(struct perf_row *r)
{
	int64_t	 layers = r->in.model.num_layers, chunks = r->pp * r->vp;

	if (r->pp * r->vp == 1 || layers == 0 || layers % chunks == 0)
		return;
	if ((layers + 2) % chunks == 0) {
		r->in.account_embedding = true;
		r->in.account_loss = true;
	} else
		r->in.pipeline_layout = true;
}

/*
 * The run as NVIDIA ran it.  tests/data/perf/configs-by-release.tsv holds,
 * per release table, model, GPU, precision and GPU count, the layout
 * Megatron-Bridge's performance scripts of that release ran and the
 * settings they gave (TP overlap, the MoE dispatcher, the a2a overlap,
 * recompute, CUDA graphs; the revision and file:line of each in the
 * file); configs.tsv the same for today's recipes (067f987d).  A row takes
 * the settings of the first config of its release, model, GPU and
 * precision that runs its layout (TP/PP/CP/VPP/EP/MBS; "-" matches any):
 * that config is the run.  A release the first file does not list (25.09,
 * 26.08), or a layout its scripts do not run, takes the first recipe of
 * configs.tsv that runs the layout; a row neither runs keeps mbsbatch's
 * defaults, as "-" does.
 */
/*
 * The Megatron-FSDP runs whose performance recipe offloads activations to
 * the CPU (model.cpu_offloading_num_layers; the memory estimate counts no
 * offloading): at 067f987d, file:line under
 * src/megatron/bridge/perf_recipes/llama/, and the 25.09 405B run.
 */
static const struct {
	const char	*preset, *gpu, *precision;
	int		 offload_layers;
} fsdp_offload[] = {
	{ "llama3-70b", "b200", "fp8", 5 },	/* b200/llama3.py:254, 266 */
	{ "llama3-70b", "gb200", "bf16", 20 },	/* gb200/llama3.py:219, 231 */
	{ "llama3-70b", "gb200", "fp8", 40 },	/* gb200/llama3.py:272, 284 */
	{ "llama3-70b", "gb300", "bf16", 30 },	/* gb300/llama3.py:218, 232 */
	{ "llama3-70b", "gb300", "fp8", 20 },	/* gb300/llama3.py:274, 286 */
	{ "llama3.1-405b", "b300", "bf16", 40 },	/* b300/llama31.py:53, 63 */
	{ "llama3.1-405b", "gb300", "bf16", 40 },	/* gb300/llama31.py:45, 56 */
	/* The 25.09 run (TP 2, FSDP 64); at 067f987d that recipe runs TP 4
	 * PP 16: v0.2.0 scripts/performance/configs/llama31/
	 * workload_base_configs.py:81-88. */
	{ "llama3.1-405b", "gb200", "fp8", 92 },
};

static const char *
precision_word(enum fp8_recipe fp8)
{
	switch (fp8) {
	case FP8_NO:		return "bf16";
	case FP8_MXFP8:		return "mxfp8";
	case FP8_BLOCKWISE:	return "blockwise";
	case FP8_NVFP4:		return "nvfp4";
	default:		return "fp8";
	}
}

/* Whether the recipe's layout L ("TP/PP/CP/VPP/EP/MBS") is R's. */
static bool
same_layout(const struct perf_row *r, char *l)
{
	const int64_t	 want[6] = { r->tp, r->pp, r->cp, r->vp, r->ep,
	    r->mbs };
	char		*p;
	int		 i;

	for (i = 0; i < 6; i++) {
		if ((p = strsep(&l, "/")) == NULL)
			return false;
		if (strcmp(p, "-") != 0 && strtoll(p, NULL, 10) != want[i])
			return false;
	}
	return true;
}

static void
setting(struct perf_row *r, char **f, const char *fsdp,
    const char *offload)
{
	struct sizing_input	*in = &r->in;

	/* Megatron turns TP overlap off without TP > 1 and SP
	 * (Megatron-Bridge comm_overlap.py), as the run had it. */
	if (strcmp(f[5], "-") != 0)
		in->tp_comm_overlap = strcmp(f[5], "on") == 0 &&
		    in->layout.tp > 1 && in->layout.sp ? TRI_ON : TRI_OFF;
	if (strcmp(f[6], "hybridep") == 0)
		in->dispatcher = DISPATCH_HYBRIDEP;
	else if (strcmp(f[6], "deepep") == 0)
		in->dispatcher = DISPATCH_DEEPEP;
	else if (strcmp(f[6], "allgather") == 0)
		in->dispatcher = DISPATCH_ALLGATHER;
	else if (strcmp(f[6], "alltoall") == 0)
		in->dispatcher = DISPATCH_ALLTOALL;
	if (strcmp(f[7], "-") != 0)
		in->moe_a2a_overlap = strcmp(f[7], "on") == 0;
	if (strcmp(f[8], "full") == 0)
		in->recompute = RECOMPUTE_FULL;
	else if (strcmp(f[8], "none") == 0)
		in->recompute = RECOMPUTE_NONE;
	else if (strncmp(f[8], "selective", 9) == 0) {
		in->recompute = RECOMPUTE_SELECTIVE;
		/* "selective:MODULE,...": the recipe's recompute_modules,
		 * which replace Megatron's default core_attn (memory.h);
		 * "selective" alone is that default. */
		if (f[8][9] == ':')
			in->recompute_modules =
			    recompute_modules_parse(f[8] + 10);
	}
	/* The recipe's Megatron-FSDP, which the tables' fsdp column does
	 * not always show (the optional last column). */
	if (fsdp != NULL && strncmp(fsdp, "optim_grads_params", 18) == 0) {
		in->fsdp = FSDP_OPTIM_GRADS_PARAMS;
		/* ":N": HSDP of N replicas, the optimizer sharded across. */
		if (fsdp[18] == ':')
			in->fsdp_outer = strtoll(fsdp + 19, NULL, 10);
	}
	/* The recipe's fine-grained activation offloading, the last
	 * column: "fused_group_mlp:N", N min_offloaded_tensor_size. */
	if (offload != NULL && strncmp(offload, "fused_group_mlp", 15) == 0) {
		in->offload_modules |= OFFLOAD_FUSED_GROUP_MLP;
		if (offload[15] == ':')
			in->min_offloaded = strtoll(offload + 16, NULL, 10);
	}
	/* The scope is not an input of the model: TE's and local graphs
	 * count as the recipes' usual attention, router and preprocess
	 * (docs/cost-model.md). */
	if (strcmp(f[9], "full_iteration") == 0)
		in->cuda_graphs = CUDA_GRAPH_FULL_ITERATION;
	else if (strncmp(f[9], "te:", 3) == 0)
		in->cuda_graphs = CUDA_GRAPH_TE;
	else if (strncmp(f[9], "local:", 6) == 0)
		in->cuda_graphs = CUDA_GRAPH_LOCAL;
	else if (strcmp(f[9], "none") == 0)
		in->cuda_graphs = CUDA_GRAPH_NONE;
}

/*
 * Give R the settings of the first line of tests/data/perf/FILE that is
 * its model, GPU, precision and layout (and, with RELEASE, its release
 * table: the file's first column); false when none is.
 */
static bool
configs_match(struct perf_row *r, const char *file, const char *release,
    const char *preset, const char *gpu)
{
	char		 path[4096], *line = NULL, *f[14], **g, *p;
	const char	*top = getenv("top_srcdir");
	size_t		 cap = 0, i, n = release != NULL ? 12 : 11;
	bool		 found = false;
	FILE		*fp;

	snprintf(path, sizeof path, "%s/tests/data/perf/%s",
	    top == NULL || *top == '\0' ? "." : top, file);
	if ((fp = fopen(path, "r")) == NULL) {
		r->why_not = "tests/data/perf/configs*.tsv cannot be read";
		return false;
	}
	while (!found && getline(&line, &cap, fp) != -1) {
		if (line[0] == '#')
			continue;
		/* The columns, the sources, the optional fsdp and
		 * offload. */
		for (i = 0, p = line; i <= n + 1; i++)
			f[i] = strsep(&p, "\t\n");
		g = release != NULL ? f + 1 : f;
		if (g[9] == NULL ||
		    (release != NULL && strcmp(f[0], release) != 0) ||
		    strcmp(g[0], preset) != 0 || strcmp(g[1], gpu) != 0 ||
		    strcmp(g[2], precision_word(r->in.fp8)) != 0 ||
		    !same_layout(r, g[4]))
			continue;
		setting(r, g, f[n], f[n + 1]);
		found = true;
	}
	free(line);
	fclose(fp);
	return found;
}

/* The settings of R's run: its own release's scripts first
 * (configs-by-release.tsv), else today's recipes (configs.tsv). */
static void
configs_of(struct perf_row *r, const char *preset)
{
	const char	*gpu = NULL;
	size_t		 i;

	for (i = 0; i < sizeof systems / sizeof systems[0]; i++)
		if (strcmp(r->system, systems[i].system) == 0)
			gpu = systems[i].gpu;
	if (gpu == NULL)
		return;
	for (i = 0; i < sizeof fsdp_offload / sizeof fsdp_offload[0]; i++)
		if (r->fsdp > 0 && strcmp(fsdp_offload[i].preset, preset) == 0 &&
		    strcmp(fsdp_offload[i].gpu, gpu) == 0 &&
		    strcmp(fsdp_offload[i].precision,
		    precision_word(r->in.fp8)) == 0)
			r->offload_layers = fsdp_offload[i].offload_layers;
	if (!configs_match(r, "configs-by-release.tsv", r->release, preset,
	    gpu))
		configs_match(r, "configs.tsv", NULL, preset, gpu);
}

/*
 * The fine-tuning rows (26.06's Llama 3 70B sft and lora), as their
 * benchmark recipes at 067f987d run them (perf_recipes/llama/{h100,gb200,
 * gb300}/llama3.py): SFT trains every weight, on packed sequences of the
 * row's length (packed_sequence_size = seq_length), so it is sized as
 * pretraining is; LoRA is llama3_70b_peft_config's rank 16 (recipes/llama/
 * h100/llama3.py:2608) on linear_qkv alone (cfg.peft.target_modules, such
 * as gb200/llama3.py:602 at 0.6.0), as mbsbatch sizes the recipe
 * (src/job/bridge-lora.c).  Any other kind or model is not expressed.
 */
static void
finetune_of(struct perf_row *r)
{
	if (strcmp(r->kind, "pretrain") == 0 || strcmp(r->kind, "sft") == 0)
		return;
	if (strcmp(r->kind, "lora") == 0 &&
	    strcmp(r->model, "LLAMA3_70B") == 0) {
		r->in.lora.rank = 16;
		r->in.lora.targets = LORA_QKV;
		return;
	}
	r->why_not = "fine-tuning of an unknown kind or model";
}

/* The sizing input of R, as a new user gives it; why_not if it cannot. */
static void
input_of(struct perf_row *r)
{
	struct sizing_input	*in = &r->in;
	int64_t			 lcm, min;
	size_t			 i;

	sizing_input_init(in);
	for (i = 0; i < sizeof systems / sizeof systems[0]; i++)
		if (strcmp(r->system, systems[i].system) == 0)
			r->gpu = gpu_type_find(systems[i].gpu);
	in->layout.tp = r->tp;
	in->layout.pp = r->pp;
	in->layout.cp = r->cp;
	in->layout.vpp = r->vp;
	in->layout.ep = r->ep;
	in->layout.etp = 1;
	in->layout.sp = r->tp > 1;
	in->world_from = WORLD_FROM_GPUS;
	in->gpus = r->gpus;
	in->seq_length = r->seq;
	in->global_batch = r->gbs;
	in->micro_batch = r->mbs;
	in->distributed_optimizer = true;
	if (r->gpu != NULL) {
		/* As src/job/job.c fill_sizing_input() takes them. */
		in->gpus_per_node = r->gpu->gpus_per_node;
		if (r->gpu->nvlink_domain != r->gpu->gpus_per_node)
			in->nvlink_domain = r->gpu->nvlink_domain;
		in->gpu_gib = r->gpu->memory_gib;
	}
	model_of(r);
	precision_of(r);
	/* As the runs were made, and as a user's job gets them: gradients
	 * reduced in BF16 (Bridge's benchmark recipes set
	 * grad_reduce_in_fp32=false, 418 of 422 at 067f987d), FP8 weights
	 * gathered when --fp8 gives them (src/job/job.c
	 * job_fp8_param_gather(): every recipe but blockwise). */
	in->grads_dtype = PRECISION_BF16;
	in->fp8_params = in->fp8 != FP8_NO && in->fp8 != FP8_BLOCKWISE;
	/* Nemotron 3 Super's NVFP4 perf recipes: nemotron_3_super_bf16_
	 * with_nvfp4_mixed, its last 14 layers in BF16 (Bridge v0.6.0
	 * training/mixed_precision.py:421-429), the gather off. */
	if (in->fp8 == FP8_NVFP4 && strcmp(r->model, "Nemotron_3_Super") == 0) {
		in->fp8_params = false;
		in->bf16_last_layers = 14;
	}
	for (i = 0; i < sizeof presets / sizeof presets[0]; i++)
		if (strncmp(r->model, presets[i].model,
		    strlen(presets[i].model)) == 0 &&
		    (r->model[strlen(presets[i].model)] == '\0' ||
		    r->model[strlen(presets[i].model)] == ' '))
			configs_of(r, presets[i].preset);
	split_of(r);
	if (!sizing_min_gpus(&in->layout, &lcm, &min) || min == 0 ||
	    r->gpus % min != 0)
		r->why_not = "a layout Megatron cannot build on its GPUs "
		    "(a misprint: PP x EP beyond them)";
	if (r->gpu == NULL)
		r->why_not = "no gpu type for the system";
	/* 26.02.01's GB300 Llama 3 70B NVFP4 row prints TP 1 PP 1 without
	 * FSDP, which no 70B fits (the estimate: 381 GiB of 288); its
	 * release's scripts ran PP 4 VPP 5 (Megatron-Bridge 1f0cfc3bc
	 * scripts/performance/configs/llama/llama3_workload_base_configs.py
	 * :76-82, as 26.02 and 26.04 print it). */
	if (strcmp(r->release, "26.02.01") == 0 && in->fp8 == FP8_NVFP4 &&
	    strcmp(r->model, "LLAMA3_70B") == 0 && r->pp == 1 &&
	    r->fsdp == 0)
		r->why_not = "a misprint: its release ran PP 4 VPP 5";
	/* fsdp: the FSDP group's size, DP for every row (HSDP would be a
	 * smaller one); sharding as Bridge's FSDP perf recipes set it
	 * (perf_recipes/llama/GPU/llama3.py and llama31.py at 067f987d:
	 * optim_grads_params), as --fsdp gives it. */
	if (r->fsdp > 0) {
		in->fsdp = FSDP_OPTIM_GRADS_PARAMS;
		if (min != 0 && r->fsdp != r->gpus / (r->tp * r->cp * r->pp))
			r->why_not = "Megatron-FSDP over part of DP (HSDP)";
	}
	finetune_of(r);
}

/* Fill R from the fields F of line LINE; false when one is malformed. */
static bool
row_of(char *f[NFIELDS], int line, struct perf_row *r)
{
	memset(r, 0, sizeof *r);
	r->line = line;
	copy(r->release, sizeof r->release, f[1]);
	copy(r->kind, sizeof r->kind, f[2]);
	copy(r->system, sizeof r->system, f[3]);
	copy(r->model, sizeof r->model, f[4]);
	copy(r->precision, sizeof r->precision, f[6]);
	copy(r->note, sizeof r->note, f[18]);
	if (!size(f[5], 0, &r->gpus) || !size(f[7], 0, &r->gbs) ||
	    !size(f[8], 0, &r->mbs) || !size(f[9], 0, &r->seq) ||
	    !size(f[10], 0, &r->fsdp) || !size(f[11], 1, &r->tp) ||
	    !size(f[12], 1, &r->pp) || !size(f[13], 1, &r->cp) ||
	    !size(f[14], 1, &r->vp) || !size(f[15], 1, &r->ep) ||
	    !rate(f[16], &r->tokens_per_gpu) ||
	    !rate(f[17], &r->tflops_per_gpu))
		return false;
	input_of(r);
	return true;
}

int
perfrows_load(const char *path, struct perf_row **rows, size_t *n)
{
	FILE		*fp;
	char		*line = NULL, *f[NFIELDS];
	size_t		 cap = 0, have = 0;
	struct perf_row	*v = NULL, *nv;
	int		 lineno = 0, rc = -1;

	*rows = NULL;
	*n = 0;
	if ((fp = fopen(path, "r")) == NULL) {
		fprintf(stderr, "perfrows: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, fp) != -1) {
		lineno++;
		if (line[0] == '#' || strncmp(line, "source,", 7) == 0)
			continue;
		if ((nv = realloc(v, (have + 1) * sizeof *v)) == NULL)
			goto out;
		v = nv;
		if (!split(line, f) || !row_of(f, lineno, &v[have])) {
			fprintf(stderr, "perfrows: %s:%d: malformed row\n",
			    path, lineno);
			goto out;
		}
		have++;
	}
	if (ferror(fp)) {
		fprintf(stderr, "perfrows: %s: %s\n", path, strerror(errno));
		goto out;
	}
	*rows = v;
	*n = have;
	v = NULL;
	rc = 0;
out:
	free(v);
	free(line);
	fclose(fp);
	return rc;
}

void
perfrows_search_input(const struct perf_row *r, struct search_input *si)
{
	memset(si, 0, sizeof *si);
	si->base = r->in;
	si->world = r->gpus;
	si->vary_micro_batch = si->vary_recompute = true;
	cost_hw_init(&si->hw, r->gpu, INTERCONNECT_IB);
}
