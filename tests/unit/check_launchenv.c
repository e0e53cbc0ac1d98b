/*
 * check_launchenv.c: the launch environment and overlap settings
 * (src/core/launchenv.c) against the rules of docs/megatron-rules.md
 * sections 3 and 4, each rule with an input that triggers it and one
 * that does not, and every override.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "launchenv.h"
#include "run.h"

static struct launchenv env;

static void
compute(const struct launchenv_input *in)
{
	const char	*why = launchenv_compute(in, &env);

	ck_assert_msg(why == NULL, "%s", why);
}

static const char *
get(const char *name)
{
	return launchenv_get(&env, name);
}

static bool
flag(const char *key)
{
	int	 i;

	for (i = 0; i < env.nflags; i++)
		if (strcmp(env.flags[i].key, key) == 0)
			return env.flags[i].on;
	ck_abort_msg("no flag %s", key);
	return false;
}

/* CUDA_DEVICE_MAX_CONNECTIONS by GPU type and layout. */
static const struct {
	const char		*gpu;
	int64_t			 tp, cp;
	bool			 moe;
	enum moe_dispatcher	 dispatcher;
	bool			 a2a_overlap;
	const char		*want;
} max_conn[] = {
	{ NULL, 1, 1, false, DISPATCH_ALLTOALL, false, "8" },
	{ NULL, 2, 1, false, DISPATCH_ALLTOALL, false, "1" },
	{ "h100", 1, 2, false, DISPATCH_ALLTOALL, false, "1" },
	{ "h100", 8, 1, false, DISPATCH_ALLTOALL, false, "1" },
	{ "h200", 1, 1, false, DISPATCH_ALLTOALL, false, "8" },
	{ "b200", 8, 1, false, DISPATCH_ALLTOALL, false, "32" },
	{ "gb200", 1, 1, false, DISPATCH_ALLTOALL, false, "32" },
	{ "gb300", 4, 2, false, DISPATCH_ALLTOALL, false, "32" },
	{ "b300", 1, 1, true, DISPATCH_DEEPEP, false, "32" },
	{ "h100", 1, 1, true, DISPATCH_DEEPEP, false, "32" },
	{ "h100", 1, 1, true, DISPATCH_HYBRIDEP, false, "32" },
	{ "h100", 2, 1, true, DISPATCH_DEEPEP, false, "1" },
	{ "h100", 2, 1, true, DISPATCH_ALLTOALL, true, "8" },
	{ "h100", 2, 1, true, DISPATCH_DEEPEP, true, "32" },
	{ "a100", 1, 1, true, DISPATCH_ALLGATHER, false, "8" },
};

START_TEST(test_max_connections)
{
	struct launchenv_input	 in;

	launchenv_input_init(&in);
	in.gpu_type = max_conn[_i].gpu;
	in.layout.tp = max_conn[_i].tp;
	in.layout.cp = max_conn[_i].cp;
	in.moe = max_conn[_i].moe;
	in.dispatcher = max_conn[_i].dispatcher;
	in.moe_a2a_overlap = max_conn[_i].a2a_overlap;
	compute(&in);
	ck_assert_str_eq(get("CUDA_DEVICE_MAX_CONNECTIONS"), max_conn[_i].want);
}
END_TEST

START_TEST(test_other_vars)
{
	struct launchenv_input	 in;

	launchenv_input_init(&in);
	compute(&in);
	ck_assert_str_eq(get("NVTE_FWD_LAYERNORM_SM_MARGIN"), "16");
	ck_assert_str_eq(get("NVTE_BWD_LAYERNORM_SM_MARGIN"), "16");
	ck_assert_str_eq(get("TORCH_NCCL_HIGH_PRIORITY"), "1");
	ck_assert_ptr_null(get("NCCL_P2P_NET_CHUNKSIZE"));
	ck_assert_ptr_null(get("NCCL_NET_GDR_LEVEL"));

	in.layout.pp = 4;
	in.moe = true;
	in.dispatcher = DISPATCH_HYBRIDEP;
	in.gpu_type = "gb200";
	compute(&in);
	ck_assert_str_eq(get("NVTE_FWD_LAYERNORM_SM_MARGIN"), "20");
	ck_assert_str_eq(get("NVTE_BWD_LAYERNORM_SM_MARGIN"), "20");
	/* Bridge sets the P2P chunk size for a few recipes only. */
	ck_assert_ptr_null(get("NCCL_P2P_NET_CHUNKSIZE"));
	ck_assert_str_eq(get("NCCL_NET_GDR_LEVEL"), "PHB");
	ck_assert_str_eq(get("NCCL_NET_GDR_C2C"), "1");

	/* DeepEP with a dense model changes nothing. */
	launchenv_input_init(&in);
	in.dispatcher = DISPATCH_DEEPEP;
	compute(&in);
	ck_assert_str_eq(get("NVTE_FWD_LAYERNORM_SM_MARGIN"), "16");
	ck_assert_str_eq(get("CUDA_DEVICE_MAX_CONNECTIONS"), "8");
}
END_TEST

