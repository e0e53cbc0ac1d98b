# endstates.sh (Slurm): every end state a job can reach, through each back
# end's status --json (and jobs --json while slurmctld knows the job),
# compared field by field with what Slurm's own clients say: scontrol
# show job before the purge, sacct once slurmctld has forgotten the job
# (MBS_SLURM_MIN_JOB_AGE=10, MBS_SLURM_ACCOUNTING=yes).  Issue 24.
#
# The jobs, all submitted at once in a random order: completed; failed
# (a random exit code); killed by a random signal; cancelled while
# pending (held, or waiting for the down nodes of the big partition);
# cancelled while running (with or without a time limit); timed out (its
# end time moved to now); requeued once or twice, then completed; node
# failure (its node set down); an array whose tasks end in random ways.
# Every job but the array waits for a file before it ends, so that each
# is seen pending or running first, as squeue lists it.
#
# Fields: state, reason, exit code and signal, node count, node list,
# start and end times, restarts.  Where mbsbatch deliberately says less
# than the client (mbsbatch-status(1), BUGS and "Where the answer comes
# from"), the expected value says so, each refusal named R1..R4 below.
#
# MBS_TEST_SEED replays a run (the seed is printed first and on every
# failure); MBS_TEST_API names the REST API version (else drawn too).
MBS_SLURM_ACCOUNTING=yes
MBS_SLURM_MIN_JOB_AGE=10
export MBS_SLURM_ACCOUNTING MBS_SLURM_MIN_JOB_AGE
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/slurm/lib.sh"
: "${JQ:=jq}"
[ -n "$JQ" ] || JQ=jq
need "$JQ" "to parse --json"
seed=${MBS_TEST_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
echo "endstates: seed $seed (MBS_TEST_SEED=$seed replays it), Slurm ${MBS_SLURM_RELEASE:-22.05}"
nope() { fail=$((fail + 1)); echo "FAIL (seed $seed): $*"; }
t0=$(date +%s)
# Times compared as seconds: ours in UTC (+0000), Slurm's as %s.
TZ=UTC
export TZ
release=${MBS_SLURM_RELEASE:-22.05}

work="$tmp/work"
mkdir -p "$work"
cd "$work" || exit 1
vias=$(test_vias)
via_args() {
	[ "$1" = rest ] && echo "--rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE --api-version $api"
}

# R6: through REST API v0.0.36 (22.05), whose answers name no job's
# user, jobs refuses to tell the user's jobs from others': true (and
# checked) when the last jobs run through VIA was so refused.
jobs_refused() {	# VIA
	[ "$1" = rest ] && [ "$api" = v0.0.36 ] || return 1
	expect_status "rest v0.0.36: jobs" 1
	expect_err "rest v0.0.36: jobs" "mbsbatch: slurmrestd: API v0.0.36 names no job's user (user_name is empty): ask with --api-version v0.0.37 or later"
}

# --- The random choices, from the seed -----------------------------------
# One line of awk draws them all: exit code, signal, how the pending job
# waits, whether the running one has a time limit, the requeues, the
# array's tasks' ends, the order of submission, and the REST API
# version asked (any this slurmrestd serves, /slurmdb/ of the same).
eval "$(awk -v seed="$seed" -v apis="$MBS_SLURM_APIS" 'BEGIN {
	srand(seed)
	napis = split(apis, av, " ")
	printf "api=%s\n", av[1 + int(rand() * napis)]
	printf "code=%d\n", 1 + int(rand() * 254)
	split("KILL TERM ABRT SEGV USR1 HUP", sigs, " ")
	printf "sig=%s\n", sigs[1 + int(rand() * 6)]
	printf "pendhow=%s\n", rand() < 0.5 ? "held" : "down"
	printf "runlimit=%s\n", rand() < 0.5 ? "infinite" : "20"
	printf "requeues=%d\n", 1 + int(rand() * 2)
	ntasks = 3 + int(rand() * 3)
	printf "ntasks=%d\n", ntasks
	cases = ""
	for (t = 0; t < ntasks; t++) {
		r = rand()
		if (r < 0.4) end = "exit 0"
		else if (r < 0.8) end = "exit " (1 + int(rand() * 120))
		else end = "kill -9 $$"
		cases = cases t ") " end " ;; "
	}
	printf "arrcases=\047%s\047\n", cases
	n = split("completed failed signalled pending running timeout requeue nodefail array", k, " ")
	for (i = n; i > 1; i--) { j = 1 + int(rand() * i); x = k[i]; k[i] = k[j]; k[j] = x }
	order = k[1]; for (i = 2; i <= n; i++) order = order " " k[i]
	printf "order=\"%s\"\n", order
}')"
api=${MBS_TEST_API:-$api}	# one version, to try it alone
echo "endstates: exit $code, signal $sig, pending $pendhow, running limit $runlimit, $requeues requeue(s), array: $arrcases"
echo "endstates: order: $order; REST API $api"

