/*
 * check_model.c: the built-in presets.  The names are docs/SPEC.md's;
 * each preset is consistent (model_check); and the published parameter count is
 * reproduced from the architecture within a few per cent, which catches a
 * mistyped width or layer count.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid.h"
#include "model-file.h"
#include "run.h"

static const char *const spec_names[] = {
	"llama3.2-1b", "llama3-8b", "llama3-70b", "llama3.1-405b", "olmoe-7b",
	"moonlight-16b", "deepseek-v2", "glm-4.5-air", "qwen3-30b-a3b",
	"glm-4.5", "qwen3-235b-a22b", "deepseek-v3", "kimi-k2",
	"gpt-oss-120b", "gpt-oss-20b", "nemotron-3-nano", "nemotron-3-super",
};
#define NSPEC	(sizeof spec_names / sizeof spec_names[0])

START_TEST(test_spec_names)
{
	const struct model	*m = model_builtin_find(spec_names[_i]);

	ck_assert_msg(m != NULL, "no preset %s", spec_names[_i]);
	ck_assert_ptr_nonnull(m->description);
	ck_assert_ptr_nonnull(m->source);
}
END_TEST

/*
 * Parameters from the architecture: embeddings (twice when untied),
 * attention (GQA or MLA), dense or MoE MLPs (SwiGLU: three matrices),
 * routers, and the RMSNorm weights.  MTP layers are not in the published
 * counts and are left out.
 */
static double
count_params(const struct model *m)
{
	double	 h = (double)m->hidden_size, heads = m->num_attention_heads;
	double	 kv = m->kv_channels != 0 ? (double)m->kv_channels :
	    h / heads;
	double	 attn, mlp, moe, layers = (double)m->num_layers, total, bias;
	double	 moe_layers = 0;

	if (m->kv_lora_rank != 0) {
		double	 qk = (double)(m->qk_head_dim + m->qk_pos_emb_head_dim);
		double	 q = m->q_lora_rank != 0 ?
		    h * m->q_lora_rank + m->q_lora_rank * heads * qk :
		    h * heads * qk;

		attn = q + h * (double)(m->kv_lora_rank +
		    m->qk_pos_emb_head_dim) + (double)m->kv_lora_rank * heads *
		    (double)(m->qk_head_dim + m->v_head_dim) +
		    heads * (double)m->v_head_dim * h;
	} else
		attn = 2 * h * heads * kv + 2 * h * (double)m->num_query_groups *
		    kv;
	/* GPT-OSS: biases (QKV, output, fc1 2F and fc2 h of each MLP or
	 * expert, the router's one per expert) and a sink per head. */
	bias = m->linear_bias ? 1 : 0;
	attn += (bias || m->qkv_bias ? (heads + 2 * (double)
	    m->num_query_groups) * kv : 0) + bias * h +
	    (m->softmax_type == SOFTMAX_LEARNABLE ? heads : 0);
	mlp = 3 * h * (double)m->ffn_hidden_size +
	    bias * (2 * (double)m->ffn_hidden_size + h);
	moe = 0;
	if (m->kind == MODEL_KIND_MOE) {
		moe = (3 * h * (double)m->moe_ffn_hidden_size + bias * (2 *
		    (double)m->moe_ffn_hidden_size + h)) *
		    (double)(m->num_experts + m->moe_shared_experts) +
		    (h + bias) * (double)m->num_experts;
		moe_layers = layers - (double)m->moe_dense_layers;
	}
	total = layers * (attn + 2 * h) + (layers - moe_layers) * mlp +
	    moe_layers * moe;
	total += h * (double)m->vocab_size * (m->tied_embeddings ? 1 : 2);
	return total;
}

/*
 * A hybrid model's parameters, module by module as Megatron-LM
 * core_v0.19.0 builds them (megatron/core/models/hybrid/
 * hybrid_layer_specs.py:99, 129, 203, 212 for the layers' modules; line
 * numbers below are megatron/core/ssm/mamba_mixer.py's unless named),
 * written apart from src/core/hybrid.c so that a slip in either shows:
 *   M: norm h (fused in in_proj); in_proj h x (2 di + 2 G N + H)
 *      (:280-282); conv1d weight (di + 2 G N) x 4 and bias (:317-331,
 *      d_conv 4 at :177); dt_bias, A_log, D: H each (:383, 395, 407);
 *      gated norm di (:417); out_proj di x h (:430); di = H x head dim.
 *   *: norm h (fused in linear_qkv); QKV h x (a + 2 g) kv; proj a kv x h.
 *   -: norm h; fc1 h x f (squared ReLU: not gated); fc2 f x h.
 *   E: pre-MLP norm h; router h x E (moe/router.py:61); latent
 *      projections h x lat twice (moe/moe_layer.py:273-296); routed
 *      experts E x (d x f + f x d), d = lat or h (moe/experts.py:216-
 *      243); shared experts h x fs + fs x h.
 *   final norm h (hybrid_block.py:215), embedding and output V x h.
 */
