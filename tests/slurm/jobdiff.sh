# jobdiff.sh (Slurm): randomized job descriptions, each through sbatch
# itself and through every back end, compared as parity.sh compares one
# script: the environment slurmctld stored for the job and the fields of
# `scontrol show job` (lib.sh: job_stored, job_show), and for a few the
# environment of the batch step.  Seeded: MBS_TEST_SEED (else one from the
# clock), printed at the start and with every failure; MBS_JOBDIFF_CASES
# scripts (32) for each of MBS_JOBDIFF_SEEDS seeds (2: the seed, seed+1).
#
# A script is a random set of #SBATCH (and #SLURM) lines: nodes, tasks,
# CPUs, GPUs (--gpus-per-node, --gres, typed or not, --gpus-per-task), memory, time,
# mail, signal, requeue, dependency, array, export, comment, chdir, hold,
# the options of slurmopt-carried.h (licenses, nice, prefer, ...),
# names and paths, in long and short forms, "=VALUE" and " VALUE", quoted
# or not, separated by odd white space and control characters, and
# SBATCH_* variables in the environment (sbatch reads them).  Now and
# then one that sbatch refuses, or that sbatch reads in a way mbsbatch
# does not follow (an abbreviation, #PBS lines): sbatch's refusal must be
# every back end's (one "mbsbatch:" line, an exit status below 128), and a
# back end may refuse only what submit(1) says it refuses ($deliberate).
# Jobs are submitted held (nothing runs) but for the "run" scripts (a few
# a seed), released one at a time so that each lands on the same node.
# Before the random ones, not random: every control character (and the
# bytes the lexer treats apart) between two words of a line.
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/slurm/lib.sh"

seed=${MBS_TEST_SEED:-$(date +%s)}
case $seed in '' | *[!0-9]*) echo "FAIL: MBS_TEST_SEED=$seed is not a number"; exit 1 ;; esac
echo "jobdiff: seed $seed (replay: MBS_TEST_SEED=$seed)"
ncases=${MBS_JOBDIFF_CASES:-32}
nseeds=${MBS_JOBDIFF_SEEDS:-2}

# Refusals of a back end that submit(1) documents: what it cannot send,
# or what this release's slurmrestd cannot be told.
deliberate='not an option mbsbatch can send|only gpu:COUNT can be sent|which mbsbatch cannot send|cannot be sent|an abbreviated option|cannot be told|a backslash before a space outside quotes|sbatch translates the options of|the value is empty|not valid UTF-8|is refused by this slurmrestd|not in slurmrestd.s v0\.0\.3[67] API|frees it twice'

work="$tmp/work"
mkdir -p "$work/sub"
cd "$work" || exit 1
rel=${MBS_SLURM_RELEASE:-22.05}
vias=$(test_vias)
echo "jobdiff: Slurm $rel, back ends:" $vias

# The environment every submission runs in (and every job gets): the
# same for sbatch and mbsbatch, plus the case's SBATCH_* variables.
# One a line: a value may hold a space.
base_env="PATH=$PATH
HOME=$HOME
XDG_CONFIG_HOME=$XDG_CONFIG_HOME
XDG_STATE_HOME=$tmp/state
SLURM_CONF=$SLURM_CONF
LC_ALL=C.UTF-8
LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}
MBSBATCH_TEMPLATE_PATH=$MBSBATCH_TEMPLATE_PATH${MBSBATCH_CONFIG:+
MBSBATCH_CONFIG=$MBSBATCH_CONFIG}"

# A held job the dependencies name.
anchor=$(sbatch --parsable -H -J anchor --wrap true)
case $anchor in '' | *[!0-9]*) echo "FAIL: sbatch: $anchor"; exit 1 ;; esac

