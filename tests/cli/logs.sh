# logs.sh: mbsbatch logs without a cluster: its usage errors, a sweep's
# journal that names no job for the point asked, and a job's files read
# safely (a table of what a job's owner can put where the job writes,
# through every command that reads a job's file; a stand-in squeue
# says where that is).  tests/slurm/logs.sh reads real jobs' logs.
. "${top_srcdir:-.}/tests/cli/lib.sh"
logdata=$(cd "$top_srcdir/tests/data/logs" && pwd)
swapopen=$(cd "${top_builddir:-.}/tests/cli" 2>/dev/null && pwd)/swapopen.so
cd "$tmp" || exit 1

run logs
expect_status "no job" 2
expect_err "no job" "mbsbatch: logs: which job? give its JOBID (or JOBID_TASK), or --journal FILE --point N"
run logs 12 --lines x
expect_status "bad --lines" 2
expect_err "bad --lines" "mbsbatch: --lines: 'x' is not a number (expected a whole number from 0 to 1000000000)"
run logs 12 --lines -1
expect_status "negative --lines" 2
run logs 12 --lines 1000000001
expect_err "huge --lines" "mbsbatch: --lines: '1000000001' is too large (expected a whole number from 0 to 1000000000)"
run logs 12_x
expect_status "bad task" 2
expect_err "bad task" "mbsbatch: logs: job id '12_x' has a task that is not a whole number from 0 to 4000000"
run logs 0
expect_err "job 0" "mbsbatch: logs: job id '0' is too small"
run logs 12 13
expect_status "two jobs" 2
run logs --point 1
expect_status "--point alone" 2
expect_err "--point alone" "mbsbatch: logs: --point N needs the sweep's --journal FILE"
run logs --journal j.sweep
expect_status "--journal alone" 2
expect_err "--journal alone" "mbsbatch: logs: --journal FILE needs --point N: which point of the sweep"
run logs 12 --journal j.sweep --point 1
expect_status "both" 2
expect_err "both" "mbsbatch: logs: give a JOBID or --journal FILE --point N, not both"
run logs 12 --json -f
expect_status "--json -f" 2
expect_err "--json -f" "mbsbatch: logs: --json prints where the job writes, not its log: not with -f"
run logs 12 --json --lines 3
expect_err "--json --lines" "mbsbatch: logs: --json prints where the job writes, not its log: not with --lines"
run logs 12 --follw
expect_status "unknown option" 2

# A journal: its points are checked before Slurm is asked.
run logs --journal nope.sweep --point 0
expect_status "no journal" 1
expect_err "no journal" "mbsbatch: journal 'nope.sweep': open: No such file or directory"
cat >j.sweep <<'EOF'
{"sweep":"abc123","version":1,"points":3,"grid":[["tp",["1","2","3"]]],"array":true}
{"submitting":"x-abc123-a0","points":[0,2]}
{"queued":"x-abc123-a0","job_id":41,"points":[0,2],"settings":["tp=1","tp=3"]}
EOF
run logs --journal j.sweep --point 3
expect_status "point out of range" 2
expect_err "point out of range" "mbsbatch: --point: '3' is too large (sweep abc123 of journal 'j.sweep' has 3 points, from 0)"
run logs --journal j.sweep --point 1
expect_status "point not queued" 1
expect_err "point not queued" "mbsbatch: logs: journal 'j.sweep' records no job for point 1: it was skipped, or is not queued yet"
# Point 2 is task 1 of array 41 (-v says so), which Slurm is then asked
# about: no Slurm here, so that fails, after the line.  The squeue is a
# stand-in printing what Debian's 22.05.8 prints without a slurm.conf,
# which it does only after retrying for 60 s.
mkdir -p "$tmp/noslurm"
cat >"$tmp/noslurm/squeue" <<'EOF'
#!/bin/sh
echo "squeue: error: s_p_parse_file: cannot stat file /nonexistent: No such file or directory, retrying in 1sec up to 60sec" >&2
echo "squeue: error: ClusterName needs to be specified" >&2
echo "squeue: fatal: Unable to process configuration file" >&2
exit 1
EOF
chmod +x "$tmp/noslurm/squeue"
PATH="$tmp/noslurm:$PATH" SLURM_CONF=/nonexistent "$MBSBATCH" -v logs --journal j.sweep --point 2 --via sbatch >"$tmp/out" 2>"$tmp/err"
status=$?
expect_status "point 2: no Slurm" 1
if head -n 1 "$tmp/err" | grep -qx "mbsbatch: logs: point 2 of journal 'j.sweep' is job 41_1"; then ok; else bad "point 2: -v line"; fi
if sed -n 2p "$tmp/err" | grep -qx "mbsbatch: squeue: Unable to process configuration file"; then ok; else bad "point 2: squeue's error: $(cat "$tmp/err")"; fi