static double
count_hybrid(const struct model *m)
{
	double	 h = (double)m->hidden_size, V = (double)m->vocab_size;
	double	 H = (double)m->mamba_num_heads, P = (double)m->mamba_head_dim;
	double	 G = (double)m->mamba_num_groups, N = (double)m->mamba_state_dim;
	double	 a = (double)m->num_attention_heads;
	double	 g = (double)m->num_query_groups, kv = (double)m->kv_channels;
	double	 E = (double)m->num_experts, f = (double)m->moe_ffn_hidden_size;
	double	 fs = f * (double)m->moe_shared_experts;
	double	 lat = (double)m->moe_latent_size, d = lat > 0 ? lat : h;
	double	 di = H * P, M, A, D, X, total;
	double	 nM = 0, nA = 0, nD = 0, nE = 0;
	const char *p;

	for (p = m->hybrid_pattern; *p != '\0'; p++) {
		nM += *p == 'M';
		nA += *p == '*';
		nD += *p == '-';
		nE += *p == 'E';
	}
	M = h + h * (di + di + G * N + G * N + H) + 4 * (di + 2 * G * N) +
	    (di + 2 * G * N) + H + H + H + di + di * h;
	A = h + h * a * kv + h * g * kv * 2 + a * kv * h;
	D = h + h * (double)m->ffn_hidden_size * 2;
	X = h + h * E + 2 * h * lat + E * 2 * d * f + 2 * h * fs;
	total = nM * M + nA * A + nD * D + nE * X + h + 2 * V * h;
	return total;
}

/* Nemotron 3: the preset's count is what Megatron builds, exactly; the
 * core's own sum (hybrid_model_params) gives it too; and it rounds to
 * the model cards' 31.6B / 3.6B active with embeddings, 120B / 12B,
 * 550B / 55B. */
START_TEST(test_hybrid_exact)
{
	static const struct {
		const char	*name;
		double		 card, card_active;
	} table[] = {
		{ "nemotron-3-nano", 31.6e9, 3.6e9 },
		{ "nemotron-3-super", 120e9, 12e9 },
		{ "nemotron-3-ultra", 550e9, 55e9 },
	};
	const struct model	*m = model_builtin_find(table[_i].name);

	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(m->hybrid_pattern);
	ck_assert_double_eq(count_hybrid(m), (double)m->params);
	ck_assert_double_eq(hybrid_model_params(m, false), (double)m->params);
	ck_assert_double_eq(hybrid_model_params(m, true),
	    (double)m->active_params);
	ck_assert_msg(fabs((double)m->params - table[_i].card) /
	    table[_i].card < 0.01, "%s: %.4g", m->name, (double)m->params);
	ck_assert_msg(fabs((double)m->active_params - table[_i].card_active) /
	    table[_i].card_active < 0.07, "%s: %.4g active", m->name,
	    (double)m->active_params);
}
END_TEST

/* Patterns Megatron refuses or mbsbatch does not model. */
START_TEST(test_hybrid_parse)
{
	struct hybrid_counts	 c;

	ck_assert_ptr_null(hybrid_parse("M*M-|MEME", &c));
	ck_assert_int_eq(c.mamba, 4);
	ck_assert_int_eq(c.attention, 1);
	ck_assert_int_eq(c.mlp, 1);
	ck_assert_int_eq(c.moe, 2);
	ck_assert_int_eq(c.layers, 8);
	ck_assert_int_eq(c.segments, 2);
	ck_assert_ptr_nonnull(hybrid_parse("M*X", &c));
	ck_assert_ptr_nonnull(hybrid_parse("MG", &c));
	ck_assert_ptr_nonnull(hybrid_parse("M*/*E", &c));
	ck_assert_ptr_nonnull(hybrid_parse("||", &c));
	ck_assert_ptr_nonnull(hybrid_parse("", &c));
}
END_TEST

