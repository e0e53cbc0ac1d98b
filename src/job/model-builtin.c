/*
 * model-builtin.c: the built-in model presets; see model.h.
 *
 * Every architecture number is the model's published Hugging Face
 * config.json value, mapped as follows:
 * num_layers is num_hidden_layers and never counts MTP/nextn layers,
 * ffn_hidden_size is intermediate_size, num_query_groups is
 * num_key_value_heads (set to num_attention_heads for MLA models, whose
 * configs also say so), kv_channels is head_dim only where it differs
 * from hidden_size / num_attention_heads, q_lora_rank is 0 where the
 * config has null, moe_dense_layers is first_k_dense_replace and
 * mtp_layers is num_nextn_predict_layers (0 when absent).
 *
 * The HF model repositories themselves were not reachable when this table
 * was written, so each value was checked against copies of the config.json
 * found in public code (NVIDIA-NeMo/Megatron-Bridge unit-test fixtures and
 * model providers, and other verbatim copies); each entry's comment names
 * them.  params and active_params are the figures published on the model
 * card or paper: exact where an exact count is published (the Llama
 * safetensors totals), otherwise the rounded figure.  They were also
 * recomputed from the config shapes, and the comment says how they
 * compare.
 *
 * The fields Megatron needs besides the shapes (norm epsilon, RoPE base
 * and scaling, qk-layernorm, QKV bias, the router's score function,
 * expert bias, top-k scaling, groups and load-balancing loss) are those
 * Megatron-Bridge's model bridges set for each family
 * (src/megatron/bridge/models/<family>/<name>_bridge.py: RMSNorm, SwiGLU, no
 * linear bias for all) from the Hugging Face config, checked against
 * Bridge's unit-test fixtures and its v0.3.1 providers.  Two Bridge
 * fixtures disagree with the providers for GLM (norm epsilon 1e-6 and
 * Air's top-k scaling 2.5): the providers and a public GLM-4.5-Air
 * config.json are followed.  Neither changes the parameter count.
 *
 * To add a model preset: an entry below with every number from its
 * config.json (the comment naming where each was checked) and its
 * published parameter counts; its name in mbsbatch-plan(1) where the
 * presets are listed; a line in check_model.c holding its parameter
 * count against the shapes.
 */
#include <stddef.h>
#include <stdint.h>

#include "model-file.h"

