# rest.sh (Slurm): the REST back end against the real slurmrestd, for each
# API version it serves (MBS_SLURM_APIS: v0.0.36 to v0.0.38 on 22.05) over
# TCP with a JWT and over the unix socket (as the user it serves): a job that completes, one that pends and is cancelled,
# a chain with its dependencies; then a bad token, a server that is down,
# --api-version auto, and the token kept out of every output.
. "${top_srcdir:-.}/tests/cli/lib.sh"
case " ${MBS_TEST_VIAS:-rest} " in
*" rest "*) ;;
*) skip "MBS_TEST_VIAS=$MBS_TEST_VIAS leaves out rest" ;;
esac
. "$top_srcdir/tests/slurm/lib.sh"
: "${JQ:=jq}"
[ -n "$JQ" ] || JQ=jq
need "$JQ" "to parse --json"

srcdir=$(cd "$top_srcdir" && pwd)
work="$tmp/work"
# The unix-socket slurmrestd of 25.05 and later serves only daemon: its
# jobs are daemon's and write their logs here.
mkdir -p "$work/logs"
chmod 1777 "$work" "$work/logs"
cd "$work" || exit 1
token=$(sed 's/^SLURM_JWT=//' "$MBS_JWT_FILE")

for v in $MBS_SLURM_APIS; do
	for how in tcp unix; do
		if [ "$how" = tcp ]; then
			conn="--via rest --rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE --api-version $v"
		else
			conn="--via rest --rest-url $MBS_REST_UNIX --user $MBS_REST_UNIX_USER --api-version $v"
		fi
		t="$v/$how"
		run submit --template command --command 'echo "rank $RANK"' --gpus 8 \
		    --partition "$MBS_SLURM_PARTITION" --time 5 --job-name "one" --parsable $conn
		expect_status "$t: submit" 0
		id=$(cat "$tmp/out")
		final=$(wait_done "$id" 60)
		if [ "$final" = COMPLETED ]; then ok; else bad "$t: job ended $final"; fi
		run status "$id" --json $conn
		expect_json "$t: status" '[.state,.nodes,.name,.exit_code,.backend]' \
		    '["COMPLETED",1,"one",0,"rest"]'
		if [ "$(grep -c '^rank ' logs/one-"$id".out 2>/dev/null)" = 8 ]; then ok; else bad "$t: 8 ranks in logs/one-$id.out"; fi

		run submit --template command --command true --tp 8 --gpus 128 \
		    --partition "$MBS_SLURM_BIG_PARTITION" --job-name big --parsable $conn
		expect_status "$t: big" 0
		id=$(cat "$tmp/out")
		# Waiting on down nodes: queued, with Slurm's word as a warning.
		if grep -q 'warning' "$tmp/err"; then ok; else bad "$t: no warning for the down nodes"; fi
		run status "$id" --json $conn
		expect_json "$t: big pending" '[.state,.nodes,(.reason|length>0)]' '["PENDING",16,true]'
		run cancel "$id" $conn
		expect_status "$t: cancel" 0
		if wait_state "$id" CANCELLED 10; then ok; else bad "$t: cancel: $(job_state "$id")"; fi

		run submit --template command --command true --partition "$MBS_SLURM_PARTITION" \
		    --time 5 --chain 3 --hold --json $conn
		expect_status "$t: chain" 0
		set -- $("$JQ" -r '.job_ids|map(tostring)|join(" ")' "$tmp/out")
		d3=$(scontrol show job "$3" 2>/dev/null | sed -n 's/.*Dependency=\([^ ]*\).*/\1/p')
		case $d3 in "afterany:$2"*) ok ;; *) bad "$t: chain: job 3 depends on '$d3'" ;; esac
		if scontrol show job "$1" | grep -q 'Reason=JobHeldUser'; then ok; else bad "$t: chain not held"; fi
		scancel "$1" "$2" "$3"
	done
done

# An example, as README shows it, submitted through REST: it runs (a
# stand-in python takes the place of Megatron-Bridge's run_recipe.py).
mkdir -p bin
printf '#!/bin/sh\necho "run_recipe $*" >/dev/null\nexit 0\n' >bin/python
chmod +x bin/python
PATH="$work/bin:$PATH" "$MBSBATCH" submit "$srcdir/examples/llama3.2-1b.json" --via rest \
    --rest-url "$MBS_REST_URL" --token-file "$MBS_JWT_FILE" >"$tmp/out" 2>"$tmp/err"
status=$?
expect_status "example" 0
if grep -Eq '^Submitted batch job [0-9]+$' "$tmp/out"; then ok; else bad "example: $(cat "$tmp/out" "$tmp/err")"; fi
id=$(sed -n 's/^Submitted batch job //p' "$tmp/out")
final=$(wait_done "$id" 60)
if [ "$final" = COMPLETED ]; then ok; else bad "example: ended $final: $(tail -n 5 logs/*-"$id".out)"; fi