# --- Submit ---------------------------------------------------------------
# mbsnode3 is the node failure's alone: the others keep off it.
p="-p $MBS_SLURM_PARTITION -N1 -o /dev/null -x mbsnode3"
waitgo="while [ ! -e $work/go ]; do sleep 0.2; done"
submit() {	# KIND
	case $1 in
	completed) sbatch --parsable $p -J es-completed --wrap "$waitgo" ;;
	failed) sbatch --parsable $p -J es-failed --wrap "$waitgo; exit $code" ;;
	signalled) sbatch --parsable $p -J es-signalled --wrap "$waitgo; ulimit -c 0; kill -s $sig \$\$; sleep 5" ;;
	pending)
		if [ "$pendhow" = held ]; then
			sbatch --parsable $p -H -J es-pending --wrap true
		else
			sbatch --parsable -p "$MBS_SLURM_BIG_PARTITION" -N1 -o /dev/null -J es-pending --wrap true
		fi ;;
	running) sbatch --parsable $p -t "$runlimit" -J es-running --wrap 'sleep 300' ;;
	timeout) sbatch --parsable $p -t 10 -J es-timeout --wrap 'sleep 300' ;;
	requeue) sbatch --parsable $p --requeue -J es-requeue \
	    --wrap "[ \"\${SLURM_RESTART_COUNT:-0}\" -ge $requeues ] && exit 0; sleep 300" ;;
	nodefail) sbatch --parsable -p "$MBS_SLURM_PARTITION" -N1 -o /dev/null -w mbsnode3 --no-requeue -J es-nodefail --wrap 'sleep 300' ;;
	array) sbatch --parsable $p --array=0-$((ntasks - 1)) -J es-array \
	    --wrap "$waitgo; case \$SLURM_ARRAY_TASK_ID in $arrcases esac" ;;
	esac
}
ids=
for k in $order; do
	id=$(submit "$k" 2>"$tmp/err")
	case $id in
	[1-9]*) ok; eval "id_$k=$id"; ids="$ids $id" ;;
	*) nope "sbatch $k: $(cat "$tmp/err")"; finish; exit 1 ;;
	esac
done

