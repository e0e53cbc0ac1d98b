/*
 * model.h: a model architecture, as the sizing core reads it (pure; where
 * one comes from, the built-in presets or a user's JSON preset file, is
 * model-file.h).
 *
 * Every integer field is 0 when unknown.  A preset's kind says whether the
 * model is known to be dense or MoE; MODEL_KIND_UNKNOWN means "no model
 * information", and the sizing core then treats EP > 1 as MoE.
 */
#ifndef MBSBATCH_MODEL_H
#define MBSBATCH_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum model_kind {
	MODEL_KIND_UNKNOWN = 0,
	MODEL_KIND_DENSE,
	MODEL_KIND_MOE,
};

/*
 * The choice fields (settings-table.c gives each value its word); 0 is
 * Megatron's own default, not written.
 */
enum rope_scaling {
	ROPE_SCALING_NONE = 0,
	ROPE_SCALING_LLAMA3,
	ROPE_SCALING_YARN,
};

enum router_score {
	ROUTER_SCORE_UNSET = 0,
	ROUTER_SCORE_SOFTMAX,
	ROUTER_SCORE_SIGMOID,
};

/* Megatron's softmax_type: a learnable one is GPT-OSS's attention sinks. */
enum softmax_type {
	SOFTMAX_VANILLA = 0,
	SOFTMAX_OFF_BY_ONE,
	SOFTMAX_LEARNABLE,
};

/* The MLP's gated activation: SwiGLU, or GPT-OSS's quick GeGLU
 * (Megatron's --quick-geglu: x * sigmoid(1.702 x) on the gate). */
enum activation {
	ACTIVATION_SWIGLU = 0,
	ACTIVATION_QUICK_GEGLU,
	ACTIVATION_SQUARED_RELU,	/* not gated: Nemotron-H, Nemotron 3
					   (--squared-relu) */
};

/* Whether the MLP is gated (two fc1 halves: 3 matrices, not 2). */
#define MODEL_GATED(m)	((m)->activation != ACTIVATION_SQUARED_RELU)

enum aux_loss {
	AUX_LOSS_UNSET = 0,
	AUX_LOSS_AUX,		/* "aux_loss" */
	AUX_LOSS_SEQ,		/* "seq_aux_loss" */
	AUX_LOSS_NONE,
};

struct model {
	const char	*name;		/* "llama3-8b" */
	const char	*description;	/* "Llama 3 8B" */
	enum model_kind	 kind;

	int64_t		 num_layers;		/* transformer layers */
	int64_t		 hidden_size;
	int64_t		 ffn_hidden_size;	/* dense MLP width */
	int64_t		 num_attention_heads;
	int64_t		 num_query_groups;	/* KV heads (GQA); = heads for MHA */
	int64_t		 kv_channels;		/* head dim, when not hidden/heads */
	int64_t		 vocab_size;
	bool		 tied_embeddings;	/* output layer shares the embedding */

	/* Multi-latent attention (DeepSeek-V2/V3 family); 0 when not MLA. */
	int64_t		 q_lora_rank;
	int64_t		 kv_lora_rank;
	int64_t		 qk_head_dim;		/* non-rotary part of q/k head */
	int64_t		 qk_pos_emb_head_dim;	/* rotary part of q/k head */
	int64_t		 v_head_dim;

	/* Mixture of experts; all 0 for a dense model. */
	int64_t		 num_experts;		/* routed experts per MoE layer */
	int64_t		 moe_router_topk;
	int64_t		 moe_ffn_hidden_size;	/* width of one routed expert */
	int64_t		 moe_shared_experts;	/* shared experts per MoE layer */
	int64_t		 moe_dense_layers;	/* leading layers with a dense MLP */
	int64_t		 mtp_layers;		/* multi-token-prediction layers */

