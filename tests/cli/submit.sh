# submit.sh: submit, status and cancel without a cluster: --dry-run, usage
# errors, scripts that cannot be carried.
. "${top_srcdir:-.}/tests/cli/lib.sh"

run submit --template command --command true --gpus 16 --dry-run --via sbatch
expect_status "dry-run" 0
expect_out_has "dry-run" "# mbsbatch submit --dry-run: nothing was sent"
expect_out_has "dry-run" "#SBATCH --nodes=2"
run submit --template command --command true --chain 0
expect_status "chain 0" 2
expect_err "chain 0" "mbsbatch: --chain: '0' is too small (expected a whole number from 1 to 1000)"
run submit --script /nonexistent.sbatch
expect_status "missing script" 1
expect_err "missing script" "mbsbatch: script '/nonexistent.sbatch': No such file or directory"
printf '#!/bin/sh\n#SBATCH --gpus=16\necho\n' >"$tmp/bad.sbatch"
if "$MBSBATCH" --version | grep -q native; then
	run submit --script "$tmp/bad.sbatch" --via native --dry-run
	expect_status "uncarried directive" 2
	expect_err "uncarried directive" "mbsbatch: script '$tmp/bad.sbatch': line 2: --gpus=16: not an option mbsbatch can send; submit with --via sbatch"
else
	# Built without libslurm: the back end asked for is refused by name.
	run submit --script "$tmp/bad.sbatch" --via native --dry-run
	expect_status "no native back end" 2
	expect_err_prefix "no native back end" "mbsbatch: --via native: this mbsbatch has no native back end"
