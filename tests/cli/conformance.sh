# conformance.sh: the scripts mbsbatch writes, held against what the real
# Megatron accepts, as the fact tables of data/megatron record it (read off
# each upstream revision's own code; data/megatron/README.md).
#
# For every job of tests/data/conformance/cases and every example:
# - Megatron-Bridge 0.5.1, 0.6.0 and main: the recipe and --dataset exist
#   for that version, every override path exists for the recipe's model
#   class and is not under a section the recipe leaves None, and every
#   value has its field's type (conformance-bridge.awk); a recipe the
#   version lacks is refused before anything is written;
# - Megatron-LM core_v0.19.0 and main: every flag exists, is not
#   deprecated, and has a valid value (conformance-mlm.awk); and the model
#   those flags describe, counted from the flags alone, has the preset's
#   parameter count within 1% (its MTP layers apart: the published counts
#   leave them out).
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

bridge_dir() {
	case $1 in
	main) echo "$data/megatron-bridge-main-067f987d" ;;
	*) echo "$data/megatron-bridge-v$1" ;;
	esac
}

# bridge NAME RECIPE VERSION OPTIONS...: gen for VERSION and check.
bridge() {
	name=$1 recipe=$2 v=$3
	shift 3
	dir=$(bridge_dir "$v")
	run gen --bridge-version "$v" --recipe "$recipe" --dataset mock \
	    "$@" -o "$tmp/b.sbatch" --force
	if ! awk -F'\t' -v r="$recipe" '$1 == r { found = 1 } END { exit !found }' \
	    "$dir/recipes.tsv"; then
		expect_status "$name on Bridge $v: no such recipe" 2
		expect_err_prefix "$name on Bridge $v: no such recipe" \
		    "mbsbatch: recipe '$recipe': not a recipe of Megatron-Bridge $v"
		return
	fi
	expect_status "$name on Bridge $v: gen" 0
	[ "$status" -eq 0 ] || return
	words "$tmp/b.sbatch" >"$tmp/words"
	if awk -f "$here/conformance-bridge.awk" "$dir/recipes.tsv" \
	    "$dir/config-fields.tsv" "$dir/run_recipe.tsv" "$tmp/words" \
	    >"$tmp/check" 2>&1; then
		ok
	else
		bad "$name on Bridge $v: $(cat "$tmp/check")"
	fi
}

# mlm NAME OPTIONS...: gen with the megatron-lm template and check
# against both revisions; the count against the preset's.
mlm() {
	name=$1
	shift
	run gen --template megatron-lm --dataset mock --train-iters 10 \
	    --lr 1e-4 "$@" -o "$tmp/m.sbatch" --force
	expect_status "$name on Megatron-LM: gen" 0
	[ "$status" -eq 0 ] || return
	words "$tmp/m.sbatch" >"$tmp/words"
	want=$("$MBSBATCH" plan --json "$@" 2>/dev/null | "$JQ" -r '.model.params')
	for rev in core_v0.19.0 main-d98e8a64; do
		if awk -f "$here/conformance-mlm.awk" \
		    "$data/megatron-lm-$rev/flags.tsv" "$tmp/words" \
		    >"$tmp/check" 2>&1; then
			ok
		else
			bad "$name on Megatron-LM $rev: $(grep -v '^params\|^mtp' "$tmp/check")"
		fi
	done
	got=$(sed -n 's/^params //p' "$tmp/check")
	mtp=$(sed -n 's/^mtp //p' "$tmp/check")
	if awk -v got="$got" -v want="$want" 'BEGIN {
	    d = (got - want) / want; exit !(d < 0.01 && d > -0.01) }'; then
		ok
	else
		bad "$name: Megatron-LM builds $got parameters (and $mtp in MTP layers), the preset has $want"
	fi
}

grep -v '^#' "$cases" >"$tmp/cases"
while IFS='	' read -r name recipe opts; do
	[ -n "$name" ] || continue
	eval "set -- $opts"
	for v in 0.5.1 0.6.0 main; do
		bridge "$name" "$recipe" "$v" "$@"
	done
	mlm "$name" "$@"
done <"$tmp/cases"

# Every example, as shipped, for every Bridge version.
for f in "$top_srcdir"/examples/*.json; do
	ex=$(basename "$f" .json)
	recipe=$("$JQ" -r '.recipe' "$f")
	for v in 0.5.1 0.6.0 main; do
		bridge "example $ex" "$recipe" "$v" "$f"
	done
done

finish
