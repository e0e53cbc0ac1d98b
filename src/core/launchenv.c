/*
 * launchenv.c: the launch environment and overlap settings; see
 * launchenv.h.  The rules, and where they come from:
 *
 * CUDA_DEVICE_MAX_CONNECTIONS (Megatron-Bridge scripts/performance,
 * overrides.py and perf_plugins.py): 32 with the DeepEP or HybridEP
 * dispatcher, else 8; 32 on Blackwell (b200, b300, gb200, gb300); else 1
 * when TP > 1 or CP > 1 without MoE all-to-all overlap.  Megatron-LM's
 * arguments.py asserts "1" before Blackwell when TP > 1 or CP > 1.
 * Megatron-FSDP is the exception: it asserts the value is not "1"
 * (Megatron-LM arguments.py:1143 / 1166 at core_v0.19.0 / main, only
 * warning at 1416 / 1456 with TP or CP; Bridge training/config.py:1142,
 * 1101, 1110 at 0.5.1, 0.6.0, main), so with FSDP the TP/CP rule does
 * not apply and a recipe's "1" is not exported.
 *
 * NVTE_FWD/BWD_LAYERNORM_SM_MARGIN: 16, 20 with DeepEP/HybridEP, for
 * Megatron-LM and Bridge 0.5.1 (its perf plugin); from 0.6.0 it is the
 * recipe's own value, or none.  TORCH_NCCL_HIGH_PRIORITY=1 for every
 * recipe; on gb200 NCCL_NET_GDR_LEVEL=PHB, NCCL_NET_GDR_C2C=1.  A Bridge
 * recipe's other variables are exported as the recipe sets them
 * (run_recipe.py applies them with setdefault): NCCL_P2P_NET_CHUNKSIZE
 * only while PP > 1 (Bridge's perf CLI removes it otherwise), and its
 * CUDA_DEVICE_MAX_CONNECTIONS only while TP, CP and the MoE overlap are
 * the recipe's.  HybridEP needs its topology: NVLINK_DOMAIN_SIZE,
 * USE_MNNVL and NUM_OF_HYBRID_EP_RANKS_PER_NVLINK_DOMAIN = min(EP, the
 * NVLink domain) (Bridge scripts/performance/utils/overrides.py).
 *
 * Overlap (Megatron-Bridge training/comm_overlap.py): TP overlap needs
 * TP >= 2 and SP; PP > 1 with VPP: overlap_p2p_comm on, batch_p2p_comm
 * off; PP > 1 without VPP: the reverse; PP = 1: both off.  With the
 * distributed optimizer and DP > 1: overlap_grad_reduce and
 * overlap_param_gather on, bucket_size 128 Mi parameters, and
 * align_param_gather with PP > 1 and VPP > 1.  An explicit value wins.
 */
#include <stdio.h>
#include <string.h>

#include "gpu.h"
#include "launchenv.h"

void
launchenv_input_init(struct launchenv_input *in)
{
	memset(in, 0, sizeof *in);
	in->layout.tp = in->layout.pp = in->layout.cp = 1;
	in->layout.ep = in->layout.etp = in->layout.vpp = 1;
	in->layernorm_sm_margin = -1;
	in->distributed_optimizer = true;
	in->ln_margin_rule = true;
}

static const char *
user_origin(const struct launchenv_input *in)
{
	return in->user_origin != NULL ? in->user_origin : "given";
}

/* The GPU's row of the table (gpu.h), or NULL when unknown. */
static const struct gpu_type *
gpu_of(const struct launchenv_input *in)
{
	return in->gpu_type != NULL ? gpu_type_find(in->gpu_type) : NULL;
}

static struct launch_var *
find_var(struct launchenv *env, const char *name, int len)
{
	int	 i;

	for (i = 0; i < env->nvars; i++)
		if (env->vars[i].name_len == len &&
		    strncmp(env->vars[i].name, name, (size_t)len) == 0)
			return &env->vars[i];
	return NULL;
}

/* NAME's slot: the one it has, or a new one; NULL when full (never). */
static struct launch_var *
slot(struct launchenv *env, const char *name, int len)
{
	struct launch_var	*v;

	if ((v = find_var(env, name, len)) == NULL) {
		if (env->nvars == LAUNCHENV_MAX_VARS)
			return NULL;
		v = &env->vars[env->nvars++];
	}
	v->name = name;
	v->name_len = len;
	return v;
}

