# record.sh: the record of submitted jobs without a cluster, through
# stand-ins for sbatch, squeue and sacct on PATH: submit (each job of
# a chain) and sweep record each job in the XDG state directory, and once
# neither slurmctld nor accounting knows a job, logs and status --check
# still find its files by the record; without one they say "no such
# job".  tests/slurm/logpaths.sh checks the paths against real jobs.
. "${top_srcdir:-.}/tests/cli/lib.sh"
: "${JQ:=jq}"
[ -n "$JQ" ] || JQ=jq
need "$JQ" "to read --json and the record"
cd "$tmp" || exit 1
export XDG_STATE_HOME="$tmp/state"
rec="$XDG_STATE_HOME/mbsbatch/submitted.jsonl"

# sbatch queues job 4241 + N; slurmctld and accounting know none.
mkdir -p fake
cat >fake/sbatch <<'EOF'
#!/bin/sh
case $* in *--version*) echo "slurm 22.05.8"; exit 0 ;; esac
cat >/dev/null
n=$(cat "$FAKE_DIR/n" 2>/dev/null || echo 4241)
n=$((n + 1))
echo "$n" >"$FAKE_DIR/n"
echo "$n"
EOF
# squeue --json and sacct --noheader, as 23.02 on answer for a job they
# do not know.
printf '#!/bin/sh\necho "slurm_load_jobs error: Invalid job id specified" >&2\nexit 1\n' >fake/squeue
printf '#!/bin/sh\nexit 0\n' >fake/sacct
chmod +x fake/sbatch fake/squeue fake/sacct
FAKE_DIR=$tmp/fake
export FAKE_DIR
unset SLURM_CONF

# fake ARGS...: mbsbatch with the stand-ins.
fake() {
	PATH="$tmp/fake:$PATH" "$MBSBATCH" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
}

printf '#!/bin/sh\n#SBATCH --job-name=rec\n#SBATCH --output=logdir/%%x-%%j.log\n#SBATCH --error=logdir/%%x-%%j.err\necho hi\n' >job.sh
fake submit --script job.sh --via sbatch --chain 2 --json
expect_status "submit a chain" 0
if [ "$("$JQ" -c .job_ids "$tmp/out")" = "[4242,4243]" ]; then ok; else bad "submit: job ids"; fi
# The directory is 0700, the record one line a job.
if [ "$(stat -c %a "$XDG_STATE_HOME/mbsbatch")" = 700 ] &&
    [ "$(stat -c %a "$rec")" = 600 ]; then ok; else bad "record modes"; fi
got=$("$JQ" -c '[.job_id, .backend, .release, .name, .workdir, .output.pattern, .output.path, .error.path]' "$rec" | tr '\n' ' ')
want="[4242,\"sbatch\",2205,\"rec\",\"$tmp\",\"$tmp/logdir/%x-%j.log\",\"$tmp/logdir/rec-4242.log\",\"$tmp/logdir/rec-4242.err\"] [4243,\"sbatch\",2205,\"rec\",\"$tmp\",\"$tmp/logdir/%x-%j.log\",\"$tmp/logdir/rec-4243.log\",\"$tmp/logdir/rec-4243.err\"] "
if [ "$got" = "$want" ]; then ok; else bad "the record: $got, want $want"; fi

# Slurm forgot them: logs finds the files by the record.
printf 'line 1\nline 2\n' >logdir/rec-4242.log
printf 'oops\n' >logdir/rec-4242.err
fake logs 4242 --via sbatch
expect_status "logs, recorded" 0
if [ "$(cat "$tmp/out")" = "$(printf 'line 1\nline 2')" ]; then ok; else bad "logs, recorded: stdout"; fi
fake logs 4242 --err --lines 1 --via sbatch
if [ "$(cat "$tmp/out")" = "oops" ]; then ok; else bad "logs --err, recorded: stdout"; fi
fake logs 4242 --json --via sbatch
expect_json "logs --json, recorded" '[.job_id, .state, .source, .output, .error, .complete]' \
    "[4242,null,\"record\",\"$tmp/logdir/rec-4242.log\",\"$tmp/logdir/rec-4242.err\",true]"
fake logs 4243 --via sbatch
expect_status "logs, recorded, not written" 1
expect_err_prefix "logs, recorded, not written" "mbsbatch: logs: job 4243's output $tmp/logdir/rec-4243.log is not on this host"
# status --check judges the log the record names (not a Megatron log:
# unusable, 2), where it said "no such job".
fake status 4242 --check --via sbatch
expect_status "status --check, recorded" 2
expect_err "status --check, recorded" "mbsbatch: log '$tmp/logdir/rec-4242.log': unusable: no Megatron, Slurm or mbsbatch line"
fake status 4242 --check --json --via sbatch
expect_json "status --check --json, recorded" '[.job_id, .source, .check.verdict]' '[4242,"record","unusable"]'
# Without the record: no such job, as before.
XDG_STATE_HOME=$tmp/none fake logs 4242 --via sbatch
expect_status "logs, not recorded" 1
expect_err "logs, not recorded" "mbsbatch: job 4242: no such job (neither slurmctld nor accounting knows it)"
XDG_STATE_HOME=$tmp/none fake status 4242 --check --via sbatch
expect_err "status --check, not recorded" "mbsbatch: job 4242: no such job (neither slurmctld nor accounting knows it)"
# Another profile's job 4242 is another job.
printf '{"clusters": {"other": {"via": "sbatch"}}}\n' >cfg.json
MBSBATCH_CONFIG=$tmp/cfg.json fake logs 4242 --cluster other
expect_status "logs, another profile" 1

# A corrupt line, and one cut short, do not hide the others.
printf 'garbage\n{"v":1,"job_id":4242,"outp' >>"$rec"
fake logs 4242 --via sbatch
expect_status "logs, after junk" 0
fake submit --script job.sh --via sbatch --parsable
expect_status "submit after junk" 0
if "$JQ" -R 'fromjson? | select(.job_id == 4244) | .output.path' "$rec" | grep -q rec-4244.log; then ok; else bad "record after junk"; fi

# A record that cannot be written: the job is queued all the same, and
# the warning says why.
XDG_STATE_HOME=/proc/nonexistent fake submit --script job.sh --via sbatch --parsable
expect_status "unrecorded submit" 0
if [ "$(cat "$tmp/out")" = 4245 ] && grep -q "^mbsbatch: submit: warning: job 4245 is not recorded: " "$tmp/err"; then ok; else bad "unrecorded submit: $(cat "$tmp/err")"; fi

# A sweep records each job it queues.
fake sweep --template command --command true --gpus 8 --via sbatch --parallel 1 \
    --grid tp=1,2 --no-array --journal s.sweep
expect_status "sweep" 0
if [ "$("$JQ" -R -c 'fromjson? | select(.job_id >= 4246) | [.job_id, .backend]' "$rec" | tr '\n' ' ')" = '[4246,"sbatch"] [4247,"sbatch"] ' ]; then ok; else
	bad "sweep: the record: $(tail -n 2 "$rec")"
fi

finish