const struct model model_builtin[] = {
	/*
	 * Llama 3.2 1B.  head_dim 64 = 2048 / 32, so kv_channels is 0.
	 * Config: Megatron-Bridge tests/unit_tests/models/llama/
	 * test_llama_bridge.py (Llama 3.2 1B fixture) and
	 * Llama32ModelProvider1B.  params: the exact safetensors total
	 * 1235814400, which the config shapes reproduce; the model card
	 * (meta-llama/llama-models MODEL_CARD.md) rounds it to "1.23B".
	 */
	{
		.name = "llama3.2-1b",
		.hf_model = "meta-llama/Llama-3.2-1B",
		.description = "Llama 3.2 1B",
		.kind = MODEL_KIND_DENSE,
		.num_layers = 16,
		.hidden_size = 2048,
		.ffn_hidden_size = 8192,
		.num_attention_heads = 32,
		.num_query_groups = 8,
		.kv_channels = 0,
		.vocab_size = 128256,
		.tied_embeddings = true,
		.norm_epsilon = 1e-5,
		.rotary_base = 500000,
		.rope_scaling = ROPE_SCALING_LLAMA3,
		.rope_scaling_factor = 32,
		.params = INT64_C(1235814400),
		.active_params = 0,
		.source = "huggingface.co/meta-llama/Llama-3.2-1B "
		    "config.json; "
		    "params: safetensors total (model card: 1.23B)",
	},
	/*
	 * Llama 3 8B.  Config: verbatim copies of Meta-Llama-3-8B
	 * config.json in public code, and Megatron-Bridge
	 * Llama3ModelProvider8B.  params: exact safetensors total, which
	 * the config shapes reproduce.
	 */
	{
		.name = "llama3-8b",
		.hf_model = "meta-llama/Meta-Llama-3-8B",
		.description = "Llama 3 8B",
		.kind = MODEL_KIND_DENSE,
		.num_layers = 32,
		.hidden_size = 4096,
		.ffn_hidden_size = 14336,
		.num_attention_heads = 32,
		.num_query_groups = 8,
		.kv_channels = 0,
		.vocab_size = 128256,
		.tied_embeddings = false,
		.norm_epsilon = 1e-5,
		.rotary_base = 500000,
		.params = INT64_C(8030261248),
		.active_params = 0,
		.source = "huggingface.co/meta-llama/Meta-Llama-3-8B "
		    "config.json; params: safetensors total",
	},
	/*
	 * Llama 3 70B.  Config: Megatron-Bridge Llama3ModelProvider70B and
	 * copies of the Llama 3.1/3.3 70B config.json, which have the same
	 * shapes (they differ only in RoPE scaling).  params: the exact
	 * safetensors total published for the 70B checkpoints
	 * (70553706496, shown as "70.6B"); the config shapes reproduce it.
	 * The Meta-Llama-3-70B count itself was not seen directly, but
	 * identical shapes give an identical count.
	 */
	{
		.name = "llama3-70b",
		.hf_model = "meta-llama/Meta-Llama-3-70B",
		.description = "Llama 3 70B",
		.kind = MODEL_KIND_DENSE,
		.num_layers = 80,
		.hidden_size = 8192,
		.ffn_hidden_size = 28672,
		.num_attention_heads = 64,
		.num_query_groups = 8,
		.kv_channels = 0,
		.vocab_size = 128256,
		.tied_embeddings = false,
		.norm_epsilon = 1e-5,
		.rotary_base = 500000,
		.params = INT64_C(70553706496),
		.active_params = 0,
		.source = "huggingface.co/meta-llama/Meta-Llama-3-70B "
		    "config.json; params: safetensors total",
	},
	/*
	 * Llama 3.1 405B.  Config: Megatron-Bridge Llama31ModelProvider405B
	 * and copies citing huggingface.co/meta-llama/Llama-3.1-405B
	 * config.json.  The HF config has 8 KV heads; some third-party
	 * configs (litgpt, a TensorRT-LLM example) used 16, see
	 * Lightning-AI/litgpt issue 1942.  params: exact safetensors total
	 * 405853388800 ("405B" on the model card); the config shapes
	 * reproduce it.
	 */
	{
		.name = "llama3.1-405b",
		.hf_model = "meta-llama/Meta-Llama-3.1-405B",
		.description = "Llama 3.1 405B",
		.kind = MODEL_KIND_DENSE,
		.num_layers = 126,
		.hidden_size = 16384,
		.ffn_hidden_size = 53248,
		.num_attention_heads = 128,
		.num_query_groups = 8,
		.kv_channels = 0,
		.vocab_size = 128256,
		.tied_embeddings = false,
		.norm_epsilon = 1e-5,
		.rotary_base = 500000,
		.rope_scaling = ROPE_SCALING_LLAMA3,
		.rope_scaling_factor = 8,
		.params = INT64_C(405853388800),
		.active_params = 0,
		.source = "huggingface.co/meta-llama/Llama-3.1-405B "
		    "config.json; params: safetensors total",
	},
	/*
	 * OLMoE-1B-7B (0924).  Every layer is MoE and the config has no
	 * separate dense width: intermediate_size 1024 is the expert width,
	 * so ffn_hidden_size and moe_ffn_hidden_size are both 1024, as in
	 * Megatron-Bridge's OLMoE bridge.  No shared experts, no dense
	 * layers, no MTP.  Config: Megatron-Bridge tests/unit_tests/models/
	 * olmoe/test_olmoe_bridge.py (OLMoE-1B-7B fixture) and
	 * OlMoEModelProvider.  params: "6.9B total, 1.3B active" in the
	 * allenai/OLMoE README and paper; the config shapes give 6.92B and
	 * 1.28B.
	 */
	{
		.name = "olmoe-7b",
		.hf_model = "allenai/OLMoE-1B-7B-0924",
		.description = "OLMoE-1B-7B",
		.kind = MODEL_KIND_MOE,
		.num_layers = 16,
		.hidden_size = 2048,
		.ffn_hidden_size = 1024,
		.num_attention_heads = 16,
		.num_query_groups = 16,
		.kv_channels = 0,
		.vocab_size = 50304,
		.tied_embeddings = false,
		.num_experts = 64,
		.moe_router_topk = 8,
		.moe_ffn_hidden_size = 1024,
		.moe_shared_experts = 0,
		.moe_dense_layers = 0,
		.mtp_layers = 0,
		.norm_epsilon = 1e-5,
		.rotary_base = 10000,
		.qk_layernorm = true,
		.router_score = ROUTER_SCORE_SOFTMAX,
		.router_pre_softmax = true,
		.aux_loss = AUX_LOSS_SEQ,
		.aux_loss_coeff = 0.01,
		.params = INT64_C(6900000000),
		.active_params = INT64_C(1300000000),
		.source = "huggingface.co/allenai/OLMoE-1B-7B-0924 "
		    "config.json; params: github.com/allenai/OLMoE README",
	},
	/*
	 * Moonlight-16B-A3B (DeepSeek-V3 architecture, MLA with
	 * q_lora_rank null).  Config: a verbatim copy of the
	 * Moonlight-16B-A3B config.json in public code (including
	 * num_nextn_predict_layers 0) and Megatron-Bridge
	 * MoonlightModelProvider16B.  Megatron-Bridge's Moonlight doc page
	 * has errors (8 shared experts, intermediate 10944, vocab 151936);
	 * the config and the provider have 2, 11264 and 163840.
	 * params: the model card's "16B" total and "3B" activated; its
	 * benchmark table gives 15.29B and 2.24B *excluding embeddings*,
	 * which the config shapes reproduce (15.96B and 2.91B with them).
	 */
	{
		.name = "moonlight-16b",
		.hf_model = "moonshotai/Moonlight-16B-A3B",
		.description = "Moonlight-16B-A3B",
		.kind = MODEL_KIND_MOE,
		.num_layers = 27,
		.hidden_size = 2048,
		.ffn_hidden_size = 11264,
		.num_attention_heads = 16,
		.num_query_groups = 16,
		.kv_channels = 0,
		.vocab_size = 163840,
		.tied_embeddings = false,
		.q_lora_rank = 0,
		.kv_lora_rank = 512,
		.qk_head_dim = 128,
		.qk_pos_emb_head_dim = 64,
		.v_head_dim = 128,
		.num_experts = 64,
		.moe_router_topk = 6,
		.moe_ffn_hidden_size = 1408,
		.moe_shared_experts = 2,
		.moe_dense_layers = 1,
		.mtp_layers = 0,
		.norm_epsilon = 1e-5,
		.rotary_base = 50000,
		.mscale = 1,
		.mscale_all_dim = 1,
		.qk_layernorm = true,
		.router_score = ROUTER_SCORE_SIGMOID,
		.router_expert_bias = true,
		.router_topk_scale = 2.446,
		.aux_loss = AUX_LOSS_SEQ,
		.aux_loss_coeff = 1e-3,
		.params = INT64_C(16000000000),
		.active_params = INT64_C(3000000000),
		.source = "huggingface.co/moonshotai/Moonlight-16B-A3B "
		    "config.json; params: model card",
	},
	/*
	 * DeepSeek-V2 (236B).  No num_nextn_predict_layers in the config, so
	 * no MTP.  Config: Megatron-Bridge tests/unit_tests/models/deepseek/
	 * test_deepseek_bridges.py (DeepSeek-V2 fixture) and
	 * DeepSeekV2ModelProvider.  params: "236B total parameters, of which
	 * 21B are activated for each token" (README and paper); the config
	 * shapes give 235.7B and 21.4B.
	 */
	{
		.name = "deepseek-v2",
		.hf_model = "deepseek-ai/DeepSeek-V2",
		.description = "DeepSeek-V2 236B",
		.kind = MODEL_KIND_MOE,
		.num_layers = 60,
		.hidden_size = 5120,
		.ffn_hidden_size = 12288,
		.num_attention_heads = 128,
		.num_query_groups = 128,
		.kv_channels = 0,
		.vocab_size = 102400,
		.tied_embeddings = false,
		.q_lora_rank = 1536,
		.kv_lora_rank = 512,
		.qk_head_dim = 128,
		.qk_pos_emb_head_dim = 64,
		.v_head_dim = 128,
		.num_experts = 160,
		.moe_router_topk = 6,
		.moe_ffn_hidden_size = 1536,
		.moe_shared_experts = 2,
		.moe_dense_layers = 1,
		.mtp_layers = 0,
		.norm_epsilon = 1e-6,
		.rotary_base = 10000,
		.rope_scaling = ROPE_SCALING_YARN,
		.rope_scaling_factor = 40,
		.mscale = 0.707,
		.mscale_all_dim = 0.707,
		.qk_layernorm = true,
		.router_score = ROUTER_SCORE_SOFTMAX,
		.router_topk_scale = 16,
		.router_groups = 8,
		.router_group_topk = 3,
		.router_pre_softmax = true,
		.aux_loss = AUX_LOSS_SEQ,
		.aux_loss_coeff = 1e-3,
		.params = INT64_C(236000000000),
		.active_params = INT64_C(21000000000),
		.source = "huggingface.co/deepseek-ai/DeepSeek-V2 "
		    "config.json; params: model card and paper",
	},
	/*
	 * GLM-4.5-Air (106B/12B).  head_dim 128 differs from 4096 / 96.
	 * Config: Megatron-Bridge tests/unit_tests/models/glm/
	 * test_glm45_bridge.py (GLM 4.5 Air fixture) and
	 * GLM45AirModelProvider106B.  mtp_layers: that fixture omits the
	 * field; 1 comes from Megatron-Bridge's GLM provider
	 * (mtp_num_layers 1), the GLM-4.5 paper (one MTP layer) and a
	 * third-party GLM-4.5-Air checkpoint test with
	 * num_nextn_predict_layers 1; not seen in the HF file itself.
	 * params: 106B total, 12B active (zai-org/GLM-4.5 README); the
	 * config shapes give 106.9B without the MTP layer.
	 */
	{
		.name = "glm-4.5-air",
		.hf_model = "zai-org/GLM-4.5-Air",
		.description = "GLM-4.5-Air 106B/12B",
		.kind = MODEL_KIND_MOE,
		.num_layers = 46,
		.hidden_size = 4096,
		.ffn_hidden_size = 10944,
		.num_attention_heads = 96,
		.num_query_groups = 8,
		.kv_channels = 128,
		.vocab_size = 151552,
		.tied_embeddings = false,
		.num_experts = 128,
		.moe_router_topk = 8,
		.moe_ffn_hidden_size = 1408,
		.moe_shared_experts = 1,
		.moe_dense_layers = 1,
		.mtp_layers = 1,
		.norm_epsilon = 1e-5,
		.rotary_base = 1000000,
		.rotary_percent = 0.5,
		.qkv_bias = true,
		.router_score = ROUTER_SCORE_SIGMOID,
		.router_expert_bias = true,
		.router_topk_scale = 1,
		.aux_loss = AUX_LOSS_SEQ,
		.aux_loss_coeff = 1e-3,
		.params = INT64_C(106000000000),
		.active_params = INT64_C(12000000000),
		.source = "huggingface.co/zai-org/GLM-4.5-Air "
		    "config.json; params: github.com/zai-org/GLM-4.5 README",
	},
	/*
	 * Qwen3-30B-A3B.  head_dim 128 differs from 2048 / 32.  Every layer
	 * is MoE (decoder_sparse_step 1, mlp_only_layers empty), so the
	 * dense intermediate_size 6144 is unused by the checkpoint.  No
	 * shared experts, no MTP.  Config: a verbatim copy of the
	 * Qwen3-30B-A3B config.json in public code and Megatron-Bridge
	 * Qwen3MoEModelProvider30B_A3B.  params: "30.5B in total and 3.3B
	 * activated" (model card); the config shapes give 30.53B and 3.35B.
	 */
	{
		.name = "qwen3-30b-a3b",
		.hf_model = "Qwen/Qwen3-30B-A3B",
		.description = "Qwen3-30B-A3B",
		.kind = MODEL_KIND_MOE,
		.num_layers = 48,
		.hidden_size = 2048,
		.ffn_hidden_size = 6144,
		.num_attention_heads = 32,
		.num_query_groups = 4,
		.kv_channels = 128,
		.vocab_size = 151936,
		.tied_embeddings = false,
		.num_experts = 128,
		.moe_router_topk = 8,
		.moe_ffn_hidden_size = 768,
		.moe_shared_experts = 0,
		.moe_dense_layers = 0,
		.mtp_layers = 0,
		.norm_epsilon = 1e-6,
		.rotary_base = 1000000,
		.qk_layernorm = true,
		.router_score = ROUTER_SCORE_SOFTMAX,
		.aux_loss = AUX_LOSS_AUX,
		.aux_loss_coeff = 1e-3,
		.params = INT64_C(30500000000),
		.active_params = INT64_C(3300000000),
		.source = "huggingface.co/Qwen/Qwen3-30B-A3B "
		    "config.json; params: model card",
	},
	/*
	 * GLM-4.5 (355B/32B).  head_dim 128 differs from 5120 / 96.  Config:
	 * Megatron-Bridge tests/unit_tests/models/glm/test_glm45_bridge.py
	 * (GLM 4.5 355B fixture) and GLM45ModelProvider355B; the paper's
	 * table gives 3 dense and 89 MoE layers.  mtp_layers: that fixture
	 * omits the field; 1 comes from Megatron-Bridge's GLM provider, the
	 * GLM-4.5 paper, and copies of the GLM-4.6/4.7 config.json (same
	 * architecture, num_nextn_predict_layers 1); not seen in the
	 * GLM-4.5 HF file itself.  params: 355B total, 32B active
	 * (zai-org/GLM-4.5 README); the config shapes give 352.8B without
	 * the MTP layer, about 356.6B with it.
	 */
	{
		.name = "glm-4.5",
		.hf_model = "zai-org/GLM-4.5",
		.description = "GLM-4.5 355B/32B",
		.kind = MODEL_KIND_MOE,
		.num_layers = 92,
		.hidden_size = 5120,
		.ffn_hidden_size = 12288,
		.num_attention_heads = 96,
		.num_query_groups = 8,
		.kv_channels = 128,
		.vocab_size = 151552,
		.tied_embeddings = false,
		.num_experts = 160,
		.moe_router_topk = 8,
		.moe_ffn_hidden_size = 1536,
		.moe_shared_experts = 1,
		.moe_dense_layers = 3,
		.mtp_layers = 1,
		.norm_epsilon = 1e-5,
		.rotary_base = 1000000,
		.rotary_percent = 0.5,
		.qk_layernorm = true,
		.qkv_bias = true,
		.router_score = ROUTER_SCORE_SIGMOID,
		.router_expert_bias = true,
		.router_topk_scale = 2.5,
		.aux_loss = AUX_LOSS_SEQ,
		.aux_loss_coeff = 1e-3,
		.params = INT64_C(355000000000),
		.active_params = INT64_C(32000000000),
		.source = "huggingface.co/zai-org/GLM-4.5 "
		    "config.json; params: github.com/zai-org/GLM-4.5 README",
	},
	/*
	 * Qwen3-235B-A22B.  head_dim 128 differs from 4096 / 64.  Every
	 * layer is MoE; the dense intermediate_size 12288 is unused by the
	 * checkpoint.  No shared experts, no MTP.  Config: a verbatim copy
	 * of the Qwen/Qwen3-235B-A22B config.json in public code and
	 * Megatron-Bridge Qwen3MoEModelProvider235B_A22B.  params: "235B in
	 * total and 22B activated" (model card); the config shapes give
	 * 235.1B and 22.2B.
	 */
	{
		.name = "qwen3-235b-a22b",
		.hf_model = "Qwen/Qwen3-235B-A22B",
		.description = "Qwen3-235B-A22B",
		.kind = MODEL_KIND_MOE,
		.num_layers = 94,
		.hidden_size = 4096,
		.ffn_hidden_size = 12288,
		.num_attention_heads = 64,
		.num_query_groups = 4,
		.kv_channels = 128,
		.vocab_size = 151936,
		.tied_embeddings = false,
		.num_experts = 128,
		.moe_router_topk = 8,
		.moe_ffn_hidden_size = 1536,
		.moe_shared_experts = 0,
		.moe_dense_layers = 0,
		.mtp_layers = 0,
		.norm_epsilon = 1e-6,
		.rotary_base = 1000000,
		.qk_layernorm = true,
		.router_score = ROUTER_SCORE_SOFTMAX,
		.aux_loss = AUX_LOSS_AUX,
		.aux_loss_coeff = 1e-3,
		.params = INT64_C(235000000000),
		.active_params = INT64_C(22000000000),
		.source = "huggingface.co/Qwen/Qwen3-235B-A22B "
		    "config.json; params: model card",
	},
	/*
	 * DeepSeek-V3 (671B/37B).  Config: Megatron-Bridge tests/unit_tests/
	 * models/deepseek/test_deepseek_bridges.py (DeepSeek-V3 fixture) and
	 * DeepSeekV3ModelProvider; the DeepSeek-R1 config.json (same
	 * architecture) agrees.  params: 671B total, 37B activated (model
	 * card and paper), not counting the MTP module: the card says the
	 * 685B on Hugging Face is 671B main model plus 14B MTP module.  The
	 * config shapes give 671.0B and 37.6B.
	 */
	{
		.name = "deepseek-v3",
		.hf_model = "deepseek-ai/DeepSeek-V3",
		.description = "DeepSeek-V3 671B/37B",
		.kind = MODEL_KIND_MOE,
		.num_layers = 61,
		.hidden_size = 7168,
		.ffn_hidden_size = 18432,
		.num_attention_heads = 128,
		.num_query_groups = 128,
		.kv_channels = 0,
		.vocab_size = 129280,
		.tied_embeddings = false,
		.q_lora_rank = 1536,
		.kv_lora_rank = 512,
		.qk_head_dim = 128,
		.qk_pos_emb_head_dim = 64,
		.v_head_dim = 128,
		.num_experts = 256,
		.moe_router_topk = 8,
		.moe_ffn_hidden_size = 2048,
		.moe_shared_experts = 1,
		.moe_dense_layers = 3,
		.mtp_layers = 1,
		.norm_epsilon = 1e-6,
		.rotary_base = 10000,
		.rope_scaling = ROPE_SCALING_YARN,
		.rope_scaling_factor = 40,
		.mscale = 1,
		.mscale_all_dim = 1,
		.qk_layernorm = true,
		.router_score = ROUTER_SCORE_SIGMOID,
		.router_expert_bias = true,
		.router_topk_scale = 2.5,
		.router_groups = 8,
		.router_group_topk = 4,
		.aux_loss = AUX_LOSS_SEQ,
		.aux_loss_coeff = 1e-4,
		.params = INT64_C(671000000000),
		.active_params = INT64_C(37000000000),
		.source = "huggingface.co/deepseek-ai/DeepSeek-V3 "
		    "config.json; params: model card",
	},
	/*
	 * Kimi K2 (DeepSeek-V3 architecture, 64 heads, 384 experts).
	 * Config: the github.com/MoonshotAI/Kimi-K2 README model summary
	 * (61 layers, 1 dense, 7168, expert 2048, 64 heads, 384 experts,
	 * top 8, 1 shared), Megatron-Bridge KimiK2Provider (18432,
	 * q_lora_rank 1536, kv_lora_rank 512, 128/64/128, vocab 163840, no
	 * MTP) and a config.json summary of Kimi-K2-Instruct-0905 (vocab
	 * 163840, untied, 64 KV heads).  num_nextn_predict_layers 0 was
	 * seen only in the Kimi-K2.5 text_config (same backbone).
	 * params: the count the config shapes give, 1026408209408, which
	 * is what Megatron builds from them; the model card rounds it to
	 * "1T" (2.6% off) and the tech report says 1.04T.  "32B" activated
	 * is the card's (the shapes give 32.9B).
	 */
	{
		.name = "kimi-k2",
		.hf_model = "moonshotai/Kimi-K2-Instruct",
		.description = "Kimi K2 1T/32B",
		.kind = MODEL_KIND_MOE,
		.num_layers = 61,
		.hidden_size = 7168,
		.ffn_hidden_size = 18432,
		.num_attention_heads = 64,
		.num_query_groups = 64,
		.kv_channels = 0,
		.vocab_size = 163840,
		.tied_embeddings = false,
		.q_lora_rank = 1536,
		.kv_lora_rank = 512,
		.qk_head_dim = 128,
		.qk_pos_emb_head_dim = 64,
		.v_head_dim = 128,
		.num_experts = 384,
		.moe_router_topk = 8,
		.moe_ffn_hidden_size = 2048,
		.moe_shared_experts = 1,
		.moe_dense_layers = 1,
		.mtp_layers = 0,
		.norm_epsilon = 1e-6,
		.rotary_base = 50000,
		.rope_scaling = ROPE_SCALING_YARN,
		.rope_scaling_factor = 32,
		.mscale = 1,
		.mscale_all_dim = 1,
		.qk_layernorm = true,
		.router_score = ROUTER_SCORE_SIGMOID,
		.router_expert_bias = true,
		.router_topk_scale = 2.827,
		.aux_loss = AUX_LOSS_SEQ,
		.aux_loss_coeff = 1e-3,
		.params = INT64_C(1026408209408),
		.active_params = INT64_C(32000000000),
		.source = "huggingface.co/moonshotai/Kimi-K2-Instruct "
		    "config.json; params: the count its shapes give (model "
		    "card: 1T)",
	},
	/*
	 * GPT-OSS (gpt-oss-120b and gpt-oss-20b; the two differ only in
	 * layers and experts).  Config (huggingface.co/openai/gpt-oss-120b
	 * and -20b config.json): hidden_size 2880, intermediate_size 2880
	 * (the expert width: every layer is MoE, no shared expert),
	 * num_attention_heads 64, num_key_value_heads 8, head_dim 64 (not
	 * 2880 / 64), vocab_size 201088, tie_word_embeddings false,
	 * num_experts_per_tok 4, rms_norm_eps 1e-5, rope_theta 150000,
	 * rope_scaling yarn factor 32, original_max_position_embeddings
	 * 4096, beta_fast 32, beta_slow 1, truncate false (the correction
	 * range not rounded), attention_bias true, sliding_window 128,
	 * layer_types alternating sliding/full from layer 0, swiglu_limit
	 * 7.0; 120b: num_hidden_layers 36, num_local_experts 128; 20b: 24
	 * and 32.  The files themselves were not reachable; checked against
	 * copies: vLLM's GptOssConfig defaults (the 120b), a snapshot of the
	 * 20b's config in EchoCog/gpt-oss-20b docs/gpt-oss-20b-architecture.md
	 * and Megatron-Bridge 067f987d tests/unit_tests/models/gpt_oss/
	 * test_gpt_oss_bridges.py:33-43 (the 20b fixture).
	 * What Megatron builds from it: Megatron-Bridge 067f987d
	 * src/megatron/bridge/models/gpt_oss/gpt_oss_bridge.py:60-99
	 * (RMSNorm, gated linear unit, add_bias_linear and add_qkv_bias,
	 * untied, YaRN, load balancing "none", pre-softmax off, quick_gelu
	 * with activation_func_clamp_value 7.0 and glu_linear_offset 1.0,
	 * softmax_type "learnable", window_size (sliding_window - 1, 0),
	 * window_attn_skip_freq 2, moe_ffn_hidden_size = intermediate_size,
	 * the YaRN values above); Megatron-LM d98e8a64 examples/
	 * post_training/modelopt/conf/openai/gpt-oss-120b.sh:19-52 gives the
	 * same as flags (softmax router, --window-size 127,0).  With
	 * window_attn_skip_freq 2 layer n (1-based) is full when n is even
	 * (megatron/core/transformer/utils.py:531): layers 0, 2, ... (0-based)
	 * slide, as layer_types says.
	 * params: the model card's 116.83B total, 5.13B active (20b: 20.91B,
	 * 3.61B; the card counts the unembedding but not the embedding in
	 * the active figure).  The shapes give 116829156672 and
	 * 20914757184 with every bias and sink, which is what Megatron
	 * builds (tests/cli/conformance.sh counts its flags): those are the
	 * figures here.
	 */
	{
		.name = "gpt-oss-120b",
		.hf_model = "openai/gpt-oss-120b",
		.description = "GPT-OSS 120B (117B/5.1B)",
		.kind = MODEL_KIND_MOE,
		.num_layers = 36,
		.num_experts = 128,
		.hidden_size = 2880,
		.ffn_hidden_size = 2880,
		.num_attention_heads = 64,
		.num_query_groups = 8,
		.kv_channels = 64,
		.vocab_size = 201088,
		.tied_embeddings = false,
		.moe_router_topk = 4,
		.moe_ffn_hidden_size = 2880,
		.moe_shared_experts = 0,
		.moe_dense_layers = 0,
		.mtp_layers = 0,
		.norm_epsilon = 1e-5,
		.rotary_base = 150000,
		.rope_scaling = ROPE_SCALING_YARN,
		.rope_scaling_factor = 32,
		.yarn_original_max_pos = 4096,
		.yarn_beta_fast = 32,
		.yarn_beta_slow = 1,
		.yarn_exact_range = true,
		.qkv_bias = true,
		.linear_bias = true,
		.softmax_type = SOFTMAX_LEARNABLE,
		.sliding_window = 128,
		.window_skip_freq = 2,
		.activation = ACTIVATION_QUICK_GEGLU,
		.glu_linear_offset = 1,
		.activation_clamp = 7,
		.router_score = ROUTER_SCORE_SOFTMAX,
		.aux_loss = AUX_LOSS_NONE,
		.params = INT64_C(116829156672),
		.active_params = INT64_C(5130000000),
		.source = "huggingface.co/openai/gpt-oss-120b config.json; "
		    "params: the count its shapes give (model card: 116.83B, "
		    "5.13B active)",
	},
	{
		.name = "gpt-oss-20b",
		.hf_model = "openai/gpt-oss-20b",
		.description = "GPT-OSS 20B (21B/3.6B)",
		.kind = MODEL_KIND_MOE,
		.num_layers = 24,
		.num_experts = 32,
		.hidden_size = 2880,
		.ffn_hidden_size = 2880,
		.num_attention_heads = 64,
		.num_query_groups = 8,
		.kv_channels = 64,
		.vocab_size = 201088,
		.tied_embeddings = false,
		.moe_router_topk = 4,
		.moe_ffn_hidden_size = 2880,
		.moe_shared_experts = 0,
		.moe_dense_layers = 0,
		.mtp_layers = 0,
		.norm_epsilon = 1e-5,
		.rotary_base = 150000,
		.rope_scaling = ROPE_SCALING_YARN,
		.rope_scaling_factor = 32,
		.yarn_original_max_pos = 4096,
		.yarn_beta_fast = 32,
		.yarn_beta_slow = 1,
		.yarn_exact_range = true,
		.qkv_bias = true,
		.linear_bias = true,
		.softmax_type = SOFTMAX_LEARNABLE,
		.sliding_window = 128,
		.window_skip_freq = 2,
		.activation = ACTIVATION_QUICK_GEGLU,
		.glu_linear_offset = 1,
		.activation_clamp = 7,
		.router_score = ROUTER_SCORE_SOFTMAX,
		.aux_loss = AUX_LOSS_NONE,
		.params = INT64_C(20914757184),
		.active_params = INT64_C(3610000000),
		.source = "huggingface.co/openai/gpt-oss-20b config.json; "
		    "params: the count its shapes give (model card: 20.91B, "
		    "3.61B active)",
	},
	/*
	 * Nemotron 3 (Nano, Super, Ultra): hybrid Mamba-2 / attention /
	 * MoE models (hybrid.h), squared-ReLU experts, no position
	 * embedding, untied, RMSNorm 1e-5, a sigmoid router with expert
	 * bias and sequence auxiliary loss 1e-4.  Config: Megatron-LM
	 * d98e8a64 examples/post_training/modelopt/conf/nvidia/
	 * NVIDIA-Nemotron-3-{Nano-30B-A3B,Super-120B-A12B,Ultra-550B-A55B}-
	 * BF16.sh (the flags Megatron-LM builds each checkpoint's model
	 * with; the same files at core_v0.19.0), Mamba groups and state
	 * size at TransformerConfig's defaults 8 and 128 (transformer_
	 * config.py core_v0.19.0:1179-1185), which those files leave.
	 * Nano also: Megatron-Bridge 0.6.0 recipes/nemotronh/h100/
	 * nemotron_3_nano.py:78-104 (its HybridModelProvider) and 067f987d
	 * tests/unit_tests/models/nemotronh/test_nemotron_h_bridge.py:49-91
	 * (the Hugging Face config, vocab 131072); Super also:
	 * tests/unit_tests/recipes/nemotronh/test_nemotron_3_super.py:
	 * 347-354 (512 experts of 2688, shared 5376, top-22, scaling 5,
	 * latent 1024).  The shared experts' width (moe_shared_expert_
	 * intermediate_size) is twice the expert's in all three: 2 shared
	 * experts.  Ultra's expert width is its ffn_hidden_size (no
	 * --moe-ffn-hidden-size: Megatron's default).
	 * The MTP block of Super and Ultra (Bridge's recipes train with
	 * mtp_num_layers 2) is left out, as the Megatron-LM files do.
	 * params: the exact count Megatron builds from these shapes
	 * (hybrid_model_params(), checked by check_model.c against its own
	 * sum of the modules); the model cards round them to 31.6B total /
	 * 3.6B active with embeddings (Nano), 120B / 12B (Super), 550B /
	 * 55B (Ultra).
	 */
	{
		.name = "nemotron-3-nano",
		.hf_model = "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16",
		.description = "Nemotron 3 Nano 30B-A3B (hybrid Mamba-MoE)",
		.kind = MODEL_KIND_MOE,
		.hybrid_pattern = "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*"
		    "EMEMEMEME",
		.num_layers = 52,
		.hidden_size = 2688,
		.ffn_hidden_size = 1856,
		.num_attention_heads = 32,
		.num_query_groups = 2,
		.kv_channels = 128,
		.vocab_size = 131072,
		.tied_embeddings = false,
		.mamba_state_dim = 128,
		.mamba_head_dim = 64,
		.mamba_num_heads = 64,
		.mamba_num_groups = 8,
		.num_experts = 128,
		.moe_router_topk = 6,
		.moe_ffn_hidden_size = 1856,
		.moe_shared_experts = 2,
		.activation = ACTIVATION_SQUARED_RELU,
		.norm_epsilon = 1e-5,
		.router_score = ROUTER_SCORE_SIGMOID,
		.router_expert_bias = true,
		.router_topk_scale = 2.5,
		.aux_loss = AUX_LOSS_SEQ,
		.aux_loss_coeff = 1e-4,
		.params = INT64_C(31577937344),
		.active_params = INT64_C(3580073408),
		.source = "Megatron-LM examples/post_training/modelopt/conf/"
		    "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.sh; params: "
		    "the count Megatron builds (model card: 31.6B, 3.6B "
		    "active)",
	},
	{
		.name = "nemotron-3-super",
		.hf_model = "nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16",
		.description = "Nemotron 3 Super 120B-A12B (hybrid Mamba, "
		    "latent MoE)",
		.kind = MODEL_KIND_MOE,
		.hybrid_pattern = "MEMEMEM*EMEMEMEM*EMEMEMEM*EMEMEMEMEM*"
		    "EMEMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEM*EMEMEMEME",
		.num_layers = 88,
		.hidden_size = 4096,
		.ffn_hidden_size = 2688,
		.num_attention_heads = 32,
		.num_query_groups = 2,
		.kv_channels = 128,
		.vocab_size = 131072,
		.tied_embeddings = false,
		.mamba_state_dim = 128,
		.mamba_head_dim = 64,
		.mamba_num_heads = 128,
		.mamba_num_groups = 8,
		.num_experts = 512,
		.moe_router_topk = 22,
		.moe_ffn_hidden_size = 2688,
		.moe_shared_experts = 2,
		.moe_latent_size = 1024,
		.activation = ACTIVATION_SQUARED_RELU,
		.norm_epsilon = 1e-5,
		.router_score = ROUTER_SCORE_SIGMOID,
		.router_expert_bias = true,
		.router_topk_scale = 5,
		.aux_loss = AUX_LOSS_SEQ,
		.aux_loss_coeff = 1e-4,
		.params = INT64_C(120668687360),
		.active_params = INT64_C(12770216960),
		.source = "Megatron-LM examples/post_training/modelopt/conf/"
		    "nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16.sh; "
		    "params: the count Megatron builds without MTP (model "
		    "card: 120B, 12B active)",
	},
	{
		.name = "nemotron-3-ultra",
		.hf_model = "nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16",
		.description = "Nemotron 3 Ultra 550B-A55B (hybrid Mamba, "
		    "latent MoE)",
		.kind = MODEL_KIND_MOE,
		.hybrid_pattern = "MEMEMEM*EMEMEM*EMEMEMEM*EMEMEMEM*EMEMEM*"
		    "EMEMEMEM*EMEMEMEM*EMEMEM*EMEMEMEM*EMEMEMEM*EMEMEM*"
		    "EMEMEMEM*EMEMEMEME",
		.num_layers = 108,
		.hidden_size = 8192,
		.ffn_hidden_size = 5120,
		.num_attention_heads = 64,
		.num_query_groups = 2,
		.kv_channels = 128,
		.vocab_size = 131072,
		.tied_embeddings = false,
		.mamba_state_dim = 128,
		.mamba_head_dim = 64,
		.mamba_num_heads = 256,
		.mamba_num_groups = 8,
		.num_experts = 512,
		.moe_router_topk = 22,
		.moe_ffn_hidden_size = 5120,
		.moe_shared_experts = 2,
		.moe_latent_size = 2048,
		.activation = ACTIVATION_SQUARED_RELU,
		.norm_epsilon = 1e-5,
		.router_score = ROUTER_SCORE_SIGMOID,
		.router_expert_bias = true,
		.router_topk_scale = 5,
		.aux_loss = AUX_LOSS_SEQ,
		.aux_loss_coeff = 1e-4,
		.params = INT64_C(549308968960),
		.active_params = INT64_C(56058818560),
		.source = "Megatron-LM examples/post_training/modelopt/conf/"
		    "nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16.sh; "
		    "params: the count Megatron builds without MTP (model "
		    "card: 550B, 55B active)",
	},
	{ .name = NULL }
};
