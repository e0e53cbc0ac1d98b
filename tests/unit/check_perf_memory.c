/*
 * check_perf_memory.c: the memory estimate (src/core/memory.c) admits
 * what ran.
 *
 * (a) Every run of Megatron-Bridge's published performance summary that
 * mbsbatch can express (tests/data/perf/, perfrows.h) is sized on its
 * published layout and must fit its GPU.  The runs are Bridge's
 * performance recipes, which reduce gradients in BF16: 418 of the 422
 * benchmark recipes of Bridge 0.6.0 and main set
 * ddp.grad_reduce_in_fp32 false (data/megatron recipes.tsv), so the rows
 * are sized with --grads-dtype bf16; with mbsbatch's default FP32
 * gradients the log says how many would be refused, and by how much.
 *
 * (b) Every Megatron-Bridge benchmark recipe of every Bridge target, on
 * the GPU type and GPU count its name gives (llama3_70b_pretrain_64gpu_
 * gb200_...), loaded as `mbsbatch plan --recipe NAME` loads it, must fit
 * or say why it has no estimate (bridge-unsized.c).  The recipes whose
 * memory depends on what mbsbatch does not model yet are listed in
 * not_modelled[] with why, and counted in the log.
 */
#include <check.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bridge.h"
#include "error.h"
#include "gpu.h"
#include "job.h"
#include "perfrows.h"
#include "run.h"
#include "settings.h"

/* (a) The published rows. */
START_TEST(test_published_rows)
{
	struct perf_row		*rows;
	struct sizing_input	 in;
	struct sizing		 s;
	const char		*why;
	size_t			 n, i;
	int			 expressed = 0, refused = 0, refused_fp32 = 0;
	int			 offloaded = 0;
	int			 oss_refused = 0, oss_refused_fp32 = 0;
	int			 hy_refused = 0, hy_refused_fp32 = 0;
	bool			 oss, hy;
	double			 worst_fp32 = 0;

	ck_assert_int_eq(perfrows_load(perfrows_path(), &rows, &n), 0);
	for (i = 0; i < n; i++) {
		if (rows[i].why_not != NULL)
			continue;
		expressed++;
		/* The FSDP runs whose recipe offloads activations to the
		 * CPU (perfrows.c fsdp_recipes: 20-40 of Llama 3 70B's 80
		 * layers on GB200 and GB300) need less memory than the
		 * estimate, which counts no offloading: not held to it. */
		if (rows[i].offload_layers > 0) {
			offloaded++;
			continue;
		}
		/* FP8 weights as a user's job gets them (perfrows.c); the
		 * gradients first in mbsbatch's default FP32, then in the
		 * BF16 the runs reduced them in. */
		in = rows[i].in;
		oss = strncmp(in.model.name, "gpt-oss", 7) == 0;
		hy = in.model.hybrid_pattern != NULL;
		in.grads_dtype = PRECISION_FP32;
		if ((why = sizing_compute(&in, &s)) != NULL)
			ck_abort_msg("line %d: %s", rows[i].line, why);
		ck_assert_msg(s.has_memory, "line %d: no estimate: %s",
		    rows[i].line, s.memory_reason);
		if (s.memory_oom && oss)
			oss_refused_fp32++;
		else if (s.memory_oom && hy)
			hy_refused_fp32++;
		else if (s.memory_oom) {
			refused_fp32++;
			worst_fp32 = fmax(worst_fp32, s.memory.total_gib /
			    in.gpu_gib - 1);
		}
		in.grads_dtype = PRECISION_BF16;
		ck_assert_ptr_null(sizing_compute(&in, &s));
		if (s.memory_oom) {
			if (oss)
				oss_refused++;
			else if (hy)
				hy_refused++;
			else
				refused++;
			printf("refused: line %d %s %s %s TP %lld PP %lld "
			    "VPP %lld EP %lld: %.1f GiB of %.1f\n",
			    rows[i].line, rows[i].system, rows[i].model,
			    rows[i].precision, (long long)rows[i].tp,
			    (long long)rows[i].pp, (long long)rows[i].vp,
			    (long long)rows[i].ep, s.memory.total_gib,
			    in.gpu_gib);
		}
	}
	printf("published rows: %d expressible, %d offloading activations "
	    "(not checked), %d refused with BF16 gradients; %d refused with "
	    "FP32 gradients (worst %.0f%% over)\n", expressed, offloaded,
	    refused, refused_fp32, 100 * worst_fp32);
	free(rows);
	printf("GPT OSS 120B rows: %d refused with BF16 gradients, %d with "
	    "FP32\n", oss_refused, oss_refused_fp32);
	printf("Nemotron 3 rows: %d refused with BF16 gradients, %d with "
	    "FP32\n", hy_refused, hy_refused_fp32);
	fflush(stdout);
	ck_assert_int_gt(expressed, 100);
	ck_assert_int_eq(refused, 0);
	/*
	 * The 31 GPT OSS 120B rows (issue 27), apart: one is refused, line
	 * 265 (25.11, H100, TP 1 PP 4 EP 8 at MBS 4: 120.4 GiB of 80, 83
	 * GiB of it activations with selective recompute, 54 of them the
	 * MoE layers').  The 25.11 recipe of that run ran MBS 1 (r0.2.0
	 * 44dae92b0 scripts/performance/configs/gpt_oss/
	 * workload_base_configs.py:22-28, 58-62), which fits (57.9 GiB, as
	 * lines 98, 144, 188, 225): the table's MBS is taken as a misprint
	 * (docs/cost-model.md, "Memory of the runs"), not rewritten.  With
	 * FP32 gradients (2 bytes a parameter more than the runs had) 5
	 * are refused.
	 */
	ck_assert_int_le(oss_refused, 1);
	ck_assert_int_le(oss_refused_fp32, 5);
	/*
	 * The 38 Nemotron 3 rows (issue 27), apart: all fit.  The two
	 * Ultra rows (lines 19, 20) only with what their recipes run and
	 * configs.tsv carries: Megatron-FSDP as HSDP, selective recompute
	 * of moe_act and offloading of the fused grouped MLP (208 GiB of
	 * 288 on GB300, 128 of 186 on GB200; 417 and 234 as plain DDP
	 * keeping every activation).  4 rows are refused with FP32
	 * gradients, which the runs did not have (6 before the recipes'
	 * recompute modules were read: configs.tsv).  A guard at what is
	 * reached.
	 */
	ck_assert_int_eq(hy_refused, 0);
	ck_assert_int_le(hy_refused_fp32, 4);
	/* With FP32 gradients, 2 bytes a parameter more than these runs
	 * had: a guard at what the estimate reaches (10 rows, 10% over at
	 * worst; 62 rows and 58% before the count of what runs). */
	ck_assert_int_le(refused_fp32, 10);
	ck_assert_double_le(worst_fp32, 0.11);
}
END_TEST

