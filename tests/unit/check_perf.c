/*
 * check_perf.c: the step-time model (src/core/cost.c) against every run
 * of Megatron-Bridge's published performance summary mbsbatch can
 * express (tests/data/perf/, perfrows.h): each row's published layout is
 * sized with sizing_compute() and costed with cost_estimate(), and the
 * predicted tokens/s/GPU is compared with the measured one.
 *
 * The table per system and per model (median predicted/published, median
 * and worst |predicted/published - 1|) goes to the test log.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "perfrows.h"
#include "run.h"

/*
 * Issue 25's bounds over every expressible row: median |err| <= 10%
 * (met: 6.1% with each row run with its own release's settings,
 * configs-by-release.tsv, and the MoE floor half per local expert; 6.6%
 * with a floor per layer alone; 8.9% with today's recipes for every
 * release) and worst <= 25%, NOT met (113%): the worst is a regression
 * guard at what the model reaches (the release settings leave it where
 * it was: neither H100 row below matches a layout its release's scripts
 * run).  25% cannot be met by any model that sees only the layout: the
 * same layout on the same system was measured at 10494 tokens/s/GPU
 * (25.09, line 294) and 5275 (25.11, line 266; Qwen3 30B on 16 H100),
 * and no single prediction is within 33% of both.  Since every
 * dispatcher pays the host sync (cost.c moe_sync()) and the routed
 * copies their passes through memory (moe_copy_bytes()): median 5.9%,
 * worst 92.5% (that H100 row, 1.92), 9 rows beyond 25% (19 before).
 * Since the schedule's host step is exposed only where Megatron
 * synchronizes the device (PP > 1 without VPP; cost.c schedule_steps())
 * and gpu.c's efficiencies were refitted to it (make fit-cost): median
 * 4.5%, and every row's 9.1% (11.2% before), so the median bound now
 * holds all 289; but worst 105.9%, that same row (2.06: its PP 2 VPP 24
 * no longer pays 48 exposed steps a micro-batch; its 25.09 twin, line
 * 294, went 0.97 -> 1.03), and 16 rows beyond 25%: the guard is raised
 * to 110% for that row alone, the mechanism being upstream's.
 */
#define ISSUE_MEDIAN	0.10
#define ISSUE_WORST	0.25
#define WORST_REACHED	1.10
#define FIT_MEDIAN_REACHED	0.05

/*
 * The 31 GPT OSS 120B runs (issue 27) came after the fit and are not
 * part of it (cost.c's constants were not tuned for them).  The median
 * bound holds every row (8.2% with them; 8.5% with the 10 fine-tuning
 * rows too), the worst guard above the 164
 * others, and these rows have their own regression guard at what the
 * model reaches.  Run with their releases' settings (configs-by-
 * release.tsv, configs.tsv for 26.08: HybridEP, graphs, the a2a
 * overlap), the model predicts 1.34-2.71x the measured tokens/s on
 * Blackwell and 1.13-1.19x on H100: median |err| 58.2%, worst 171.4%
 * (line 23, 26.06.01: its release ran the same settings as 26.06 and
 * 26.08, lines 46 and 7, measured 1.6x faster).  Something GPT-OSS runs
 * slower than the fitted models is not modelled (docs/cost-model.md,
 * "GPT OSS 120B").  With the dispatcher's sync and the copies' passes
 * (cost.c moe_sync(), moe_copy_bytes()): median 50.6%, worst 165.4%.
 * With the passes GPT-OSS's experts run outside their fused kernels
 * (cost.c expert_extra_bytes(): the clamp and cat before the quick
 * GeGLU, fc2's bias added with the probabilities): median ratio 1.41,
 * median |err| 40.7%, worst 165.4% (the 26.06.01 row is unchanged: its
 * full-iteration graph runs the op fuser); with YaRN's unfused RoPE
 * (cost.c rope_unfused()): 1.39, 39.2%, 155.1%.  What is still missing
 * is a per-token cost of the GPU (docs/cost-model.md, "GPT OSS 120B").
 * With the host's schedule step hidden where nothing synchronizes (PP 1
 * and VPP, cost.c schedule_steps()) and the refit: 1.44, 44.1%, 146.1%:
 * the rows already predicted too fast are predicted faster; the median
 * guard is raised to 45% for that, the worst tightened.
 */
#define GPT_OSS_MEDIAN_REACHED	0.45
#define GPT_OSS_WORST_REACHED	1.50

