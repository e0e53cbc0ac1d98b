# files.sh: config files, cluster profiles, job files and user presets,
# through the command line: precedence, errors with line and key.
. "${top_srcdir:-.}/tests/cli/lib.sh"
: "${JQ:=jq}"
[ -n "$JQ" ] || JQ=jq
need "$JQ" "to parse plan --json"

mkdir -p "$XDG_CONFIG_HOME/mbsbatch/presets"
cat >"$XDG_CONFIG_HOME/mbsbatch/config.json" <<'JSON'
{
  "default_cluster": "eos",
  "clusters": {
    "eos": { "gpus_per_node": 8, "gpu_type": "h100", "partition": "batch" },
    "nvl72": { "gpu_type": "gb200", "account": "llm" }
  }
}
JSON
cat >"$tmp/job.json" <<'JSON'
{
  "model": "llama3-70b",
  "tp": 8,
  "pp": 4,
  "vpp": 5,
  "cp": 1,
  "gpus": 64,
  "sp": true,
  "seq_length": 4096,
  "env": { "NCCL_DEBUG": "WARN" },
  "slurm": { "time": "04:00:00" }
}
JSON

# The user config's default cluster applies.
run plan "$tmp/job.json" --json
expect_status "job file" 0
expect_json "job file" '[.cluster,.gpus_per_node,.dp,.nodes,.env.NCCL_DEBUG]' '["eos",8,2,8,"WARN"]'

# The command line beats the job file, and --nodes replaces its gpus.
run plan "$tmp/job.json" --nodes 16 --pp 8 --json
expect_json "cli over job" '[.parallelism.pp,.world_size,.world_from]' '[8,128,"nodes"]'

# --cluster picks another profile: gb200 has 4 GPUs per node.
run plan "$tmp/job.json" --cluster nvl72 --json
expect_json "--cluster" '[.cluster,.gpus_per_node,.nvlink_domain,.nodes]' '["nvl72",4,72,16]'
run plan "$tmp/job.json" --cluster nvl27
expect_status "unknown cluster" 2
expect_err "unknown cluster" "mbsbatch: cluster 'nvl27': no such cluster (did you mean 'nvl72'?)"

# -v says where each value came from.
run plan "$tmp/job.json" -v
expect_out_has "-v" "tp                                 8  (job file)"
expect_out_has "-v" "gpu_type                           h100  (cluster profile)"
expect_out_has "-v" "cluster                            eos"

# --config replaces the user file; MBSBATCH_CONFIG too.
printf '{ "clusters": { "a": { "gpus_per_node": 2 } }, "default_cluster": "a" }\n' >"$tmp/other.json"
run plan --config "$tmp/other.json" --tp 2 --pp 2 --json
expect_json "--config" '[.cluster,.gpus_per_node,.nodes]' '["a",2,2]'
MBSBATCH_CONFIG="$tmp/other.json" "$MBSBATCH" plan --tp 2 --json >"$tmp/out" 2>"$tmp/err"
status=$?
expect_json "MBSBATCH_CONFIG" '.cluster' '"a"'

# A job file's mistakes name the file, line, column and key.
printf '{\n  "tp": 2,\n  "slurm": { "partiton": "x" }\n}\n' >"$tmp/bad.json"
run plan "$tmp/bad.json"
expect_status "job typo" 2
expect_no_stdout "job typo"
expect_err "job typo" "mbsbatch: job file '$tmp/bad.json': line 3, column 14: unknown key 'partiton' (did you mean 'partition'?)"
printf '{ "tp": 2, "tp": 4 }\n' >"$tmp/dup.json"
run plan "$tmp/dup.json"
expect_status "duplicate key" 2
expect_err_prefix "duplicate key" "mbsbatch: job file '$tmp/dup.json': line 1, column "
printf '{ "tp": "eight" }\n' >"$tmp/type.json"
run plan "$tmp/type.json"
expect_err "wrong type" "mbsbatch: job file '$tmp/type.json': line 1, column 3: 'tp' must be a whole number from 1 to 65536, not a string"

# A broken config file is an error for every command that reads it.
printf '{ "clusters": { "eos": { "gpus_per_nod": 8 } } }\n' >"$tmp/badconf.json"
run plan --config "$tmp/badconf.json"
expect_status "config typo" 2
expect_err "config typo" "mbsbatch: config file '$tmp/badconf.json': line 1, column 26: unknown key 'gpus_per_nod' (did you mean 'gpus_per_node'?)"

# The job file may name its cluster; --cluster still wins.
printf '{ "cluster": "nvl72", "tp": 4 }\n' >"$tmp/withcluster.json"
run plan "$tmp/withcluster.json" --json
expect_json "job names cluster" '.cluster' '"nvl72"'
run plan "$tmp/withcluster.json" --cluster eos --json
expect_json "--cluster over job" '.cluster' '"eos"'