START_TEST(test_overrides)
{
	struct launchenv_input	 in;
	const char *const	 user[] = {
		"NCCL_DEBUG=INFO", "CUDA_DEVICE_MAX_CONNECTIONS=4",
		"EMPTY=", "NCCL_DEBUG=WARN",
	};
	int			 i;

	launchenv_input_init(&in);
	in.layout.tp = 8;
	in.cuda_device_max_connections = 2;
	in.layernorm_sm_margin = 0;
	compute(&in);
	ck_assert_str_eq(get("CUDA_DEVICE_MAX_CONNECTIONS"), "2");
	ck_assert_str_eq(get("NVTE_FWD_LAYERNORM_SM_MARGIN"), "0");

	/* --env wins over everything, the last one over earlier ones. */
	in.user_env = user;
	in.nuser_env = 4;
	compute(&in);
	ck_assert_str_eq(get("CUDA_DEVICE_MAX_CONNECTIONS"), "4");
	ck_assert_str_eq(get("NCCL_DEBUG"), "WARN");
	ck_assert_str_eq(get("EMPTY"), "");
	for (i = 0; i < env.nvars; i++)
		if (strncmp(env.vars[i].name, "CUDA_DEVICE_MAX_CONNECTIONS",
		    (size_t)env.vars[i].name_len) == 0)
			ck_assert_str_eq(env.vars[i].origin, "given");

	/* A malformed entry is refused. */
	{
		const char *const bad[] = { "=x" };

		in.user_env = bad;
		in.nuser_env = 1;
		ck_assert_ptr_nonnull(launchenv_compute(&in, &env));
	}
}
END_TEST

START_TEST(test_overlap)
{
	struct launchenv_input	 in;

	/* PP 1: no P2P overlap; DP 1: no DP overlap. */
	launchenv_input_init(&in);
	in.dp = 1;
	compute(&in);
	ck_assert(!flag("comm_overlap.tp_comm_overlap"));
	ck_assert(!flag("comm_overlap.overlap_p2p_comm"));
	ck_assert(!flag("comm_overlap.batch_p2p_comm"));
	ck_assert(!flag("ddp.overlap_grad_reduce"));
	ck_assert(!flag("ddp.overlap_param_gather"));
	ck_assert_int_eq(env.ddp_bucket_size, 0);

	/* PP > 1 without VPP: batched P2P. */
	in.layout.pp = 4;
	in.dp = 2;
	compute(&in);
	ck_assert(!flag("comm_overlap.overlap_p2p_comm"));
	ck_assert(flag("comm_overlap.batch_p2p_comm"));
	ck_assert(flag("ddp.overlap_grad_reduce"));
	ck_assert(flag("ddp.overlap_param_gather"));
	ck_assert(!flag("ddp.align_param_gather"));
	ck_assert_int_eq(env.ddp_bucket_size, 134217728);

	/* PP > 1 with VPP: overlapped P2P, aligned param gather. */
	in.layout.vpp = 5;
	compute(&in);
	ck_assert(flag("comm_overlap.overlap_p2p_comm"));
	ck_assert(!flag("comm_overlap.batch_p2p_comm"));
	ck_assert(flag("ddp.align_param_gather"));

	/* Without the distributed optimizer: no DP overlap. */
	in.distributed_optimizer = false;
	compute(&in);
	ck_assert(!flag("ddp.overlap_grad_reduce"));
	ck_assert(!flag("ddp.align_param_gather"));
	ck_assert_int_eq(env.ddp_bucket_size, 0);

	/* Explicit values win. */
	in.overlap_grad_reduce = TRI_ON;
	in.overlap_p2p_comm = TRI_OFF;
	in.tp_comm_overlap = TRI_ON;
	in.ddp_bucket_size = 1000;
	compute(&in);
	ck_assert(flag("ddp.overlap_grad_reduce"));
	ck_assert(!flag("comm_overlap.overlap_p2p_comm"));
	ck_assert(flag("comm_overlap.tp_comm_overlap"));
	ck_assert_int_eq(env.ddp_bucket_size, 1000);
}
END_TEST

/*
 * Bridge 0.6.0 and main: the recipe's variables, no margin rule; the
 * chunk size only with PP > 1; the recipe's CUDA_DEVICE_MAX_CONNECTIONS
 * only while the layout is its own; the user's values over all.
 */