/*
 * Benchmark recipes the estimate still refuses, and why: what they run
 * that mbsbatch does not model.  Matched by prefix.
 */
static const struct {
	const char	*prefix, *why;
} not_modelled[] = {
	/* Muon (distributed_muon_with_cosine_annealing) without the
	 * distributed optimizer: one momentum, sharded its own way
	 * (Bridge recipes/kimi/h100/kimi_k2.py:66-75). */
	{ "kimi_k2_pretrain_", "the Muon optimizer" },
	/* recompute_modules ['mla_up_proj', 'mlp']: both are counted now
	 * (memory.c dense_mlp_kept(); mla_up_proj frees nothing the
	 * estimate counts, MLA's shapes being Megatron's count), and the
	 * recipe is still estimated at 86.6 GiB of 80: what else lets it
	 * fit is not known.  The Nemotron 3 Nano and Super H100 recipes
	 * that recompute the MoE layers ("moe") fit since memory.c
	 * counts it (60.8 and 54.3 GiB of 80). */
	{ "deepseek_v3_pretrain_64gpu_h100_bf16_config",
	  "not known (the MLP's and MLA's recompute counted)" },
	/* A development configuration (mbs 3 on 128 B200). */
	{ "qwen3_235b_a22b_pretrain_128gpu_b200_fp8mx_deepep_dev_config",
	  "a development configuration" },
	/* NVFP4 GEMM inputs (no --fp8 recipe): counted as BF16. */
	{ "", "NVFP4" },
};

static const char *
known_miss(const char *name)
{
	size_t	 i;

	if (strstr(name, "_nvfp4") != NULL)
		return not_modelled[sizeof not_modelled /
		    sizeof not_modelled[0] - 1].why;
	for (i = 0; i + 1 < sizeof not_modelled / sizeof not_modelled[0]; i++)
		if (strncmp(name, not_modelled[i].prefix,
		    strlen(not_modelled[i].prefix)) == 0)
			return not_modelled[i].why;
	return NULL;
}