# A job file on standard input.
printf '{ "tp": 2, "ep": 8 }\n' | "$MBSBATCH" plan - --json >"$tmp/out" 2>"$tmp/err"
status=$?
expect_json "stdin job" '.min_gpus' '8'

# User presets: a file in the presets directory, and a path.
cat >"$XDG_CONFIG_HOME/mbsbatch/presets/tiny-moe.json" <<'JSON'
{ "description": "a test MoE", "num_layers": 12, "hidden_size": 1024,
  "num_attention_heads": 16, "num_query_groups": 4, "vocab_size": 32000,
  "num_experts": 16, "moe_router_topk": 2, "moe_ffn_hidden_size": 512,
  "params": "2B", "active_params": "400M" }
JSON
run plan --model tiny-moe --ep 4 --pp 3 --vpp 2 --json
expect_status "user preset" 0
expect_json "user preset" '[.model.name,.model.kind,.model.num_experts,.model.params]' '["tiny-moe","moe",16,2000000000]'
run plan --model tiny-moe --ep 3
expect_status "user preset rules" 3
run plan --list-models --json
expect_json "list has user preset" '[.[]|select(.name=="tiny-moe")|.path|test("presets/tiny-moe.json$")]' '[true]'
cp "$XDG_CONFIG_HOME/mbsbatch/presets/tiny-moe.json" "$tmp/my.json"
run plan --model "$tmp/my.json" --json
expect_json "preset by path" '.model.name' '"my"'
printf '{ "num_layer": 3 }\n' >"$tmp/badpreset.json"
run plan --model "$tmp/badpreset.json"
expect_status "bad preset" 2
expect_err "bad preset" "mbsbatch: model preset '$tmp/badpreset.json': line 1, column 3: unknown key 'num_layer' (did you mean 'num_layers'?)"

# A user preset carries what Megatron-LM needs to build the model.
cat >"$tmp/arch.json" <<'JSON'
{ "num_layers": 8, "hidden_size": 1024, "num_attention_heads": 16,
  "num_query_groups": 4, "vocab_size": 32000, "ffn_hidden_size": 2816,
  "num_experts": 16, "moe_router_topk": 2, "moe_ffn_hidden_size": 512,
  "moe_shared_experts": 1, "moe_dense_layers": 2, "mtp_layers": 1,
  "norm_epsilon": 1e-6, "rotary_base": 1000000, "rotary_percent": 0.5,
  "qk_layernorm": true, "qkv_bias": true,
  "moe_router_score_function": "sigmoid", "moe_router_expert_bias": true,
  "moe_router_topk_scaling_factor": 2.5, "moe_aux_loss": "seq_aux_loss",
  "moe_aux_loss_coeff": "1e-4" }
JSON
run gen --template megatron-lm --model "$tmp/arch.json" --ep 4 --seq-length 2048 --dataset mock
expect_status "preset architecture" 0
for f in --qk-layernorm --add-qkv-bias --moe-router-enable-expert-bias; do
	expect_out_has "preset architecture $f" "	$f"
done
for fv in "--norm-epsilon 1e-06" "--rotary-base 1000000" "--rotary-percent 0.5" \
    "--moe-router-score-function sigmoid" "--moe-router-topk-scaling-factor 2.5" \
    "--moe-aux-loss-coeff 0.0001" "--moe-layer-freq '[0]*2+[1]*6'" \
    "--moe-shared-expert-intermediate-size 512" "--mtp-num-layers 1" \
    "--vocab-size 32000"; do
	got=$(grep -A1 -x "	${fv%% *}" "$tmp/out" | sed -n 2p)
	if [ "$got" = "	${fv#* }" ]; then ok; else bad "preset architecture ${fv%% *}: '$got'"; fi
done

# GPT-OSS's fields in a user preset: biases, sinks, windows, its GLU, YaRN.
cat >"$tmp/oss.json" <<'JSON'
{ "num_layers": 4, "hidden_size": 512, "num_attention_heads": 8,
  "num_query_groups": 2, "kv_channels": 64, "vocab_size": 32000,
  "ffn_hidden_size": 512, "num_experts": 8, "moe_router_topk": 2,
  "moe_ffn_hidden_size": 512, "linear_bias": true, "qkv_bias": true,
  "softmax_type": "learnable", "sliding_window": 64,
  "window_attn_skip_freq": 2, "activation": "quick_geglu",
  "glu_linear_offset": 1, "activation_func_clamp_value": 7,
  "rope_scaling": "yarn", "rope_scaling_factor": 32,
  "yarn_original_max_position_embeddings": 4096, "yarn_beta_fast": 32,
  "yarn_beta_slow": 1, "yarn_exact_correction_range": true }