# gen SEED N: N cases under case-SEED-K/: script.sh, env (NAME=value
# lines) and kind ("held" or "run").
gen() {
	awk -v seed="$1" -v n="$2" -v anchor="$anchor" -v work="$work" '
	function r(k) { return int(rand() * k) }
	function pick(s,   a, k) { k = split(s, a, "|"); return a[r(k) + 1] }
	# White space between words: mostly a space, else what sbatch also
	# takes as one (isspace: \t \v \f \r), a CR inside the line too.
	function sp() { return r(4) ? " " : pick(" \t|\t|  |\v|\f|\r| \r ") }
	# A value as written: bare, or in quotes, always when it holds a
	# space or a quote.
	function q(v) {
		if (v ~ /[ "'"'"']/) { gsub(/"/, "\\\"", v); return "\"" v "\"" }
		return r(6) ? v : r(2) ? "\"" v "\"" : "'"'"'" v "'"'"'"
	}
	# One option: long --x=V, long --x V, short -xV, short -x V.
	function opt(long, short, v,   f) {
		f = r(short == "" ? 2 : 4)
		if (v == "") return "--" long
		if (f == 0) return "--" long "=" q(v)
		if (f == 1) return "--" long sp() q(v)
		if (f == 2) return "-" short q(v)
		return "-" short sp() q(v)
	}
	function flag(long, short) { return short != "" && r(2) ? "-" short : "--" long }
	function add(o) { opts[++no] = o }
	function held_case(   k) {
		if (r(3)) add(opt("nodes", "N", pick("1|2|1-2|2-2|1-3")))
		if (r(3) == 0) add(opt("ntasks", "n", pick("1|2|3|8")))
		if (r(3) == 0) add(opt("ntasks-per-node", "", pick("1|2|4")))
		if (r(4) == 0) add(opt("cpus-per-task", "c", pick("1|2|3")))
		k = r(6)
		if (k == 0) add(opt("gpus-per-node", "", pick("1|2|8|tesla:2")))
		if (k == 1) add(opt("gres", "", pick("gpu:1|gpu:2|gres/gpu:1|gres:gpu:2|gpu:tesla:1")))
		if (k == 2) { add(opt("gpus-per-task", "", "1")); add(opt("ntasks", "n", "2")) }
		if (k == 3) { add(opt("gres", "", pick("gpu:1|gpu:tesla:1"))); add(opt("gpus-per-node", "", pick("2|tesla:2"))) }
		if (k == 4 && r(2)) add(opt("gpus-per-task", "", "1"))
		if (r(4) == 0) add(opt("mem", "", pick("100|1G|500M|0|2g|512k|1024K|1.5G|3T")))
		if (r(2)) add(opt("time", "t", pick("5|10:00|1-0|0-1:00:00|UNLIMITED|90|1:30|2-3|0|00:00:30|infinite|unlimited|1-0:0")))
		if (r(8) == 0) add(opt("time", "t", "7"))
		if (r(4) == 0) add(opt("mail-type", "", pick("ALL|END,FAIL|BEGIN|NONE|TIME_LIMIT_90,INVALID_DEPEND|ARRAY_TASKS,END|begin,bogus")))
		if (r(6) == 0) add(opt("mail-type", "", pick("END|NONE|FAIL")))
		if (r(5) == 0) add(opt("mail-user", "", "someone@example.org"))
		if (r(5) == 0) add(opt("signal", "", pick("USR1@60|B:TERM@30|10|SIGUSR2@90|USR2|usr1@5|B:sigterm|12@0|USR1@65535")))
		if (r(10) == 0) add(opt("signal", "", pick("TERM|B:USR2@7")))
		if (r(5) == 0) add(flag(pick("requeue|no-requeue"), ""))
		if (r(5) == 0) add(opt("dependency", "d", pick("afterok:" anchor "|afterany:" anchor "|singleton|afterok:" anchor "?afterany:" anchor "|afternotok:" anchor "," "afterany:" anchor "|after:" anchor "+5")))
		if (r(6) == 0) add(opt("array", "a", pick("0-3|1,3,5|0-7%2|0-15:4|1-3%1")))
		if (r(5) == 0) add(opt("export", "", pick("ALL|NONE|NONE,MBS_A=1|MBS_B|ALL,MBS_B=2")))
		if (r(5) == 0) add(opt("comment", "", pick("a note|x|said \"so\"|it'"'"'s")))
		if (r(6) == 0) add(opt("chdir", "D", pick("sub|" work "/sub")))
		if (r(3) == 0) add(flag("hold", "H"))
		if (r(2)) add(opt("job-name", "J", pick("jd|two words|x-y|a\001b|p%x|-dash")))
		if (r(10) == 0) add(opt("job-name", "J", "again"))
		if (r(3) == 0) add(opt("output", "o", pick("out-%j.txt|sub/o-%x.txt|log-%A-%a")))
		if (r(6) == 0) add(opt("error", "e", "err-%j.txt"))
		if (r(3) == 0) add(opt("partition", "p", "local"))
		if (r(10) == 0) add(opt("partition", "p", pick("gpu|local")))
		if (r(6) == 0) add(r(3) ? flag("exclusive", "") : "--exclusive=exclusive")
		if (r(8) == 0) add(opt("open-mode", "", pick("append|truncate|a")))
		# What --slurm-opt sets that every back end carries
		# (slurmopt-carried.h); no node has a feature here, so a
		# feature is refused by slurmctld for every back end alike.
		if (r(6) == 0) add(opt("licenses", "L", pick("mbslic:1|mbslic|mbslic:3")))
		if (r(8) == 0) add(opt("wckey", "", pick("wk|w-k")))
		if (r(6) == 0) add(r(3) ? opt("nice", "", pick("5|0|+3|100")) : flag("nice", ""))
		if (r(10) == 0) add(opt(pick("prefer|batch|cluster-constraint"), "", pick("east|x&y")))
		if (r(10) == 0) add(opt("mcs-label", "", "lab"))
		if (r(10) == 0) add(opt("acctg-freq", "", pick("30|task=30|energy=0,task=5|Task=1")))
		if (r(10) == 0) add(opt("container", "", "/tmp/mbs-bundle"))
	}
	function run_case() {
		add(opt("nodes", "N", pick("1|1-1")))
		if (r(2)) add(opt("ntasks-per-node", "", pick("1|2|4")))
		else if (r(2)) add(opt("ntasks", "n", pick("1|2|3")))
		if (r(3) == 0) add(opt("cpus-per-task", "c", pick("1|2")))
		if (r(2)) add(opt("gpus-per-node", "", pick("1|2|tesla:1")))
		else if (r(2)) add(opt("gres", "", pick("gpu:1|gpu:2|gpu:tesla:2")))
		if (r(3) == 0) add(opt("time", "t", pick("5|10:00")))
		if (r(3) == 0) add(opt("export", "", pick("ALL|ALL,MBS_B=2")))
		if (r(3) == 0) add(opt("job-name", "J", pick("run|two words")))
		if (r(3) == 0) add(opt("comment", "", "ran"))
		add(opt("output", "o", "out-%j.txt"))
	}
	# Now and then what sbatch refuses, or reads otherwise than mbsbatch
	# follows (refused there).
	function odd() {
		return pick("--part=local|-N=1|-J a\\ b|-J x \"\" -N 2|-J my hetjob -N 2|:x|--job-name=\"open|--|--gpus=1|--nodes=0|--comment=caf\351|--mem=1T|-t 1:xx|--signal=R:USR1|--export=NIL")
	}
	BEGIN {
		srand(seed)
		for (c = 1; c <= n; c++) {
			no = 0
			kind = c <= 2 ? "run" : "held"
			if (kind == "run") run_case(); else held_case()
			if (kind == "held" && r(8) == 0) add(odd())
			dir = "case-" seed "-" c
			system("mkdir -p " dir)
			f = dir "/script.sh"
			printf "#!/bin/sh\n" > f
			if (r(4) == 0) printf "# a comment\n\n" > f
			# Shuffle, then 1 to 3 options a line.
			for (i = no; i > 1; i--) { j = r(i) + 1; t = opts[i]; opts[i] = opts[j]; opts[j] = t }
			for (i = 1; i <= no; ) {
				magic = r(12) ? "#SBATCH" : "#SLURM"
				line = magic sp() opts[i++]
				for (k = r(3); k > 0 && i <= no; k--)
					line = line sp() opts[i++]
				if (r(8) == 0) line = line sp() "# trailing"
				printf "%s\n", line > f
				if (r(10) == 0) printf "%s\n", pick("#|# x|\t|\r \f") > f
			}
			if (kind == "held" && r(20) == 0)
				printf "#PBS -N fromPBS\n" > f
			if (kind == "run")
				printf "env | sort >\"batch-$SLURM_JOB_ID.env\"\n" > f
			else
				printf "true\n" > f
			close(f)
			f = dir "/env"
			printf "" > f
			k = r(3) == 0 ? r(3) + 1 : 0
			for (; k > 0; k--)
				printf "%s\n", kind == "run" ? pick("SBATCH_TIMELIMIT=7|SBATCH_JOB_NAME=envname|SBATCH_EXPORT=ALL,MBS_C=3|SBATCH_GRES=gpu:1") : pick("SBATCH_PARTITION=local|SBATCH_TIMELIMIT=7|SBATCH_JOB_NAME=envname|SBATCH_EXPORT=NONE,MBS_C=3|SBATCH_NO_REQUEUE=1|SBATCH_REQUEUE=|SBATCH_SIGNAL=USR1@50|SBATCH_GRES=gpu:1|SBATCH_GPUS_PER_NODE=2|SBATCH_MEM_PER_NODE=1G|SBATCH_EXCLUSIVE=|SBATCH_OPEN_MODE=a|SBATCH_ARRAY_INX=0-1|SBATCH_OUTPUT=envout-%j.txt|SBATCH_IGNORE_PBS=1|SBATCH_GPUS=1|SBATCH_WAIT=0|SBATCH_TIMELIMIT=infinite|SBATCH_JOB_NAME=env name|SBATCH_SIGNAL=B:USR2@10|SBATCH_EXPORT=ALL") > f
			close(f)
			print kind > (dir "/kind")
			close(dir "/kind")
		}
	}'
}

# in_env CASE CMD...: CMD in the case's environment, from $work.
in_env() {
	d=$1
	shift
	# The case's variables, each one word (values hold no newline).
	(
		set -f
		IFS='
'
		# shellcheck disable=SC2046
		exec env -i $base_env $(cat "$d/env") "$@"
	)
}

# submit CASE VIA: submit the case's script through VIA ("ref": sbatch
# itself); the job id in $d/VIA.id, or its refusal in $d/VIA.err.
submit() {
	d=$1 via=$2
	case $via in
	ref) in_env "$d" sbatch --parsable -H "$d/script.sh" >"$d/ref.out" 2>"$d/ref.err" ;;
	rest) in_env "$d" "$MBSBATCH" submit --script "$d/script.sh" --hold --parsable \
	    --via rest --rest-url "$MBS_REST_URL" --token-file "$MBS_JWT_FILE" >"$d/rest.out" 2>"$d/rest.err" ;;
	*) in_env "$d" "$MBSBATCH" submit --script "$d/script.sh" --hold --parsable \
	    --via "$via" >"$d/$via.out" 2>"$d/$via.err" ;;
	esac
	echo $? >"$d/$via.status"
	# sbatch --parsable: "ID" or "ID;cluster"; mbsbatch: the id.
	sed -n '$s/;.*//;$p' "$d/$via.out" >"$d/$via.id"
}