	/*
	 * What Megatron needs besides the shapes to build this model
	 * (Megatron-LM flags; Bridge takes them from the Hugging Face
	 * config).  Every model here is RoPE (or YaRN), RMSNorm and a
	 * gated MLP; all but GPT-OSS are SwiGLU without linear biases.  0,
	 * false or NULL is Megatron's own default, except that 0 is
	 * SwiGLU and no bias, as every other model here has.
	 */
	double		 norm_epsilon;		/* RMSNorm epsilon */
	int64_t		 rotary_base;		/* RoPE theta */
	double		 rotary_percent;	/* of the head dim; 0: all */
	enum rope_scaling rope_scaling;
	double		 rope_scaling_factor;
	double		 mscale, mscale_all_dim;	/* YaRN (MLA) */
	bool		 qk_layernorm;		/* MLA: the latent norms */
	bool		 qkv_bias;
	/* GPT-OSS: a bias on every linear layer (Megatron's add_bias_linear,
	 * router included), learnable attention sinks (one logit per head
	 * and layer), sliding-window attention on all layers but every
	 * window_skip_freq-th (Megatron's window_attn_skip_freq: layer n,
	 * 1-based, is full when n % freq == 0), its activation, and YaRN's
	 * RoPE parameters for a GQA model. */
	bool		 linear_bias;
	enum softmax_type softmax_type;
	int64_t		 sliding_window;	/* tokens seen, itself included;
						   0: none */
	int64_t		 window_skip_freq;	/* 0: every layer windowed */
	enum activation	 activation;
	double		 glu_linear_offset;
	double		 activation_clamp;
	int64_t		 yarn_original_max_pos;
	double		 yarn_beta_fast, yarn_beta_slow;
	bool		 yarn_exact_range;	/* correction range not rounded */
	enum router_score router_score;
	bool		 router_expert_bias;	/* aux-loss-free balancing */
	double		 router_topk_scale;
	int64_t		 router_groups, router_group_topk;
	bool		 router_pre_softmax;
	enum aux_loss	 aux_loss;
	double		 aux_loss_coeff;

	/*
	 * Hybrid models (Megatron-Core's HybridModel: Nemotron-H, Nemotron
	 * 3): the layer pattern, one symbol a layer (hybrid.h: M Mamba-2,
	 * * attention, - MLP, E MoE, | a pipeline-stage boundary), NULL for
	 * a transformer.  num_layers is then the pattern's layer count and
	 * each layer is one block with its own pre-norm.  The Mamba-2
	 * mixer's state size, head dim, heads (0: 2 x hidden / head dim)
	 * and groups; its convolution (4 wide) and expansion (2) are
	 * MambaMixer's fixed defaults.  A latent MoE (Nemotron 3 Super,
	 * Ultra) projects to moe_latent_size before the experts.
	 */
	const char	*hybrid_pattern;
	/* Its MTP block's layers (Bridge's mtp_hybrid_override_pattern,
	 * "*E"), run mtp_layers times; NULL: no MTP. */
	const char	*mtp_pattern;
	int64_t		 mamba_state_dim;
	int64_t		 mamba_head_dim;
	int64_t		 mamba_num_heads;
	int64_t		 mamba_num_groups;
	int64_t		 moe_latent_size;

	int64_t		 params;		/* total parameters, as published */
	int64_t		 active_params;		/* per token, MoE only */

	const char	*source;		/* where the numbers come from */
	const char	*hf_model;		/* "meta-llama/Meta-Llama-3-70B":
						   the recipes built on it */
};

/* 0, or -1 with why the architecture is inconsistent written to BUF. */
int		 model_check(const struct model *, char *, size_t);

/* A hybrid model without num_layers takes its pattern's layer count, as
 * Megatron derives it (arguments.py core_v0.19.0:761-770), and
 * TransformerConfig's Mamba defaults where it gives none: state 128,
 * head dim 64, 8 groups (transformer_config.py core_v0.19.0:1179-1185). */
void		 model_hybrid_defaults(struct model *);

/* How many of the model's NUM_LAYERS layers attend through a sliding
 * window (none without one). */
int64_t		 model_window_layers(const struct model *);

#endif
