# secrets.sh: a token never shows: every command, run with -v and a known
# token (in SLURM_JWT, and in a token file), prints it nowhere on stdout or
# stderr, in no file it writes, and a token file others can read is
# refused.  No command takes a token on its command line.  Where to
# connect and with which token never come from a job file; a token goes
# over plain http only to this machine unless --insecure-http; SLURM_JWT
# is read like a token file; the process holding a token is not dumpable.
# (On the real cluster, tests/slurm/rest.sh submits with a real token
# under -v.)
. "${top_srcdir:-.}/tests/cli/lib.sh"
cd "$tmp" || exit 1
secret="sEcReT-9f8e7d6c-tOkEn"
printf 'SLURM_JWT=%s\n' "$secret" >token
chmod 600 token
url="--rest-url http://127.0.0.1:1"
job="--template command --command true --gpus 8"

# no_secret DESC: the token is in nothing printed or written.
no_secret() {
	if grep -rqF -- "$secret" "$tmp/out" "$tmp/err" ./*.sbatch logs 2>/dev/null; then
		bad "$1: the token shows: $(grep -rhF -- "$secret" "$tmp/out" "$tmp/err" ./*.sbatch logs 2>/dev/null | head -n 2)"
	else
		ok
	fi
}

# Each command with -v: the token in the environment, then in a file.
for how in env file; do
	if [ "$how" = env ]; then
		export SLURM_JWT="$secret"
		tok=
	else
		unset SLURM_JWT
		tok="--token-file token"
	fi
	while IFS= read -r cmd; do
		# shellcheck disable=SC2086
		run -v $cmd
		no_secret "$how: mbsbatch -v $cmd"
	done <<EOF2
plan $job
plan --search --model llama3-8b --gpus 8 --seq-length 4096
recommend --model llama3-8b
gen $job -o out.sbatch
submit $job --via rest $url $tok --dry-run
submit $job --via rest $url $tok
submit $job --via rest --rest-url unix:$tmp/nosuch.sock $tok
status 12 --via rest $url $tok
cancel 12 --via rest $url $tok
cancel --journal nosuch --via rest $url $tok
sweep $job --via rest $url $tok --grid time=1,2 --journal j-$how
sweep $job --via rest $url $tok --grid time=1,2 --dry-run
help submit
EOF2
	rm -f out.sbatch
done
unset SLURM_JWT

# The environment a job gets never carries the token (--export=ALL
# copies the rest of it): the REST request body, as --dry-run shows it.
SLURM_JWT="$secret" "$MBSBATCH" submit $job --via rest $url --dry-run >"$tmp/out" 2>"$tmp/err"
no_secret "dry-run body"
expect_out_has "dry-run redacts" "X-SLURM-USER-TOKEN: <redacted>"

# A token file group or others can read is refused, and not read out.
chmod 644 token
run status 12 --via rest $url --token-file token
expect_status "token file 644" 2
expect_err_prefix "token file 644" "mbsbatch: token file 'token': readable by others (mode 0644); refused"
no_secret "token file 644"
chmod 640 token
run status 12 --via rest $url --token-file token
expect_status "token file 640" 2
no_secret "token file 640"

# No command takes a token as an argument.
run submit $job --via rest $url --token "$secret"
expect_status "--token" 2
expect_err_prefix "--token" "mbsbatch: submit: unknown option '--token'"
no_secret "--token"

# serve MODE: a one-connection server in the background ($server) on a
# free TCP port ($port), or on the unix socket $sock with MODE unix-hang.
# It writes what it reads of the request to $tmp/req.  MODE answer: an
# HTTP 500 once the request's head is in; refuse: slurmrestd's 401
# "Authentication failure"; hang (and unix-hang): never answers, after
# writing $tmp/accepted.  It gives up after 30 s.
serve() {
	rm -f "$tmp/port" "$tmp/req" "$tmp/accepted"
	: >"$tmp/req"
	perl -MIO::Socket::INET -MIO::Socket::UNIX -e '
		my ($mode, $req, $acc, $sock) = @ARGV;
		alarm 30;
		my $s;
		if ($mode eq "unix-hang") {
			umask 0;
			$s = IO::Socket::UNIX->new(Local => $sock, Listen => 1)
			    or die "$!";
			print "0\n";
		} else {
			$s = IO::Socket::INET->new(LocalAddr => "127.0.0.1",
			    LocalPort => 0, Listen => 1, ReuseAddr => 1) or die "$!";
			print $s->sockport, "\n";
		}
		close STDOUT;
		my $c = $s->accept or exit 1;
		open(my $a, ">", $acc); close $a;
		open(my $r, ">", $req) or die "$!";
		my $head = "";
		while ($head !~ /\r\n\r\n/) {
			my $n = sysread($c, my $b, 65536) or last;
			$head .= $b;
			print $r $b;
		}
		close $r;
		if ($mode eq "answer") {
			print $c "HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}";
			close $c;
			exit 0;
		}
		if ($mode eq "refuse") {
			print $c "HTTP/1.1 401 UNAUTHORIZED\r\nContent-Type: text/plain\r\nContent-Length: 22\r\nConnection: close\r\n\r\nAuthentication failure";
			close $c;
			exit 0;
		}
		sleep 30;' "$1" "$tmp/req" "$tmp/accepted" "${sock:-}" >"$tmp/port" &
	server=$!
	i=0
	while [ ! -s "$tmp/port" ] && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	port=$(cat "$tmp/port")
}

# stop_server: end the server, once what it read is written.
stop_server() {
	kill "$server" 2>/dev/null
	wait "$server" 2>/dev/null
}

chmod 600 token

# A job file cannot say where to connect or with which token: a
# colleague's job file naming a server and one of the user's 0600 files
# (~/.git-credentials) is refused, and nothing reaches the server.
mkdir -p "$HOME"
printf 'https://me:%s@github.com\n' "$secret" >"$HOME/.git-credentials"
chmod 600 "$HOME/.git-credentials"
serve answer
printf '{"rest_url": "http://127.0.0.1:%s", "token_file": "%s", "via": "rest", "api_version": "v0.0.40", "gpus": 8}\n' \
    "$port" "$HOME/.git-credentials" >colleague.json
run submit colleague.json --template command --command true
stop_server
expect_status "job file rest_url" 2
expect_err_prefix "job file rest_url" "mbsbatch: job file 'colleague.json': line 1, column 2: key 'rest_url' is not allowed in a job file: where to connect and with which token come only from the command line, the environment and the config file"
if grep -q "^hint: give --rest-url, or rest_url in a cluster profile of the config file" "$tmp/err"; then ok; else bad "job file rest_url: no hint"; fi
if [ -s "$tmp/req" ]; then bad "job file rest_url: the server was sent: $(head -c 300 "$tmp/req")"; else ok; fi
no_secret "job file rest_url"
# Nor the caller's SLURM_JWT sent where the job file says.
serve answer
printf '{"gpus": 8, "rest_url": "http://127.0.0.1:%s"}\n' "$port" >colleague.json
SLURM_JWT="$secret" "$MBSBATCH" submit colleague.json --template command \
    --command true --via rest --api-version v0.0.40 >"$tmp/out" 2>"$tmp/err"
status=$?
stop_server
expect_status "job file rest_url, SLURM_JWT" 2
if [ -s "$tmp/req" ]; then bad "job file rest_url, SLURM_JWT: the server was sent: $(head -c 300 "$tmp/req")"; else ok; fi
# Every connection key, at the top level or in "slurm", each with its option.
for kv in via:'"rest"' rest_url:'"unix:/x"' api_version:'"v0.0.40"' \
    token_file:'"t"' cacert:'"c.pem"' user:'"root"' rest_timeout:5 \
    insecure_http:true; do
	k=${kv%%:*}
	v=${kv#*:}
	o=$(echo "$k" | tr _ -)
	printf '{"gpus": 8, "%s": %s}\n' "$k" "$v" >conn.json
	run plan conn.json
	expect_status "job file $k" 2
	expect_no_stdout "job file $k"
	expect_err_prefix "job file $k" "mbsbatch: job file 'conn.json': line 1, column 13: key '$k' is not allowed in a job file"
	if [ "$(sed -n 2p "$tmp/err")" = "hint: give --$o, or $k in a cluster profile of the config file (~/.config/mbsbatch/config.json; see mbsbatch.conf(5))" ]; then ok; else bad "job file $k: hint"; fi
	printf '{"gpus": 8, "slurm": {"%s": %s}}\n' "$k" "$v" >conn.json
	run plan conn.json
	expect_status "job file slurm.$k" 2
	expect_err_prefix "job file slurm.$k" "mbsbatch: job file 'conn.json': line 1, column 23: key '$k' is not allowed in a job file"
done
# A cluster profile of the user's config still may; the command line too.
serve answer
mkdir -p "$XDG_CONFIG_HOME/mbsbatch"
printf '{"clusters": {"c": {"rest_url": "http://127.0.0.1:%s", "token_file": "%s/token", "api_version": "v0.0.40"}}}\n' \
    "$port" "$tmp" >"$XDG_CONFIG_HOME/mbsbatch/config.json"
run status 12 --cluster c --via rest
stop_server
expect_status "profile rest_url" 1
if grep -qx "X-SLURM-USER-TOKEN: $secret" "$tmp/req" 2>/dev/null ||
    tr -d '\r' <"$tmp/req" | grep -qx "X-SLURM-USER-TOKEN: $secret"; then ok; else bad "profile rest_url: the token was not sent: $(head -c 300 "$tmp/req")"; fi
rm -f "$XDG_CONFIG_HOME/mbsbatch/config.json"

# Plain http to another host: refused with a token, before it is read,
# unless --insecure-http (or insecure_http in a profile).  https, loopback
# and unix: are always allowed.
far="http://mbsbatch-test.invalid:6820"
for how in env file; do
	if [ "$how" = env ]; then
		SLURM_JWT="$secret" "$MBSBATCH" status 12 --via rest --rest-url "$far" \
		    >"$tmp/out" 2>"$tmp/err"
		status=$?
	else
		run status 12 --via rest --rest-url "$far" --token-file token
	fi
	expect_status "plain http, $how" 2
	expect_err_prefix "plain http, $how" "mbsbatch: slurmrestd '$far': refusing to send the token over plain http to another host"
	if [ "$(sed -n 2p "$tmp/err")" = "hint: use https://, or give --insecure-http (insecure_http in a cluster profile) if the network between is trusted" ]; then ok; else bad "plain http, $how: hint"; fi
	no_secret "plain http, $how"
done
run status 12 --via rest --rest-url "$far" --token-file token --insecure-http --rest-timeout 5
expect_status "--insecure-http" 1
if grep -q "refusing" "$tmp/err"; then bad "--insecure-http: still refused"; else ok; fi
printf '{"clusters": {"far": {"rest_url": "%s", "insecure_http": true}}}\n' "$far" \
    >"$XDG_CONFIG_HOME/mbsbatch/config.json"
run status 12 --cluster far --token-file token --rest-timeout 5
expect_status "insecure_http in a profile" 1
if grep -q "refusing" "$tmp/err"; then bad "insecure_http in a profile: still refused"; else ok; fi
run status 12 --cluster far --token-file token --rest-timeout 5 --no-insecure-http
expect_status "--no-insecure-http over the profile" 2
rm -f "$XDG_CONFIG_HOME/mbsbatch/config.json"
run status 12 --via rest --rest-url "https://mbsbatch-test.invalid:6820" --token-file token --rest-timeout 5
expect_status "https" 1
if grep -q "refusing" "$tmp/err"; then bad "https: refused"; else ok; fi

# SLURM_JWT is read like a token file: the SLURM_JWT= that scontrol token
# prints is stripped, and a line break (a header injected) is refused
# before anything is sent, in a message without the token.
serve answer
SLURM_JWT="SLURM_JWT=$secret" "$MBSBATCH" status 12 --via rest \
    --rest-url "http://127.0.0.1:$port" --api-version v0.0.40 >"$tmp/out" 2>"$tmp/err"
status=$?
stop_server
expect_status "SLURM_JWT=SLURM_JWT=..." 1
if tr -d '\r' <"$tmp/req" | grep -qx "X-SLURM-USER-TOKEN: $secret"; then ok; else bad "SLURM_JWT=SLURM_JWT=...: sent: $(tr -d '\r' <"$tmp/req" | grep TOKEN)"; fi
no_secret "SLURM_JWT=SLURM_JWT=..."
crlf=$(printf '%s\r\nX-Injected: 1' "$secret")
serve answer
SLURM_JWT="$crlf" "$MBSBATCH" status 12 --via rest \
    --rest-url "http://127.0.0.1:$port" --api-version v0.0.40 >"$tmp/out" 2>"$tmp/err"
status=$?
stop_server
expect_status "SLURM_JWT with CR LF" 2
expect_err "SLURM_JWT with CR LF" "mbsbatch: SLURM_JWT: white space or a line break inside the token (it must hold the token alone, SLURM_JWT=TOKEN as 'scontrol token' prints it, or that as a shell line: export SLURM_JWT=\"TOKEN\")"
if [ -s "$tmp/req" ]; then bad "SLURM_JWT with CR LF: the server was sent: $(head -c 300 "$tmp/req")"; else ok; fi
no_secret "SLURM_JWT with CR LF"
printf '%s\n%s\n' "$secret" "$secret" >token2
chmod 600 token2
run status 12 --via rest --rest-url http://127.0.0.1:1 --token-file token2
expect_status "token file, two lines" 2
expect_err "token file, two lines" "mbsbatch: token file 'token2': white space or a line break inside the token (it must hold the token alone, SLURM_JWT=TOKEN as 'scontrol token' prints it, or that as a shell line: export SLURM_JWT=\"TOKEN\")"
SLURM_JWT=" " "$MBSBATCH" status 12 --via rest --rest-url http://127.0.0.1:1 >"$tmp/out" 2>"$tmp/err"
status=$?
expect_status "SLURM_JWT blank" 2
expect_err "SLURM_JWT blank" "mbsbatch: SLURM_JWT: empty"

# A token file (or SLURM_JWT) written as a shell line: SLURM_JWT="TOKEN",
# single quotes, after export: the token alone is sent, never its
# quotes.  Anything else is refused before anything is sent, in a
# message without the token.
# sent_as DESC: the server got exactly the token.
sent_as() {
	if tr -d '\r' <"$tmp/req" | grep -qx "X-SLURM-USER-TOKEN: $secret"; then ok; else bad "$1: sent: $(tr -d '\r' <"$tmp/req" | grep TOKEN)"; fi
}
for form in "SLURM_JWT=\"$secret\"" "SLURM_JWT='$secret'" \
    "export SLURM_JWT=\"$secret\"" "export SLURM_JWT=$secret" "\"$secret\""; do
	printf '%s\n' "$form" >tokq
	chmod 600 tokq
	serve answer
	run status 12 --via rest --rest-url "http://127.0.0.1:$port" \
	    --api-version v0.0.40 --token-file tokq
	stop_server
	expect_status "token file $form" 1
	sent_as "token file $form"
	no_secret "token file $form"
	serve answer
	SLURM_JWT="$form" "$MBSBATCH" status 12 --via rest \
	    --rest-url "http://127.0.0.1:$port" --api-version v0.0.40 \
	    >"$tmp/out" 2>"$tmp/err"
	status=$?
	stop_server
	expect_status "SLURM_JWT $form" 1
	sent_as "SLURM_JWT $form"
done
forms="it must hold the token alone, SLURM_JWT=TOKEN as 'scontrol token' prints it, or that as a shell line: export SLURM_JWT=\"TOKEN\""
while IFS='|' read -r form msg; do
	printf '%s\n' "$form" | sed "s/TOKEN/$secret/" >tokq
	chmod 600 tokq
	run status 12 --via rest --rest-url http://127.0.0.1:1 --token-file tokq
	expect_status "token file $form" 2
	case $msg in
	*';') want="$msg $forms)" ;;
	*) want="$msg ($forms)" ;;
	esac
	expect_err "token file $form" "mbsbatch: token file 'tokq': $want"
	no_secret "token file $form"
done <<'EOF2'
SLURM_JWT="TOKEN|a quote that does not end where the token does
SLURM_JWT="TOKEN"; true|a quote that does not end where the token does
SLURM_JWT=$(cat TOKEN)|byte 10 is not one a token has (letters, digits, '-', '_', '.';
export OTHER=TOKEN|an 'export' of another variable than SLURM_JWT
EOF2

# The server's refusal of the token (slurmrestd's 401 "Authentication
# failure"): said so, with what may be wrong, never the token.
serve refuse
run status 12 --via rest --rest-url "http://127.0.0.1:$port" \
    --api-version v0.0.40 --token-file token --user nobody
stop_server
expect_status "401" 1
expect_err_prefix "401" "mbsbatch: slurmrestd 'http://127.0.0.1:$port': the token was refused (HTTP 401: Authentication failure)"
if [ "$(sed -n 2p "$tmp/err")" = "hint: it may have expired ('scontrol token' makes a new one), be another user's than 'nobody' (--user), or the token file may not hold it as it should: the token alone, SLURM_JWT=TOKEN, or export SLURM_JWT=\"TOKEN\"" ]; then ok; else bad "401: hint: $(sed -n 2p "$tmp/err")"; fi
no_secret "401"

# While it holds a token the process is not dumpable (no core file, no
# ptrace, no /proc/PID/environ or mem for its own user): seen from
# outside while a request hangs on a server that never answers, by a
# process of the same user reading its /proc/PID/environ (root could
# read anything: as root, both run as nobody).  Without a token (a unix
# socket) the same read works.  The real binary even under
# check-valgrind: nobody could not write the reports.
if [ "$(id -u)" -eq 0 ]; then
	need setpriv "to run mbsbatch as nobody"
	as="setpriv --reuid=65534 --regid=65534 --clear-groups --"
	uid=65534
else
	as=
	uid=$(id -u)
fi
chmod 711 "$tmp"
mkdir -m 755 "$tmp/sock"
# hang_environ DESC URL WANT [VAR=VALUE]: run status against URL, and
# once the server has the connection, reading the process's environ as
# its user must give WANT (readable or refused).
hang_environ() {
	(cd / && exec env HOME=/nonexistent XDG_CONFIG_HOME=/nonexistent ${4:-} \
	    $as "${MBSBATCH_REAL:-$MBSBATCH}" status 12 --via rest --rest-url "$2" \
	    --api-version v0.0.40 --rest-timeout 20 >"$tmp/out" 2>"$tmp/err") &
	pid=$!
	i=0
	while [ ! -e "$tmp/accepted" ] && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	ruid=$(awk '/^Uid:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
	if $as cat "/proc/$pid/environ" >/dev/null 2>&1; then got=readable; else got=refused; fi
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	stop_server
	if [ ! -e "$tmp/accepted" ]; then
		bad "$1: no connection: $(cat "$tmp/err")"
	elif [ "$ruid" = "$uid" ] && [ "$got" = "$3" ]; then
		ok
	else
		bad "$1: pid $pid (uid $ruid): its environ is $got to its user, want $3"
	fi
}
sock=$tmp/sock/s.sock
serve unix-hang
hang_environ "no token: dumpable" "unix:$sock" readable
rm -f "$sock"
serve hang
hang_environ "token: not dumpable" "http://127.0.0.1:$port" refused "SLURM_JWT=$secret"
no_secret "token: not dumpable"
sock=

# Every command, not only those that send the token: with SLURM_JWT in
# the environment, plan, gen and check-log (reading their input from a
# pipe that stays open) are not dumpable either, and, as they never reach
# Slurm, hold the token no more: root reads their environment without
# it.  Without SLURM_JWT the same read works.
# pipe_environ DESC WANT [VAR=VALUE] -- ARGS: mbsbatch ARGS, reading
# standard input from a pipe; its environ, read as its user, is WANT.
pipe_environ() {
	desc=$1 want=$2 var=$3
	shift 4
	fifo=$tmp/stdin.fifo
	rm -f "$fifo"
	mkfifo "$fifo"
	chmod 666 "$fifo"
	(cd / && exec env HOME=/nonexistent XDG_CONFIG_HOME=/nonexistent $var \
	    $as "${MBSBATCH_REAL:-$MBSBATCH}" "$@" <"$fifo" >"$tmp/out" 2>"$tmp/err") &
	pid=$!
	exec 9>"$fifo"		# the writer: the pipe stays open
	# Started when it waits for its input: state S, its own program.
	i=0
	while [ "$i" -lt 100 ]; do
		if [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$(readlink -f "${MBSBATCH_REAL:-$MBSBATCH}")" ] &&
		    [ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" = S ]; then
			break
		fi
		sleep 0.05
		i=$((i + 1))
	done
	if $as cat "/proc/$pid/environ" >/dev/null 2>&1; then got=readable; else got=refused; fi
	held=no
	if [ "$(id -u)" -eq 0 ] && tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qF -- "$secret"; then
		held=yes
	fi
	exec 9>&-
	wait "$pid" 2>/dev/null
	if [ "$got" = "$want" ]; then ok; else bad "$desc: its environ is $got to its user, want $want"; fi
	if [ "$held" = no ]; then ok; else bad "$desc: its environment still holds the token"; fi
}
for cmd in "plan -" "gen - --template command --command true" "check-log -"; do
	# shellcheck disable=SC2086
	pipe_environ "$cmd, SLURM_JWT set" refused "SLURM_JWT=$secret" -- $cmd
	# shellcheck disable=SC2086
	pipe_environ "$cmd, no SLURM_JWT" readable "" -- $cmd
done

finish
