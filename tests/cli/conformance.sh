# conformance.sh: the scripts mbsbatch writes, held against what the real
# Megatron accepts, as the fact tables of data/megatron record it (read off
# each upstream revision's own code; data/megatron/README.md).
#
# For every job of tests/data/conformance/cases and every example:
# - Megatron-Bridge 0.5.1, 0.6.0 and main: the recipe and --dataset exist
#   for that version, every override path exists for the recipe's model
#   class and is not under a section the recipe leaves None, and every
#   value has its field's type; no value Megatron-Core refuses for one it
#   wants None (num_moe_experts=0), nor a dense model with a MoE recipe's
#   expert width or EP; no --dataset with a recipe run_recipe.py runs as a
#   benchmark recipe; an exit handler that saves somewhere
#   (conformance-bridge.awk, with recipe-rules.tsv); a recipe the version
#   lacks is refused before anything is written;
#   tests/data/conformance/bridge-cases holds jobs for this template only
#   (models no preset describes);
# - Megatron-LM core_v0.19.0 and main: every flag exists, is not
#   deprecated, and has a valid value (conformance-mlm.awk); and the model
#   those flags describe, counted from the flags alone, has the preset's
#   parameter count within 1% (its MTP layers apart: the published counts
#   leave them out), and exactly (without the vocabulary's padding) when
#   the preset's count is an exact one, not a rounded figure.
# A job with Megatron-FSDP writes its checkpoint format and no
# CUDA_DEVICE_MAX_CONNECTIONS=1 (fsdp_env).
# Then --dataset against the recipes run_recipe.py runs as benchmark
# recipes, every such library name and a seeded sample of the rest
# (MBS_TEST_SEED replays one).
# And every example's smoke script (mbsbatch-smoke(1)), for every Bridge
# version and both Megatron-LM revisions, checked the same way, with the
# example's own layout (TP, PP, VPP, CP, EP, ETP, SP: the script's
# "mbsbatch: layout" line and its overrides) on its min GPUs.
. "${top_srcdir:-.}/tests/cli/lib.sh"
need bash "to read the generated scripts' argument arrays"
need awk "to check the arguments against the fact tables"
: "${JQ:=jq}"
[ -n "$JQ" ] || JQ=jq
need "$JQ" "to read the preset's parameter count"

data="$top_srcdir/data/megatron"
here="$top_srcdir/tests/cli"
cases="$top_srcdir/tests/data/conformance/cases"

# words SCRIPT: the prog=() array of SCRIPT, one word a line, as bash
# hands it to the program.
words() {
	sed -n '/^prog=(/,/^)/p' "$1" >"$tmp/prog.sh"
	printf 'printf "%%s\\n" "${prog[@]}"\n' >>"$tmp/prog.sh"
	(cd "$tmp" && bash "$tmp/prog.sh")
}

# finetune_name RECIPE: is RECIPE a fine-tuning recipe by its name, as
# run_recipe.py infers the mode (0.6.0 recipe_metadata.py:189-200)?
finetune_name() {
	case _$1_ in
	*_pretrain_*) return 1 ;;
	*_sft_* | *_finetune_* | *_peft_* | *_lora_* | *_dora_*) return 0 ;;
	*) return 1 ;;
	esac
}

bridge_dir() {
	case $1 in
	main) echo "$data/megatron-bridge-main-067f987d" ;;
	*) echo "$data/megatron-bridge-v$1" ;;
	esac
}

# The command that writes the scripts: gen, or smoke for the smoke
# scripts (then each is held to the job's layout too: same_layout).
conf_cmd=gen

# fsdp_env NAME SCRIPT: a script that runs Megatron-FSDP (its words in
# $tmp/words) writes the fsdp_dtensor checkpoint format and does not
# export CUDA_DEVICE_MAX_CONNECTIONS=1, which Megatron-LM (arguments.py
# 1143 / 1166, 1146 / 1169) and Bridge (training/config.py 1101 and
# 1096-1100 at 0.6.0) refuse with it.
fsdp_env() {
	grep -qx 'ddp.use_megatron_fsdp=true\|--use-megatron-fsdp' "$tmp/words" ||
	    return 0
	if grep -q '^export CUDA_DEVICE_MAX_CONNECTIONS=1$' "$2"; then
		bad "$1: Megatron-FSDP with CUDA_DEVICE_MAX_CONNECTIONS=1"
	elif ! grep -qx 'checkpoint.ckpt_format=fsdp_dtensor\|fsdp_dtensor' \
	    "$tmp/words"; then
		bad "$1: Megatron-FSDP without the fsdp_dtensor checkpoint format"
	else
		ok
	fi
}

