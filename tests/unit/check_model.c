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

#include "model-file.h"
#include "run.h"

static const char *const spec_names[] = {
	"llama3.2-1b", "llama3-8b", "llama3-70b", "llama3.1-405b", "olmoe-7b",
	"moonlight-16b", "deepseek-v2", "glm-4.5-air", "qwen3-30b-a3b",
	"glm-4.5", "qwen3-235b-a22b", "deepseek-v3", "kimi-k2",
	"gpt-oss-120b", "gpt-oss-20b",
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

START_TEST(test_param_count)
{
	const struct model	*m = &model_builtin[_i];
	double			 got = count_params(m), rel;

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
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(model_suite());
}
