# sweep.sh (Slurm): mbsbatch sweep on a real cluster, through every back
# end built in: 50 points queue exactly 50 jobs; invalid points are skipped
# with their finding; a sweep killed (SIGKILL) halfway and resumed queues
# every point exactly once; a 200-point job array runs each point's own
# settings; slurmrestd stopped halfway gives one clear error and a journal
# that --resume completes once it is back.
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/slurm/lib.sh"
: "${JQ:=jq}"
[ -n "$JQ" ] || JQ=jq
need "$JQ" "to read the journal"

work="$tmp/work"
mkdir -p "$work"
cd "$work" || exit 1
held="--template command --command true --partition $MBS_SLURM_PARTITION --time 5 --hold --gpus 8"
rest="--rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE"

# names ID: the job names of sweep ID that Slurm lists, one a line
# (an array once per task).
names() {
	squeue -h --states=all -o '%j' | grep -- "-$1-" | sort
}

# queued FILE: how many submissions the journal records as queued.
queued() {
	n=$(grep -c '"queued"' "$1" 2>/dev/null)
	echo "${n:-0}"
}

# check_journal FILE N: the journal records N points queued, each once.
check_journal() {
	got=$("$JQ" -s '[.[] | select(.queued) | .points[]] | [length, (unique | length)]' "$1" | tr -d ' \n')
	if [ "$got" = "[$2,$2]" ]; then ok; else bad "journal $1: [queued, distinct] = $got, want [$2,$2]"; fi
}

# check_sweep DESC N JOURNAL: the sweep just run (--json in $tmp/out) has
# exactly N jobs in Slurm, each under its own name, and JOURNAL records N
# points queued, each once.  Sets $id to the sweep's id.
check_sweep() {
	id=$("$JQ" -r .sweep "$tmp/out")
	n=$(names "$id" | sort -u | wc -l)
	d=$(names "$id" | wc -l)
	if [ "$n" -eq "$2" ] && [ "$d" -eq "$2" ]; then ok; else bad "$1: squeue lists $d jobs, $n names (want $2)"; fi
	check_journal "$3" "$2"
}

# 50 separate jobs: 10 micro-batch sizes x 5 time limits.
for via in $(test_vias); do
	r=
	[ "$via" = rest ] && r=$rest
	run sweep $held --via "$via" $r --no-array --journal "j50-$via" --json \
	    --grid micro-batch-size=1,2,3,4,5,6,7,8,9,10 --grid time=1,2,3,4,5
	expect_status "50 via $via" 0
	expect_json "50 via $via" '[.points,.queued,.skipped,.submissions,.complete]' '[50,50,0,50,true]'
	check_sweep "50 via $via" 50 "j50-$via"
	# Each job's time limit is its point's.
	t=$(squeue -h -o '%j %l' | grep -- "-$id-7 " | awk '{ print $2 }')
	if [ "$t" = "3:00" ]; then ok; else bad "50 via $via: point 7's time limit '$t', want 3:00"; fi
	squeue -h -o '%i %j' | grep -- "-$id-" | awk '{ print $1 }' | xargs -r scancel
	# A journal that exists is not overwritten.
	run sweep $held --via "$via" $r --journal "j50-$via" --grid time=1,2
	expect_status "journal exists" 2
	expect_err_prefix "journal exists" "mbsbatch: journal 'j50-$via' exists: it records an earlier sweep"
done

