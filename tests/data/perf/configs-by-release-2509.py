#!/usr/bin/env python3
"""25.09: Megatron-Bridge v0.1.0rc4 (r0.1.0 after "Cherry pick perf 2509"
a28844195): scripts/performance/configs/*/*.yaml perf_matrix and
run_script.py.  Prints configs-by-release.tsv rows for release 25.09.

Usage: configs-by-release-2509.py DIR, DIR holding v0.1.0rc4's
scripts/performance (needs PyYAML); the recipe file:line it cites were
read at v0.1.0rc4 by hand."""
import os, sys, yaml

ROOT = sys.argv[1]
TAG = "v0.1.0rc4"
P = "scripts/performance"
RS = P + "/run_script.py"
MODELS = {
    "llama3-8b": ("llama3/llama3_8b", "off", "%s:224" % "src/megatron/bridge/recipes/llama/llama3_8b.py"),
    "llama3-70b": ("llama3/llama3_70b", "on", "src/megatron/bridge/recipes/llama/llama3_70b.py:221"),
    "llama3.1-405b": ("llama31/llama31_405b", "on", "src/megatron/bridge/recipes/llama/llama31_405b.py:237"),
    "qwen3-30b-a3b": ("qwen3/qwen3_30b_a3b", "on", RS + ":107"),
    "qwen3-235b-a22b": ("qwen3/qwen3_235b_a22b", "on", RS + ":114"),
    "deepseek-v3": ("deepseek/deepseek_v3", "off", "src/megatron/bridge/recipes/deepseek/deepseek_v3.py:316"),
}
WORD = {"bf16": "bf16", "fp8_cs": "fp8", "fp8_mx": "mxfp8", "fp8_ss": "blockwise"}


def keyline(lines, start, key):
    """Line (1-based) of the first 'key:' at or after START in the block."""
    for i in range(start, len(lines)):
        if lines[i].strip().startswith(key + ":"):
            return i + 1
    return None


for model, (f, tp_ov, tp_src) in MODELS.items():
    path = os.path.join(ROOT, P, "configs", f + "_llm_pretrain.yaml")
    text = open(path).read()
    lines = text.split("\n")
    y = yaml.safe_load(text)
    rel = P + "/configs/" + f + "_llm_pretrain.yaml"
    for gpu, g in y["perf_matrix"].items():
        for n, p in g.items():
            c = p.get("common") or {}
            for dt in [k for k in p if k != "common"]:
                if dt not in WORD:
                    continue
                d = dict(c)
                d.update(p[dt] or {})
                if d.get("use_megatron_fsdp") or d.get("fsdp"):
                    continue
                tp, pp, vp = d.get("tp", 1), d.get("pp", 1), d.get("vp")
                # (run_script.py's DeepSeek pp_vp_map gives the recipe the
                # same PP/VP; the perf_matrix's, applied after, win)
                dense = model.startswith("llama")
                layout = "%d/%d/%d/%d/%s/%d" % (tp, pp, d.get("cp", 1), vp or 1,
                                              "-" if dense else d.get("ep", 1), d.get("mbs", 1))
                src = ["config=%s:%d" % (rel, keyline(lines, 0, "perf_matrix") or 0),
                       "tp_comm_overlap=%s" % tp_src]
                disp, a2a = "-", "-"
                if model == "deepseek-v3":
                    # run_script.py:56-62: DeepEP and the 1F1B a2a overlap
                    # on H100; B200/GB200 token-drop with the alltoall of
                    # the provider (models/deepseek/deepseek_provider.py:74)
                    disp = "deepep" if gpu == "h100" else "alltoall"
                    a2a = "on" if gpu == "h100" else "off"
                    src += ["enable_deepep=%s:56" % RS, "A2A_1F1B=%s:62" % RS]
                elif not dense:
                    disp, a2a = "alltoall", "off"
                    src += ["moe_token_dispatcher_type=src/megatron/bridge/models/qwen/qwen_provider.py:374",
                            "overlap_moe_expert_parallel_comm=(not set: off)"]
                if d.get("recompute_num_layers") is not None:
                    rc = "full"
                    src.append("recompute_num_layers=%s (perf_matrix)" % rel)
                elif model == "deepseek-v3":
                    # run_script.py:90-98: H100 mla_up_proj and mlp,
                    # B200 mla_up_proj, GB200 mla_up_proj with token drop
                    # (the 25.09 GB200 rows), mla_up_proj and mlp dropless
                    rc = "selective:mla_up_proj,mlp" if gpu == "h100" else "selective:mla_up_proj"
                    src.append("recompute_granularity=%s:22 recompute_modules=%s:89-98" % (rel, RS))
                elif model.startswith("qwen3"):
                    rc = "none"
                    src.append("recompute_granularity=%s:19" % rel)
                else:
                    rc = "none"
                    src.append("recompute_granularity=(llama recipe sets none: Megatron-Core default None)")
                # utils/helpers.py:114-120: cuda_graphs sets
                # model.enable_cuda_graph (Megatron-Core 0.14's own
                # per-layer graphs, "local")
                cg = "local:layer" if d.get("cuda_graphs") else "none"
                src.append("cuda_graphs=%s (perf_matrix.%s.%s) enable_cuda_graph=%s/utils/helpers.py:118" % (rel, gpu, dt, P))
                print("\t".join(["25.09", model, gpu, WORD[dt], n.replace("num_gpus_", ""), layout,
                                 tp_ov if not (dense and tp == 1) else "off", disp, a2a, rc, cg,
                                 "@%s %s" % (TAG, " ".join(src))]))
