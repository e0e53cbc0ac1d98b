# faults.sh: what mbsbatch does when the world misbehaves, without a
# cluster: a slurmrestd that accepts the connection and never answers (a
# bounded wait, then one clear error), an answer cut in half, and a full
# disk under gen -o (an error, the old file intact, nothing half-written
# left).  tests/slurm/sweep.sh stops slurmrestd and slurmctld mid-sweep.
. "${top_srcdir:-.}/tests/cli/lib.sh"
need perl "to play a server that misbehaves"
cd "$tmp" || exit 1
printf 'SLURM_JWT=x.y.z\n' >token
chmod 600 token

# serve MODE: a one-connection TCP server on a free port, in the
# background ($server); its port in $port.  MODE silent: accept and say nothing;
# cut: half an HTTP answer, then close.
serve() {
	rm -f "$tmp/port"
	perl -MIO::Socket::INET -e '
		my $s = IO::Socket::INET->new(LocalAddr => "127.0.0.1",
		    LocalPort => 0, Listen => 1, ReuseAddr => 1) or die "$!";
		print $s->sockport, "\n";
		close STDOUT;
		my $c = $s->accept or exit 1;
		if ($ARGV[0] eq "cut") {
			my $req = ""; sysread($c, $req, 65536);
			print $c "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{\"jobs\": [{\"job_id\": 12, \"job_st";
			close $c;
			exit 0;
		}
		sleep 60;' "$1" >"$tmp/port" &
	server=$!
	i=0
	while [ ! -s "$tmp/port" ] && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	port=$(cat "$tmp/port")
}

# A server that never answers: --rest-timeout bounds the wait.
serve silent
t0=$(date +%s)
run status 12 --via rest --rest-url "http://127.0.0.1:$port" --token-file token \
    --api-version v0.0.38 --rest-timeout 2
t1=$(date +%s)
kill "$server" 2>/dev/null
expect_status "silent server" 1
expect_err_prefix "silent server" "mbsbatch: slurmrestd 'http://127.0.0.1:$port': "
if grep -q 'timed out' "$tmp/err"; then ok; else bad "silent server: not a timeout: $(cat "$tmp/err")"; fi
if grep -q '^hint: no answer in 2 s (--rest-timeout)' "$tmp/err"; then ok; else bad "silent server: no hint"; fi
if [ $((t1 - t0)) -le 10 ]; then ok; else bad "silent server: waited $((t1 - t0)) s"; fi
expect_no_stdout "silent server"

# The same while a sweep submits: it stops, says so, journals nothing
# queued, and --resume is what the hint says.
serve silent
run sweep --template command --command true --gpus 8 --via rest \
    --rest-url "http://127.0.0.1:$port" --token-file token --api-version v0.0.38 \
    --rest-timeout 2 --no-array --parallel 1 --journal jsilent --grid time=1,2
kill "$server" 2>/dev/null
expect_status "silent server, sweep" 1
if grep -q 'timed out' "$tmp/err"; then ok; else bad "silent sweep: $(cat "$tmp/err")"; fi
if grep -q 'run the same command with --resume' "$tmp/err"; then ok; else bad "silent sweep: no resume hint"; fi
if ! grep -q '"queued"' jsilent; then ok; else bad "silent sweep: a job recorded as queued"; fi

# One sweep at a time writes a journal: a --resume while another holds
# it (here waiting on the silent server) is refused, naming the holder.
serve silent
"$MBSBATCH" sweep --template command --command true --gpus 8 --via rest \
    --rest-url "http://127.0.0.1:$port" --token-file token --api-version v0.0.38 \
    --rest-timeout 20 --no-array --parallel 1 --journal jsilent --grid time=1,2 \
    --resume >/dev/null 2>&1 &
holder=$!
inode=$(stat -c %i jsilent)
i=0
while ! grep -q ":$inode " /proc/locks && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
cp jsilent jsilent.copy
run sweep --template command --command true --gpus 8 --via rest \
    --rest-url "http://127.0.0.1:$port" --token-file token --api-version v0.0.38 \
    --rest-timeout 2 --no-array --parallel 1 --journal jsilent --grid time=1,2 --resume
kill "$holder" "$server" 2>/dev/null
wait "$holder" 2>/dev/null
expect_status "journal in use" 1
expect_err_prefix "journal in use" "mbsbatch: journal 'jsilent': in use by process $holder"
if cmp -s jsilent jsilent.copy; then ok; else bad "journal in use: the file changed"; fi

# A parallel sweep whose sbatch exits without reading its script (no
# slurm.conf): a clear error, not death by SIGPIPE (141) while another
# worker swapped the signal's disposition back.
if command -v sbatch >/dev/null; then
	big=$(head -c 100000 /dev/zero | tr '\0' x)
	SLURM_CONF=/nonexistent "$MBSBATCH" sweep --template command --command "$big" \
	    --gpus 8 --partition p --grid micro-batch-size=$(seq -s, 1 40) --via sbatch \
	    --no-array --parallel 8 --journal jpipe -q >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
	expect_status "sbatch gone, parallel" 1
	expect_err_prefix "sbatch gone, parallel" "mbsbatch: sbatch: "
else
	bad "sbatch is not installed (slurm-client): the SIGPIPE case cannot run"
fi

# An answer cut in half.
serve cut
run status 12 --via rest --rest-url "http://127.0.0.1:$port" --token-file token \
    --api-version v0.0.38 --rest-timeout 5
wait "$server" 2>/dev/null
expect_status "cut answer" 1
expect_err_prefix "cut answer" "mbsbatch: slurmrestd 'http://127.0.0.1:$port': "
expect_no_stdout "cut answer"

# gen -o on a full disk: root mounts a small tmpfs and fills it.
if [ "$(id -u)" -ne 0 ]; then
	echo "faults: the full-disk case needs root (mount); the rest passed"
	finish
	exit $?
fi
mkdir full
if ! mount -t tmpfs -o size=64k tmpfs full 2>"$tmp/mount.err"; then
	bad "cannot mount a tmpfs: $(cat "$tmp/mount.err")"
	finish
	exit 1
fi
printf 'old script\n' >full/job.sbatch
dd if=/dev/zero of=full/filler bs=1k count=1000 2>/dev/null
run gen --template command --command true --gpus 8 -o full/job.sbatch --force
expect_status "full disk" 1
expect_err_prefix "full disk" "mbsbatch: "
if grep -q 'No space left on device' "$tmp/err"; then ok; else bad "full disk: $(cat "$tmp/err")"; fi
if [ "$(cat full/job.sbatch)" = "old script" ]; then ok; else bad "full disk: the old file changed"; fi
left=$(ls -A full | grep -v -e '^job.sbatch$' -e '^filler$')
if [ -z "$left" ]; then ok; else bad "full disk: left behind: $left"; fi
# A new file on a full disk: none made.
run gen --template command --command true --gpus 8 -o full/new.sbatch
expect_status "full disk, new file" 1
if [ ! -e full/new.sbatch ]; then ok; else bad "full disk: a partial new.sbatch"; fi
umount full
finish