# Through the unix-socket slurmrestd too (as the user it serves): 20
# separate jobs, then 20 points as one array.
if test_vias | grep -qx rest; then
	unix="--rest-url $MBS_REST_UNIX --user $MBS_REST_UNIX_USER"
	run sweep $held --via rest $unix --no-array --journal j20-unix --json \
	    --grid micro-batch-size=1,2,3,4,5,6,7,8,9,10 --grid time=1,2
	expect_status "20 via the unix socket" 0
	expect_json "20 via the unix socket" '[.queued,.submissions,.complete]' '[20,20,true]'
	check_sweep "20 via the unix socket" 20 j20-unix
	squeue -h -o '%i %j' | grep -- "-$id-" | awk '{ print $1 }' | xargs -r scancel
	run sweep $held --via rest $unix --journal j20a-unix --json \
	    --grid micro-batch-size=1,2,3,4,5,6,7,8,9,10 --grid seq-length=1024,2048
	expect_status "array via the unix socket" 0
	expect_json "array via the unix socket" '[.queued,.submissions,.complete]' '[20,1,true]'
	id=$("$JQ" -r .sweep "$tmp/out")
	n=$(squeue -h -r -o "%j" | grep -c -- "-$id-")
	if [ "$n" -eq 20 ]; then ok; else bad "array via the unix socket: $n tasks"; fi
	squeue -h -o '%i %j' | grep -- "-$id-" | awk '{ print $1 }' | xargs -r scancel
fi

# Invalid points are skipped with their finding; the rest are queued;
# exit 3 says not everything was.
run sweep --template command --command true --partition "$MBS_SLURM_PARTITION" \
    --time 5 --hold --model llama3-8b --gpus 8 --journal jbad --no-array \
    --grid tp=1,2,3,8,5 --json
expect_status "invalid points" 3
expect_json "invalid points" '[.queued,.skipped]' '[3,2]'
if grep -q "^mbsbatch: sweep: point 2 (tp=3) skipped: heads-divisibility: 32 attention heads do not divide evenly over TP 3$" "$tmp/err"; then ok; else bad "invalid points: stderr"; fi
if grep -q "^mbsbatch: sweep: point 4 (tp=5) skipped: heads-divisibility" "$tmp/err"; then ok; else bad "invalid points: stderr tp=5"; fi
id=$("$JQ" -r .sweep "$tmp/out")
if [ "$(names "$id" | wc -l)" -eq 3 ]; then ok; else bad "invalid points: $(names "$id" | wc -l) jobs"; fi
# cancel --journal ends every job of the sweep.
run cancel --journal jbad
expect_status "cancel --journal" 0
expect_out_has "cancel --journal" "sweep $id: 3 jobs cancelled, 0 already gone (journal jbad)"
sleep 1
left=$(squeue -h -t PENDING,RUNNING -o '%j' | grep -c -- "-$id-")
if [ "$left" -eq 0 ]; then ok; else bad "cancel --journal: $left jobs left"; fi
run cancel 12 --journal jbad
expect_status "cancel both" 2
run cancel --journal nope
expect_status "cancel no journal" 1
expect_err "cancel no journal" "mbsbatch: journal 'nope': open: No such file or directory"