# bridge NAME RECIPE VERSION OPTIONS...: gen for VERSION and check.
bridge() {
	name=$1 recipe=$2 v=$3
	shift 3
	dir=$(bridge_dir "$v")
	# A fine-tuning recipe keeps its own data (mock data pretrains).
	if finetune_name "$recipe"; then
		run "$conf_cmd" --bridge-version "$v" --recipe "$recipe" \
		    "$@" -o "$tmp/b.sbatch" --force
	else
		run "$conf_cmd" --bridge-version "$v" --recipe "$recipe" \
		    --dataset mock "$@" -o "$tmp/b.sbatch" --force
	fi
	if ! awk -F'\t' -v r="$recipe" '$1 == r { found = 1 } END { exit !found }' \
	    "$dir/recipes.tsv"; then
		expect_status "$name on Bridge $v: no such recipe" 2
		expect_err_prefix "$name on Bridge $v: no such recipe" \
		    "mbsbatch: recipe '$recipe': not a recipe of Megatron-Bridge $v"
		return
	fi
	expect_status "$name on Bridge $v: $conf_cmd" 0
	[ "$status" -eq 0 ] || return
	words "$tmp/b.sbatch" >"$tmp/words"
	if awk -f "$here/conformance-bridge.awk" "$dir/recipes.tsv" \
	    "$dir/config-fields.tsv" "$dir/run_recipe.tsv" \
	    "$dir/recipe-rules.tsv" "$tmp/words" >"$tmp/check" 2>&1; then
		ok
	else
		bad "$name on Bridge $v: $(cat "$tmp/check")"
	fi
	fsdp_env "$name on Bridge $v" "$tmp/b.sbatch"
	[ "$conf_cmd" = gen ] || same_layout "$name on Bridge $v" \
	    "$tmp/b.sbatch" --bridge-version "$v" --recipe "$recipe" "$@"
}

# mlm NAME OPTIONS...: gen with the megatron-lm template and check
# against both revisions; the count against the preset's.
mlm() {
	name=$1
	shift
	run "$conf_cmd" --template megatron-lm --dataset mock --train-iters 10 \
	    --lr 1e-4 "$@" -o "$tmp/m.sbatch" --force
	expect_status "$name on Megatron-LM: $conf_cmd" 0
	[ "$status" -eq 0 ] || return
	words "$tmp/m.sbatch" >"$tmp/words"
	fsdp_env "$name on Megatron-LM" "$tmp/m.sbatch"
	want=$("$MBSBATCH" plan --json "$@" 2>/dev/null | "$JQ" -r '.model.params')
	for rev in core_v0.19.0 main-d98e8a64; do
		if awk -f "$here/conformance-mlm.awk" \
		    "$data/megatron-lm-$rev/flags.tsv" "$tmp/words" \
		    >"$tmp/check" 2>&1; then
			ok
		else
			bad "$name on Megatron-LM $rev: $(grep -v '^params\|^mtp\|^exact' "$tmp/check")"
		fi
	done
	if [ "$conf_cmd" != gen ]; then
		# The small model is not the preset: its layout instead.
		same_layout "$name on Megatron-LM" "$tmp/m.sbatch" \
		    --template megatron-lm "$@"
		return
	fi
	got=$(sed -n 's/^params //p' "$tmp/check")
	mtp=$(sed -n 's/^mtp //p' "$tmp/check")
	exact=$(sed -n 's/^exact //p' "$tmp/check")
	if awk -v got="$got" -v want="$want" 'BEGIN {
	    d = (got - want) / want; exit !(d < 0.01 && d > -0.01) }'; then
		ok
	else
		bad "$name: Megatron-LM builds $got parameters (and $mtp in MTP layers), the preset has $want"
	fi
	# A preset whose count is the exact one its shapes give (not a
	# rounded "236B") holds the flags to it, vocabulary padding apart:
	# every bias and sink included, down to the last parameter.
	case $want in
	*000000) ;;
	*)	if [ "$exact" = "$want" ]; then
			ok
		else
			bad "$name: Megatron-LM builds $exact parameters (unpadded), the preset's exact count is $want"
		fi ;;
	esac
}