/* The GPU type and count RECIPE's name gives, or false. */
static bool
recipe_target(const char *recipe, char *gpu, size_t gpulen, char *gpus,
    size_t gpuslen)
{
	const char	*p, *q;
	size_t		 i;

	for (p = recipe; (p = strchr(p, '_')) != NULL; p++) {
		for (i = 1; p[i] >= '0' && p[i] <= '9'; i++)
			;
		if (i == 1 || strncmp(p + i, "gpu_", 4) != 0)
			continue;
		if (i - 1 >= gpuslen || (q = strchr(p + i + 4, '_')) == NULL ||
		    (size_t)(q - (p + i + 4)) >= gpulen)
			return false;
		memcpy(gpus, p + 1, i - 1);
		gpus[i - 1] = '\0';
		memcpy(gpu, p + i + 4, (size_t)(q - (p + i + 4)));
		gpu[q - (p + i + 4)] = '\0';
		return gpu_type_find(gpu) != NULL;
	}
	return false;
}

static void
set(struct job_request *req, const char *option, const char *value)
{
	bool	 neg = false;

	ck_assert_ptr_null(settings_set_text(&req->cli,
	    settings_find_option(option, SF_CLI, &neg), value, ORIGIN_CLI));
}

/* (b) The benchmark recipes on their GPUs. */
START_TEST(test_recipes)
{
	const struct bridge_target	*t;
	const struct bridge_recipe	*r;
	struct job_request		 req;
	struct job_figures		 fig;
	struct job			 job;
	struct error			*err;
	const char			*miss;
	char				 gpu[16], gpus[16];
	int				 fit = 0, unsized = 0, missed = 0;
	int				 unknown = 0, bad = 0;

	for (t = bridge_targets; t->name != NULL; t++)
		for (r = t->recipes; r->name != NULL; r++) {
			if (strcmp(r->kind, "benchmark") != 0 ||
			    !recipe_target(r->name, gpu, sizeof gpu, gpus,
			    sizeof gpus))
				continue;
			job_request_init(&req);
			set(&req, "recipe", r->name);
			set(&req, "bridge-version", t->name);
			set(&req, "gpu-type", gpu);
			set(&req, "gpus", gpus);
			/* The LoRA recipes start from pretrained weights
			 * (bridge.c); any directory stands for them. */
			if (bridge_recipe_needs_pretrained(r))
				set(&req, "pretrained-checkpoint", ".");
			err = job_load(&job, &req);
			ck_assert_msg(err == NULL, "%s %s: %s", t->name,
			    r->name, err != NULL ? err->msg : "");
			ck_assert_ptr_null(job_figure(&job, &fig));
			miss = known_miss(r->name);
			if (job.in.memory_unsized != NULL)
				unsized++;
			else if (!fig.sizing.has_memory)
				unknown++;
			else if (!fig.sizing.memory_oom)
				fit++;
			else if (miss != NULL)
				missed++;
			else {
				printf("refused: %s %s on %s %s: %.1f GiB of "
				    "%.1f\n", t->name, r->name, gpus, gpu,
				    fig.sizing.memory.total_gib,
				    job.in.gpu_gib);
				bad++;
			}
			job_release(&job);
			job_request_release(&req);
		}
	printf("benchmark recipes: %d fit, %d not estimated (FSDP, "
	    "offloading, unknown adapters), %d without the architecture, %d refused "
	    "for what is not modelled, %d wrong\n", fit, unsized, unknown,
	    missed, bad);
	ck_assert_int_gt(fit, 100);
	ck_assert_int_eq(bad, 0);
	/* 28 since the recompute modules are counted (32 before: the
	 * Nemotron 3 H100 recipes' "moe"). */
	ck_assert_int_le(missed, 28);
}
END_TEST

static Suite *
perf_memory_suite(void)
{
	Suite	*s = suite_create("perf_memory");
	TCase	*tc = tcase_create("published");

	tcase_add_test(tc, test_published_rows);
	tcase_add_test(tc, test_recipes);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	/* No user's configuration: a private, empty one. */
	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	setenv("HOME", "/nonexistent", 1);
	unsetenv("MBSBATCH_CONFIG");
	return run_suite(perf_memory_suite());
}