# --check judges the whole files: not with a part of them.
run logs 12 --check -f
expect_status "--check -f" 2
expect_err "--check -f" "mbsbatch: logs: --check reads the job's whole output and error files: not with -f"
run logs 12 --check --lines 3
expect_err "--check --lines" "mbsbatch: logs: --check reads the job's whole output and error files: not with --lines"
run logs 12 --check --err
expect_err "--check --err" "mbsbatch: logs: --check reads the job's whole output and error files: not with --err"
run status --journal j.sweep --check
expect_status "status --journal --check" 2
expect_err "status --journal --check" "mbsbatch: status: --check judges one job's log: give its JOBID (a point's: 'mbsbatch logs --journal FILE --point N --check')"

# What a job's owner can put at its output (or error) path, through every
# command that reads a job's file: each ends at once with one line that
# says why (a sparse file: its data, none, and its holes said), never
# hangs on a FIFO, never reads /dev/zero or a terabyte of holes, never
# prints a file the job's user does not own (logfile.h).  The job is a
# stand-in squeue's, of user $FAKE_USER, writing to $FAKE_OUT and
# $FAKE_ERR.
need timeout "to stop a command that would hang"
fake="$tmp/bin"
mkdir -p "$fake" "$tmp/j"
# A completed job 12 as 22.05's squeue prints it in columns (the
# stand-in tests/data/jobtext/fake-squeue, from a recorded answer), with
# FAKE_USER as "name(uid)".
cat >"$fake/squeue" <<'EOF'
#!/bin/sh
u=${FAKE_USER%(*}
id=${FAKE_USER##*(}
export FAKE_COL_jobid=12 FAKE_COL_jobarrayid=12 FAKE_COL_state=COMPLETED \
    FAKE_COL_reason=None FAKE_COL_starttime=1796190511 \
    FAKE_COL_endtime=1796190512 FAKE_COL_nodelist=n1 FAKE_COL_batchhost=n1 \
    FAKE_COL_userid="${id%)}" FAKE_COL_username="$u" FAKE_COL_name=x \
    FAKE_COL_stdout="$FAKE_OUT" FAKE_COL_stderr="$FAKE_ERR" \
    FAKE_COL_workdir="$FAKE_DIR"
exec perl "$FAKE_SQUEUE" "$@"
EOF
cat >"$fake/sbatch" <<'EOF'
#!/bin/sh
[ "$1" = --version ] && { echo "slurm-wlm 22.05.8"; exit 0; }
cat >/dev/null
echo 12
EOF
chmod +x "$fake/squeue" "$fake/sbatch"
export FAKE_SQUEUE="$logdata/../jobtext/fake-squeue"
me="$(id -un)($(id -u))"
export FAKE_DIR="$tmp/j" FAKE_USER="$me"
good="$tmp/j/good.out"
cp "$logdata/mlm-success.out" "$good"
printf 'secret\n' >"$tmp/secret"
chmod 600 "$tmp/secret"

# now: seconds since the epoch, to the millisecond.
now() {
	date +%s.%N | cut -c1-14
}

# jrun DESC WANT ARGS...: mbsbatch ARGS on job 12, stopped after 20 s;
# its status is WANT.  $took: how long it took.
jrun() {
	d=$1 want=$2
	shift 2
	t0=$(now)
	PATH="$fake:$PATH" timeout 20 "$MBSBATCH" "$@" --via sbatch >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
	took=$(awk "BEGIN { printf \"%.2f\", $(now) - $t0 }")
	if [ "$status" -eq 124 ]; then bad "$d: did not end in 20 s"; return; fi
	expect_status "$d" "$want"
}

# hostile NAME: make what that case says at $tmp/j/NAME; its path in $p.
hostile() {
	p="$tmp/j/$1"
	rm -rf "$p"
	case "$1" in
	fifo) mkfifo "$p" ;;
	link-zero) ln -s /dev/zero "$p" ;;
	link-secret) ln -s "$tmp/secret" "$p" ;;
	link-log) ln -s "$good" "$p" ;;
	directory) mkdir "$p" ;;
	device) p=/dev/zero ;;
	sparse) truncate -s 1T "$p" ;;
	esac
}

# The words of each refusal, after the path.
why_of() {
	case "$1" in
	fifo) echo "is a FIFO, not a regular file: not read" ;;
	link-*) echo "is a symbolic link: not followed" ;;
	directory) echo "is a directory, not a regular file: not read" ;;
	device) echo "is a character device, not a regular file: not read" ;;
	esac
}