# run_cases FILE [mlm]: each job of FILE for every Bridge version, and
# with "mlm" for Megatron-LM too.
run_cases() {
	with_mlm=${2:-}
	grep -v '^#' "$1" >"$tmp/cases"
	while IFS='	' read -r name recipe opts; do
		[ -n "$name" ] || continue
		eval "set -- $opts"
		for v in 0.5.1 0.6.0 main; do
			bridge "$name" "$recipe" "$v" "$@"
		done
		[ "$with_mlm" != mlm ] || mlm "$name" "$@"
	done <"$tmp/cases"
}
run_cases "$cases" mlm
run_cases "$top_srcdir/tests/data/conformance/bridge-cases"

# --dataset with the recipes run_recipe.py runs as benchmark recipes (the
# recipes.tsv kind, and the library names both packages have:
# recipe-rules.tsv) is refused, naming the recipe; with any other recipe
# it is not.  Every such library name, and a seeded sample of the others.
seed=${MBS_TEST_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
echo "conformance: benchmark recipes and --dataset, seed $seed"
for v in 0.5.1 0.6.0 main; do
	dir=$(bridge_dir "$v")
	awk -F'\t' -v seed="$seed" '
	    FILENAME == ARGV[1] && $1 == "benchmark" && $2 ~ /^recipe:/ {
		twin[substr($2, 8)] = 1; next }
	    FILENAME == ARGV[1] { next }
	    FNR == 1 { srand(seed); next }
	    $1 in twin { print $1 "\tbenchmark"; next }
	    rand() < 0.02 { print $1 "\t" ($2 == "benchmark" ? "benchmark" : "library") }' \
	    "$dir/recipe-rules.tsv" "$dir/recipes.tsv" >"$tmp/bench"
	while IFS='	' read -r recipe kind; do
		run plan -q --bridge-version "$v" --recipe "$recipe" --dataset mock
		if [ "$kind" = benchmark ]; then
			if [ "$status" -eq 2 ] && grep -q "^mbsbatch: --dataset: .*'$recipe'.*run_recipe.py refuses --dataset" "$tmp/err"; then
				ok
			else
				bad "Bridge $v, benchmark recipe $recipe with --dataset (seed $seed)"
			fi
		elif finetune_name "$recipe"; then
			# Mock data makes a pretraining run.
			if [ "$status" -eq 2 ] && grep -q "^mbsbatch: --dataset: 'mock' is pretraining data, and recipe '$recipe' fine-tunes" "$tmp/err"; then
				ok
			else
				bad "Bridge $v, fine-tuning recipe $recipe with mock data not refused (seed $seed)"
			fi
		elif grep -q '^mbsbatch: --dataset' "$tmp/err"; then
			bad "Bridge $v, library recipe $recipe: --dataset refused (seed $seed)"
		else
			ok
		fi
	done <"$tmp/bench"
done

# A fine-tuning recipe without --pretrained-checkpoint is refused where
# Megatron-Bridge loads one (every LoRA/DoRA recipe; an SFT recipe unless
# run_recipe.py runs it as a benchmark, which pretrains: bridge.c), and
# written with it as checkpoint.pretrained_checkpoint where given.  Llama
# 3's, and a seeded sample of the others.
echo "conformance: fine-tuning recipes and --pretrained-checkpoint, seed $seed"
for v in 0.5.1 0.6.0 main; do
	dir=$(bridge_dir "$v")
	awk -F'\t' -v seed="$seed" '
	    FILENAME == ARGV[1] && $1 == "benchmark" && $2 ~ /^recipe:/ {
		twin[substr($2, 8)] = 1; next }
	    FILENAME == ARGV[1] { next }
	    FNR == 1 { srand(seed + 1); next }
	    $1 ~ /_pretrain_/ || $1 !~ /_(sft|finetune|peft|lora|dora)_/ { next }
	    $1 ~ /^llama3_(8|70)b_/ || rand() < 0.03 {
		print $1 "\t" ($2 == "benchmark" || $1 in twin ? "benchmark" : "library") }' \
	    "$dir/recipe-rules.tsv" "$dir/recipes.tsv" >"$tmp/ft"
	while IFS='	' read -r recipe kind; do
		run plan -q --bridge-version "$v" --recipe "$recipe"
		case $kind:$recipe in
		benchmark:*_sft_*)
			if grep -q '^mbsbatch: pretrained-checkpoint' "$tmp/err"; then
				bad "Bridge $v, benchmark SFT recipe $recipe: refused without a pretrained checkpoint (it pretrains)"
			else
				ok
			fi ;;
		*)
			if [ "$status" -eq 2 ] && grep -q "^mbsbatch: pretrained-checkpoint: recipe '$recipe'" "$tmp/err"; then
				ok
			else
				bad "Bridge $v, fine-tuning recipe $recipe: not refused without --pretrained-checkpoint (seed $seed)"
			fi ;;
		esac
		run gen --bridge-version "$v" --recipe "$recipe" \
		    --pretrained-checkpoint "$tmp" -o "$tmp/f.sbatch" --force
		[ "$status" -eq 0 ] || continue	# refused for another reason
		words "$tmp/f.sbatch" >"$tmp/words"
		if ! grep -qx "checkpoint.pretrained_checkpoint=$tmp" "$tmp/words"; then
			bad "Bridge $v, $recipe: no checkpoint.pretrained_checkpoint"
		elif awk -f "$here/conformance-bridge.awk" "$dir/recipes.tsv" \
		    "$dir/config-fields.tsv" "$dir/run_recipe.tsv" \
		    "$dir/recipe-rules.tsv" "$tmp/words" >"$tmp/check" 2>&1; then
			ok
		else
			bad "Bridge $v, $recipe: $(cat "$tmp/check")"
		fi
	done <"$tmp/ft"
