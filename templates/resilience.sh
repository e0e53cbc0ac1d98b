{{! resilience.sh: the partial both Megatron templates include (a line
    "> resilience" in a tag), after "step" is set: the node gate, the hang
    watchdog and the restarts that learn (mbsbatch-template(5),
    RESILIENCE).  It defines mbs_run, which runs the step; the exit
    statuses it ends the job with are 75 (restart asked: a node failed
    the gate, or the run hung), 76 (stalled: restarts without a new
    checkpoint) and 78 (more nodes lost than allowed). }}
# Resilience (mbsbatch-template(5), RESILIENCE): a gate checks every node
# before training, a watchdog ends a run that stops logging iterations,
# a restart leaves out the nodes they blamed, and a run that restarts
# without a new checkpoint stops.  Exit status 75: restart asked (node
# gate or hang); 76: stalled; 78: more nodes lost than allowed.
mbs_gate={{launch.resilience.gate}}
mbs_gate_timeout={{launch.resilience.gate_timeout}}
mbs_gpus={{gpus_per_node}}
mbs_gpu_type={{launch.resilience.gpu_type}}
mbs_hang_floor={{launch.resilience.hang_floor}}
mbs_hang_steps={{launch.resilience.hang_steps}}
mbs_dump_grace={{launch.resilience.dump_grace}}
mbs_stall={{launch.resilience.stall_restarts}}
mbs_lost_max={{launch.resilience.max_lost_nodes}}
mbs_tasks_per_node={{tasks_per_node}}
mbs_launcher={{launch.launcher}}
mbs_requeue_max=0
{{#launch.requeue}}
mbs_requeue_max={{max_restarts}}
{{/launch.requeue}}
mbs_restarts=${SLURM_RESTART_COUNT:-0}
pid=

# What the run learns is kept beside the job's log, in files named after
# the job (a chain's job starts from its predecessor's): NAME.nodes, the
# nodes left out and why; NAME.progress, restarts without a new
# checkpoint and the last one seen.
mbs_log=$(scontrol show job "$SLURM_JOB_ID" 2>/dev/null |
    sed -n 's/^ *StdOut=//p' | head -n 1) || true
mbs_err=$(scontrol show job "$SLURM_JOB_ID" 2>/dev/null |
    sed -n 's/^ *StdErr=//p' | head -n 1) || true
case $mbs_log in
*/*) mbs_dir=${mbs_log%/*} ;;
*) mbs_dir= ;;
esac
if [ -z "$mbs_dir" ] || [ ! -d "$mbs_dir" ] || [ ! -w "$mbs_dir" ]; then
	mbs_dir=${SLURM_SUBMIT_DIR:-.}
fi
mbs_state=$mbs_dir/mbsbatch-$SLURM_JOB_ID
if [ -n "${MBSBATCH_CHAIN_PREV:-}" ]; then
	for mbs_f in nodes progress; do
		if [ ! -e "$mbs_state.$mbs_f" ] &&
		    [ -e "$mbs_dir/mbsbatch-$MBSBATCH_CHAIN_PREV.$mbs_f" ]; then
			cp "$mbs_dir/mbsbatch-$MBSBATCH_CHAIN_PREV.$mbs_f" \
			    "$mbs_state.$mbs_f" || true
		fi
	done
fi

# PyTorch's NCCL flight recorder: each rank dumps its last collectives
# when its watchdog times out (at the hang rule's floor: the launch
# command sets the process groups' timeout after initialisation to it).
export TORCH_NCCL_DUMP_ON_TIMEOUT=${TORCH_NCCL_DUMP_ON_TIMEOUT:-1}
export TORCH_NCCL_TRACE_BUFFER_SIZE=${TORCH_NCCL_TRACE_BUFFER_SIZE:-2000}
{{^launch.container}}
export TORCH_NCCL_DEBUG_INFO_TEMP_FILE=${TORCH_NCCL_DEBUG_INFO_TEMP_FILE:-$mbs_state.nccl-trace-rank-}
{{/launch.container}}

# The nodes left out so far, comma-separated.
mbs_excluded() {
	[ -s "$mbs_state.nodes" ] || return 0
	cut -d ' ' -f 1 "$mbs_state.nodes" | sort -u | paste -sd , -
}

# mbs_blame NODE WHY: leave NODE out from now on, if Slurm knows it.
mbs_blame() {
	if ! scontrol show node "$1" >/dev/null 2>&1; then
		echo "mbsbatch: $1: not a node Slurm knows; not left out" >&2
		return 0
	fi
	if ! grep -q "^$1 " "$mbs_state.nodes" 2>/dev/null; then
		echo "$1 job $SLURM_JOB_ID: $2" >>"$mbs_state.nodes"
	fi
	echo "mbsbatch: $1 is left out from now on ($2)" >&2
}

# A run that lost more nodes than it may stops (exit 78).
mbs_lost_check() {
	local lost

	lost=$(mbs_excluded | tr , '\n' | grep -c .) || true
	if [ "$lost" -gt "$mbs_lost_max" ]; then
		echo "mbsbatch: $lost nodes lost ($(mbs_excluded)), more than the $mbs_lost_max allowed; stopping" >&2
		exit 78
	fi
}

# mbs_exclude JOBID: add the blamed nodes to JOBID's excluded nodes
# (Slurm takes ExcNodeList only from a pending job: job_mgr.c, _update_job,
# ESLURM_JOB_NOT_PENDING).
mbs_exclude() {
	local cur all

	cur=$(scontrol show job "$1" 2>/dev/null |
	    sed -n 's/.*ExcNodeList=\([^ ]*\).*/\1/p' | head -n 1)
	[ "$cur" != "(null)" ] || cur=
	all=$({ [ -z "$cur" ] || scontrol show hostnames "$cur"
	    mbs_excluded | tr , '\n'; } | grep . | sort -u | paste -sd , -)
	scontrol update JobId="$1" ExcNodeList="$all"
}

# The chain's next job: a pending job of ours that waits for this one.
mbs_next_job() {
	squeue -h -t PD -u "$(id -un)" -o '%i %E' 2>/dev/null |
	    awk -v j="$SLURM_JOB_ID" '$2 ~ ("(^|[,?])after[a-z]*:" j "([(:+,?]|$)") {
		print $1; exit }' || true
}