# auto picks the newest version the server serves.
run status 1 --via rest --rest-url "$MBS_REST_URL" --token-file "$MBS_JWT_FILE" -v
expect_status "auto" 0
if grep -q "API version $MBS_SLURM_API" "$tmp/err"; then ok; else bad "auto: $(cat "$tmp/err")"; fi

# A unix-socket slurmrestd that runs as a user (25.05 on) serves only
# that user: another name is refused, and the error says so (not "token").
if [ "$MBS_REST_UNIX_USER" != root ]; then
	run status 1 --via rest --rest-url "$MBS_REST_UNIX" --user root
	expect_status "unix, another user" 1
	expect_err_prefix "unix, another user" "mbsbatch: slurmrestd '$MBS_REST_UNIX': refused user 'root' (HTTP 401): a unix-socket slurmrestd serves only the user it runs as"
	if grep -q '^hint: give --user' "$tmp/err"; then ok; else bad "unix, another user: hint: $(cat "$tmp/err")"; fi
	if grep -v 'with a token' "$tmp/err" | grep -qi token; then bad "unix, another user: blames the token"; else ok; fi
fi

# A bad token: Slurm's refusal, and a hint about the token.
printf 'SLURM_JWT=not-a-token\n' >"$tmp/bad.token"
chmod 600 "$tmp/bad.token"
run submit --template command --command true --via rest --rest-url "$MBS_REST_URL" \
    --token-file "$tmp/bad.token" --api-version $MBS_SLURM_API
expect_status "bad token" 1
if grep -q '^hint: .*token' "$tmp/err"; then ok; else bad "bad token: no hint: $(cat "$tmp/err")"; fi
# No token at all over TCP.
run status 1 --via rest --rest-url "$MBS_REST_URL"
expect_status "no token" 2
# A server that is down: a free port.
run status 1 --via rest --rest-url "http://127.0.0.1:$((MBS_SLURM_PORT + 9))" --token-file "$MBS_JWT_FILE" --api-version $MBS_SLURM_API
expect_status "server down" 1
expect_err_prefix "server down" "mbsbatch: slurmrestd 'http://127.0.0.1:$((MBS_SLURM_PORT + 9))': "
# Slurm's own refusals.
run submit --template command --command true --partition nope --via rest \
    --rest-url "$MBS_REST_URL" --token-file "$MBS_JWT_FILE"
expect_status "bad partition" 1
expect_err "bad partition" "mbsbatch: slurmrestd: Invalid partition name specified (Slurm error 2000)"

# https: verification on; --cacert names the CA.  stunnel puts TLS in
# front of slurmrestd with a certificate made here.
need openssl "to make a test certificate"
need stunnel4 "to put TLS in front of slurmrestd"
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/key.pem" -out "$tmp/cert.pem" \
    -days 1 -subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1" >/dev/null 2>&1
tls_port=$((MBS_SLURM_PORT + 8))
cat >"$tmp/stunnel.conf" <<CONF
pid = $tmp/stunnel.pid
[rest]
accept = 127.0.0.1:$tls_port
connect = ${MBS_REST_URL#http://}
cert = $tmp/cert.pem
key = $tmp/key.pem
CONF
trap 'kill "$(cat "$tmp/stunnel.pid" 2>/dev/null)" 2>/dev/null; cluster_stop' EXIT
stunnel4 "$tmp/stunnel.conf" >"$tmp/stunnel.log" 2>&1
sleep 0.5
run status 1 --via rest --rest-url "https://127.0.0.1:$tls_port" --token-file "$MBS_JWT_FILE" \
    --cacert "$tmp/cert.pem"
expect_status "https with --cacert" 0
run status 1 --via rest --rest-url "https://127.0.0.1:$tls_port" --token-file "$MBS_JWT_FILE"
expect_status "https, certificate not trusted" 1
expect_err_prefix "https, certificate not trusted" "mbsbatch: slurmrestd 'https://127.0.0.1:$tls_port': "
if grep -qi 'certificate' "$tmp/err"; then ok; else bad "https: not a certificate error: $(cat "$tmp/err")"; fi

# The token never appears in anything mbsbatch prints, -v included.
SLURM_JWT=$token "$MBSBATCH" -v submit --template command --command true --via rest \
    --rest-url "$MBS_REST_URL" --hold --json >"$tmp/out" 2>"$tmp/err"
status=$?
expect_status "SLURM_JWT" 0
id=$("$JQ" .job_id "$tmp/out")
scancel "$id"
if grep -qF -- "$token" "$tmp/out" "$tmp/err"; then bad "the token was printed"; else ok; fi
SLURM_JWT=$token "$MBSBATCH" -v submit --template command --command true --via rest \
    --rest-url "$MBS_REST_URL" --dry-run >"$tmp/out" 2>"$tmp/err"
if grep -qF -- "$token" "$tmp/out" "$tmp/err"; then bad "the token was printed by --dry-run"; else ok; fi

finish