JSON
run gen --template megatron-lm --model "$tmp/oss.json" --ep 4 --seq-length 2048 --dataset mock
expect_status "gpt-oss fields" 0
for f in --quick-geglu --add-qkv-bias --no-yarn-correction-range-round-to-int; do
	expect_out_has "gpt-oss fields $f" "	$f"
done
if grep -qx "	--disable-bias-linear\|	--swiglu" "$tmp/out"; then
	bad "gpt-oss fields: --disable-bias-linear or --swiglu written"
else
	ok
fi
for fv in "--window-size 63,0" "--window-attn-skip-freq 2" \
    "--softmax-type learnable" "--position-embedding-type yarn" \
    "--rotary-scaling-factor 32" "--glu-linear-offset 1" \
    "--activation-func-clamp-value 7" \
    "--yarn-original-max-position-embeddings 4096"; do
	got=$(grep -A1 -x "	${fv%% *}" "$tmp/out" | sed -n 2p)
	if [ "$got" = "	${fv#* }" ]; then ok; else bad "gpt-oss fields ${fv%% *}: '$got'"; fi
done
printf '{ "num_layers": 4, "softmax_type": "sinks" }\n' >"$tmp/badoss.json"
run plan --model "$tmp/badoss.json"
expect_status "bad softmax_type" 2
printf '{ "num_layers": 2, "moe_router_score_function": "tanh" }\n' >"$tmp/badscore.json"
run plan --model "$tmp/badscore.json"
expect_status "bad router score" 2
expect_err_prefix "bad router score" "mbsbatch: model preset '$tmp/badscore.json': line 1, column 20: 'moe_router_score_function': 'tanh' is not a router score function (softmax or sigmoid)"

# A hybrid model in a user preset: pattern with pipeline segments, Mamba
# shapes, squared ReLU, an MTP block: pretrain_hybrid.py, the unified
# pattern, no VPP flag (the segments give it), no RoPE.
cat >"$tmp/hybrid.json" <<'JSON'
{ "num_layers": 10, "hidden_size": 1024, "ffn_hidden_size": 2048,
  "num_attention_heads": 8, "num_query_groups": 2, "kv_channels": 128,
  "vocab_size": 32000, "num_experts": 8, "moe_router_topk": 2,
  "moe_ffn_hidden_size": 512, "activation": "squared_relu",
  "hybrid_layer_pattern": "MEM*|ME|M-|M-", "mamba_state_dim": 64,
  "mamba_head_dim": 64, "mamba_num_groups": 4, "mamba_num_heads": 32,
  "mtp_layers": 2, "mtp_hybrid_layer_pattern": "*E" }
JSON
run gen --template megatron-lm --model "$tmp/hybrid.json" --pp 2 --vpp 2 \
    --ep 2 --gpus 4 --seq-length 2048 --global-batch-size 16 --dataset mock
expect_status "hybrid fields" 0
expect_out_has "hybrid program" "	pretrain_hybrid.py"
expect_out_has "hybrid activation" "	--squared-relu"
for fv in "--hybrid-layer-pattern 'MEM*|ME|M-|M-/*E/*E'" \
    "--mamba-state-dim 64" "--mamba-num-groups 4" "--mamba-num-heads 32" \
    "--position-embedding-type none"; do
	got=$(grep -A1 -x "	${fv%% *}" "$tmp/out" | sed -n 2p)
	if [ "$got" = "	${fv#* }" ]; then ok; else bad "hybrid fields ${fv%% *}: '$got'"; fi
done
if grep -qx "	--num-virtual-stages-per-pipeline-rank\|	--mtp-num-layers\|	--swiglu" "$tmp/out"; then
	bad "hybrid fields: a VPP, MTP or SwiGLU flag written"
else
	ok
fi
# Its segments must be PP x VPP; Megatron refuses VPP without them.
run plan --model "$tmp/hybrid.json" --pp 2 --ep 2 --gpus 4 --seq-length 2048
expect_status "hybrid segments" 3
expect_out_has "hybrid segments" "hybrid-pipe-segments"
# Without num_layers, the pattern's count (Megatron derives it so).
# And Megatron's Mamba defaults: state 128, head dim 64, 8 groups.
sed -e 's/"num_layers": 10, //' -e 's/"mamba_state_dim": 64,//' \
    -e 's/"mamba_head_dim": 64, "mamba_num_groups": 4,//' \
    "$tmp/hybrid.json" >"$tmp/hybrid-nl.json"
run plan --model "$tmp/hybrid-nl.json" --pp 2 --vpp 2 --ep 2 --gpus 4 \
    --seq-length 2048 --json