/* select_pipeline_segment()'s split: pipes, even, uneven. */
START_TEST(test_hybrid_stage)
{
	struct hybrid_counts	 c;

	/* Segments 1 and 3 of four on rank 1 of PP 2. */
	ck_assert_ptr_null(hybrid_stage("MM|**|EE|--", 2, 1, 0, 0, &c));
	ck_assert_int_eq(c.attention, 2);
	ck_assert_int_eq(c.mlp, 2);
	ck_assert_int_eq(c.layers, 4);
	ck_assert_int_eq(c.segments, 2);
	ck_assert_ptr_nonnull(hybrid_stage("MM|**|EE", 2, 0, 0, 0, &c));
	/* Even: layers 3-5 of six on rank 1 of PP 2. */
	ck_assert_ptr_null(hybrid_stage("MMM*EE", 2, 1, 0, 0, &c));
	ck_assert_int_eq(c.mamba, 0);
	ck_assert_int_eq(c.moe, 2);
	ck_assert_ptr_nonnull(hybrid_stage("MMM*E", 2, 0, 0, 0, &c));
	/* Uneven: 1 first, 1 last, 2 + 2 in the middle. */
	ck_assert_ptr_null(hybrid_stage("M*MEMEM-", 4, 0, 2, 2, &c));
	ck_assert_int_eq(c.layers, 2);
	ck_assert_ptr_null(hybrid_stage("M*MEMEM-", 4, 2, 2, 2, &c));
	ck_assert_int_eq(c.mamba, 1);
	ck_assert_int_eq(c.moe, 1);
	ck_assert_ptr_null(hybrid_stage("M*MEMEM-", 4, 3, 2, 2, &c));
	ck_assert_int_eq(c.mlp, 1);
}
END_TEST

START_TEST(test_param_count)
{
	const struct model	*m = &model_builtin[_i];
	double			 got, rel;

	got = m->hybrid_pattern != NULL ? count_hybrid(m) : count_params(m);

	ck_assert_int_gt(m->params, 0);
	rel = fabs(got - (double)m->params) / (double)m->params;
	/* Published counts are rounded ("16B", "1T"); Kimi K2, the
	 * roughest, is 2.6% off its "1T". */
	ck_assert_msg(rel < 0.03, "%s: architecture gives %.4g, published "
	    "%.4g (%.1f%% off)", m->name, got, (double)m->params, rel * 100);
}
END_TEST

START_TEST(test_consistent)
{
	const struct model	*m = &model_builtin[_i];
	char			 why[160];

	ck_assert_msg(model_check(m, why, sizeof why) == 0, "%s: %s", m->name,
	    why);
	ck_assert_int_gt(m->num_layers, 0);
	ck_assert_int_gt(m->hidden_size, 0);
	ck_assert_int_gt(m->num_attention_heads, 0);
	ck_assert_int_gt(m->num_query_groups, 0);
	ck_assert_int_gt(m->vocab_size, 0);
	ck_assert(m->kind == MODEL_KIND_DENSE || m->kind == MODEL_KIND_MOE);
	if (m->kind == MODEL_KIND_MOE) {
		ck_assert_int_gt(m->num_experts, 0);
		ck_assert_int_gt(m->moe_router_topk, 0);
		ck_assert_int_gt(m->moe_ffn_hidden_size, 0);
		ck_assert_int_gt(m->active_params, 0);
		ck_assert_int_lt(m->active_params, m->params);
	} else {
		ck_assert_int_eq(m->num_experts, 0);
		ck_assert_int_eq(m->active_params, 0);
	}
}
END_TEST

START_TEST(test_recommended_layouts_divide)
{
	/* The MoE table of docs/megatron-rules.md section 5: EP divides the
	 * experts of each model (the layer split is another matter). */
	static const struct {
		const char	*name;
		int64_t		 ep;
	} table[] = {
		{ "olmoe-7b", 8 }, { "moonlight-16b", 8 },
		{ "deepseek-v2", 32 }, { "glm-4.5-air", 8 },
		{ "qwen3-30b-a3b", 4 }, { "glm-4.5", 16 },
		{ "qwen3-235b-a22b", 8 }, { "deepseek-v3", 64 },
		{ "kimi-k2", 32 }, { "gpt-oss-120b", 8 }, { "gpt-oss-20b", 8 },
	};
	size_t	 i;

	for (i = 0; i < sizeof table / sizeof table[0]; i++) {
		const struct model *m = model_builtin_find(table[i].name);

		ck_assert_ptr_nonnull(m);
		ck_assert_msg(m->num_experts % table[i].ep == 0, "%s",
		    m->name);
	}
}
END_TEST

static Suite *
model_suite(void)
{
	Suite	*s = suite_create("model");
	TCase	*tc;
	int	 n;

	for (n = 0; model_builtin[n].name != NULL; n++)
		continue;
	tc = tcase_create("presets");
	tcase_add_loop_test(tc, test_spec_names, 0, (int)NSPEC);
	tcase_add_loop_test(tc, test_consistent, 0, n);
	tcase_add_loop_test(tc, test_param_count, 0, n);
	tcase_add_test(tc, test_recommended_layouts_divide);
	tcase_add_loop_test(tc, test_hybrid_exact, 0, 3);
	tcase_add_test(tc, test_hybrid_parse);
	tcase_add_test(tc, test_hybrid_stage);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(model_suite());
}