# Under valgrind (make check-valgrind: a second a run) each case goes
# through a third of the commands, each command through two or three of
# the cases.
vg=${MBSBATCH_REAL:+yes}
ci=0
# A file system without holes would read 1 TiB of zeros: not tried there.
sparse=sparse
if ! truncate -s 1T "$tmp/j/probe" 2>/dev/null ||
    [ "$(du -k "$tmp/j/probe" | cut -f1)" -gt 64 ]; then
	echo "logs.sh: no 1 TiB sparse file on $tmp's file system: not tried"
	sparse=
fi
rm -f "$tmp/j/probe"
for case in fifo link-zero link-secret link-log directory device $sparse; do
	hostile "$case"
	why=$(why_of "$case")
	ci=$((ci + 1))
	k=0
	for cmd in "logs 12" "logs 12 --lines 5" "logs 12 -f" "logs 12 --check" \
	    "status 12 --check" "logs 12 --err"; do
		k=$((k + 1))
		[ -n "$vg" ] && [ $(((k + ci) % 3)) -ne 0 ] && continue
		if [ "$cmd" = "logs 12 --err" ]; then
			export FAKE_OUT="$good" FAKE_ERR="$p"
			what="error file"
		else
			export FAKE_OUT="$p" FAKE_ERR="$p"
			what=output
		fi
		d="$case: $cmd"
		if [ "$case" = sparse ]; then
			case "$cmd" in
			*--check*)
				jrun "$d" 2 $cmd
				if grep -qx "mbsbatch: log '$p': unusable: only holes (a sparse file of 1099511627776 bytes never written)" "$tmp/err"; then ok; else bad "$d: not said unusable, holes"; fi ;;
			*)
				jrun "$d" 0 $cmd
				expect_no_stdout "$d"
				if grep -qx "mbsbatch: logs: $p: 1099511627776 bytes of holes (never written) left out" "$tmp/err"; then ok; else bad "$d: holes not said"; fi ;;
			esac
			echo "logs.sh: 1 TiB sparse output, $cmd: $took s"
			continue
		fi
		jrun "$d" 1 $cmd
		case "$cmd" in status*) ;; *) expect_no_stdout "$d" ;; esac
		if grep -q "^mbsbatch: \(logs\|status\): job 12's $what $p $why\$" "$tmp/err"; then ok; else bad "$d: no line '... $what $p $why'"; fi
	done
	# check-log is given a path by its reader: a link is followed, to
	# a regular file only.
	d="$case: check-log"
	t0=$(now)
	timeout 20 "$MBSBATCH" check-log "$p" >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
	case "$case" in
	link-log)
		expect_status "$d" 0 ;;
	link-secret)
		expect_status "$d" 2
		expect_err "$d" "mbsbatch: log '$p': unusable: no Megatron, Slurm or mbsbatch line" ;;
	sparse)
		expect_status "$d" 2
		expect_err "$d" "mbsbatch: log '$p': unusable: only holes (a sparse file of 1099511627776 bytes never written)"
		echo "logs.sh: 1 TiB sparse file, check-log: $(awk "BEGIN { printf \"%.2f\", $(now) - $t0 }") s" ;;
	fifo)
		expect_status "$d" 2
		expect_err_prefix "$d" "mbsbatch: log '$p': is a FIFO, not a regular file: not read"
		if sed -n 2p "$tmp/err" | grep -qx "hint: a stream is read from standard input: 'mbsbatch check-log - < $p'"; then ok; else bad "$d: no hint"; fi ;;
	directory)
		expect_status "$d" 2
		expect_err "$d" "mbsbatch: log '$p': is a directory, not a regular file: not read" ;;
	*)
		expect_status "$d" 2
		expect_err "$d" "mbsbatch: log '$p': is a character device, not a regular file: not read" ;;
	esac
done
rm -f "$tmp/j/sparse"

# The error file beside the output, for --check: /dev/null (a common
# --error) is left out; a FIFO there is refused, not waited on.
export FAKE_OUT="$good" FAKE_ERR=/dev/null
jrun "--check, errors to /dev/null" 0 logs 12 --check
expect_out_has "--check, errors to /dev/null" "$good: pass"
hostile fifo
export FAKE_ERR="$p"
jrun "--check, a FIFO as error file" 1 logs 12 --check
expect_err_prefix "--check, a FIFO as error file" "mbsbatch: logs: job 12's error file $p is a FIFO, not a regular file: not read"