static void
set_str(struct launchenv *env, const char *name, int len, const char *value,
    const char *origin)
{
	struct launch_var	*v;

	if ((v = slot(env, name, len)) == NULL)
		return;
	v->value = value;
	v->origin = origin;
}

/* Set NAME to an integer value, replacing an earlier one. */
static void
set_int(struct launchenv *env, const char *name, int64_t value,
    const char *origin)
{
	struct launch_var	*v;

	if ((v = slot(env, name, (int)strlen(name))) == NULL)
		return;
	snprintf(v->buf, sizeof v->buf, "%lld", (long long)value);
	v->value = v->buf;
	v->origin = origin;
}

/* Copy VALUE (LEN bytes) into the variable's own buffer. */
static void
set_copy(struct launchenv *env, const char *name, int nlen, const char *value,
    size_t vlen, const char *origin)
{
	struct launch_var	*v;

	if (vlen >= sizeof v->buf || (v = slot(env, name, nlen)) == NULL)
		return;
	memcpy(v->buf, value, vlen);
	v->buf[vlen] = '\0';
	v->value = v->buf;
	v->origin = origin;
}

/* Does the recipe's variable NAME still hold for the job's layout? */
static bool
recipe_var_holds(const struct launchenv_input *in, const char *name, int len)
{
	static const char *const layout_vars[] = {
		"CUDA_DEVICE_MAX_CONNECTIONS", "NVLINK_DOMAIN_SIZE",
		"USE_MNNVL", "NUM_OF_HYBRID_EP_RANKS_PER_NVLINK_DOMAIN",
	};
	size_t	 i;

	if (len == 22 && strncmp(name, "NCCL_P2P_NET_CHUNKSIZE", 22) == 0)
		return in->layout.pp > 1;
	for (i = 0; i < sizeof layout_vars / sizeof layout_vars[0]; i++)
		if ((size_t)len == strlen(layout_vars[i]) &&
		    strncmp(name, layout_vars[i], (size_t)len) == 0)
			return !in->layout_given;
	return true;
}

/*
 * The recipe's variables ("NAME=value NAME=value"), where the layout
 * still makes them hold; the fact tables write the layernorm margins
 * as NVTE_*_LN_SM.
 */
static void
recipe_env(const struct launchenv_input *in, struct launchenv *env)
{
	const char	*p = in->recipe_env, *eq, *end, *name;
	int		 nlen;

	while (p != NULL && *p != '\0') {
		end = p + strcspn(p, " ");
		eq = memchr(p, '=', (size_t)(end - p));
		if (eq != NULL && eq > p) {
			name = p;
			nlen = (int)(eq - p);
			if (nlen == 14 && strncmp(p, "NVTE_FWD_LN_SM", 14) == 0)
				name = "NVTE_FWD_LAYERNORM_SM_MARGIN";
			else if (nlen == 14 &&
			    strncmp(p, "NVTE_BWD_LN_SM", 14) == 0)
				name = "NVTE_BWD_LAYERNORM_SM_MARGIN";
			if (name != p)
				nlen = (int)strlen(name);
			if (in->fsdp && nlen == 27 && strncmp(name,
			    "CUDA_DEVICE_MAX_CONNECTIONS", 27) == 0 &&
			    end - eq == 2 && eq[1] == '1')
				;	/* FSDP refuses it: computed instead */
			else if (recipe_var_holds(in, name, nlen))
				set_copy(env, name, nlen, eq + 1,
				    (size_t)(end - eq - 1), "recipe");
		}
		p = *end == ' ' ? end + 1 : end;
	}
}

/* HybridEP's topology, unless the recipe set it. */
static void
hybridep_env(const struct launchenv_input *in, struct launchenv *env)
{
	int64_t	 domain = in->nvlink_domain != 0 ? in->nvlink_domain :
	    in->gpus_per_node;

	if (!in->moe || in->dispatcher != DISPATCH_HYBRIDEP || domain == 0)
		return;
	if (launchenv_get(env, "NVLINK_DOMAIN_SIZE") == NULL)
		set_int(env, "NVLINK_DOMAIN_SIZE", domain,
		    "rule: HybridEP, the NVLink domain");
	if (launchenv_get(env, "USE_MNNVL") == NULL)
		set_int(env, "USE_MNNVL", domain > in->gpus_per_node,
		    "rule: HybridEP, a domain across nodes");
	if (launchenv_get(env, "NUM_OF_HYBRID_EP_RANKS_PER_NVLINK_DOMAIN") ==
	    NULL)
		set_int(env, "NUM_OF_HYBRID_EP_RANKS_PER_NVLINK_DOMAIN",
		    in->layout.ep < domain ? in->layout.ep : domain,
		    "rule: HybridEP, min(EP, NVLink domain)");
}