# Killed halfway (SIGKILL), then resumed: every point queued exactly once.
for via in $(test_vias); do
	r=
	[ "$via" = rest ] && r=$rest
	grid="--grid micro-batch-size=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20 --grid time=1,2,3,4,5,6,7,8,9,10"
	"$MBSBATCH" sweep $held --via "$via" $r --no-array --journal "jkill-$via" $grid \
	    >"$tmp/kill.out" 2>"$tmp/kill.err" &
	pid=$!
	# Wait for some jobs, then kill it.
	i=0
	while [ "$i" -lt 200 ] && [ "$(queued "jkill-$via")" -lt 40 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	before=$(queued "jkill-$via")
	if [ "$before" -ge 40 ] && [ "$before" -lt 200 ]; then ok; else bad "kill via $via: $before queued before the kill"; fi
	run sweep $held --via "$via" $r --no-array --journal "jkill-$via" $grid --resume --json
	expect_status "resume via $via" 0
	expect_json "resume via $via" '[.points,.queued,.complete]' '[200,200,true]'
	check_sweep "resume via $via" 200 "jkill-$via"
	squeue -h -o '%i %j' | grep -- "-$id-" | awk '{ print $1 }' | xargs -r scancel
	# Resuming a complete sweep queues nothing more.
	run sweep $held --via "$via" $r --no-array --journal "jkill-$via" $grid --resume --json
	expect_json "resume again via $via" '[.queued,.submissions]' '[200,0]'
done

# The journal lost the job ids of points 1 and 2 (a kill between
# Slurm's answer and the journal's write), and point 2 never reached
# Slurm: --resume finds point 1's job by its name, and queues point 2.
for via in $(test_vias); do
	r=
	[ "$via" = rest ] && r=$rest
	run sweep $held --via "$via" $r --no-array --journal "jfound-$via" --grid time=1,2,3 --json
	expect_status "found via $via: first" 0
	id=$("$JQ" -r .sweep "$tmp/out")
	# Point 2's job is renamed in Slurm: as if it never got there.
	j2=$("$JQ" -s -r '.[] | select(.queued and .points == [2]) | .job_id' "jfound-$via")
	scontrol update JobId="$j2" JobName=renamed
	"$JQ" -c 'select(.queued and (.points == [1] or .points == [2]) | not)' \
	    "jfound-$via" >"jfound-$via.cut"
	mv "jfound-$via.cut" "jfound-$via"
	run sweep $held --via "$via" $r --no-array --journal "jfound-$via" --grid time=1,2,3 --resume --json
	expect_status "found via $via" 0
	expect_json "found via $via" '[.queued,.submissions,.complete]' '[3,1,true]'
	got=$("$JQ" -s -c '[.[] | select(.found) | .points[]]' "jfound-$via")
	if [ "$got" = "[1]" ]; then ok; else bad "found via $via: found records $got"; fi
	if [ "$(names "$id" | wc -l)" -eq 3 ]; then ok; else bad "found via $via: $(names "$id" | wc -l) jobs, want 3"; fi
	check_journal "jfound-$via" 3
	run cancel --journal "jfound-$via" $r --via "$via"
	expect_status "found via $via: cancel" 0
done

# Job names as users write them: a space and a quote in the name keep
# the array whole (sbatch reads every directive: --array included); a
# template that names the job its own way (-J, after its other lines)
# still gets arrays (the name is not a resource) and Slurm's names are
# the journal's, so --resume finds jobs whose ids the journal lost.
cat >named.sbatch <<'EOF2'
#!/bin/bash
{{#slurm}}
#SBATCH --{{option}}{{^flag}}={{value}}{{/flag}}
{{/slurm}}
#SBATCH -J {{job_name}}
true
EOF2
sed 's/^#SBATCH -J .*/#SBATCH -J fixed-name/' named.sbatch >fixed.sbatch
for via in $(test_vias); do
	r=
	[ "$via" = rest ] && r=$rest
	run sweep $held --via "$via" $r --job-name "my run's" --journal "jname-$via" \
	    --grid seq-length=1024,2048,4096 --json
	expect_status "quoted name via $via" 0
	expect_json "quoted name via $via" '[.queued,.submissions]' '[3,1]'
	id=$("$JQ" -r .sweep "$tmp/out")
	got=$(squeue -h --states=all -r -o '%j|%K' | grep -- "-$id-" | sort | tr '\n' ' ')
	if [ "$got" = "my run's-$id-a0|0 my run's-$id-a0|1 my run's-$id-a0|2 " ]; then ok; else bad "quoted name via $via: Slurm has: $got"; fi
	run cancel --journal "jname-$via" $r --via "$via"
	for t in named fixed; do
		run sweep --template "$work/$t.sbatch" --partition "$MBS_SLURM_PARTITION" \
		    --time 5 --hold --gpus 8 --via "$via" $r --journal "j$t-$via" \
		    --grid seq-length=1024,2048 --json
		expect_status "$t template via $via" 0
		expect_json "$t template via $via" '[.queued,.submissions]' '[2,1]'
		id=$("$JQ" -r .sweep "$tmp/out")
		run sweep --template "$work/$t.sbatch" --partition "$MBS_SLURM_PARTITION" \
		    --time 5 --hold --gpus 8 --via "$via" $r --journal "j$t-nj-$via" \
		    --grid seq-length=1024,2048 --no-array --json
		id=$("$JQ" -r .sweep "$tmp/out")
		# The job ids lost (a kill before the journal's write): found.
		"$JQ" -c 'select(.queued | not)' "j$t-nj-$via" >cut && mv cut "j$t-nj-$via"
		run sweep --template "$work/$t.sbatch" --partition "$MBS_SLURM_PARTITION" \
		    --time 5 --hold --gpus 8 --via "$via" $r --journal "j$t-nj-$via" \
		    --grid seq-length=1024,2048 --no-array --resume --json
		expect_json "$t template, resumed via $via" '[.queued,.submissions]' '[2,0]'
		if [ "$(names "$id" | wc -l)" -eq 2 ]; then ok; else bad "$t template via $via: $(names "$id" | wc -l) jobs, want 2"; fi
		run cancel --journal "j$t-$via" $r --via "$via"
		run cancel --journal "j$t-nj-$via" $r --via "$via"
	done
done

# A kill in the middle of a journal write leaves a last line cut short:
# --resume drops it and goes on; the journal stays readable.  Points
# whose logs go to different directories each get theirs made.
run sweep $held --no-array --journal jtorn --grid output=a/%x-%j.out,b/%x-%j.out --json
expect_status "log dirs" 0
if [ -d a ] && [ -d b ]; then ok; else bad "log dirs: a/ or b/ not made"; fi
printf '{"submitting": "cut-sh' >>jtorn
run sweep $held --no-array --journal jtorn --grid output=a/%x-%j.out,b/%x-%j.out --resume --json
expect_status "torn journal" 0
expect_json "torn journal" '[.queued,.submissions]' '[2,0]'
if "$JQ" -s length jtorn >/dev/null 2>&1; then ok; else bad "torn journal: no longer JSON lines"; fi
run cancel --journal jtorn
expect_status "torn journal: cancel" 0

# A 200-point job array that runs: one array (the points differ in
# nothing Slurm allocates); each task prints its point and its settings,
# checked against the journal.
run sweep --template command --partition "$MBS_SLURM_PARTITION" --time 5 --gpus 1 \
    --command 'echo "point=$MBSBATCH_SWEEP_POINT settings=$MBSBATCH_SWEEP_SETTINGS"' \
    --journal jarray --json \
    --grid micro-batch-size=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20 \
    --grid seq-length=1024,2048,3072,4096,5120,6144,7168,8192,9216,10240
expect_status "array" 0
expect_json "array" '[.queued,.submissions]' '[200,1]'
array=$("$JQ" -s -r '[.[] | select(.queued)][0].job_id' jarray)
aname=$("$JQ" -s -r '[.[] | select(.queued)][0].queued' jarray)
i=0
while [ "$i" -lt 900 ] && squeue -h -j "$array" -t PENDING,RUNNING,COMPLETING 2>/dev/null | grep -q .; do
	sleep 0.2
	i=$((i + 1))
done
"$JQ" -s -r '[.[] | select(.queued)][0] | range(0; .points | length) as $k |
    "\($k)|\(.points[$k])|\(.settings[$k])"' jarray >tasks
good=0 shown=0
while IFS='|' read -r k p set; do
	f="logs/$aname-${array}_$k.out"
	if [ -f "$f" ] && grep -qx "point=$p settings=$set" "$f"; then
		good=$((good + 1))
	elif [ "$shown" -lt 3 ]; then
		shown=$((shown + 1))
		echo "task $k (point $p): $(head -n 3 "$f" 2>&1)"
	fi
done <tasks
if [ "$good" -eq 200 ]; then ok; else bad "array: $good of 200 tasks printed their point"; fi

# slurmrestd goes away halfway: one clear error, exit 1, the journal says
# what is queued; --resume, once it is back, queues exactly the rest.
# One submission at a time, so that it is still going when slurmrestd
# stops (at 4 in flight a fast slurmrestd queued all 200 first).
grid="--grid micro-batch-size=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20 --grid time=1,2,3,4,5,6,7,8,9,10"
"$MBSBATCH" sweep $held --via rest $rest --no-array --parallel 1 --journal jrestd $grid \
    >"$tmp/restd.out" 2>"$tmp/restd.err" &
pid=$!
i=0
while [ "$i" -lt 200 ] && [ "$(queued jrestd)" -lt 30 ]; do
	sleep 0.05
	i=$((i + 1))
done
sh "$cluster" restd-stop "$state" >/dev/null
wait "$pid"
st=$?
if [ "$st" -eq 1 ]; then ok; else bad "restd stopped: exit $st"; fi
first=$(grep -v "warning: job" "$tmp/restd.err" | head -n 1)
case $first in
"mbsbatch: slurmrestd"*|"mbsbatch: "*"127.0.0.1"*) ok ;;
*) bad "restd stopped: stderr: $first" ;;
esac
if grep -v "warning: job" "$tmp/restd.err" | sed -n 2p | grep -q "run the same command with --resume"; then ok; else bad "restd stopped: no hint: $(cat "$tmp/restd.err")"; fi
before=$(queued jrestd)
if [ "$before" -ge 30 ] && [ "$before" -lt 200 ]; then ok; else bad "restd stopped: $before queued"; fi
run sweep $held --via rest $rest --no-array --journal jrestd $grid --resume --json
expect_status "restd still down" 1
sh "$cluster" restd-start "$state" >/dev/null || bad "slurmrestd did not come back"
run sweep $held --via rest $rest --no-array --journal jrestd $grid --resume --json
expect_status "restd back" 0
expect_json "restd back" '[.queued,.complete]' '[200,true]'
check_sweep "restd back" 200 jrestd
squeue -h -o '%i %j' | grep -- "-$id-" | awk '{ print $1 }' | xargs -r scancel

# slurmctld restarted in the middle of a sweep (native where built:
# libslurm talks to it directly; else through slurmrestd): the sweep
# either rides it out or stops with one clear error; --resume then queues
# exactly the rest, none twice.
grid="--grid micro-batch-size=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20 --grid time=1,2,3,4,5,6,7,8,9,10"
if test_vias | grep -qx native; then
	via="--via native"
else
	via="--via rest $rest"
fi
"$MBSBATCH" sweep $held $via --no-array --journal jctld $grid \
    >"$tmp/ctld.out" 2>"$tmp/ctld.err" &
pid=$!
i=0
while [ "$i" -lt 200 ] && [ "$(queued jctld)" -lt 30 ]; do
	sleep 0.05
	i=$((i + 1))
done
sh "$cluster" ctld-restart "$state" >"$tmp/restart.log" 2>&1 || bad "slurmctld did not restart: $(cat "$tmp/restart.log")"
# A slurmctld that had to be killed says what it was doing (cluster.sh).
[ -s "$tmp/restart.log" ] && sed 's/^/note: /' "$tmp/restart.log"
wait "$pid"
st=$?
case $st in
0) ok ;;
1) if [ "$(grep -vc 'warning: job' "$tmp/ctld.err")" -le 2 ]; then ok; else bad "ctld restart: more than an error and a hint: $(cat "$tmp/ctld.err")"; fi ;;
*) bad "ctld restart: exit $st: $(cat "$tmp/ctld.err")" ;;
esac
run sweep $held $via --no-array --journal jctld $grid --resume --json
expect_status "ctld restart: resume" 0
expect_json "ctld restart: resume" '[.queued,.complete]' '[200,true]'
# slurmctld 25.05 and 25.11 sometimes crash at SIGTERM while requests
# are in flight (a conmgr worker jumps to address 0; the kernel logs
# "worker[N]: segfault at 0 ip 0"), before saving their state: the jobs
# they accepted since the last save are gone, though they had answered
# with their ids.  Then only what mbsbatch owns is checked: every point
# queued once in the journal, no job twice in Slurm.
if sed -n '/Terminate signal SIGTERM/,$p' "$MBS_SLURM_STATE/log/slurmctld.log" |
    grep -q 'Saving all slurm state'; then
	check_sweep "ctld restart" 200 jctld
else
	id=$("$JQ" -r .sweep "$tmp/out")
	echo "note: slurmctld died at SIGTERM without saving its state; $((200 - $(names "$id" | wc -l))) accepted jobs were lost by Slurm"
	if [ "$(names "$id" | wc -l)" -eq "$(names "$id" | sort -u | wc -l)" ]; then ok; else bad "ctld restart: a job twice"; fi
	check_journal jctld 200
fi
run cancel --journal jctld
expect_status "ctld restart: cancel" 0

finish