fi
# sbatch reads such lines itself: no refusal with --via sbatch.
run submit --script "$tmp/bad.sbatch" --via sbatch --dry-run
expect_status "uncarried directive, sbatch" 0
# No Slurm configuration: one line, Slurm's reason.
SLURM_CONF=/nonexistent "$MBSBATCH" status 12 --via sbatch >"$tmp/out" 2>"$tmp/err"
status=$?
expect_status "no slurm.conf" 1
if [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q '^mbsbatch: squeue: ' "$tmp/err"; then ok; else bad "no slurm.conf: $(cat "$tmp/err")"; fi
printf 'echo no shebang\n' >"$tmp/noshebang.sbatch"
run submit --script "$tmp/noshebang.sbatch"
expect_status "no shebang" 2
run submit x.json --script y.sbatch
expect_err "jobfile and script" "mbsbatch: submit: give a JOBFILE or --script FILE, not both"
run submit --template command --command true --via rest
expect_status "rest without a URL" 2
expect_err_prefix "rest without a URL" "mbsbatch: --via rest: no REST URL"
# The dry run shows the request with the token redacted, and sends nothing.
SLURM_JWT=sEcReT-tOkEn-123 "$MBSBATCH" submit --template command --command true --gpus 8 \
    --via rest --rest-url http://127.0.0.1:9 --api-version v0.0.40 --dry-run >"$tmp/out" 2>"$tmp/err"
status=$?
expect_status "rest dry-run" 0
expect_out_has "rest dry-run" "POST http://127.0.0.1:9/slurm/v0.0.40/job/submit"
expect_out_has "rest dry-run" "X-SLURM-USER-TOKEN: <redacted>"
expect_out_has "rest dry-run" '"tres_per_node": "gres/gpu:8"'
if grep -q 'sEcReT' "$tmp/out" "$tmp/err"; then bad "rest dry-run: the token was printed"; else ok; fi
# sbatch's variables win over the script's lines (and sbatch's correction
# of --nodes to --ntasks is made), with every back end.
printf '#!/bin/sh\n#SBATCH --nodes=2 --ntasks=1 -p batch\nsrun true\n' >"$tmp/env.sbatch"
SBATCH_PARTITION=debug "$MBSBATCH" submit --script "$tmp/env.sbatch" \
    --via rest --rest-url http://127.0.0.1:9 --api-version v0.0.40 --dry-run >"$tmp/out" 2>"$tmp/err"
status=$?
expect_status "SBATCH_PARTITION" 0
expect_out_has "SBATCH_PARTITION" '"partition": "debug"'
expect_out_has "SBATCH_PARTITION, corrected nodes" '"nodes": "1"'
if [ "$(cat "$tmp/err")" = "mbsbatch: submit: warning: SBATCH_PARTITION=debug overrides the script's --partition=batch (line 2), as it does with sbatch
mbsbatch: submit: warning: can't run 1 processes on 2 nodes, setting nnodes to 1" ]; then ok; else bad "SBATCH_PARTITION: the warnings"; fi
SBATCH_TIMELIMIT=1:xx "$MBSBATCH" submit --script "$tmp/env.sbatch" \
    --via rest --rest-url http://127.0.0.1:9 --dry-run >"$tmp/out" 2>"$tmp/err"
status=$?
expect_status "invalid SBATCH_TIMELIMIT" 2
expect_err "invalid SBATCH_TIMELIMIT" "mbsbatch: SBATCH_TIMELIMIT: '1:xx' is not a Slurm time (MINUTES, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS or UNLIMITED)"
expect_no_stdout "invalid SBATCH_TIMELIMIT"
SBATCH_GPUS=8 "$MBSBATCH" submit --script "$tmp/env.sbatch" \
    --via rest --rest-url http://127.0.0.1:9 --dry-run >"$tmp/out" 2>"$tmp/err"
status=$?
expect_status "SBATCH_GPUS" 2
expect_err "SBATCH_GPUS" "mbsbatch: SBATCH_GPUS: sets --gpus, which mbsbatch cannot send; unset it, or submit with --via sbatch"
# sbatch reads them itself; its own warning is its to say.
SBATCH_GPUS=8 "$MBSBATCH" submit --script "$tmp/env.sbatch" --via sbatch --dry-run >"$tmp/out" 2>"$tmp/err"
status=$?
expect_status "SBATCH_GPUS, sbatch" 0
if [ -s "$tmp/err" ]; then bad "SBATCH_GPUS, sbatch: stderr"; else ok; fi
printf 'tok\n' >"$tmp/token"
chmod 644 "$tmp/token"
run status 1 --via rest --rest-url http://127.0.0.1:9 --token-file "$tmp/token"
expect_status "token readable by others" 2
expect_err_prefix "token readable by others" "mbsbatch: token file '$tmp/token': readable by others (mode 0644); refused"
run status 1 --via rest --rest-url http://127.0.0.1:9 --api-version v0.0.99 --token-file /dev/null
expect_status "bad api version or token file" 1
run submit --template command --command true --via carrier-pigeon
expect_err_prefix "bad via" "mbsbatch: --via: 'carrier-pigeon' is not a back end"
run submit --recipe llama32_1b_pretrain_config --sp
expect_status "invalid layout" 3
expect_no_stdout "invalid layout"
run status
expect_err "status without id" "mbsbatch: status: which job? give its JOBID"
run status abc
expect_status "status abc" 2
expect_err "status abc" "mbsbatch: status: job id 'abc' is not a number"
run cancel 0
expect_status "cancel 0" 2
# --test-only queues nothing: not with what needs a job queued or prints
# something else; nothing is connected to first.
for o in --dry-run "--chain 2" --wait --parsable; do
	# shellcheck disable=SC2086
	run submit --template command --command true --test-only $o \
	    --via rest --rest-url http://127.0.0.1:9
	expect_status "--test-only $o" 2
	expect_err "--test-only $o" "mbsbatch: submit: --test-only queues nothing: not with ${o% *}"
done

# Chains: --chain-on needs --chain; cancel --chain needs a JOBID.
run submit --template command --command true --chain-on ok
expect_status "chain-on without chain" 2
expect_err_prefix "chain-on without chain" "mbsbatch: submit: --chain-on needs --chain N"
expect_no_stdout "chain-on without chain"
run submit --template command --command true --chain 2 --chain-on maybe
expect_status "chain-on maybe" 2
expect_err "chain-on maybe" "mbsbatch: --chain-on: 'maybe' is not any, ok or notok"
run submit --template command --command true --gpus 8 --chain 3 --chain-on ok --dry-run --via sbatch
expect_status "chain-on dry run" 0
expect_out_has "chain-on dry run" "# jobs 2 to 3 of the chain: each as the first, with --dependency=afterok:PREVIOUS --kill-on-invalid-dep=yes and MBSBATCH_CHAIN_PREV=PREVIOUS MBSBATCH_CHAIN_SEGMENT=K MBSBATCH_CHAIN_ON=ok in its environment"
run submit --template command --command true --gpus 8 --chain 2 --dry-run --via sbatch
expect_out_has "chain dry run: afterany" "--dependency=afterany:PREVIOUS and MBSBATCH_CHAIN_PREV"
run cancel --chain
expect_status "cancel --chain without id" 2
expect_err "cancel --chain without id" "mbsbatch: cancel: which job? give its JOBID"
run cancel --chain --journal j
expect_status "cancel --chain --journal" 2
expect_err "cancel --chain --journal" "mbsbatch: cancel: --chain takes a JOBID, not --journal FILE"
run cancel --json --journal j
expect_status "cancel --json --journal" 2
run cancel 12 --chain --journal j
expect_status "cancel id --chain --journal" 2
run submit --script "$tmp/bad.sbatch" --partition x
expect_status "--script with a layout option" 2
expect_err_prefix "--script with a layout option" "mbsbatch: submit: --partition does not apply to --script"
run status 12 --tp 2
expect_status "status takes no layout" 2
expect_err_prefix "status takes no layout" "mbsbatch: status: unknown option '--tp'"
run --version
expect_out_has "--version lists back ends" "back ends: "
expect_out_has "--version lists sbatch" "sbatch"
expect_out_has "--version lists rest" "rest"
if grep -q native "$tmp/out"; then
	run submit --template command --command true --gpus 16 --dry-run --via native --hold
	expect_status "native dry-run" 0
	expect_out_has "native dry-run" "#   nodes            2"
	expect_out_has "native dry-run" "#   gpus_per_node    8"
	expect_out_has "native dry-run" "#   hold             yes"
fi

# A unix socket that is not there: said so, not curl's "localhost port 80".
run status 1 --via rest --rest-url "unix:$tmp/none.sock"
expect_status "no socket" 1
expect_err_prefix "no socket" "mbsbatch: slurmrestd 'unix:$tmp/none.sock': No such file or directory"
if [ "$(sed -n 1p "$tmp/err")" = "mbsbatch: slurmrestd 'unix:$tmp/none.sock': No such file or directory" ]; then ok; else bad "no socket: $(cat "$tmp/err")"; fi

# A squeue whose output is not JSON (a real one cannot be made to print
# that: a stand-in on PATH): one error, for status and for cancel
# --chain (which lists the user's jobs), and under make check-valgrind
# nothing of what was read leaks.  (No sbatch --version without a
# cluster: the release is not known, so --json is asked for.)
mkdir -p "$tmp/bin"
printf '#!/bin/sh\necho "JobId=12 JobName=x y UserId=root(0) Reason=None Partition=p NodeList=n1 NumNodes=1 ExitCode=0:0"\n' \
    >"$tmp/bin/squeue"
chmod +x "$tmp/bin/squeue"
for cmd in "status 12" "cancel --chain 12"; do
	# shellcheck disable=SC2086
	PATH="$tmp/bin:$PATH" "$MBSBATCH" $cmd --via sbatch >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
	expect_status "$cmd, not JSON" 1
	expect_err_prefix "$cmd, not JSON" "mbsbatch: squeue --json: its output is not JSON: 'JobId=12 JobName=x y UserId=root(0) Reason=None Partition=p ...'"
	expect_no_stdout "$cmd, not JSON"
done
# cancel asks scancel --verbose alone, which says (and exits 0) that it
# does not know the job, or that it had ended (a stand-in saying what
# scancel 22.05 to 25.11 says: _cancel_job_id() in src/scancel/scancel.c).
for said in "Invalid job id specified:mbsbatch: job 12: no such job (Slurm: Invalid job id specified)" \
    "Job/step already completing or completed:mbsbatch: job 12: already ended, not cancelled (Slurm: Job/step already completing or completed)"; do
	printf '#!/bin/sh\necho "scancel: Terminating job 12" >&2\necho "scancel: error: Kill job error on job id 12: %s" >&2\n' \
	    "${said%%:*}" >"$tmp/bin/scancel"
	chmod +x "$tmp/bin/scancel"
	PATH="$tmp/bin:$PATH" "$MBSBATCH" cancel 12 --via sbatch >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
	expect_status "cancel, scancel: ${said%%:*}" 1
	expect_err "cancel, scancel: ${said%%:*}" "${said#*:}"
done

# slurmctld out of reach, on 22.05 (a stand-in sbatch says the release,
# a stand-in squeue answers as 22.05's does: --json exits 0 with no more
# than "Unspecified error", src/plugins/openapi/v0.0.38/jobs.c:1078;
# its columns exit 1 with the reason): squeue runs once (each run is
# squeue's own 18 s of retries against a real cluster), and says why.
mkdir -p "$tmp/ctld"
printf '#!/bin/sh\necho "slurm-wlm 22.05.8"\n' >"$tmp/ctld/sbatch"
cat >"$tmp/ctld/squeue" <<'EOF'
#!/bin/sh
echo "$*" >>"$CALLS"
case " $* " in
*" --json "*) echo '{"meta": {}, "errors": [{"description": "Failed while looking for jobs", "error_number": -1, "error": "Unspecified error", "source": "slurm_load_jobs"}], "jobs": []}'
	exit 0 ;;
esac
echo "slurm_load_jobs error: Unable to contact slurm controller (connect failure)" >&2
exit 1
EOF
chmod +x "$tmp/ctld/sbatch" "$tmp/ctld/squeue"
for cmd in "status 12" "jobs" "cancel --chain 12"; do
	: >"$tmp/calls"
	# shellcheck disable=SC2086
	CALLS=$tmp/calls PATH="$tmp/ctld:$PATH" "$MBSBATCH" $cmd --via sbatch >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
	expect_status "$cmd, controller down" 1
	expect_err_prefix "$cmd, controller down" "mbsbatch: squeue: Unable to contact slurm controller (connect failure)"
	if [ "$(wc -l <"$tmp/calls")" -eq 1 ]; then ok; else bad "$cmd, controller down: squeue ran $(wc -l <"$tmp/calls") times: $(cat "$tmp/calls")"; fi
done

# sbatch --wait (SBATCH_WAIT, "#SBATCH --wait": sbatch's own) prints the
# id of the job it queued, waits for the job to end and exits with its
# exit status (src/sbatch/sbatch.c _job_wait()): the job was queued, and
# the submission said so (a stand-in sbatch; it was "sbatch: failed
# without a message").  No id: not queued, in sbatch's words.
cat >"$tmp/ctld/sbatch" <<'EOF'
#!/bin/sh
case $1 in --version) echo "slurm-wlm 22.05.8"; exit 0 ;; esac
cat >/dev/null
[ -n "$NOID" ] && { echo "sbatch: error: Batch job submission failed: Invalid partition name specified" >&2; exit 1; }
echo 12
exit 3
EOF
run_wait() {
	# shellcheck disable=SC2086
	PATH="$tmp/ctld:$PATH" "$MBSBATCH" submit --template command --command true \
	    --gpus 8 --via sbatch "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
}
run_wait --parsable
expect_status "sbatch --wait, the job failed" 0
if [ "$(cat "$tmp/out")" = 12 ]; then ok; else bad "sbatch --wait, the job failed: not its id"; fi
expect_err "sbatch --wait, the job failed" "mbsbatch: submit: warning: job 12: sbatch --wait: the job has ended, exit status 3"
NOID=1 run_wait --parsable
expect_status "sbatch refused" 1
expect_err "sbatch refused" "mbsbatch: sbatch: Batch job submission failed: Invalid partition name specified"

