# docs.sh: what a user can name is documented.
#
# (a) Every key of the template context is in mbsbatch-template(5), THE
# CONTEXT.  The keys come from the context itself: tests/cli/context
# prints the object script_context() makes for a gen command line, for
# jobs that between them fill every optional object (cluster, recipe,
# pipeline split, memory, findings, container, requeue; the three
# templates).  A key counts as documented when its name (the last part
# of its path: "image" for launch.container.image) is a word of a macro
# line of that section.  The children of env and env_origin are variable
# names, not keys, and are left out.
#
# (b) Every finding code the sizing core and the training rules can
# report, the tables sizing_codes[] (src/core/sizing.c) and rules_codes[]
# (src/core/rules.c), has its entry in mbsbatch-plan(1), FINDINGS:
# ".It Li CODE Pq error" or "Pq warning".  And each code the sources
# pass to sizing_add_finding() or sizing_add_skipped() (on the line of
# the call) is in one of the tables, so that a new code cannot miss both.
. "${top_srcdir:-.}/tests/cli/lib.sh"
: "${JQ:=jq}"
[ -n "$JQ" ] || JQ=jq
need "$JQ" "to list the keys of the template context"
: "${top_builddir:=.}"
context="$top_builddir/tests/cli/context"

# missing TEXT: one failure, without the last command's output.
missing() {
	fail=$((fail + 1))
	echo "FAIL: $*"
}

# section PAGE NAME: the mdoc source of section NAME (.Sh NAME) of PAGE.
section() {
	awk -v name="$2" '/^\.Sh / { in_sec = ($0 == ".Sh " name) } in_sec' "$1"
}

# words: each argument of each macro line, bare of punctuation.
words() {
	awk '/^\./ { for (i = 2; i <= NF; i++) {
		w = $i; gsub(/^[(,.;:"]+|[),.;:"]+$/, "", w)
		if (w != "") print w } }' | sort -u
}

# --- (a) the template context ---

if [ ! -x "$context" ]; then
	missing "$context is not built (make check builds it)"
	finish
	exit
fi
mkdir -p "$XDG_CONFIG_HOME/mbsbatch"
cat >"$XDG_CONFIG_HOME/mbsbatch/config.json" <<'EOF'
{ "clusters": { "lab": { "gpu_type": "h100", "partition": "batch" } } }
EOF

n=0
# ctx ARGS...: the context of "gen ARGS" into $tmp/ctx.N.
ctx() {
	n=$((n + 1))
	if "$context" "$@" >"$tmp/ctx.$n" 2>"$tmp/err"; then
		ok
	else
		missing "context $*: status $?: $(cat "$tmp/err")"
	fi
}
ctx --recipe llama3_8b_pretrain_config --tp 2 --sp --dataset mock
ctx --cluster lab --recipe deepseek_v3_pretrain_config --model deepseek-v3 \
    --tp 2 --pp 8 --ep 64 --sp --seq-length 4096 \
    --num-layers-in-first-pipeline-stage 5 \
    --num-layers-in-last-pipeline-stage 8 \
    --container-image img --container-mounts /a:/b --container-workdir /w \
    --requeue --checkpoint-dir ckpt --time 60
ctx --template megatron-lm --model llama3-8b --seq-length 4096 --tp 4 \
    --launcher torchrun
ctx --template command --command true --gpus 4 --env NCCL_DEBUG=INFO \
    --setup 'module load cuda' --srun-opt --mpi=pmix

# Every path, array indices dropped: launch.container.image, slurm.option.
for f in "$tmp"/ctx.*; do
	"$JQ" -r 'paths | map(select(type == "string")) | join(".")' "$f"
done | grep -v '^env\.' | grep -v '^env_origin\.' | sort -u >"$tmp/keys"

# The jobs do reach inside every optional object.
for key in cluster pipeline_split.first memory.total_gib model.name \
    bridge.replaced.key bridge.cleared findings.code skipped.code \
    slurm.option exports.name header.figures launch.container.image \
    launch.requeue.signal launch.args launch.overrides launch.setup \
    launch.has_setup launch.srun_options; do
	if grep -qxF "$key" "$tmp/keys"; then ok; else
		missing "no job's context has $key: the test sees less than it should"
	fi