# mbs_restart WHY: run again without the blamed nodes: requeue this job
# (a requeued job waits Slurm's requeue delay, CredExpire unless
# requeue_delay is set: job_mgr.c, _requeue_delay), or leave it to the
# chain's next job; either way this job ends, with exit status 75 when
# not requeued.
mbs_restart() {
	local excl next

	excl=$(mbs_excluded)
	if [ "$mbs_restarts" -lt "$mbs_requeue_max" ]; then
		echo "mbsbatch: $1: requeueing job $SLURM_JOB_ID${excl:+ without $excl} (restart $((mbs_restarts + 1)) of $mbs_requeue_max)" >&2
		# The requeue sends SIGTERM to this shell: the update that
		# follows must still run.
		trap '' TERM
		if scontrol requeue "$SLURM_JOB_ID"; then
			if [ -n "$excl" ] && ! mbs_exclude "$SLURM_JOB_ID"; then
				echo "mbsbatch: could not leave $excl out of job $SLURM_JOB_ID" >&2
			fi
			exit 0
		fi
		echo "mbsbatch: scontrol requeue $SLURM_JOB_ID failed" >&2
	fi
	next=$(mbs_next_job)
	if [ -z "$next" ]; then
		echo "mbsbatch: $1: no requeue left and no next job of a chain; the run ends here" >&2
	elif [ -n "$excl" ] && mbs_exclude "$next"; then
		echo "mbsbatch: $1: the chain's next job $next runs without $excl" >&2
	else
		echo "mbsbatch: $1: the chain's next job $next runs next" >&2
	fi
	exit 75
}

# A chain's next job leaves out what this one already does.
if [ -s "$mbs_state.nodes" ]; then
	mbs_f=$(mbs_next_job)
	[ -z "$mbs_f" ] || mbs_exclude "$mbs_f" || true
fi

# The stall stop: the last checkpoint, as its tracker file says.
mbs_checkpoint() {
{{#launch.checkpoint_dir}}
	local d={{launch.checkpoint_dir}}

	if [ -r "$d/latest_checkpointed_iteration.txt" ]; then
		echo "iteration $(head -c 64 "$d/latest_checkpointed_iteration.txt" |
		    tr -dc 'a-zA-Z0-9_.-')"
	elif [ -e "$d/latest_train_state.pt" ]; then
		echo "saved $(stat -c %Y "$d/latest_train_state.pt")"
	else
		echo none
	fi
{{/launch.checkpoint_dir}}
{{^launch.checkpoint_dir}}
	echo none
{{/launch.checkpoint_dir}}
}

# Each restart (a requeue or a chain's next job) that finds the same last
# checkpoint as the one before counts; --stall-restarts of them in a row
# stop the run (exit 76).
mbs_seen=
mbs_count=0
mbs_now=$(mbs_checkpoint)
if [ "$mbs_restarts" -gt 0 ] || [ -n "${MBSBATCH_CHAIN_PREV:-}" ]; then
	if [ -r "$mbs_state.progress" ]; then
		read -r mbs_count mbs_seen <"$mbs_state.progress" || true
	fi
	case $mbs_count in
	''|*[!0-9]*) mbs_count=0 ;;
	esac
	if [ "$mbs_seen" = "$mbs_now" ]; then
		mbs_count=$((mbs_count + 1))
	else
		mbs_count=0
	fi