# Another user's job: only a file that user owns is read, whoever reads
# (root reading a job whose --output names root's own file).
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1; then
	export FAKE_USER="nobody($(id -u nobody))" FAKE_OUT="$tmp/secret" FAKE_ERR="$tmp/secret"
	for cmd in "logs 12" "logs 12 --lines 1" "logs 12 -f" "logs 12 --check" "status 12 --check"; do
		jrun "root's file, $cmd" 1 $cmd
		case "$cmd" in status*) ;; *) expect_no_stdout "root's file, $cmd" ;; esac
		if grep -q "^mbsbatch: \(logs\|status\): job 12's output $tmp/secret belongs to root, not to the job's user: not read\$" "$tmp/err"; then ok; else bad "root's file, $cmd: not refused"; fi
	done
	cp "$good" "$tmp/j/nobody.out"
	chown nobody "$tmp/j/nobody.out"
	export FAKE_OUT="$tmp/j/nobody.out" FAKE_ERR="$tmp/j/nobody.out"
	jrun "the job user's file" 0 logs 12 --lines 5
	expect_out_has "the job user's file" "iteration        3/       3"
	export FAKE_USER="$me"
else
	echo "logs.sh: not root (or no user nobody): another user's job not tried"
fi

# Replaced between the check and the reading, every time: right after
# the file is first opened, a FIFO (or a link to /dev/zero) is renamed
# over its name (swapopen.so).  What was checked is read: the log, never
# the FIFO (which would hang) or /dev/zero (which would not end); by
# logs --check, status --check and submit --smoke --wait (a stand-in
# sbatch queues job 12).
bin=${MBSBATCH_REAL:-$MBSBATCH}
if [ ! -f "$swapopen" ]; then
	echo "logs.sh: no $swapopen (make check builds it): replacement not tried"
elif ldd "$bin" 2>/dev/null | grep -q 'libasan\|libtsan'; then
	echo "logs.sh: a sanitizer's runtime must load first: replacement not tried"
else
	export FAKE_USER="$me"
	export FAKE_OUT="$tmp/j/swap.out" FAKE_ERR="$tmp/j/swap.err"
	for which in output error; do
		[ "$which" = output ] && target=$FAKE_OUT || target=$FAKE_ERR
		for with in fifo link-zero; do
			for cmd in "logs 12 --check" "status 12 --check" \
			    "submit --smoke $logdata/llama32-1b-tp2pp2.json --wait"; do
				d="$which replaced by $with, $cmd"
				rm -f "$FAKE_OUT" "$FAKE_ERR" "$tmp/j/with"
				cp "$good" "$FAKE_OUT"
				cp "$good" "$FAKE_ERR"
				case $with in
				fifo) mkfifo "$tmp/j/with" ;;
				link-zero) ln -s /dev/zero "$tmp/j/with" ;;
				esac
				SWAPOPEN_PATH=$target SWAPOPEN_WITH="$tmp/j/with" \
				    LD_PRELOAD="$swapopen" jrun "$d" 0 $cmd
				expect_out_has "$d" "$FAKE_OUT: pass"
				if [ -p "$target" ] || [ -L "$target" ]; then ok; else bad "$d: the file was not replaced"; fi
			done
		done
	done
	rm -f "$FAKE_OUT" "$FAKE_ERR" "$tmp/j/with"
fi

# Swapped while read: a regular file, a FIFO and a link to /dev/zero
# renamed in turn over the output (and the first two over the error
# file) as fast as perl can; each command ends, having read one of them
# through the descriptor it checked.
if command -v perl >/dev/null 2>&1; then
	export FAKE_USER="$me" FAKE_OUT="$tmp/j/race.out" FAKE_ERR="$tmp/j/race.err"
	cp "$good" "$tmp/j/race.reg"
	perl -MPOSIX=mkfifo -e '
	    my $d = shift; $SIG{TERM} = sub { exit 0 };
	    while (1) {
		link("$d/race.reg", "$d/t1"); rename("$d/t1", "$d/race.out");
		mkfifo("$d/t2", 0600); rename("$d/t2", "$d/race.out");
		symlink("/dev/zero", "$d/t3"); rename("$d/t3", "$d/race.out");
		link("$d/race.reg", "$d/t4"); rename("$d/t4", "$d/race.err");
		mkfifo("$d/t5", 0600); rename("$d/t5", "$d/race.err");
	    }' "$tmp/j" &
	swapper=$!
	i=0
	n=20
	[ -n "$vg" ] && n=2
	while [ "$i" -lt "$n" ]; do
		for cmd in "logs 12 --check" "logs 12 --lines 2" "logs 12"; do
			PATH="$fake:$PATH" timeout 10 "$MBSBATCH" $cmd --via sbatch >"$tmp/out" 2>"$tmp/err" </dev/null
			status=$?
			case $status in
			0|1|2|3) ok ;;
			124) bad "swapped, $cmd: did not end in 10 s" ;;
			*) bad "swapped, $cmd: status $status" ;;
			esac
		done
		i=$((i + 1))
	done
	kill "$swapper"
	wait "$swapper" 2>/dev/null
fi

finish