done
# The cluster profile, the recipe and the container did take.
if "$JQ" -e '.cluster == "lab" and .bridge.recipe != null and
    .launch.container.image == "img" and .launch.requeue.signal == "TERM"' \
    "$tmp/ctx.2" >/dev/null; then ok; else
	missing "the second job's context lacks its cluster, recipe, container or requeue"
fi

# The helper shows what gen renders: a few values through a template.
printf '%s\n' '#!/bin/sh' '{{template}} {{job_name}} {{world_size}}' \
    '{{launch.launcher}} {{launch.container.image}}' \
    '{{launch.requeue.signal}} {{cluster}}' \
    '{{comm_overlap.overlap_grad_reduce}} {{memory.total_gib}}' \
    >"$tmp/probe.sbatch"
set -- --cluster lab --template "$tmp/probe.sbatch" --model llama3-8b \
    --tp 2 --sp --seq-length 4096 --gpus 16 --container-image img \
    --requeue --checkpoint-dir ckpt --recipe llama3_8b_pretrain_config
run gen -q "$@"
if "$context" "$@" >"$tmp/probe.json" 2>"$tmp/err"; then
	want=$("$JQ" -r '"#!/bin/sh",
	    "\(.template) \(.job_name) \(.world_size)",
	    "\(.launch.launcher) \(.launch.container.image)",
	    "\(.launch.requeue.signal) \(.cluster)",
	    "\(.comm_overlap.overlap_grad_reduce) \(.memory.total_gib)"' \
	    "$tmp/probe.json")
	if [ "$status" -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ]; then
		ok
	else
		bad "gen renders other values than the context shows: want
$want"
	fi
else
	missing "context $*: $(cat "$tmp/err")"
fi

page="$top_srcdir/man/mbsbatch-template.5"
section "$page" "THE CONTEXT" | words >"$tmp/documented"
[ -s "$tmp/documented" ] || missing "no section THE CONTEXT in $page"
while read -r key; do
	if grep -qxF "${key##*.}" "$tmp/documented"; then ok; else
		missing "context key $key is not documented in mbsbatch-template.5 (THE CONTEXT)"
	fi
done <"$tmp/keys"

# --- (b) the finding codes ---

# table FILE NAME: the strings of "const char *const NAME[] = { ... };".
table() {
	sed -n "/^const char \*const $2\[\] = {/,/^};/p" "$1" |
	    sed -n 's/^[[:space:]]*"\([a-z0-9-]*\)",$/\1/p'
}
table "$top_srcdir/src/core/sizing.c" sizing_codes >"$tmp/codes"
n=$(wc -l <"$tmp/codes")
[ "$n" -ge 10 ] || missing "sizing_codes[] in src/core/sizing.c: $n codes read"
table "$top_srcdir/src/core/rules.c" rules_codes >"$tmp/rules"
n=$(wc -l <"$tmp/rules")
[ "$n" -ge 5 ] || missing "rules_codes[] in src/core/rules.c: $n codes read"
cat "$tmp/rules" >>"$tmp/codes"

# The codes the sources report, each in a table.
grep -ho 'sizing_add_\(finding\|skipped\)([^,]*, *"[a-z0-9-]*"' \
    "$top_srcdir"/src/*.c "$top_srcdir"/src/core/*.c | sed 's/.*"\(.*\)"$/\1/' | sort -u >"$tmp/used"
[ -s "$tmp/used" ] || missing "no sizing_add_finding() call found in src/"
while read -r code; do
	if grep -qxF "$code" "$tmp/codes"; then ok; else
		missing "finding code $code is reported but not in sizing_codes[] or rules_codes[]"
	fi
done <"$tmp/used"

page="$top_srcdir/man/mbsbatch-plan.1"
section "$page" "FINDINGS" >"$tmp/findings"
while read -r code; do
	if grep -qE "^\.It Li $code Pq (error|warning|info)\$" "$tmp/findings"; then ok; else
		missing "finding code $code has no entry in mbsbatch-plan.1 (FINDINGS)"
	fi
done <"$tmp/codes"

finish