fi
echo "$mbs_count $mbs_now" >"$mbs_state.progress" || true
if [ "$mbs_count" -ge "$mbs_stall" ]; then
	echo "mbsbatch: stalled: $mbs_count restarts in a row without a new checkpoint (last: $mbs_now); stopping" >&2
	exit 76
fi

# The node gate: one task per node, all at once, each within
# $mbs_gate_timeout s: the GPUs visible, as many as the job asked and of
# its type (nvidia-smi), no pending page retirement or row remapping and
# no uncorrected ECC error, DCGM's level-1 diagnostic when dcgmi is
# there, and a one-node all-reduce when nccl-tests' all_reduce_perf is
# (its bus bandwidth at least MBSBATCH_GATE_BUSBW GB/s when that is set).
mbs_gate_node=$(cat <<'MBSBATCH_GATE'
node=${SLURMD_NODENAME:-$(hostname -s)}
want=$1 type=$2 t=$3
bad() { echo "mbsbatch: gate: $node: failed: $*"; exit 1; }
# Without nvidia-smi on the node (a site may have it only in its
# containers) the GPUs are not checked, and the node is not blamed.
if command -v nvidia-smi >/dev/null 2>&1; then
	names=$(timeout "$t" nvidia-smi --query-gpu=name --format=csv,noheader 2>&1) ||
	    bad "nvidia-smi: $(printf '%s\n' "$names" | head -n 1)"
	n=$(printf '%s\n' "$names" | grep -c .)
	[ "$n" -ge "$want" ] || bad "$n GPUs visible, $want asked"
	if [ -n "$type" ]; then
		other=$(printf '%s\n' "$names" | grep -Eiv "(^|[^a-z])$type" | head -n 1)
		[ -z "$other" ] || bad "a GPU is not a $type: $other"
	fi
	for f in retired_pages.pending remapped_rows.pending \
	    remapped_rows.failure ecc.errors.uncorrected.volatile.total; do
		v=$(timeout "$t" nvidia-smi --query-gpu=index,$f \
		    --format=csv,noheader 2>/dev/null) || continue
		e=$(printf '%s\n' "$v" | awk -F ', *' -v f="$f" '
		    $2 == "Yes" || ($2 ~ /^[0-9]+$/ && $2 > 0) {
			print "GPU " $1 ": " f " " $2; exit }')
		[ -z "$e" ] || bad "$e"
	done
	what="$n x $(printf '%s\n' "$names" | head -n 1)"
else
	what="no nvidia-smi: GPUs not checked"
fi
if command -v dcgmi >/dev/null 2>&1; then
	out=$(timeout "$t" dcgmi diag -r 1 2>&1) ||
	    bad "dcgmi diag -r 1: $(printf '%s\n' "$out" | grep -Ei -m 1 'fail|error' || echo failed)"
fi
if command -v all_reduce_perf >/dev/null 2>&1; then
	out=$(timeout "$t" all_reduce_perf -b 256M -e 256M -g "$want" 2>&1) ||
	    bad "all_reduce_perf failed: $(printf '%s\n' "$out" | tail -n 1)"
	bw=$(printf '%s\n' "$out" |
	    sed -n 's/^# *Avg bus bandwidth *: *\([0-9.]*\).*/\1/p')
	if [ -n "${MBSBATCH_GATE_BUSBW:-}" ] && [ -n "$bw" ] &&
	    awk -v b="$bw" -v f="$MBSBATCH_GATE_BUSBW" 'BEGIN { exit !(b < f) }'; then
		bad "all-reduce bus bandwidth $bw GB/s, under $MBSBATCH_GATE_BUSBW"
	fi
fi
echo "mbsbatch: gate: $node: ok ($what)"
MBSBATCH_GATE
)

mbs_gate_run() {
	local out n failed="" answered=0 why

	[ "$mbs_gate" = true ] || return 0
	out=$(timeout -k 5 $((mbs_gate_timeout + 15)) srun \
	    --ntasks="$SLURM_JOB_NUM_NODES" --ntasks-per-node=1 \
	    --kill-on-bad-exit=0 --job-name=mbsbatch-gate \
	    bash -c "$mbs_gate_node" mbsbatch-gate "$mbs_gpus" \
	    "$mbs_gpu_type" "$mbs_gate_timeout" 2>&1) || true
	for n in $(scontrol show hostnames "$SLURM_JOB_NODELIST"); do
		if printf '%s\n' "$out" | grep -q "^mbsbatch: gate: $n: ok"; then
			answered=$((answered + 1))
			continue
		fi
		why=$(printf '%s\n' "$out" |
		    sed -n "s/^mbsbatch: gate: $n: failed: //p" | head -n 1)
		if [ -n "$why" ]; then
			answered=$((answered + 1))
		else
			why="no answer within $mbs_gate_timeout s"
		fi
		failed="$failed $n"
		eval "mbs_why_$(printf '%s' "$n" | tr -c 'a-zA-Z0-9_' _)=\$why"
	done
	if [ "$answered" -eq 0 ]; then
		echo "mbsbatch: gate: no node answered; training without the gate: $(printf '%s\n' "$out" | head -n 3 | paste -sd ' ' -)" >&2
		return 0
	fi
	if [ -z "$failed" ]; then
		echo "mbsbatch: gate: $answered nodes passed"
		return 0
	fi
	for n in $failed; do
		eval "why=\$mbs_why_$(printf '%s' "$n" | tr -c 'a-zA-Z0-9_' _)"
		echo "mbsbatch: gate: $n failed: $why" >&2
		mbs_blame "$n" "gate: $why"
	done
	mbs_lost_check
	mbs_restart "gate"
}

# The hang watchdog.  After the first two iteration lines of the log, no
# new one for longer than max($mbs_hang_steps x the median time between
# them, the floor) is a hang (saving a checkpoint or evaluating counts as
# progress).  The time between lines is the iterations between them
# (Megatron logs every --log-interval) times the time per iteration each
# line gives.  The step is then given $mbs_dump_grace s to end by itself
# (PyTorch's watchdog and its dump), signalled (SIGTERM), killed 15 s
# later, and its srun 10 s after that; then the run restarts as after
# the gate.  mbs_log_scan SIZE: what the log holds after mbs_off, in whole
# lines: "BYTES LINES ACTIVITY LAST-ITERATION MS-BETWEEN-LINES...".
mbs_log_scan() {
	tail -c +"$((mbs_off + 1))" "$mbs_log" 2>/dev/null | head -c "$1" |
	    LC_ALL=C awk -v n="$1" -v prev="$mbs_iter" '
	c + length($0) + 1 > n { exit }
	{ c += length($0) + 1 }
	/ iteration +[0-9]+\/ *[0-9]+ \|/ {
		it++
		match($0, / iteration +[0-9]+\//)
		i = substr($0, RSTART, RLENGTH)
		gsub(/[^0-9]/, "", i)
		if (match($0, /elapsed time per iteration \(ms\): *[0-9.]+/)) {
			s = substr($0, RSTART, RLENGTH)
			sub(/.*: */, "", s)
			if (prev > 0 && i + 0 > prev + 0)
				ms = ms " " (i - prev) * s
		}
		prev = i
		next
	}
	/saving checkpoint|saved checkpoint|validation loss|[Ee]valuating/ { act = 1 }
	END { printf "%d %d %d %d%s\n", c, it, act, prev, ms }'
}

# The median of the last 20 times between lines, in whole seconds
# (rounded up).
mbs_median() {
	printf '%s\n' $mbs_periods | tail -n 20 | sort -g |
	    awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] :
		(v[NR / 2] + v[NR / 2 + 1]) / 2; s = m / 1000;
		printf "%d\n", s == int(s) ? s : int(s) + 1 }'
}

