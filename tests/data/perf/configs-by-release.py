#!/usr/bin/env python3
"""Read Megatron-Bridge's performance workload configs at one revision
(scripts/performance/configs, v0.2.0..v0.5.x) and print configs.tsv-style
rows (with a leading release column) for the models mbsbatch expresses.

Usage: configs-by-release.py RELEASE TAG DIR, DIR holding that revision's
scripts/performance and src/megatron/bridge/recipes (git archive TAG
scripts/performance src/megatron/bridge/recipes | tar -x -C DIR).  Only
the standard library runs: the workload files and utils/utils.py are
executed, the rest is read with ast."""
import ast, os, re, sys, types, dataclasses

REL, TAG, ROOT = sys.argv[1], sys.argv[2], sys.argv[3]
PERF = os.path.join(ROOT, "scripts/performance")

# family dir, workload file, pretrain file per model, by revision layout
if TAG == "v0.2.0":
    FAM = {"llama3-8b": ("llama3", "workload_base_configs.py", "llama3_llm_pretrain.py", "LLAMA3_8B", "llama3_8b"),
           "llama3-70b": ("llama3", "workload_base_configs.py", "llama3_llm_pretrain.py", "LLAMA3_70B", "llama3_70b"),
           "llama3.1-405b": ("llama31", "workload_base_configs.py", "llama31_llm_pretrain.py", "LLAMA31_405B", "llama31_405b"),
           "qwen3-30b-a3b": ("qwen3", "workload_base_configs.py", "qwen3_llm_pretrain.py", "QWEN3_30B_A3B", "qwen3_30b_a3b"),
           "qwen3-235b-a22b": ("qwen3", "workload_base_configs.py", "qwen3_llm_pretrain.py", "QWEN3_235B_A22B", "qwen3_235b_a22b"),
           "deepseek-v3": ("deepseek", "workload_base_configs.py", "deepseek_llm_pretrain.py", "DEEPSEEK_V3", "deepseek_v3"),
           "gpt-oss-120b": ("gpt_oss", "workload_base_configs.py", "gpt_oss_llm_pretrain.py", "GPT_OSS_120B", "gpt_oss_120b")}
else:
    FAM = {"llama3-8b": ("llama", "llama3_workload_base_configs.py", "llama3_llm_pretrain.py", "LLAMA3_8B", "llama3_8b"),
           "llama3-70b": ("llama", "llama3_workload_base_configs.py", "llama3_llm_pretrain.py", "LLAMA3_70B", "llama3_70b"),
           "llama3.1-405b": ("llama", "llama31_workload_base_configs.py", "llama31_llm_pretrain.py", "LLAMA31_405B", "llama31_405b"),
           "qwen3-30b-a3b": ("qwen", "qwen3_workload_base_configs.py", "qwen3_llm_pretrain.py", "QWEN3_30B_A3B", "qwen3_30b_a3b"),
           "qwen3-235b-a22b": ("qwen", "qwen3_workload_base_configs.py", "qwen3_llm_pretrain.py", "QWEN3_235B_A22B", "qwen3_235b_a22b"),
           "deepseek-v3": ("deepseek", "deepseek_workload_base_configs.py", "deepseek_llm_pretrain.py", "DEEPSEEK_V3", "deepseek_v3"),
           "kimi-k2": ("kimi", "kimi_workload_base_configs.py", "kimi_llm_pretrain.py", "KIMI_K2", "kimi_k2"),
           "gpt-oss-120b": ("gpt_oss", "gpt_oss_workload_base_configs.py", "gpt_oss_llm_pretrain.py", "GPT_OSS_120B", "gpt_oss_120b")}
GPUS = ["gb300", "gb200", "b300", "b200", "h100"]
PRECS = [("BF16", "bf16"), ("FP8_CS", "fp8"), ("FP8_MX", "mxfp8")]

# utils.utils of the revision: only the standard library is imported
utils = types.ModuleType("utils"); utils.__path__ = []
sys.modules["utils"] = utils
uu = types.ModuleType("utils.utils")
src = open(os.path.join(PERF, "utils/utils.py")).read()
exec(compile(src, "utils/utils.py", "exec"), uu.__dict__)
sys.modules["utils.utils"] = uu
utils.utils = uu


def rel(path):
    return os.path.relpath(path, ROOT)


