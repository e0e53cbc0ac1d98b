/*
 * bridge-unsized.c: the Megatron-Bridge recipes whose memory the estimate
 * (src/core/memory.h) does not count: those that shard weights,
 * gradients and optimizer state with Megatron-FSDP, offload layers or
 * activations to the CPU, or train LoRA adapters on frozen weights.
 *
 * Read from Megatron-Bridge's src/megatron/bridge/perf_recipes at v0.6.0
 * (51885cf1) and main (067f987d, "main" below): each recipe function,
 * with the helpers and recipes it calls, that sets ddp.use_megatron_fsdp
 * = True, model.cpu_offloading = True (or cpu_offloading_num_layers), or
 * model.fine_grained_activation_offloading = True; file:line under
 * perf_recipes/.  A PEFT recipe whose adapters bridge-lora.c does not
 * know: job.c says so.
 */
#include <stddef.h>
#include <string.h>

#include "bridge.h"

static const struct {
	const char	*name, *why;
} unsized[] = {
	{ "deepseek_v3_pretrain_128gpu_gb300_fp8mx_hsdp_config",
	  "the recipe uses Megatron-FSDP and activation offloading (Megatron-Bridge perf_recipes/deepseek/common.py:102, perf_recipes/deepseek/common.py:115)" },
	{ "deepseek_v3_pretrain_256gpu_gb200_fp8mx_partial_cg_dev_config",
	  "the recipe uses activation offloading (Megatron-Bridge perf_recipes/deepseek/gb200/deepseek_v3.py:281)" },
	{ "deepseek_v3_pretrain_64gpu_gb300_bf16_fsdp_config",
	  "the recipe uses Megatron-FSDP and activation offloading (Megatron-Bridge perf_recipes/deepseek/common.py:102, perf_recipes/deepseek/common.py:115)" },
	{ "deepseek_v3_pretrain_64gpu_gb300_fp8mx_fsdp_config",
	  "the recipe uses Megatron-FSDP and activation offloading (Megatron-Bridge perf_recipes/deepseek/common.py:102, perf_recipes/deepseek/common.py:115)" },
	{ "deepseek_v4_pro_pretrain_256gpu_gb300_fp8mx_config",
	  "the recipe uses activation offloading (Megatron-Bridge perf_recipes/deepseek/gb300/deepseek_v4.py:109)" },
	{ "gpt_oss_20b_pretrain_512gpu_gb200_fp8mx_config",
	  "the recipe uses CPU offloading (Megatron-Bridge perf_recipes/gpt_oss/common.py:86)" },
	{ "gpt_oss_20b_pretrain_512gpu_gb300_fp8mx_config",
	  "the recipe uses CPU offloading (Megatron-Bridge perf_recipes/gpt_oss/common.py:86)" },
	{ "gpt_oss_20b_pretrain_64gpu_b300_fp8mx_config",
	  "the recipe uses CPU offloading (Megatron-Bridge perf_recipes/gpt_oss/common.py:86)" },
	{ "gpt_oss_20b_pretrain_64gpu_b300_nvfp4_config",
	  "the recipe uses CPU offloading (Megatron-Bridge perf_recipes/gpt_oss/common.py:86)" },
	{ "gpt_oss_20b_pretrain_64gpu_vr200_nvfp4_config",
	  "the recipe uses CPU offloading (Megatron-Bridge perf_recipes/gpt_oss/common.py:86)" },
	{ "gpt_oss_20b_pretrain_72gpu_gb200_nvfp4_config",
	  "the recipe uses CPU offloading (Megatron-Bridge perf_recipes/gpt_oss/common.py:86)" },
	{ "gpt_oss_20b_pretrain_72gpu_gb300_nvfp4_config",
	  "the recipe uses CPU offloading (Megatron-Bridge perf_recipes/gpt_oss/common.py:86)" },
	{ "gpt_oss_20b_pretrain_8gpu_b300_fp8mx_config",
	  "the recipe uses CPU offloading (Megatron-Bridge perf_recipes/gpt_oss/common.py:86)" },
	{ "gpt_oss_20b_pretrain_8gpu_b300_nvfp4_config",
	  "the recipe uses CPU offloading (Megatron-Bridge perf_recipes/gpt_oss/common.py:86)" },
	{ "gpt_oss_20b_pretrain_8gpu_gb200_nvfp4_config",
	  "the recipe uses CPU offloading (Megatron-Bridge perf_recipes/gpt_oss/common.py:86)" },
	{ "gpt_oss_20b_pretrain_8gpu_gb300_nvfp4_config",
	  "the recipe uses CPU offloading (Megatron-Bridge perf_recipes/gpt_oss/common.py:86)" },
	{ "gpt_oss_20b_pretrain_8gpu_vr200_fp8mx_config",
	  "the recipe uses CPU offloading (Megatron-Bridge perf_recipes/gpt_oss/common.py:86)" },
	{ "gpt_oss_20b_pretrain_8gpu_vr200_nvfp4_config",
	  "the recipe uses CPU offloading (Megatron-Bridge perf_recipes/gpt_oss/common.py:86)" },
	{ "llama31_405b_pretrain_128gpu_b300_bf16_config",
	  "the recipe uses Megatron-FSDP and CPU offloading (Megatron-Bridge perf_recipes/llama/b300/llama31.py:53, perf_recipes/llama/b300/llama31.py:61)" },
	{ "llama31_405b_pretrain_128gpu_gb300_bf16_config",
	  "the recipe uses Megatron-FSDP and CPU offloading (Megatron-Bridge perf_recipes/llama/gb300/llama31.py:45, perf_recipes/llama/gb300/llama31.py:54)" },
	{ "llama31_405b_pretrain_256gpu_b300_bf16_config",
	  "the recipe uses Megatron-FSDP and CPU offloading (Megatron-Bridge perf_recipes/llama/gb300/llama31.py:229, perf_recipes/llama/gb300/llama31.py:238)" },
	{ "llama31_405b_pretrain_256gpu_gb300_bf16_config",
	  "the recipe uses Megatron-FSDP and CPU offloading (Megatron-Bridge perf_recipes/llama/gb300/llama31.py:229, perf_recipes/llama/gb300/llama31.py:238)" },
	{ "llama31_405b_pretrain_256gpu_vr200_bf16_config",
	  "the recipe uses Megatron-FSDP and CPU offloading (Megatron-Bridge perf_recipes/llama/gb300/llama31.py:229, perf_recipes/llama/gb300/llama31.py:238)" },
	{ "llama3_70b_pretrain_32gpu_gb200_bf16_config",
	  "the recipe uses Megatron-FSDP and CPU offloading (Megatron-Bridge perf_recipes/llama/gb200/llama3.py:214, perf_recipes/llama/gb200/llama3.py:224)" },
	{ "llama3_70b_pretrain_32gpu_gb200_fp8cs_config",
	  "the recipe uses Megatron-FSDP and CPU offloading (Megatron-Bridge perf_recipes/llama/gb200/llama3.py:267, perf_recipes/llama/gb200/llama3.py:277)" },
	{ "llama3_70b_pretrain_32gpu_gb300_bf16_config",
	  "the recipe uses Megatron-FSDP and CPU offloading (Megatron-Bridge perf_recipes/llama/gb300/llama3.py:218, perf_recipes/llama/gb300/llama3.py:230)" },
	{ "llama3_70b_pretrain_32gpu_gb300_fp8cs_config",
	  "the recipe uses Megatron-FSDP and CPU offloading (Megatron-Bridge perf_recipes/llama/gb300/llama3.py:274, perf_recipes/llama/gb300/llama3.py:284)" },
	{ "llama3_70b_pretrain_64gpu_b200_fp8cs_config",
	  "the recipe uses Megatron-FSDP and CPU offloading (Megatron-Bridge perf_recipes/llama/b200/llama3.py:254, perf_recipes/llama/b200/llama3.py:264)" },
	{ "llama3_70b_pretrain_64gpu_b300_bf16_config",
	  "the recipe uses Megatron-FSDP (Megatron-Bridge perf_recipes/llama/b300/llama3.py:211)" },
	{ "llama3_70b_pretrain_64gpu_b300_fp8cs_config",
	  "the recipe uses Megatron-FSDP (Megatron-Bridge perf_recipes/llama/b300/llama3.py:257)" },
	{ "llama3_70b_pretrain_64gpu_gb200_bf16_config",
	  "the recipe uses Megatron-FSDP and CPU offloading (Megatron-Bridge perf_recipes/llama/gb200/llama3.py:214, perf_recipes/llama/gb200/llama3.py:224)" },
	{ "llama3_70b_pretrain_64gpu_gb200_fp8cs_config",
	  "the recipe uses Megatron-FSDP and CPU offloading (Megatron-Bridge perf_recipes/llama/gb200/llama3.py:267, perf_recipes/llama/gb200/llama3.py:277)" },
	{ "llama3_70b_pretrain_64gpu_gb300_bf16_config",
	  "the recipe uses Megatron-FSDP and CPU offloading (Megatron-Bridge perf_recipes/llama/gb300/llama3.py:218, perf_recipes/llama/gb300/llama3.py:230)" },
	{ "llama3_70b_pretrain_64gpu_gb300_fp8cs_config",
	  "the recipe uses Megatron-FSDP and CPU offloading (Megatron-Bridge perf_recipes/llama/gb300/llama3.py:274, perf_recipes/llama/gb300/llama3.py:284)" },
	{ "llama3_70b_pretrain_64gpu_vr200_bf16_config",
	  "the recipe uses Megatron-FSDP and CPU offloading (Megatron-Bridge perf_recipes/llama/gb300/llama3.py:218, perf_recipes/llama/gb300/llama3.py:230)" },
	{ "nemotron_3_5_lightning_pretrain_16gpu_h100_bf16_config",
	  "the recipe uses activation offloading (Megatron-Bridge perf_recipes/nemotronh/h100/nemotronh.py:240)" },
	{ "nemotron_3_5_lightning_pretrain_8gpu_gb200_fp8mx_fsdp_config",
	  "the recipe uses Megatron-FSDP (Megatron-Bridge perf_recipes/nemotronh/gb200/nemotronh.py:537)" },
	{ "nemotron_3_5_lightning_pretrain_8gpu_gb300_fp8mx_fsdp_config",
	  "the recipe uses Megatron-FSDP (Megatron-Bridge perf_recipes/nemotronh/gb300/nemotronh.py:619, main)" },
	{ "nemotron_3_ultra_pretrain_256gpu_gb200_fp8mx_config",
	  "the recipe uses Megatron-FSDP and activation offloading (Megatron-Bridge perf_recipes/nemotronh/common.py:158, perf_recipes/nemotronh/gb200/nemotronh.py:264)" },
	{ "nemotron_3_ultra_pretrain_256gpu_gb300_fp8mx_config",
	  "the recipe uses Megatron-FSDP and activation offloading (Megatron-Bridge perf_recipes/nemotronh/common.py:158, perf_recipes/nemotronh/gb300/nemotronh.py:253)" },
};

const char *
bridge_recipe_unsized(const char *name)
{
	size_t	 i;

	for (i = 0; i < sizeof unsized / sizeof unsized[0]; i++)
		if (strcmp(unsized[i].name, name) == 0)
			return unsized[i].why;
	return NULL;
}