# The job's steps running now but the batch step: the training step.
mbs_job_steps() {
	squeue -h -s -j "$SLURM_JOB_ID" -o %i 2>/dev/null |
	    grep -E "^$SLURM_JOB_ID\.[0-9]+$" || true
}

# mbs_wait_step SECONDS: wait that long at most for the step to end;
# false if it still runs.
mbs_wait_step() {
	local t=0

	while kill -0 "$pid" 2>/dev/null && [ "$t" -lt "$1" ]; do
		sleep 1
		t=$((t + 1))
	done
	! kill -0 "$pid" 2>/dev/null
}

# mbs_signal_steps SIGNAL: send it to every step of the job.
mbs_signal_steps() {
	local s

	for s in $(mbs_job_steps); do
		scancel --signal="$1" "$s" 2>/dev/null || true
	done
}

# mbs_end_step: end the training step within 60 s of the hang: time to
# dump, then TERM, then KILL, then its srun.
mbs_end_step() {
	mbs_wait_step "$mbs_dump_grace" && return 0
	mbs_signal_steps TERM
	mbs_wait_step 15 && return 0
	mbs_signal_steps KILL
	mbs_wait_step 10 && return 0
	kill -KILL "$pid" 2>/dev/null || true
}

# mbs_hang_nodes FROM ERR-FROM: the nodes whose ranks stopped, when the
# log (from byte FROM) or the error file, when another (from ERR-FROM),
# tells:
# PyTorch's watchdog names the ranks that waited ("[Rank N] Watchdog
# caught collective operation timeout"); with one task per GPU under
# srun (block distribution, rank / tasks per node = the node's place in
# the allocation), a node none of whose ranks waited is the one that
# stopped.  Nothing when no rank said so.
mbs_hang_nodes() {
	local ranks i=0 n

	[ "$mbs_launcher" = srun ] || return 0
	ranks=$({ tail -c +"$(($1 + 1))" "$mbs_log" 2>/dev/null
	    if [ -f "$mbs_err" ] && [ ! "$mbs_err" -ef "$mbs_log" ]; then
		tail -c +"$(($2 + 1))" "$mbs_err" 2>/dev/null
	    fi; } |
	    sed -n 's/.*\[Rank \([0-9]*\)\] Watchdog caught collective operation timeout.*/\1/p' |
	    sort -un)
	[ -n "$ranks" ] || return 0
	for n in $(scontrol show hostnames "$SLURM_JOB_NODELIST"); do
		if ! printf '%s\n' $ranks |
		    awk -v i="$i" -v t="$mbs_tasks_per_node" '
		    int($1 / t) == i { f = 1 } END { exit !f }'; then
			echo "$n"
		fi
		i=$((i + 1))
	done
}