static void
compute_env(const struct launchenv_input *in, struct launchenv *env)
{
	const struct layout	*l = &in->layout;
	bool			 ep_kernels = in->moe &&
	    (in->dispatcher == DISPATCH_DEEPEP ||
	    in->dispatcher == DISPATCH_HYBRIDEP);
	const struct gpu_type	*g = gpu_of(in);
	int64_t			 margin;

	if (in->cuda_device_max_connections != 0)
		set_int(env, "CUDA_DEVICE_MAX_CONNECTIONS",
		    in->cuda_device_max_connections, user_origin(in));
	else if (g != NULL && g->cc_major == 10)	/* Blackwell */
		set_int(env, "CUDA_DEVICE_MAX_CONNECTIONS", 32,
		    "rule: 32 on Blackwell GPUs");
	else if ((l->tp > 1 || l->cp > 1) && !in->fsdp &&
	    !(in->moe && in->moe_a2a_overlap))
		set_int(env, "CUDA_DEVICE_MAX_CONNECTIONS", 1,
		    "rule: 1 with TP > 1 or CP > 1 before Blackwell");
	else if (ep_kernels)
		set_int(env, "CUDA_DEVICE_MAX_CONNECTIONS", 32,
		    "rule: 32 with the DeepEP/HybridEP dispatcher");
	else
		set_int(env, "CUDA_DEVICE_MAX_CONNECTIONS", 8,
		    (l->tp > 1 || l->cp > 1) && in->fsdp ? "rule: 8, not 1 "
		    "with TP or CP: Megatron-FSDP refuses 1" :
		    "rule: 8 by default");

	if (in->layernorm_sm_margin >= 0 || in->ln_margin_rule) {
		margin = in->layernorm_sm_margin >= 0 ?
		    in->layernorm_sm_margin : ep_kernels ? 20 : 16;
		set_int(env, "NVTE_FWD_LAYERNORM_SM_MARGIN", margin,
		    in->layernorm_sm_margin >= 0 ? user_origin(in) :
		    ep_kernels ? "rule: 20 with the DeepEP/HybridEP "
		    "dispatcher" : "rule: 16 by default");
		set_int(env, "NVTE_BWD_LAYERNORM_SM_MARGIN", margin,
		    in->layernorm_sm_margin >= 0 ? user_origin(in) :
		    ep_kernels ? "rule: 20 with the DeepEP/HybridEP "
		    "dispatcher" : "rule: 16 by default");
	}
	set_int(env, "TORCH_NCCL_HIGH_PRIORITY", 1, "rule: every recipe");
	if (g != NULL && g->gdr_c2c) {
		set_str(env, "NCCL_NET_GDR_LEVEL", 18, "PHB", "rule: gb200");
		set_int(env, "NCCL_NET_GDR_C2C", 1, "rule: gb200");
	}
}

static void
add_flag(struct launchenv *env, const char *key, const char *mlm,
    enum tristate user, bool computed, const char *why, const char *given)
{
	struct launch_flag	*f;

	if (env->nflags == LAUNCHENV_MAX_FLAGS)
		return;
	f = &env->flags[env->nflags++];
	f->key = key;
	f->mlm_flag = mlm;
	f->on = user != TRI_UNSET ? user == TRI_ON : computed;
	f->origin = user != TRI_UNSET ? given : why;
}

