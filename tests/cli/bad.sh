# bad.sh: the bad-input corpus (tests/data/bad/cases): command lines, job
# files, config files, templates and batch scripts that mbsbatch must
# refuse, each with its exit status and its one-line message; nothing on
# stdout, no file left behind, never a crash.
. "${top_srcdir:-.}/tests/cli/lib.sh"
bad=$(cd "$top_srcdir/tests/data/bad" && pwd)
work="$tmp/work"
mkdir -p "$work"
cd "$work" || exit 1

n=0
tab=$(printf '\t')
while IFS="$tab" read -r want msg args; do
	case $want in ''|'#'*) continue ;; esac
	n=$((n + 1))
	a=$(printf '%s' "$args" | sed "s|@bad/|$bad/|g")
	eval "set -- $a"
	run "$@"
	sed "s|$bad/|@bad/|g" "$tmp/err" >"$tmp/err.rel"
	mv "$tmp/err.rel" "$tmp/err"
	expect_status "$args" "$want"
	case $msg in
	"stdout: "*)
		expect_no_stderr "$args"
		expect_out_has "$args" "${msg#stdout: }"
		;;
	*)
		expect_no_stdout "$args"
		first=$(head -n 1 "$tmp/err")
		if [ "$first" = "$msg" ]; then ok; else bad "$args: stderr: $first"; fi
		if [ "$(wc -l <"$tmp/err")" -le 1 ] || sed -n 2p "$tmp/err" | grep -q '^hint: '; then
			ok
		else
			bad "$args: more than a message and a hint on stderr"
		fi
		;;
	esac
	# A crash is a signal: 128 and above.
	if [ "$status" -lt 128 ]; then ok; else bad "$args: killed by signal $((status - 128))"; fi
	# Nothing written where mbsbatch ran.
	if [ -z "$(ls -A "$work")" ]; then ok; else bad "$args: left $(ls -A "$work")"; rm -rf "${work:?}"/* "$work"/.[!.]*; fi
done <"$bad/cases"
if [ "$n" -ge 150 ]; then ok; else bad "only $n cases in tests/data/bad/cases"; fi
echo "$n bad inputs"
finish