done

# same_layout NAME SCRIPT OPTIONS...: the smoke SCRIPT (its words in
# $tmp/words) has the layout plan gives for OPTIONS, on its min GPUs.
same_layout() {
	name=$1 script=$2
	shift 2
	"$MBSBATCH" plan --json "$@" >"$tmp/plan.json" 2>/dev/null
	want=$("$JQ" -r '.parallelism | "tp=\(.tp) pp=\(.pp) vpp=\(.vpp) cp=\(.cp) ep=\(.ep) etp=\(.etp)"' "$tmp/plan.json")
	min=$("$JQ" -r '.min_gpus' "$tmp/plan.json")
	gpn=$("$JQ" -r '.gpus_per_node' "$tmp/plan.json")
	sp=$("$JQ" -r '.parallelism.sp' "$tmp/plan.json")
	got=$(sed -n 's/^echo "mbsbatch: layout: .* \(tp=.* etp=[0-9]*\) dp=.*/\1/p' "$script")
	nodes=$(sed -n 's/^#SBATCH --nodes=//p' "$script")
	tasks=$(sed -n 's/^#SBATCH --ntasks-per-node=//p' "$script")
	# The min GPUs, or the fewest whole nodes holding a multiple.
	fits=$(awk -v w="$((nodes * tasks))" -v m="$min" -v g="$gpn" 'BEGIN {
	    if (m <= g || m % g == 0) { print (w == m); exit }
	    for (k = 1; (m * k) % g != 0; k++) ;
	    print (w == m * k) }')
	has_sp=false
	grep -qx 'model.sequence_parallel=true\|model.transformer.sequence_parallel=true\|--sequence-parallel' "$tmp/words" && has_sp=true
	if [ -z "$got" ] || [ "$got" != "$want" ]; then
		bad "$name: layout '$got', the job's is '$want'"
	elif [ "$fits" != 1 ]; then
		bad "$name: $nodes nodes × $tasks tasks, the job's min GPUs are $min"
	elif [ "$has_sp" != "$sp" ]; then
		bad "$name: sequence parallel $has_sp, the job's is $sp"
	elif ! grep -qx 'echo "mbsbatch: smoke: iterations=3"' "$script"; then
		bad "$name: no 'mbsbatch: smoke: iterations=3' line"
	else
		ok
	fi
}

# Every example, as shipped, for every Bridge version; and its smoke
# script, for every Bridge version and both Megatron-LM revisions.
for conf_cmd in gen smoke; do
	for f in "$top_srcdir"/examples/*.json; do
		ex=$(basename "$f" .json)
		recipe=$("$JQ" -r '.recipe' "$f")
		for v in 0.5.1 0.6.0 main; do
			bridge "example $ex ($conf_cmd)" "$recipe" "$v" "$f"
		done
		[ "$conf_cmd" = gen ] || mlm "example $ex ($conf_cmd)" "$f"
	done
done

finish