/*
 * The 10 fine-tuning runs (26.06, Llama 3 70B on 8 or 32 GPUs; issue 27)
 * came after the fit too.  SFT is sized as pretraining (0.86-1.12 of the
 * measured tokens/s), LoRA with its frozen weights (src/core/cost.c:
 * no weight gradients for them, the adapters' own GEMMs, DP and the
 * optimizer over the adapters alone): 0.81-0.92, where sizing them as
 * pretraining gave 0.60-0.68.  What LoRA still misses: its runs train on
 * packed SQuAD, whose attention runs over each short sequence, not the
 * whole 4096 the model times.  A regression guard at what is reached:
 * median 6.7%, worst 14.5% since cost.c schedule_steps() and the refit
 * (11.7%, 19.5% before).
 */
#define FINETUNE_MEDIAN_REACHED	0.10
#define FINETUNE_WORST_REACHED	0.15

/*
 * The 38 Nemotron 3 runs other than NVFP4 (Nano, Super, Ultra and 3.5
 * Lightning, hybrid Mamba models; issue 27) came after the fit too, and
 * no constant was tuned for them: the Mamba layer is timed from its
 * shapes (cost.c mamba_layer(): its GEMMs at the fitted efficiencies,
 * the SSD scan's traffic at the GPU's memory bandwidth, SCAN_EFF an
 * assumption), each row with its benchmark recipe's settings
 * (configs.tsv: HybridEP, recompute, TP overlap; MTP from perfrows.c).
 * The model predicts 1.24 (Nano), 1.19 (Super), 1.21 (Ultra) times the
 * measured tokens/s (median); 0.63-0.76 for Super on B200 and B300,
 * where EP 64 crosses nodes or 64 local experts per GPU meet the MoE
 * floor: median |err| 24.5%, worst 62.2%.  A regression guard at what
 * is reached (docs/cost-model.md, "Hybrid models").  With HybridEP's
 * host sync (its recipes set no static budget; cost.c moe_sync()):
 * median 23.9%, worst 46.3%.  Since cost.c schedule_steps() and the
 * refit: median 25.0% (23.2% before), worst 43.2%.
 */
#define HYBRID_MEDIAN_REACHED	0.26
#define HYBRID_WORST_REACHED	0.45

/*
 * The 32 NVFP4 runs expressed (--fp8 nvfp4; 17 Llama 3 70B and 3.1 405B
 * on GB200 and GB300, 15 Nemotron 3 Super on B200, B300, GB200 and
 * GB300; 26.02.01's GB300 70B row is a misprint, perfrows.c) came after
 * the fit, each with its perf recipe's settings (configs.tsv nvfp4
 * lines, read at 067f987d).  One constant is theirs: gpu.c's NVFP4
 * efficiency, 0.40 on every Blackwell GPU, chosen on the 17 Llama rows
 * (median ratio GB200 0.87, GB300 0.96); the peaks are the datasheets'
 * (B300 and GB300 1.5 times B200 and GB200).  Super's last 14 layers run
 * in BF16 (bf16_last_layers, perfrows.c); still predicted 1.38-1.47
 * times the measured on GB300 and 0.68-0.79 on B300: its perf recipes
 * also keep the attention and latent projections and MTP in BF16 and
 * Mamba's out_proj in MXFP8 (Megatron-Bridge 067f987d perf_recipes/
 * nemotronh/te_quant.cfg, a per-module recipe the cost model does not
 * take).  Kept apart from the families above, whose rows and guards are
 * as they were; a regression guard at what is reached: median |err|
 * 14.5%, worst 46.8% (15.3% and 55.2% with every layer in NVFP4);
 * since cost.c schedule_steps() and the refit (gpu.c GB200 0.42,
 * GB300 0.41): 10.1%, 47.9%.
 */
#define NVFP4_MEDIAN_REACHED	0.11
#define NVFP4_WORST_REACHED	0.48

struct outcome {
	const struct perf_row *row;
	double		 ratio;		/* predicted / published */
};