class Workload:
    def __init__(self, path):
        self.path = path
        text = open(path).read()
        self.ns = {}
        exec(compile(text, path, "exec"), self.ns)
        self.tree = ast.parse(text)
        self.assign = {}
        for node in self.tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
               isinstance(node.targets[0], ast.Name):
                self.assign[node.targets[0].id] = node

    def line(self, name, field):
        """file:line where NAME's FIELD is set, following aliases and
        replace() bases; None when the dataclass default applies."""
        node = self.assign.get(name)
        if node is None:
            return None
        v = node.value
        if isinstance(v, ast.Name):
            return self.line(v.id, field)
        if isinstance(v, ast.Call):
            for kw in v.keywords:
                if kw.arg == field:
                    return "%s:%d" % (rel(self.path), kw.lineno)
            if v.args and isinstance(v.args[0], ast.Name):
                return self.line(v.args[0].id, field)
        return None

    def varline(self, name):
        node = self.assign.get(name)
        return "%s:%d" % (rel(self.path), node.lineno) if node else None


def func_body(path, fname):
    """(first, lines) of function FNAME in PATH: its source lines."""
    lines = open(path).read().split("\n")
    tree = ast.parse("\n".join(lines))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == fname:
            return node.lineno, lines[node.lineno - 1:node.end_lineno]
    return None, []


def grep(path, fname, pattern):
    first, body = func_body(path, fname)
    for i, l in enumerate(body):
        if re.search(pattern, l):
            return "%s:%d" % (rel(path), first + i), l.strip()
    return None, None


def cfg_name(base, gpu, prec, variant):
    if TAG == "v0.2.0":
        return "%s_%s_%s_BASE_CONFIG" % (base, gpu.upper(), prec)
    if variant is None:
        return "%s_PRETRAIN_CONFIG_%s_%s" % (base, gpu.upper(), prec)
    return "%s_PRETRAIN_CONFIG_%s_%s_%s" % (base, gpu.upper(), prec, variant)


def fn_name(recipe, gpu):
    if TAG == "v0.2.0":
        return "%s_%s_config" % (recipe, gpu)
    return "%s_pretrain_config_%s" % (recipe, gpu)


def common_fn(model):
    return {"llama3-8b": "set_llama3_common_configs", "llama3-70b": "set_llama3_common_configs",
            "llama3.1-405b": "set_llama31_common_configs", "qwen3-30b-a3b": "set_qwen3_common_configs",
            "qwen3-235b-a22b": "set_qwen3_common_configs", "deepseek-v3": "set_deepseek_v3_common_configs",
            "kimi-k2": "set_kimi_k2_common_configs",
            "gpt-oss-120b": "set_gpt_oss_common_configs"}[model]


RECIPE = {"llama3-8b": ("llama/llama3.py", "llama3_8b_pretrain_config"),
          "llama3-70b": ("llama/llama3.py", "llama3_70b_pretrain_config"),
          "llama3.1-405b": ("llama/llama3.py", "llama31_405b_pretrain_config"),
          "qwen3-30b-a3b": ("qwen/qwen3_moe.py", "qwen3_30b_a3b_pretrain_config"),
          "qwen3-235b-a22b": ("qwen/qwen3_moe.py", "qwen3_235b_a22b_pretrain_config"),
          "deepseek-v3": ("deepseek/deepseek_v3.py", "deepseek_v3_pretrain_config"),
          "kimi-k2": ("kimi/kimi_k2.py", "kimi_k2_pretrain_config"),
          "gpt-oss-120b": ("gpt_oss/gpt_oss.py", "gpt_oss_120b_pretrain_config")}


def base_setting(model, pattern):
    """(value word, source) of the base recipe's setting, or Megatron-Core's
    default when the recipe function sets none."""
    f, fn = RECIPE[model]
    path = os.path.join(ROOT, "src/megatron/bridge/recipes", f)
    at, l = grep(path, fn, pattern)
    if l is None:
        return None, "%s:%s(sets none: Megatron-Core default)" % (rel(path), fn)
    return l, at