expect_status "hybrid without num_layers" 0
expect_json "hybrid without num_layers" '[.model.num_layers,.model.mamba_state_dim,.model.mamba_head_dim,.model.mamba_num_groups]' '[10,128,64,8]'
printf '{ "num_layers": 3, "hybrid_layer_pattern": "M*G" }\n' >"$tmp/badhy.json"
run plan --model "$tmp/badhy.json"
expect_status "bad hybrid pattern" 2
expect_err_prefix "bad hybrid pattern" "mbsbatch: model preset '$tmp/badhy.json': line 1, column 20: 'hybrid_layer_pattern': 'M*G' has a layer mbsbatch does not model (G, D or +: gated delta net, DSA, MLA); M * - E and | are"

# gen -o onto what is not a regular file.  --force replaces a regular
# file only: a character device or FIFO is written in place (as a shell
# redirection writes it), never replaced; a directory, block device or
# socket is refused and left alone.  Nodes made here, not /dev's.
out() { run gen --template command --command true --gpus 8 -q -o "$@"; }
mkdir "$tmp/nodes" && cd "$tmp/nodes" || exit 1
mkfifo fifo
timeout 30 cat fifo >fifo.out &
reader=$!
out fifo --force
wait "$reader"
expect_status "-o FIFO" 0
if [ -p fifo ]; then ok; else bad "-o FIFO --force: the FIFO was replaced"; fi
if head -n 1 fifo.out | grep -qx '#!/bin/bash'; then ok; else bad "-o FIFO: the reader did not get the script"; fi
ln -s fifo fifo.link
timeout 30 cat fifo >fifo.out &
reader=$!
out fifo.link
wait "$reader"
expect_status "-o link to a FIFO" 0
if [ -L fifo.link ] && [ -p fifo ] && [ -s fifo.out ]; then ok; else bad "-o link to a FIFO: not written through"; fi
devices=no
if mknod null c 1 3 2>/dev/null; then
	out null --force
	expect_status "-o char device --force" 0
	expect_no_stderr "-o char device --force"
	if [ -c null ]; then devices=yes; ok; else bad "-o char device --force: the device was replaced"; fi
	out null
	expect_status "-o char device" 0
	if [ -c null ]; then ok; else bad "-o char device: the device was replaced"; fi
	if mknod blk b 7 200 2>/dev/null; then
		out blk --force
		expect_status "-o block device" 1
		expect_err "-o block device" "mbsbatch: 'blk': a block device; only regular files, character devices and FIFOs are written"
		if [ -b blk ]; then ok; else bad "-o block device: replaced"; fi
	fi
else
	echo "# no mknod here (not root): device nodes not tried"
fi
if [ ! -e logs ]; then ok; else bad "-o onto a device or FIFO created logs/"; fi
# The real /dev/null, only once a device node made here was written in
# place: a binary that replaced that one must not get to /dev/null.
if [ "$devices" = yes ] && [ -w /dev/null ]; then
	out /dev/null --force
	expect_status "-o /dev/null --force" 0
	if [ -c /dev/null ]; then ok; else bad "-o /dev/null --force: /dev/null is no longer a character device"; fi
fi
mkdir dir
out dir --force
expect_status "-o directory" 1
expect_err "-o directory" "mbsbatch: 'dir': a directory; only regular files, character devices and FIFOs are written"
if [ -d dir ] && [ -z "$(ls -A dir)" ]; then ok; else bad "-o directory: changed"; fi
if command -v python3 >/dev/null 2>&1 &&
    python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("sock")'; then
	out sock --force
	expect_err "-o socket" "mbsbatch: 'sock': a socket; only regular files, character devices and FIFOs are written"
	if [ -S sock ]; then ok; else bad "-o socket: replaced"; fi
fi
# A link to a regular file: kept without --force; with it the file it
# leads to is replaced, and the link stays a link.
echo old >real
ln -s real real.link
out real.link
expect_status "-o link to a file" 1
expect_err_prefix "-o link to a file" "mbsbatch: 'real.link': file exists; kept as it is"
out real.link --force
expect_status "-o link to a file --force" 0
if [ -L real.link ] && [ "$(readlink real.link)" = real ] && head -n 1 real | grep -qx '#!/bin/bash'; then
	ok
else
	bad "-o link to a file --force: the link was not written through"
fi
ln -s nowhere dangling
out dangling --force
expect_status "-o dangling link" 1
expect_err "-o dangling link" "mbsbatch: 'dangling': symbolic link to nothing; no file is created through a link"
if [ ! -e nowhere ] && [ -L dangling ]; then ok; else bad "-o dangling link: created its target"; fi
if [ -z "$(ls -A | grep '^\.')" ]; then ok; else bad "a temporary file was left behind: $(ls -A)"; fi
cd - >/dev/null || exit 1

finish