# mbs_run: the gate, then "${step[@]}" in the background ($pid), its log
# watched; sets status.  A failed gate or a hang ends here, through
# mbs_restart.
mbs_run() {
	local size res bytes it act med thr now last quiet start start_err n
	local nodes

	mbs_gate_run
	"${step[@]}" &
	pid=$!
	mbs_periods=
	mbs_iter=0
	mbs_off=0
	if [ ! -f "$mbs_log" ]; then
		echo "mbsbatch: hang watchdog off: the job's output '$mbs_log' is not a file"
	else
		mbs_off=$(stat -c %s "$mbs_log" 2>/dev/null) || mbs_off=0
	fi
	start=$mbs_off
	start_err=$(stat -c %s "$mbs_err" 2>/dev/null) || start_err=0
	it=0
	last=$(date +%s)
	while [ -f "$mbs_log" ] && kill -0 "$pid" 2>/dev/null; do
		sleep 1 &
		wait $! || true
		now=$(date +%s)
		size=$(stat -c %s "$mbs_log" 2>/dev/null) || continue
		[ "$size" -ge "$mbs_off" ] || mbs_off=0
		if [ "$size" -gt "$mbs_off" ]; then
			res=$(mbs_log_scan "$((size - mbs_off))") || true
			[ -n "$res" ] || continue
			set -- $res
			bytes=$1 n=$2 act=$3 mbs_iter=$4
			shift 4
			mbs_off=$((mbs_off + bytes))
			mbs_periods="$mbs_periods $*"
			if [ "$n" -gt 0 ] || { [ "$act" = 1 ] && [ "$it" -gt 0 ]; }; then
				last=$now
			fi
			it=$((it + n))
		fi
		[ "$it" -ge 2 ] || continue
		med=$(mbs_median) || true
		[ -n "$med" ] || med=0
		thr=$((mbs_hang_steps * med))
		[ "$thr" -ge "$mbs_hang_floor" ] || thr=$mbs_hang_floor
		quiet=$((now - last))
		[ "$quiet" -ge "$thr" ] || continue
		echo "mbsbatch: hang: at $(date -d "@$now" '+%F %T'), no new iteration for $quiet s (after $it lines; the limit is max($mbs_hang_steps x $med s between lines, floor $mbs_hang_floor s) = $thr s); ending the step" >&2
		mbs_end_step
		wait "$pid" 2>/dev/null || true
		echo "mbsbatch: hang: step ended $(($(date +%s) - now)) s after the hang was found" >&2
		nodes=$(mbs_hang_nodes "$start" "$start_err")
		for n in $nodes; do
			mbs_blame "$n" "hang: its ranks stopped"
		done
		[ -z "$nodes" ] || mbs_lost_check
		mbs_restart "hang"
	done
	status=0
	wait "$pid" || status=$?
}