# --- What Slurm's clients say, as TSV ------------------------------------
# One line per record: id, task ("-" but for an array's task), state,
# reason, exit C:S, nodes, node list, start, end, restarts; "-" is none.
ENDED='COMPLETED|CANCELLED|FAILED|TIMEOUT|NODE_FAIL|PREEMPTED|BOOT_FAIL|DEADLINE|OUT_OF_MEMORY'
# scontrol show job -o: every record slurmctld has (an array's group of
# tasks not started is left out: it is no task).  R1: no exit status for
# a job that never had nodes (it never ran), and none before a job ends.
sc_tsv() {
	SLURM_TIME_FORMAT=%s scontrol show job -o 2>/dev/null | awk -v ended="^($ENDED)\$" '
	/^JobId=/ {
		delete f
		for (i = 1; i <= NF; i++) {
			eq = index($i, "=")
			if (eq > 0) f[substr($i, 1, eq - 1)] = substr($i, eq + 1)
		}
		task = "-"
		if (f["ArrayJobId"] != "" && f["ArrayTaskId"] != "") {
			if (f["ArrayTaskId"] !~ /^[0-9]+$/) next
			task = f["ArrayTaskId"]
		}
		reason = f["Reason"]; gsub("_", " ", reason)
		nodes = f["NumNodes"]; sub("-.*", "", nodes)
		nl = f["NodeList"]; if (nl == "" || nl == "(null)") nl = "-"
		ex = (f["JobState"] ~ ended && nl != "-") ? f["ExitCode"] : "-"
		st = f["StartTime"]; if (st !~ /^[0-9]+$/) st = "-"
		en = f["EndTime"]; if (en !~ /^[0-9]+$/) en = "-"
		print f["JobId"] "\t" task "\t" f["JobState"] "\t" reason "\t" ex "\t" nodes "\t" nl "\t" st "\t" en "\t" f["Restarts"]
	}'
}
# sacct -X (no --duplicates): accounting's.  R2: no reason for an ended
# job from accounting (its last reason to wait says nothing of the end).
# R1 as above.  Per back end (VIA): R3, slurmrestd 22.05's accounting
# gives no exit status but COMPLETED's and a signal's; R4, 22.05's
# accounting keeps no restart count: none through native and sbatch,
# counted from its records through rest (what scontrol said before);
# R5, 22.05's sacct prints an exit code of 128 or more less 128
# (src/sacct/print.c), libslurm the code itself (what scontrol said);
# R7, 22.05's dbv0.0.36 and 37 give no start (their time.start is the
# eligible time; the start is computed from the end and the time run)
# for a job that never ran, whose start sacct shows as its end or None.
sa_tsv() {	# VIA
	fields=JobID,JobIDRaw,State,ExitCode,NNodes,NodeList,Start,End
	[ "$release" = 22.05 ] || fields=$fields,Restarts
	SLURM_TIME_FORMAT=%s sacct -X -P -n --jobs="$(echo $ids | tr ' ' ,)" --format="$fields" 2>/dev/null |
	    awk -F'|' -v via="$1" -v rel="$release" -v restarts="$tmp/restarts" -v api="$api" '
	BEGIN { while ((getline l < restarts) > 0) { split(l, a, " "); rs[a[1]] = a[2]; ec[a[1]] = a[3] } }
	{
		task = "-"
		if (index($1, "_") > 0) { task = substr($1, index($1, "_") + 1) }
		if (task != "-" && task !~ /^[0-9]+$/) next
		state = $3; sub(" .*", "", state)
		nl = $6; if (nl == "None assigned" || nl == "") nl = "-"
		ex = nl != "-" ? $4 : "-"
		if (rel == "22.05" && via == "rest" && ex != "-" && state != "COMPLETED" && ex !~ /:[1-9]/) ex = "-"
		if (rel == "22.05" && via == "native" && ex ~ /:0$/ && ($2 in ec) && ec[$2] == (ex + 128) ":0") ex = ec[$2]
		st = $7 ~ /^[0-9]+$/ ? $7 : "-"
		if (rel == "22.05" && via == "rest" && (api == "v0.0.36" || api == "v0.0.37") && nl == "-") st = "-"
		en = $8 ~ /^[0-9]+$/ ? $8 : "-"
		if (rel != "22.05") r = $9
		else if (via == "rest") r = ($2 in rs) ? rs[$2] : "?"
		else r = "-"
		print $2 "\t" task "\t" state "\t-\t" ex "\t" $5 "\t" nl "\t" st "\t" en "\t" r
	}'
}
# Ours, from status --json (a job, or an array's tasks) or jobs --json.
ours_tsv() {	# FILE
	"$JQ" -r 'def t: if . == null then "-" else (sub("\\+0000$"; "Z") | fromdateiso8601 | tostring) end;
	    def n: if . == null then "-" else tostring end;
	    (if has("jobs") then .jobs[] elif .array == true then .tasks[] else . end) |
	    select(.array_tasks == null) |
	    [(.job_id|tostring), (.array_task_id|n), .state, (.reason|n),
	     (if .exit_code == null then "-" else "\(.exit_code):\(.exit_signal)" end),
	     (.nodes|tostring), (.node_list|n), (.start_time|t), (.end_time|t),
	     (.restart_count|n)] | @tsv' "$1"
}
# compare WHAT WANT GOT: the records of WANT (TSV, sorted) against GOT's.
compare() {
	sort "$2" >"$2.s"
	sort "$3" >"$3.s"
	if cmp -s "$2.s" "$3.s"; then ok; return; fi
	nope "$1: mbsbatch (>) differs from Slurm's client (<):"
	diff "$2.s" "$3.s" | sed -n 's/^[<>]/  &/p'
}
# Slurm's records of job ID (all of them for an array).
records_of() {	# TSV ID
	awk -F'\t' -v id="$2" -v arr="$(echo " $id_array " | grep -c " $2 ")" \
	    -v tasks="$tmp/array-ids" '
	BEGIN { while ((getline l < tasks) > 0) t[l] = 1 }
	$1 == id || (arr > 0 && ($1 in t)) { print }' "$1"
}

