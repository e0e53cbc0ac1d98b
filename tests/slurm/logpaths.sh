# logpaths.sh (Slurm): where a job's output and error go, against the
# files Slurm really writes.  Randomized and seeded (MBS_TEST_SEED, else
# one picked and printed; printed again with every failure): --output
# and --error patterns made of every letter slurmstepd of this release
# expands (%% %A %a %J %j %N %n %s %t %u %x; %b from 24.11; %r %S in
# 25.11), letters it does not (kept as written, by each release's rules),
# widths (%5j, %05a, %12j), backslashes (nothing expanded), job names with
# '%', '\', a space, non-ASCII letters or a '/' (a directory submit
# makes), arrays (%A_%a), relative and absolute paths, and --chdir.
# Each job is queued through each back end, one batch, and run; then the
# files in its directory are compared with the path submit printed
# (--json, when it says it is complete), with logs --json (output and
# error) while the job runs and after slurmctld forgot it (MinJobAge=10,
# accounting), with and without mbsbatch's record of the submission
# (XDG_STATE_HOME), and with the record itself.  Before 25.11
# %N is slurmd's host name: the nodes' NodeHostname is set to this
# host's name, as a site running several slurmd on one host does (and
# 25.11, which writes the node's name, must not use it).  Without the
# record, what 22.05's accounting cannot say is said as not known.
# The 24.11 and 25.05 builds have no accounting: there the jobs are
# checked while they run only.
case ${MBS_SLURM_RELEASE:-22.05} in
24.11|25.05) MBS_SLURM_ACCOUNTING=no ;;
*) MBS_SLURM_ACCOUNTING=yes ;;
esac
MBS_SLURM_MIN_JOB_AGE=10
export MBS_SLURM_ACCOUNTING MBS_SLURM_MIN_JOB_AGE
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/slurm/lib.sh"
: "${JQ:=jq}"
[ -n "$JQ" ] || JQ=jq
need "$JQ" "to read --json"

seed=${MBS_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "seed: $seed (MBS_TEST_SEED=$seed replays this run)"
release=${MBS_SLURM_RELEASE:-22.05}
# Jobs a back end (arrays count once); 64 tasks in all at most, the
# cluster's CPUs, as they all run at once.
per_via=${MBS_LOGPATHS_JOBS:-8}

# Failures say the seed and the case.
fail_case() {
	bad "seed $seed, case $tag (via $via, name '$name', --output '$out', --error '$err', array $arr, chdir $cd): $*"
}

host=$(hostname -s)
scontrol update NodeName='mbsnode[0-3]' \
    NodeHostname="$host,$host,$host,$host" || {
	echo "FAIL: scontrol update NodeHostname"
	exit 1
}

work="$tmp/work"
go="$tmp/go"
mkdir -p "$work"
export XDG_STATE_HOME="$tmp/state"
norecord="$tmp/no-record"

# enc VALUE: VALUE as sbatch's #SBATCH lexer reads it back (opt.c
# get_argument(): in double quotes, where a space does not end it nor a
# '#' start a comment, a backslash escaping '"' and itself).
enc() {
	printf '"%s"' "$(printf '%s' "$1" | sed 's/[\\"]/\\&/g')"
}

# The cases, one a line: tag via name out err arr chdir (tab-separated;
# err "-" for none).  Every choice from awk's rand(), seeded.
gen_cases() {
	awk -v seed="$seed" -v vias="$1" -v n="$per_via" -v rel="$release" -v dir="$work" '
	function pick(s,   a, k) { k = split(s, a, " "); return a[int(rand() * k) + 1] }
	function chance(p) { return rand() < p }
	function token(   l, w) {
		if (chance(0.3))
			return pick("o - _ . x~y ü %% %%j")
		l = pick(letters)
		w = chance(0.35) ? pick("1 5 05 10 12") : ""
		if (chance(0.04))
			return "%" pick("5 12") "%"
		return "%" w l
	}
	function pattern(kind,   p, i, k) {
		p = kind "-"
		k = 1 + int(rand() * 4)
		for (i = 0; i < k; i++)
			p = p token()
		if (chance(0.12))	# a backslash: nothing expanded
			p = p "\\" pick("q \\\\ %j")
		p = p "." kind
		if (chance(0.3))
			p = dir "/" tag "/abs/" p
		else if (chance(0.2))
			p = "sub/" p
		return p
	}
	BEGIN {
		srand(seed)
		letters = "A a J j N n s t u x z"
		if (rel + 0 >= 24.11)
			letters = letters " b"
		else
			letters = letters " b r S"
		if (rel + 0 >= 25.11)
			letters = letters " r S"
		nv = split(vias, v, " ")
		c = 0
		for (i = 1; i <= nv; i++)
			for (j = 0; j < n; j++) {
				tag = "c" c++
				name = pick("lp a%jb b\\s sp_ace ünï g/sub x%%y lp")
				gsub(/_/, " ", name)
				out = pattern("o")
				err = chance(0.6) ? pattern("e") : "-"
				arr = chance(0.25) ? 1 : 0
				cd = chance(0.3) ? 1 : 0
				# Every task runs at once: the 4 nodes have 64 CPUs.
				if (tasks + 1 + arr > 64)
					continue
				tasks += 1 + arr
				printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", tag, v[i], name, out, err, arr, cd
			}
	}'
}