static int
cmp_double(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v, size_t n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Predicted tokens/s/GPU of R into *TPG; NULL, or why there is none. */
static const char *
predict(const struct perf_row *r, double *tpg)
{
	static char	 msg[SIZING_MESSAGE_MAX];
	struct sizing	 s;
	struct cost_hw	 hw;
	struct cost	 c;
	const char	*why;
	int		 i;

	if ((why = sizing_compute(&r->in, &s)) != NULL)
		return why;
	if (s.nerrors > 0) {
		for (i = 0; i < s.nfindings; i++)
			if (s.findings[i].severity == SEVERITY_ERROR)
				break;
		snprintf(msg, sizeof msg, "%s", s.findings[i].message);
		return msg;
	}
	cost_hw_init(&hw, r->gpu, INTERCONNECT_IB);
	if ((why = cost_estimate(&r->in, &s, &hw, &c)) != NULL)
		return why;
	*tpg = c.tokens_per_s / (double)s.world;
	return NULL;
}

/* Summary of the outcomes whose KEY is NAME: median ratio, median and
 * worst error, printed as one line of the table. */
static void
summarize(const struct outcome *o, size_t n, const char *(*key)(
    const struct perf_row *), const char *name, double *med_err,
    double *worst)
{
	double	*ratio = calloc(n, sizeof *ratio), *err = calloc(n,
		    sizeof *err);
	size_t	 i, k = 0;

	ck_assert_ptr_nonnull(ratio);
	ck_assert_ptr_nonnull(err);
	*worst = 0;
	for (i = 0; i < n; i++) {
		if (name != NULL && strcmp(key(o[i].row), name) != 0)
			continue;
		ratio[k] = o[i].ratio;
		err[k] = fabs(o[i].ratio - 1);
		if (err[k] > *worst)
			*worst = err[k];
		k++;
	}
	*med_err = median(err, k);
	printf("  %-18s %4zu  %6.2f  %6.1f%%  %6.1f%%\n", name != NULL ? name :
	    "all", k, median(ratio, k), 100 * *med_err, 100 * *worst);
	free(ratio);
	free(err);
}

static const char *
by_system(const struct perf_row *r)
{
	return r->system;
}

/* The model without its variant: "DeepSeekV3 (w/o MTP)" is DeepSeekV3. */
static const char *
by_model(const struct perf_row *r)
{
	return r->in.model.name;
}

/* Hybrid (Nemotron 3) rows, and the others. */
static const char *
by_architecture(const struct perf_row *r)
{
	return r->in.model.hybrid_pattern != NULL ? "hybrid" : "transformer";
}

/* The rows the cost model was fitted to, and the GPT-OSS, fine-tuning,
 * Nemotron 3 and NVFP4 ones since. */
static const char *
by_family(const struct perf_row *r)
{
	if (r->in.fp8 == FP8_NVFP4)
		return "nvfp4";
	if (strcmp(r->kind, "sft") == 0 || strcmp(r->kind, "lora") == 0)
		return "fine-tuning";
	if (r->in.model.hybrid_pattern != NULL)
		return "hybrid";
	return strncmp(r->in.model.name, "gpt-oss", 7) == 0 ? "gpt-oss" :
	    "fitted";
}

static void
table(const struct outcome *o, size_t n, const char *(*key)(
    const struct perf_row *), const char *title)
{
	const char	*seen[64];
	size_t		 i, j, nseen = 0;
	double		 m, w;

	printf("%-20s rows  median  |err|    worst\n", title);
	for (i = 0; i < n; i++) {
		for (j = 0; j < nseen; j++)
			if (strcmp(seen[j], key(o[i].row)) == 0)
				break;
		if (j < nseen || nseen == 64)
			continue;
		seen[nseen++] = key(o[i].row);
		summarize(o, n, key, key(o[i].row), &m, &w);
	}
}

START_TEST(test_published_rows)
{
	struct perf_row	*rows;
	struct outcome	*o;
	size_t		 n, i, k = 0, nwhy = 0;
	double		 tpg, med_err, worst, fit_med, oss_med, oss_worst;
	double		 ft_med, ft_worst, hy_med, hy_worst, tr_med;
	double		 tr_worst, fp4_med, fp4_worst;
	struct outcome	*fp4;
	size_t		 nfp4 = 0;
	const char	*why;

	ck_assert_int_eq(perfrows_load(perfrows_path(), &rows, &n), 0);
	ck_assert_uint_gt(n, 0);
	o = calloc(n, sizeof *o);
	ck_assert_ptr_nonnull(o);
	for (i = 0; i < n; i++) {
		if (rows[i].why_not != NULL) {
			nwhy++;
			continue;
		}
		why = predict(&rows[i], &tpg);
		ck_assert_msg(why == NULL, "line %d (%s %s on %lld %s): %s",
		    rows[i].line, rows[i].model, rows[i].precision,
		    (long long)rows[i].gpus, rows[i].system, why);
		o[k].row = &rows[i];
		o[k].ratio = tpg / rows[i].tokens_per_gpu;
		printf("line %3d %-9s %-24s %-13s %4lld GPUs  published "
		    "%7.0f  predicted %7.0f  %5.2f\n", rows[i].line,
		    rows[i].system, rows[i].model, rows[i].precision,
		    (long long)rows[i].gpus, rows[i].tokens_per_gpu, tpg,
		    o[k].ratio);
		k++;
	}
	printf("%zu rows, %zu expressible, %zu not\n", n, k, nwhy);
	table(o, k, by_system, "system");
	table(o, k, by_model, "model");
	fp4 = calloc(k, sizeof *fp4);
	ck_assert_ptr_nonnull(fp4);
	for (i = 0; i < k; i++)
		if (o[i].row->in.fp8 == FP8_NVFP4)
			fp4[nfp4++] = o[i];
	table(fp4, nfp4, by_system, "NVFP4 by system");
	table(fp4, nfp4, by_model, "NVFP4 by model");
	printf("%-20s rows  median  |err|    worst\n", "");
	summarize(o, k, by_system, NULL, &med_err, &worst);
	summarize(o, k, by_family, "fitted", &fit_med, &worst);
	summarize(o, k, by_family, "gpt-oss", &oss_med, &oss_worst);
	summarize(o, k, by_family, "fine-tuning", &ft_med, &ft_worst);
	summarize(o, k, by_family, "hybrid", &hy_med, &hy_worst);
	summarize(o, k, by_family, "nvfp4", &fp4_med, &fp4_worst);
	summarize(o, k, by_architecture, "transformer", &tr_med, &tr_worst);
	fflush(stdout);
	/* Every run mbsbatch expresses: the pretraining runs of the models
	 * with a preset, but NVFP4: 164, the 31 GPT OSS 120B runs since its
	 * preset, the 14 Megatron-FSDP runs since --fsdp (Llama 3 8B, 70B,
	 * 3.1 405B; fsdp = DP), and 26.06's Llama 3 70B fine-tuning runs, 5
	 * SFT and 5 LoRA (perfrows.c finetune_of()): SFT 0.86-1.12, LoRA
	 * 0.81-0.92 of published; the 38 Nemotron 3 runs but NVFP4 since
	 * the hybrid presets; the 32 NVFP4 runs since --fp8 nvfp4 (33 but a misprint). */
	ck_assert_uint_eq(k, 289);
	ck_assert_uint_eq(nfp4, 32);
	if (worst > ISSUE_WORST)
		printf("not yet met: issue 25's worst |err| <= %.0f%%\n",
		    100 * ISSUE_WORST);
	/* With the Nemotron rows the median of every row was 11.2%; 9.1%
	 * since cost.c schedule_steps() and the refit: the bound holds
	 * every row. */
	ck_assert_msg(med_err <= ISSUE_MEDIAN, "median |err| %.1f%% over "
	    "every row (bound %.0f%%)", 100 * med_err, 100 * ISSUE_MEDIAN);
	ck_assert_msg(fit_med <= FIT_MEDIAN_REACHED, "fitted rows' median "
	    "|err| %.1f%% (guard %.0f%%)", 100 * fit_med,
	    100 * FIT_MEDIAN_REACHED);
	ck_assert_msg(tr_med <= ISSUE_MEDIAN, "median |err| %.1f%% "
	    "(bound %.0f%%)", 100 * tr_med, 100 * ISSUE_MEDIAN);
	ck_assert_msg(worst <= WORST_REACHED, "worst |err| %.1f%% (guard "
	    "%.0f%%)", 100 * worst, 100 * WORST_REACHED);
	ck_assert_msg(oss_med <= GPT_OSS_MEDIAN_REACHED && oss_worst <=
	    GPT_OSS_WORST_REACHED, "GPT OSS 120B: median |err| %.1f%%, "
	    "worst %.1f%% (guards %.0f%%, %.0f%%)", 100 * oss_med,
	    100 * oss_worst, 100 * GPT_OSS_MEDIAN_REACHED,
	    100 * GPT_OSS_WORST_REACHED);
	ck_assert_msg(ft_med <= FINETUNE_MEDIAN_REACHED && ft_worst <=
	    FINETUNE_WORST_REACHED, "fine-tuning: median |err| %.1f%%, "
	    "worst %.1f%% (guards %.0f%%, %.0f%%)", 100 * ft_med,
	    100 * ft_worst, 100 * FINETUNE_MEDIAN_REACHED,
	    100 * FINETUNE_WORST_REACHED);
	ck_assert_msg(hy_med <= HYBRID_MEDIAN_REACHED && hy_worst <=
	    HYBRID_WORST_REACHED, "Nemotron 3: median |err| %.1f%%, "
	    "worst %.1f%% (guards %.0f%%, %.0f%%)", 100 * hy_med,
	    100 * hy_worst, 100 * HYBRID_MEDIAN_REACHED,
	    100 * HYBRID_WORST_REACHED);
	ck_assert_msg(fp4_med <= NVFP4_MEDIAN_REACHED && fp4_worst <=
	    NVFP4_WORST_REACHED, "NVFP4: median |err| %.1f%%, worst %.1f%% "
	    "(guards %.0f%%, %.0f%%)", 100 * fp4_med, 100 * fp4_worst,
	    100 * NVFP4_MEDIAN_REACHED, 100 * NVFP4_WORST_REACHED);
	free(fp4);
	free(o);
	free(rows);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("perf");
	TCase	*tc = tcase_create("published");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_published_rows);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