# No cluster at all (no --via, no REST URL, no slurm.conf): sbatch, the
# last resort, fails; the hint says so and how to name a cluster, and
# nothing is left behind (the log directory made for the job removed).
mkdir -p "$tmp/nocluster"
(cd "$tmp/nocluster" && env -u SLURM_CONF -u SLURM_CONF_SERVER "$MBSBATCH" submit \
    --template command --command true --gpus 8 --output 'logs/%x-%j.out' \
    >"$tmp/out" 2>"$tmp/err" </dev/null)
status=$?
if [ -e /etc/slurm/slurm.conf ] || [ -e /run/slurm/conf/slurm.conf ]; then
	echo "note: a slurm.conf is installed here: the no-cluster case is not tried"
else
	expect_status "no cluster" 1
	case $(sed -n 2p "$tmp/err") in
	"hint: no Slurm cluster is configured here, so the sbatch back end was used: no --via, no REST URL, and no slurm.conf (SLURM_CONF unset, no /"*"slurm.conf); set SLURM_CONF to the cluster's slurm.conf, or give --rest-url URL, or --cluster NAME of a profile in the config file")
		ok ;;
	*)
		bad "no cluster: the hint" ;;
	esac
	if [ -z "$(ls -A "$tmp/nocluster")" ]; then ok; else bad "no cluster: left $(ls -A "$tmp/nocluster")"; fi
fi

finish