vias=$(test_vias | tr '\n' ' ')
[ -n "$vias" ] || skip "no back end to try on Slurm $release"
status=0
: >"$tmp/out"
: >"$tmp/err"
gen_cases "$vias" >"$tmp/cases"
echo "$(wc -l <"$tmp/cases") cases through $vias on Slurm $release"

# Queue each case: in its own directory, the script's #SBATCH lines
# written for sbatch's lexer.
ids=
while IFS='	' read -r tag via name out err arr cd; do
	d="$work/$tag"
	mkdir -p "$d/cd"
	{
		# Appended: an array's tasks sharing a file both leave
		# their line (Slurm truncates it otherwise).
		printf '#!/bin/sh\n#SBATCH --partition=%s\n#SBATCH --time=2\n#SBATCH --open-mode=append\n' \
		    "$MBS_SLURM_PARTITION"
		printf '#SBATCH --job-name=%s\n' "$(enc "$name")"
		printf '#SBATCH --output=%s\n' "$(enc "$out")"
		[ "$err" = - ] || printf '#SBATCH --error=%s\n' "$(enc "$err")"
		[ "$arr" = 0 ] || printf '#SBATCH --array=0-1\n'
		[ "$cd" = 0 ] || printf '#SBATCH --chdir=%s\n' "$(enc "$d/cd")"
		printf 'echo "out-%s-${SLURM_ARRAY_TASK_ID:-x}"\n' "$tag"
		printf 'echo "err-%s-${SLURM_ARRAY_TASK_ID:-x}" >&2\n' "$tag"
		# Running until the checks while slurmctld knows it are done.
		printf 'i=0; while [ ! -e %s ] && [ $i -lt 600 ]; do sleep 0.2; i=$((i + 1)); done\n' "$go"
	} >"$d/job.sh"
	r=
	[ "$via" = rest ] && r="--rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE"
	(cd "$d" && "$MBSBATCH" submit --script job.sh --via "$via" $r --json \
	    >"$d/submit.json" 2>"$d/submit.err" </dev/null)
	if [ $? -ne 0 ]; then
		fail_case "submit failed: $(cat "$d/submit.err")"
		continue
	fi
	id=$("$JQ" -r .job_id "$d/submit.json")
	echo "$id" >"$d/id"
	ids="$ids${ids:+,}$id"
done <"$tmp/cases"
[ -n "$ids" ] || { finish; exit; }

# All of them start (a few seconds), and write their lines.
i=0
while [ $i -lt 300 ] && [ -n "$(squeue -h -r -j "$ids" -t PD,CF 2>/dev/null)" ]; do
	sleep 0.2
	i=$((i + 1))
done
n=$(grep -c . "$tmp/cases")
i=0
while [ $i -lt 100 ] && [ "$(grep -rlx -- 'err-c[0-9]*-[x0-9]' "$work" | wc -l)" -lt "$n" ]; do
	sleep 0.2
	i=$((i + 1))
done

# file TAG TASK KIND: the file holding KIND's line ("out", "err") of
# case TAG's task TASK ("x": not an array), as Slurm wrote it.
file() {
	grep -rlx -- "$3-$1-$2" "$work/$1" 2>/dev/null | grep -v '/job\.sh$'
}

# logs_json SPEC STATE_HOME: logs SPEC --json, as this case's back end.
logs_json() {
	XDG_STATE_HOME=$2 "$MBSBATCH" logs "$1" --json --via "$via" $r \
	    >"$tmp/logs.json" 2>"$tmp/logs.err" </dev/null
}

# check_logs WHEN SPEC STATE_HOME: logs' output and error for SPEC are
# the files Slurm wrote, whoever answered (counted in $tmp/sources);
# only 22.05's accounting without the record says, rightly, that it
# does not know.
check_logs() {
	if ! logs_json "$2" "$3"; then
		case $release in 22.05|23.*)
			if [ "$3" = "$norecord" ] && grep -q "where it wrote is not known: the accounting of Slurm $release keeps no output path" "$tmp/logs.err"; then
				echo "$1 slurmdbd not-known" >>"$tmp/sources"
				ok
				return
			fi ;;
		esac
		fail_case "$1: logs $2 failed: $(cat "$tmp/logs.err")"
		return
	fi
	# REST v0.0.40-42 on 24.11 and 25.05 gives only its own expansion,
	# "%%" made "%" and the rest left (api/job_info.c _fname_format()),
	# a width of two digits under 10 ("%05x") leaving its '%' in, and
	# no pattern: without the record, what "%%", a backslash, such a
	# width or a '%' in the name left cannot be told from what
	# slurmstepd is left to expand (mbsbatch-logs(1), CAVEATS).
	case $release:$via:$3 in
	24.*:rest:"$norecord"|25.05:rest:"$norecord")
		case $out$err:$name in *%%*|*\\*|*%0[0-9]*|*:*%*)
			echo "$1 $("$JQ" -r .source "$tmp/logs.json") known-limit" >>"$tmp/sources"
			ok
			return ;;
		esac ;;
	esac
	src=$("$JQ" -r .source "$tmp/logs.json")
	echo "$1 $src" >>"$tmp/sources"
	got=$("$JQ" -r .output "$tmp/logs.json")
	if [ "$got" = "$fo" ]; then ok; else
		fail_case "$1 ($src): logs $2: output '$got', Slurm wrote '$fo'"
	fi
	got=$("$JQ" -r '.error // empty' "$tmp/logs.json")
	[ -n "$got" ] || got=$fo
	if [ "$got" = "$fe" ]; then ok; else
		fail_case "$1 ($src): logs $2: error '$got', Slurm wrote '$fe'"
	fi
}