static void
compute_flags(const struct launchenv_input *in, struct launchenv *env)
{
	const struct layout	*l = &in->layout;
	bool			 dp_overlap = in->distributed_optimizer &&
	    in->dp > 1;
	const char		*dp_why = dp_overlap ? "rule: distributed "
	    "optimizer with DP > 1" : in->distributed_optimizer ?
	    "rule: off with DP 1" : "rule: off without the distributed "
	    "optimizer";

	add_flag(env, "comm_overlap.tp_comm_overlap", "--tp-comm-overlap",
	    in->tp_comm_overlap, false, "rule: off unless asked for",
	    in->tp_overlap_recipe ? "recipe" : "given");
	add_flag(env, "comm_overlap.overlap_p2p_comm", NULL,
	    in->overlap_p2p_comm, l->pp > 1 && l->vpp > 1,
	    l->pp == 1 ? "rule: off with PP 1" : l->vpp > 1 ?
	    "rule: PP > 1 with VPP" : "rule: off without VPP", "given");
	add_flag(env, "comm_overlap.batch_p2p_comm", NULL, in->batch_p2p_comm,
	    l->pp > 1 && l->vpp == 1, l->pp == 1 ? "rule: off with PP 1" :
	    l->vpp > 1 ? "rule: off with VPP" : "rule: PP > 1 without VPP",
	    "given");
	add_flag(env, "ddp.overlap_grad_reduce", "--overlap-grad-reduce",
	    in->overlap_grad_reduce, dp_overlap, dp_why, "given");
	/* It needs the gradient-reduce overlap (arguments.py:994 / 1028). */
	add_flag(env, "ddp.overlap_param_gather", "--overlap-param-gather",
	    in->overlap_param_gather, dp_overlap &&
	    in->overlap_grad_reduce != TRI_OFF, in->overlap_grad_reduce ==
	    TRI_OFF ? "rule: off without the gradient-reduce overlap" :
	    dp_why, "given");
	add_flag(env, "ddp.align_param_gather", NULL, in->align_param_gather,
	    dp_overlap && l->pp > 1 && l->vpp > 1, dp_overlap &&
	    l->pp > 1 && l->vpp > 1 ? "rule: DP overlap with PP and VPP" :
	    "rule: only with DP overlap, PP > 1 and VPP", "given");
	if (in->moe) {
		add_flag(env, "comm_overlap.overlap_moe_expert_parallel_comm",
		    "--overlap-moe-expert-parallel-comm", TRI_UNSET,
		    in->moe_a2a_overlap, in->moe_a2a_overlap ?
		    in->a2a_overlap_recipe ? "recipe" : "--moe-a2a-overlap" :
		    "rule: off unless asked for", "given");
		add_flag(env, "comm_overlap.delay_wgrad_compute",
		    "--delay-wgrad-compute", TRI_UNSET, in->moe_a2a_overlap,
		    in->moe_a2a_overlap ? "the MoE all-to-all overlap needs it" :
		    "rule: with the MoE all-to-all overlap", "given");
	}
	if (in->ddp_bucket_size != 0) {
		env->ddp_bucket_size = in->ddp_bucket_size;
		env->ddp_bucket_origin = "--ddp-bucket-size";
	} else if (dp_overlap) {
		env->ddp_bucket_size = INT64_C(128) * 1024 * 1024;
		env->ddp_bucket_origin = "rule: DP overlap, 128 Mi parameters";
	}
}

const char *
launchenv_compute(const struct launchenv_input *in, struct launchenv *env)
{
	const char	*eq;
	int		 i;

	memset(env, 0, sizeof *env);
	compute_env(in, env);
	recipe_env(in, env);
	/* The user's values, over the recipe's. */
	if (in->cuda_device_max_connections != 0)
		set_int(env, "CUDA_DEVICE_MAX_CONNECTIONS",
		    in->cuda_device_max_connections, user_origin(in));
	if (in->layernorm_sm_margin >= 0) {
		set_int(env, "NVTE_FWD_LAYERNORM_SM_MARGIN",
		    in->layernorm_sm_margin, user_origin(in));
		set_int(env, "NVTE_BWD_LAYERNORM_SM_MARGIN",
		    in->layernorm_sm_margin, user_origin(in));
	}
	hybridep_env(in, env);
	for (i = 0; i < in->nuser_env; i++) {
		if ((eq = strchr(in->user_env[i], '=')) == NULL ||
		    eq == in->user_env[i])
			return "an --env entry is not NAME=value";
		set_str(env, in->user_env[i], (int)(eq - in->user_env[i]),
		    eq + 1, user_origin(in));
	}
	compute_flags(in, env);
	return NULL;
}

const char *
launchenv_get(const struct launchenv *env, const char *name)
{
	int	 i, len = (int)strlen(name);

	for (i = 0; i < env->nvars; i++)
		if (env->vars[i].name_len == len &&
		    strncmp(env->vars[i].name, name, (size_t)len) == 0)
			return env->vars[i].value;
	return NULL;
}