# differ CASE WHAT: a failure, with the seed and the case's script.
differ() {
	fail=$((fail + 1))
	echo "FAIL: seed $seed, $1: $2"
	echo "  script ($1/script.sh):"
	sed -n l "$1/script.sh" | sed 's/^/    /'
	[ -s "$1/env" ] && { echo "  environment:"; sed 's/^/    /' "$1/env"; }
	:
}

compared=0 refused_all=0 refused_some=0
# compare CASE VIA: VIA's job (or refusal) against sbatch's.
compare() {
	d=$1 via=$2
	st=$(cat "$d/$via.status")
	if [ "$st" -ge 128 ]; then differ "$d" "$via: killed by a signal ($st)"; return; fi
	if [ ! -s "$d/ref.id" ]; then
		# sbatch refused it: so must every back end, in one line.
		if [ -s "$d/$via.id" ] && [ "$st" -eq 0 ]; then
			differ "$d" "$via queued job $(cat "$d/$via.id"); sbatch refused it: $(tail -n 1 "$d/ref.err")"
			scancel "$(cat "$d/$via.id")" 2>/dev/null
		elif ! head -n 1 "$d/$via.err" | grep -q '^mbsbatch: '; then
			differ "$d" "$via: its refusal is not one mbsbatch line: $(head -n 3 "$d/$via.err") (sbatch: $(tail -n 1 "$d/ref.err"))"
		else
			ok
		fi
		return
	fi
	if [ "$st" -ne 0 ] || [ ! -s "$d/$via.id" ]; then
		# The refusal, without the warnings before it (an SBATCH_*
		# variable overriding a line names that line's value).  Typed
		# GPUs (tesla, the cluster's type) every back end sends.
		grep -v '^mbsbatch: [^:]*: warning: ' "$d/$via.err" >"$d/$via.why"
		if grep -Eq "$deliberate" "$d/$via.why" && [ "$via" != sbatch ] &&
		    ! grep -q tesla "$d/$via.why"; then
			refused_some=$((refused_some + 1))
			ok
		else
			differ "$d" "$via refused what sbatch took: $(head -n 2 "$d/$via.why")"
		fi
		return
	fi
	id=$(cat "$d/$via.id")
	job_stored "$id" >"$d/$via.sent"
	if ! diff "$d/ref.sent" "$d/$via.sent" >"$d/$via.sent.diff"; then
		differ "$d" "$via: the environment sent differs from sbatch's:"
		sed 's/^/    /' "$d/$via.sent.diff"
	else
		ok
	fi
	job_show "$id" "$work" >"$d/$via.show"
	if ! job_documented "$via" <"$d/ref.show" | diff - "$d/$via.show" >"$d/$via.show.diff"; then
		differ "$d" "$via: scontrol show job differs from sbatch's:"
		sed 's/^/    /' "$d/$via.show.diff"
	else
		ok
	fi
	compared=$((compared + 1))
}

