# lib.sh: helpers for the black-box CLI tests, sourced by each test.
# Each test runs the built binary ($MBSBATCH) in a private HOME and
# XDG_CONFIG_HOME, compares stdout, stderr and the exit status, and ends
# with finish, which prints "N passed, N failed" and sets the exit status.

set -u
: "${MBSBATCH:?MBSBATCH must name the binary under test}"
: "${top_srcdir:=.}"

pass=0
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mbsbatch-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/xdg"
export MBSBATCH_TEMPLATE_PATH="$(cd "$top_srcdir" && pwd)/templates"
unset MBSBATCH_CONFIG SLURM_JWT
mkdir -p "$HOME" "$XDG_CONFIG_HOME"
LC_ALL=C.UTF-8
export LC_ALL

# skip REASON: exit 77, automake's skip, saying why.
skip() {
	echo "SKIP: $*"
	exit 77
}

need() {
	command -v "$1" >/dev/null 2>&1 || skip "$1 is not installed ($2)"
}

# run ARGS...: run mbsbatch; sets $status, $tmp/out, $tmp/err.
run() {
	"$MBSBATCH" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
}

show() {
	echo "  status: $status"
	echo "  stdout:"; sed 's/^/    /' "$tmp/out" | head -n 20
	echo "  stderr:"; sed 's/^/    /' "$tmp/err" | head -n 20
}

ok() {
	pass=$((pass + 1))
}

bad() {
	fail=$((fail + 1))
	echo "FAIL: $*"
	show
}

# expect_status DESC N
expect_status() {
	if [ "$status" -eq "$2" ]; then ok; else bad "$1: status $status, want $2"; fi
}

# expect_err DESC TEXT: stderr is exactly the one line TEXT.
expect_err() {
	if [ "$(cat "$tmp/err")" = "$2" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
		ok
	else
		bad "$1: stderr is not the line: $2"
	fi
}

# expect_err_prefix DESC PREFIX: stderr's first line starts with PREFIX,
# and stderr has at most a hint line after it.
expect_err_prefix() {
	first=$(head -n 1 "$tmp/err")
	lines=$(wc -l <"$tmp/err")
	case "$first" in
	"$2"*)
		if [ "$lines" -eq 1 ] || { [ "$lines" -eq 2 ] &&
		    sed -n 2p "$tmp/err" | grep -q '^hint: '; }; then
			ok
		else
			bad "$1: stderr has $lines lines"
		fi ;;
	*) bad "$1: stderr does not start with: $2" ;;
	esac
}

expect_no_stdout() {
	if [ -s "$tmp/out" ]; then bad "$1: stdout not empty"; else ok; fi
}

expect_no_stderr() {
	if [ -s "$tmp/err" ]; then bad "$1: stderr not empty"; else ok; fi
}

# expect_out_has DESC TEXT: stdout contains the line fragment TEXT.
expect_out_has() {
	if grep -qF -- "$2" "$tmp/out"; then ok; else bad "$1: stdout lacks: $2"; fi
}

expect_out_lacks() {
	if grep -qF -- "$2" "$tmp/out"; then bad "$1: stdout has: $2"; else ok; fi
}

# expect_json DESC FILTER WANT: jq FILTER on stdout prints WANT.
expect_json() {
	got=$("$JQ" -c "$2" "$tmp/out" 2>&1)
	if [ "$got" = "$3" ]; then ok; else bad "$1: $2 is $got, want $3"; fi
}

finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