dedupe = set()
out = []
for model, (fam, wfile, pfile, base, recipe) in FAM.items():
    wpath = os.path.join(PERF, "configs", fam, wfile)
    ppath = os.path.join(PERF, "configs", fam, pfile)
    if not os.path.exists(wpath):
        continue
    w = Workload(wpath)
    variants = ["V2", "V1", None] if TAG != "v0.2.0" else [None]
    for gpu in GPUS:
        fn = fn_name(recipe, gpu)
        if func_body(ppath, fn)[0] is None:
            continue
        for prec, word in PRECS:
            for variant in variants:
                name = cfg_name(base, gpu, prec, variant)
                c = w.ns.get(name)
                if c is None:
                    continue
                src = ["config=%s" % w.varline(name)]
                vp = c.virtual_pipeline_model_parallel_size
                layout = "%d/%d/%d/%s/%s/%d" % (
                    c.tensor_model_parallel_size, c.pipeline_model_parallel_size,
                    c.context_parallel_size, vp if vp is not None else 1,
                    c.expert_model_parallel_size if model not in ("llama3-8b", "llama3-70b", "llama3.1-405b") else "-",
                    c.micro_batch_size)
                # tp overlap: what the pretrain function gives
                tp = "-"
                at, l = grep(ppath, fn, r"tp_comm_overlap_cfg\s*=|CommOverlapConfig\(tp_comm_overlap=")
                if l is not None:
                    if "tensor_model_parallel_size > 1" in l:
                        tp = "on" if c.tensor_model_parallel_size > 1 else "off"
                    elif "tp_comm_overlap=False" in l:
                        tp = "off"
                    else:
                        tp = "on"
                    src.append("tp_comm_overlap=%s" % at)
                # dispatcher: the workload's flex backend, else the
                # provider's alltoall; DeepEP is skipped on GB200/GB300
                # (training/flex_dispatcher_backend.py)
                disp = "-"
                if not model.startswith("llama"):
                    b = c.moe_flex_dispatcher_backend
                    if b is None and model == "kimi-k2" and TAG in ("v0.3.0", "v0.3.1"):
                        # recipes/kimi/kimi_k2.py: deepep, applied by the
                        # perf script; no alltoall reset before v0.4.0
                        b = "deepep"
                    if b is None or (b == "deepep" and gpu.startswith("gb")):
                        disp = "alltoall"
                    else:
                        disp = b
                    src.append("moe_flex_dispatcher_backend=%s" % (w.line(name, "moe_flex_dispatcher_backend") or "default None"))
                a2a = "-"
                if not model.startswith("llama"):
                    a2a = "on" if c.moe_a2a_overlap else "off"
                    src.append("moe_a2a_overlap=%s" % (w.line(name, "moe_a2a_overlap") or "default False"))
                # recompute: workload, else the family's common settings
                rc = "-"
                if c.recompute_num_layers is not None:
                    rc = "full"
                    src.append("recompute_num_layers=%s" % w.line(name, "recompute_num_layers"))
                elif c.recompute_modules is not None:
                    # the modules the workload names; none named,
                    # nothing is recomputed (recompute-modules.py)
                    rc = "selective:" + ",".join(c.recompute_modules) \
                        if c.recompute_modules else "none"
                    src.append("recompute_modules=%s" % w.line(name, "recompute_modules"))
                else:
                    at, l = grep(ppath, common_fn(model), r"recompute_granularity\s*=")
                    if l is None:
                        l, at = base_setting(model, r"recompute_granularity\s*=")
                    rc = "none" if l is None or "None" in l else re.search(r'"(\w+)"', l).group(1)
                    src.append("recompute_granularity=%s" % at)
                # cuda graphs: the workload's, else "-" (base recipe)
                cg = "-"
                impl, scope = c.cuda_graph_impl, c.cuda_graph_scope
                if isinstance(scope, str):
                    scope = [scope]
                if impl == "full_iteration" or (scope and "full_iteration" in scope):
                    cg = "full_iteration"
                elif impl == "none":
                    cg = "none"
                elif impl in ("transformer_engine", "local"):
                    kind = "te" if impl == "transformer_engine" else "local"
                    cg = "%s:%s" % (kind, ",".join(scope) if scope else "layer")
                if impl is None and not scope:
                    l, at = base_setting(model, r"cuda_graph_impl\s*=")
                    if l is None or '"none"' in l:
                        cg = "none"
                    else:
                        cg = "-"
                    src.append("cuda_graph_impl=%s" % at)
                if impl is not None:
                    src.append("cuda_graph_impl=%s" % w.line(name, "cuda_graph_impl"))
                if scope is not None:
                    src.append("cuda_graph_scope=%s" % w.line(name, "cuda_graph_scope"))
                key = (model, gpu, word, layout)
                if key in dedupe:
                    continue
                dedupe.add(key)
                out.append([REL, model, gpu, word, str(c.num_gpus), layout, tp, disp, a2a, rc, cg,
                            "@%s %s" % (TAG, " ".join(src))])
for r in out:
    print("\t".join(r))