# ran CASE: release the case's jobs one at a time, then compare the
# batch step's environment of each with that of sbatch's job.
ran() {
	d=$1
	for via in ref $vias; do
		[ -s "$d/$via.id" ] || continue
		id=$(cat "$d/$via.id")
		scontrol release "$id"
		end=$(wait_done "$id" 60)
		if [ "$end" != COMPLETED ]; then
			differ "$d" "$via: job $id: $end"
			continue
		fi
		env_clean "batch-$id.env" root >"$d/$via.batch"
		[ "$via" = ref ] && continue
		if [ -s "$d/ref.batch" ] && ! diff "$d/ref.batch" "$d/$via.batch" >"$d/$via.batch.diff"; then
			differ "$d" "$via: the batch step's environment differs:"
			sed 's/^/    /' "$d/$via.batch.diff"
		else
			ok
		fi
	done
}

# bytes: not random: every control character, and the bytes sbatch's
# lexer treats apart (quotes, backslash, '#', space, a byte >= 0x80),
# between two words of a line, "-J a?--time=5" (get_argument(): white
# space separates, the rest is part of the word), through sbatch and
# the first other back end (the lexer is the same code for all).
gen_bytes() {
	for b in 1 2 3 4 5 6 7 8 9 11 12 13 14 15 16 17 18 19 20 21 22 23 24 \
	    25 26 27 28 29 30 31 32 34 35 39 92 127 128 160 255; do
		mkdir -p "bytes-$b"
		# The byte as an octal escape of printf's format.
		printf "#!/bin/sh\\n#SBATCH -J a\\$(printf %o "$b")--time=5 -p local\\n#SBATCH -H\\ntrue\\n" \
		    >"bytes-$b/script.sh"
		: >"bytes-$b/env"
		echo held >"bytes-$b/kind"
	done
}