# jobs' rows of jobs IDS... as squeue --states=all -o '%i %R' has them:
# the job (an array's task, its group not started) and its nodes or, in
# parentheses, its reason.
check_rows() {	# IDS...
	SLURM_BITSTR_LEN=0 squeue -h --states=all -j "$(echo "$@" | tr ' ' ,)" -o '%i %R' 2>/dev/null |
	    awk '{ print $1 " " substr($0, length($1) + 2) }' >"$tmp/rows-want"
	for via in $vias; do
		run jobs --state all --via "$via" $(via_args "$via")
		jobs_refused "$via" && continue
		[ "$status" -eq 0 ] || { bad "$via: jobs --state all (rows)"; continue; }
		awk -v ids=" $* " 'NR > 1 { b = $1; sub(/_.*/, "", b)
		    if (index(ids, " " b " ")) print $1 " " substr($0, 60) }' "$tmp/out" >"$tmp/rows-got"
		compare "$via: jobs rows of$(echo " $*" | cut -c1-40)" "$tmp/rows-want" "$tmp/rows-got"
	done
}

# --- Before the purge -----------------------------------------------------
# Each record once it has ended, through each back end: status --json
# of its job (an array's id: every task), and the job's records in jobs
# --json --state all; jobs --json lists no job already ended and every
# job still alive, as squeue.
compared=" "
check_ctld() {	# TSV: the snapshot taken before asking
	new=
	: >"$tmp/new-want"
	for id in $ids; do
		case $compared in *" $id "*) continue ;; esac
		records_of "$1" "$id" >"$tmp/want"
		[ -s "$tmp/want" ] || continue
		# Every record of it ended (the array: every task).
		if awk -F'\t' -v e="^($ENDED)\$" '$3 !~ e { bad = 1 } END { exit !bad }' "$tmp/want"; then
			continue
		fi
		compared="$compared$id "
		new="$new $id"
		cat "$tmp/want" >>"$tmp/new-want"
		# The restarts and exit scontrol says, for 22.05's
		# accounting (R4, R5).
		awk -F'\t' '{ print $1, $10, $5 }' "$tmp/want" >>"$tmp/restarts"
		for via in $vias; do
			run status "$id" --json --via "$via" $(via_args "$via")
			[ "$status" -eq 0 ] || { bad "$via: status $id"; continue; }
			if [ "$("$JQ" -r 'if .array then .tasks[0].source else .source end' "$tmp/out")" != slurmctld ]; then
				nope "$via: job $id: slurmctld forgot it before it was compared (the test was too slow)"
				continue
			fi
			ours_tsv "$tmp/out" >"$tmp/got"
			compare "$via: status $id before the purge" "$tmp/want" "$tmp/got"
		done
	done
	[ -n "$new" ] || return 0
	# The same records in jobs --state all, once for all of them.
	for via in $vias; do
		run jobs --json --state all --via "$via" $(via_args "$via")
		jobs_refused "$via" && continue
		[ "$status" -eq 0 ] || { bad "$via: jobs --state all"; continue; }
		ours_tsv "$tmp/out" >"$tmp/all"
		for id in $new; do records_of "$tmp/all" "$id"; done >"$tmp/got"
		compare "$via: jobs --state all, jobs$new" "$tmp/new-want" "$tmp/got"
	done
	check_rows $new
	# Cancelling an ended job (or array) is refused, as scancel -v says.
	for id in $new; do
		case $id in "$id_completed"|"$id_array") ;; *) continue ;; esac
		for via in $vias; do
			run cancel "$id" --via "$via" $(via_args "$via")
			expect_status "$via: cancel of ended job $id" 1
			expect_err "$via: cancel of ended job $id" "mbsbatch: job $id: already ended, not cancelled (Slurm: Job/step already completing or completed)"
			[ "$id" = "$id_completed" ] || continue
			# R6: a chain is found among the user's jobs.
			[ "$via" = rest ] && [ "$api" = v0.0.36 ] && continue
			run cancel --chain "$id" --json --via "$via" $(via_args "$via")
			expect_status "$via: cancel --chain of ended job $id" 1
			expect_json "$via: cancel --chain of ended job $id" '[.cancelled, [.jobs[] | .result]]' '[[],["ended"]]'
		done
	done
}
# jobs --json without --state: as squeue, the jobs not ended.
check_jobs_default() {	# TSV before
	awk -F'\t' -v e="^($ENDED)\$" '$3 ~ e { print $1 }' "$1" | sort -u >"$tmp/ended-before"
	for via in $vias; do
		run jobs --json --via "$via" $(via_args "$via")
		jobs_refused "$via" && continue
		[ "$status" -eq 0 ] || { bad "$via: jobs"; continue; }
		"$JQ" -r '.jobs[].job_id' "$tmp/out" | sort -u >"$tmp/listed"
		sc_tsv >"$tmp/after"
		awk -F'\t' -v e="^($ENDED)\$" '$3 !~ e { print $1 }' "$tmp/after" | sort -u >"$tmp/alive-after"
		shown=$(comm -12 "$tmp/ended-before" "$tmp/listed" | tr '\n' ' ')
		missing=$(comm -23 "$tmp/alive-after" "$tmp/listed" | tr '\n' ' ')
		if [ -z "$shown$missing" ]; then ok; else
			nope "$via: jobs lists ended jobs [$shown] or misses jobs not ended [$missing] (squeue lists those not ended)"; fi
	done
}