START_TEST(test_recipe_env)
{
	struct launchenv_input	 in;

	launchenv_input_init(&in);
	in.ln_margin_rule = false;
	in.layout.tp = 2;
	in.layout.pp = 2;
	in.recipe_env = "NVTE_FWD_LN_SM=20 NVTE_BWD_LN_SM=20 "
	    "CUDA_DEVICE_MAX_CONNECTIONS=32 NCCL_P2P_NET_CHUNKSIZE=2097152 "
	    "NCCL_NVLS_ENABLE=0";
	compute(&in);
	ck_assert_str_eq(get("NVTE_FWD_LAYERNORM_SM_MARGIN"), "20");
	ck_assert_str_eq(get("NVTE_BWD_LAYERNORM_SM_MARGIN"), "20");
	ck_assert_ptr_null(get("NVTE_FWD_LN_SM"));
	ck_assert_str_eq(get("CUDA_DEVICE_MAX_CONNECTIONS"), "32");
	ck_assert_str_eq(get("NCCL_P2P_NET_CHUNKSIZE"), "2097152");
	ck_assert_str_eq(get("NCCL_NVLS_ENABLE"), "0");

	in.layout.pp = 1;
	in.layout_given = true;
	compute(&in);
	ck_assert_ptr_null(get("NCCL_P2P_NET_CHUNKSIZE"));
	ck_assert_str_eq(get("CUDA_DEVICE_MAX_CONNECTIONS"), "1");

	in.layernorm_sm_margin = 4;
	in.cuda_device_max_connections = 2;
	compute(&in);
	ck_assert_str_eq(get("NVTE_FWD_LAYERNORM_SM_MARGIN"), "4");
	ck_assert_str_eq(get("CUDA_DEVICE_MAX_CONNECTIONS"), "2");

	/* No recipe value, no rule: none. */
	launchenv_input_init(&in);
	in.ln_margin_rule = false;
	compute(&in);
	ck_assert_ptr_null(get("NVTE_FWD_LAYERNORM_SM_MARGIN"));
}
END_TEST

/*
 * Megatron-FSDP refuses CUDA_DEVICE_MAX_CONNECTIONS=1 (Megatron-LM
 * arguments.py:1143, Bridge config.py:1101 at 0.6.0): with TP or CP
 * before Blackwell the rule's default, and a recipe's 1 is dropped (the
 * recipe's other values stay); a value given stays (rules.c says).
 */
START_TEST(test_fsdp)
{
	struct launchenv_input	 in;

	launchenv_input_init(&in);
	in.gpu_type = "h100";
	in.layout.tp = 2;
	in.layout.cp = 2;
	in.fsdp = true;
	compute(&in);
	ck_assert_str_eq(get("CUDA_DEVICE_MAX_CONNECTIONS"), "8");
	in.recipe_env = "CUDA_DEVICE_MAX_CONNECTIONS=1 NCCL_NVLS_ENABLE=0";
	compute(&in);
	ck_assert_str_eq(get("CUDA_DEVICE_MAX_CONNECTIONS"), "8");
	ck_assert_str_eq(get("NCCL_NVLS_ENABLE"), "0");
	in.recipe_env = "CUDA_DEVICE_MAX_CONNECTIONS=16";
	compute(&in);
	ck_assert_str_eq(get("CUDA_DEVICE_MAX_CONNECTIONS"), "16");
	in.cuda_device_max_connections = 1;
	compute(&in);
	ck_assert_str_eq(get("CUDA_DEVICE_MAX_CONNECTIONS"), "1");
	/* Without FSDP, the TP rule and the recipe's 1. */
	in.fsdp = false;
	in.cuda_device_max_connections = 0;
	in.recipe_env = NULL;
	compute(&in);
	ck_assert_str_eq(get("CUDA_DEVICE_MAX_CONNECTIONS"), "1");
}
END_TEST

/* HybridEP's topology: the NVLink domain and min(EP, domain). */
START_TEST(test_hybridep)
{
	struct launchenv_input	 in;

	launchenv_input_init(&in);
	in.moe = true;
	in.dispatcher = DISPATCH_HYBRIDEP;
	in.layout.ep = 16;
	in.gpus_per_node = 8;
	in.nvlink_domain = 8;
	compute(&in);
	ck_assert_str_eq(get("NVLINK_DOMAIN_SIZE"), "8");
	ck_assert_str_eq(get("USE_MNNVL"), "0");
	ck_assert_str_eq(get("NUM_OF_HYBRID_EP_RANKS_PER_NVLINK_DOMAIN"), "8");

	in.gpus_per_node = 4;
	in.nvlink_domain = 72;
	compute(&in);
	ck_assert_str_eq(get("USE_MNNVL"), "1");
	ck_assert_str_eq(get("NUM_OF_HYBRID_EP_RANKS_PER_NVLINK_DOMAIN"), "16");

	/* The recipe's own values stand. */
	in.recipe_env = "NUM_OF_HYBRID_EP_RANKS_PER_NVLINK_DOMAIN=64";
	compute(&in);
	ck_assert_str_eq(get("NUM_OF_HYBRID_EP_RANKS_PER_NVLINK_DOMAIN"), "64");

	in.dispatcher = DISPATCH_ALLTOALL;
	in.recipe_env = NULL;
	compute(&in);
	ck_assert_ptr_null(get("NVLINK_DOMAIN_SIZE"));
}
END_TEST

static Suite *
launchenv_suite(void)
{
	Suite	*s = suite_create("launchenv");
	TCase	*tc = tcase_create("rules");

	tcase_add_loop_test(tc, test_max_connections, 0,
	    sizeof max_conn / sizeof max_conn[0]);
	tcase_add_test(tc, test_other_vars);
	tcase_add_test(tc, test_recipe_env);
	tcase_add_test(tc, test_hybridep);
	tcase_add_test(tc, test_fsdp);
	tcase_add_test(tc, test_overrides);
	tcase_add_test(tc, test_overlap);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(launchenv_suite());
}