# each_case FUNCTION: FUNCTION for every task of every case queued, with
# tag via name out err arr cd r d id task spec fo fe set.
each_case() {
	while IFS='	' read -r tag via name out err arr cd; do
		d="$work/$tag"
		[ -f "$d/id" ] || continue
		id=$(cat "$d/id")
		r=
		[ "$via" = rest ] && r="--rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE"
		for task in $([ "$arr" = 1 ] && echo 0 1 || echo x); do
			spec=$id
			[ "$task" = x ] || spec=${id}_$task
			fo=$(file "$tag" "$task" out)
			fe=$(file "$tag" "$task" err)
			# A directory that depends on the job (a name with
			# '/' after %j): on 22.05 submit warned that Slurm
			# would lose the file, and it did; 23.02 on makes it
			# (slurmstepd io.c, mkdirpath()), and submit is
			# silent.
			if grep -q "depends on the job; Slurm does not make it" "$d/submit.err"; then
				case $release in
				22.*)
					if [ -z "$fo" ] || [ -z "$fe" ]; then ok; else
						fail_case "task $task: submit warned of a directory Slurm would not make, but Slurm wrote '$fo' and '$fe'"
					fi ;;
				*)
					fail_case "task $task: submit warned of a directory Slurm $release makes itself" ;;
				esac
				continue
			fi
			if [ -z "$fo" ] || [ -z "$fe" ] || [ "$(echo "$fo" | wc -l)" -ne 1 ]; then
				fail_case "task $task: Slurm's files not found (output '$fo', error '$fe')"
				continue
			fi
			"$1"
		done
	done <"$tmp/cases"
}

# While slurmctld knows the jobs: submit's path, logs with and without
# the record, and the record.
before() {
	if [ "$task" = x ] && [ "$("$JQ" -r '.logs[0].complete' "$d/submit.json")" = true ]; then
		got=$("$JQ" -r '.logs[0].output' "$d/submit.json")
		if [ "$got" = "$fo" ]; then ok; else
			fail_case "submit printed '$got', Slurm wrote '$fo'"
		fi
	fi
	check_logs before,recorded "$spec" "$XDG_STATE_HOME"
	check_logs before,not-recorded "$spec" "$norecord"
	if [ "$task" = x ]; then
		got=$("$JQ" -r --argjson id "$id" 'select(.job_id == $id) | .output.path' \
		    "$XDG_STATE_HOME/mbsbatch/submitted.jsonl" | tail -n 1)
		if [ "$got" = "$fo" ]; then ok; else
			fail_case "the record has '$got', Slurm wrote '$fo'"
		fi
	fi
}
each_case before

# They end; slurmctld forgets them 10 to 20 s after.
touch "$go"
if [ "$MBS_SLURM_ACCOUNTING" != yes ]; then
	echo "note: no accounting on Slurm $release: nothing to check after the purge"
	sort "$tmp/sources" | uniq -c | sed 's/^/  answered: /'
	[ "$fail" -eq 0 ] || echo "seed: $seed"
	finish
	exit
fi
i=0
while [ $i -lt 300 ] && [ -n "$(squeue -h -r -j "$ids" -t all 2>/dev/null)" ]; do
	sleep 0.2
	i=$((i + 1))
done
[ $i -lt 300 ] || echo "note: slurmctld still knows some jobs: $(squeue -h -r -j "$ids" -t all -o %i | tr '\n' ' ')"

# After: accounting (with the record before 24.05).
after() {
	check_logs after,recorded "$spec" "$XDG_STATE_HOME"
	check_logs after,not-recorded "$spec" "$norecord"
}
each_case after

# Who answered: slurmctld before (the jobs running), accounting after.
sort "$tmp/sources" | uniq -c | sed 's/^/  answered: /'
if grep -q '^before.* slurmdbd' "$tmp/sources"; then
	bad "seed $seed: accounting answered before the jobs ended"
else ok; fi
if grep -q '^after.* slurmctld$' "$tmp/sources"; then
	bad "seed $seed: slurmctld still answered after the purge"
else ok; fi

[ "$fail" -eq 0 ] || echo "seed: $seed"
finish