# Everything pending or running first (the array's tasks and the others
# wait for the file go); an array's task ids once they run.
i=0
while :; do
	sc_tsv >"$tmp/now"
	running=$(awk -F'\t' '$3 == "RUNNING"' "$tmp/now" | wc -l)
	[ "$running" -ge $((ntasks + 7)) ] && break
	i=$((i + 1))
	if [ $i -gt 150 ]; then nope "not all jobs ran within 30 s:"; cat "$tmp/now"; break; fi
	sleep 0.2
done
awk -F'\t' '$2 != "-" { print $1 }' "$tmp/now" >"$tmp/array-ids"
: >"$tmp/restarts"
# Alive jobs, through each back end: pending (why), running with no end
# when it has no time limit.
for id in $ids; do
	[ "$id" = "$id_array" ] && continue
	records_of "$tmp/now" "$id" >"$tmp/want"
	for via in $vias; do
		run status "$id" --json --via "$via" $(via_args "$via")
		ours_tsv "$tmp/out" >"$tmp/got"
		compare "$via: status $id, alive" "$tmp/want" "$tmp/got"
	done
done
check_jobs_default "$tmp/now"
check_rows $ids
echo "endstates: all alive and compared at $(( $(date +%s) - t0 )) s"

# Now each ends its way.
scancel "$id_pending" "$id_running"
scontrol update jobid="$id_timeout" EndTime=now+1 >/dev/null
scontrol requeue "$id_requeue"
scontrol update nodename=mbsnode3 state=down reason=endstates >/dev/null
touch "$work/go"
i=0
while :; do
	sc_tsv >"$tmp/now"
	# A requeued job runs again after its begin time: requeued again
	# until it has its count.
	if awk -F'\t' -v id="$id_requeue" -v n="$requeues" '$1 == id && $3 == "RUNNING" && $10 < n { f = 1 } END { exit !f }' "$tmp/now"; then
		scontrol requeue "$id_requeue"
	fi
	check_ctld "$tmp/now"
	[ "$(echo $compared | wc -w)" -eq 9 ] && break
	i=$((i + 1))
	if [ $i -gt 400 ]; then nope "not every job ended within 80 s: compared $compared"; cat "$tmp/now"; break; fi
	sleep 0.2
done
check_jobs_default "$tmp/now"
scontrol update nodename=mbsnode3 state=resume >/dev/null 2>&1
echo "endstates: all ended and compared at $(( $(date +%s) - t0 )) s"

# --- After the purge ------------------------------------------------------
i=0
while [ -n "$(sc_tsv | cut -f1 | grep -xF "$(echo $ids | tr ' ' '\n')")" ]; do
	i=$((i + 1))
	if [ $i -gt 200 ]; then nope "slurmctld still knows some after 40 s"; break; fi
	sleep 0.2
done
for via in $vias; do
	sa_tsv "$via" >"$tmp/sacct"
	for id in $ids; do
		records_of "$tmp/sacct" "$id" >"$tmp/want"
		run status "$id" --json --via "$via" $(via_args "$via")
		[ "$status" -eq 0 ] || { bad "$via: status $id after the purge"; continue; }
		if "$JQ" -e '[if .array then .tasks[] else . end | .source] | any(. != "slurmdbd")' "$tmp/out" >/dev/null; then
			nope "$via: job $id: not from accounting after the purge"
		fi
		ours_tsv "$tmp/out" >"$tmp/got"
		compare "$via: status $id after the purge" "$tmp/want" "$tmp/got"
	done
	# The requeued job is one job that completed: a wait on it ends.
	timeout 30 "$MBSBATCH" status "$id_requeue" --wait --via "$via" $(via_args "$via") >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
	expect_status "$via: status --wait of the requeued job after the purge" 0
done
echo "endstates: done in $(( $(date +%s) - t0 )) s"
[ "$fail" -eq 0 ] || echo "endstates: seed $seed"
finish