# one CASE VIA...: the case through sbatch, then through each VIA.
one() {
	d=$1
	shift
	submit "$d" ref
	if [ -s "$d/ref.id" ]; then
		job_stored "$(cat "$d/ref.id")" >"$d/ref.sent"
		job_show "$(cat "$d/ref.id")" "$work" >"$d/ref.show"
	else
		refused_all=$((refused_all + 1))
	fi
	for jd_via in "$@"; do
		submit "$d" "$jd_via"
		compare "$d" "$jd_via"
	done
	[ "$(cat "$d/kind")" = run ] && [ -s "$d/ref.id" ] && ran "$d"
	:
}

# (Names of their own: lib.sh's wait_done sets i and s.)
start=$(date +%s)
gen_bytes
for d in bytes-*; do
	one "$d" $(echo $vias | cut -d' ' -f1)
done
echo "jobdiff: every byte between two words of a line, in $(($(date +%s) - start)) s"
jd_k=0
while [ "$jd_k" -lt "$nseeds" ]; do
	jd_seed=$((seed + jd_k))
	gen "$jd_seed" "$ncases"
	jd_c=1
	while [ "$jd_c" -le "$ncases" ]; do
		# shellcheck disable=SC2086
		one "case-$jd_seed-$jd_c" $vias
		jd_c=$((jd_c + 1))
	done
	jd_k=$((jd_k + 1))
done
echo "jobdiff: $((nseeds * ncases)) scripts and $(ls -d bytes-* | wc -l) bytes in $(($(date +%s) - start)) s: $compared jobs compared, $refused_all refused by sbatch, $refused_some refusals documented in submit(1)"
[ "$fail" -eq 0 ] || echo "jobdiff: seed $seed failed (replay: MBS_TEST_SEED=$seed)"
finish
