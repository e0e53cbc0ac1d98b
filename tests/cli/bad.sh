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

# Nothing from Slurm or a file reaches the terminal raw: every control
# byte (C0 but NUL, DEL), a C1 control (U+009B, CSI), a byte that is not
# UTF-8 and a character that reorders text (U+202E), in a path, a job
# file's key, an option's value, and in a job's name and output path as
# 22.05's squeue prints them in columns, every byte as it is (a stand-in
# on PATH, tests/data/jobtext/fake-squeue, from a recorded answer)
# through every command that prints a name or a path.  Stdout and
# stderr then hold no control byte but the line feeds that end lines, and
# never the bytes themselves; an error is one line (and a hint); the
# JSON says the name (\xHH for a byte that is not UTF-8) and counts the
# job it lists.  Under check-valgrind a few of them.
cd "$tmp" || exit 1
: "${JQ:=jq}"
fake=$tmp/fakebin
mkdir -p "$fake" "$tmp/run"
printf '#!/bin/sh\nexec perl "%s" "$@"\n' "$bad/../jobtext/fake-squeue" >"$fake/squeue"
printf '#!/bin/sh\necho "slurm-wlm 22.05.8"\n' >"$fake/sbatch"
chmod +x "$fake/squeue" "$fake/sbatch"
FAKE_COL_userid=$(id -u)
FAKE_COL_username=$(id -un)
export FAKE_COL_userid FAKE_COL_username

# clean DESC RAW: nothing printed holds a control byte but line feeds,
# nor RAW (when it is not a single C0 byte, which the first check sees),
# nor any of the sequences of more than a byte.
multi="$(printf '\302\233') $(printf '\377') $(printf '\342\200\256')"
clean() {
	for f in "$tmp/out" "$tmp/err"; do
		if LC_ALL=C tr -d '\n' <"$f" | LC_ALL=C grep -q '[[:cntrl:]]'; then
			bad "$1: a control byte in $(basename "$f"): $(od -c "$f" | head -n 3)"
			return
		fi
		for m in "$2" $multi; do
			if [ "$(printf '%s' "$m" | wc -c)" -gt 1 ] &&
			    LC_ALL=C grep -qF -- "$m" "$f"; then
				bad "$1: the bytes themselves in $(basename "$f")"
				return
			fi
		done
	done
	ok
}

# one_error DESC STATUS: exit STATUS, a message line (and a hint).
one_error() {
	expect_status "$1" "$2"
	if [ "$(wc -l <"$tmp/err")" -eq 1 ] || { [ "$(wc -l <"$tmp/err")" -eq 2 ] &&
	    sed -n 2p "$tmp/err" | grep -q '^hint: '; }; then ok; else bad "$1: $(wc -l <"$tmp/err") lines on stderr"; fi
	if [ "$status" -lt 128 ]; then ok; else bad "$1: killed by signal $((status - 128))"; fi
}

seqs="001 002 003 004 005 006 007 010 011 012 013 014 015 016 017 020
021 022 023 024 025 026 027 030 031 032 033 034 035 036 037 177 302233
377 342200256"
[ -n "${MBSBATCH_REAL:-}" ] && seqs="007 012 015 033 302233 377"
have_jq=yes
command -v "$JQ" >/dev/null 2>&1 || { have_jq=; echo "SKIP: the JSON checks: jq is not installed"; }
nseq=0
for o in $seqs; do
	nseq=$((nseq + 1))
	oct=$(echo "$o" | sed 's/\(...\)/\\\1/g')
	raw=$(printf "$oct.")
	raw=${raw%.}
	name=$(printf "a${oct}b")
	t="byte(s) \\$o"
	# A path: a job file that is not there.
	run plan "$tmp/run/$name.json"
	one_error "$t: job file path" 1
	clean "$t: job file path" "$raw"
	# A job file's key (JSON's own escape for a control).
	case $o in
	0??|1??) key=$(printf '\\u%04x' "$((0$o))") ;;
	*) key=$raw ;;
	esac
	printf '{"gpus": 8, "k%sy": 1}\n' "$key" >"$tmp/run/key.json"
	run plan "$tmp/run/key.json"
	one_error "$t: job file key" 2
	clean "$t: job file key" "$raw"
	# An option's value: refused, naming the option.
	run plan --gpus 8 --job-name "$name"
	one_error "$t: --job-name" 2
	clean "$t: --job-name" "$raw"
	if grep -q '^mbsbatch: --job-name: value ' "$tmp/err"; then ok; else bad "$t: --job-name: $(cat "$tmp/err")"; fi
	# Where gen writes, and the log check-log reads.
	run gen --template command --command true --gpus 8 -o "$tmp/run/$name/x.sbatch"
	case $status in 1|2) ok ;; *) bad "$t: gen -o: status $status" ;; esac
	one_error "$t: gen -o" "$status"
	clean "$t: gen -o" "$raw"
	run check-log "$tmp/run/$name.log"
	case $status in 1|2) ok ;; *) bad "$t: check-log: status $status" ;; esac
	one_error "$t: check-log" "$status"
	clean "$t: check-log" "$raw"
done

# A job's name and output path as squeue prints them: every sequence
# above in one name, then a few alone.
all=
for o in $seqs; do all="$all $o"; done
for o in "$all" 033 015 012 377; do
	t="job name with byte(s) \\$(echo $o | tr ' ' '\\')"
	name=a
	for one in $o; do
		oct=$(echo "$one" | sed 's/\(...\)/\\\1/g')
		name=$name$(printf "${oct}.")
		name=${name%.}
	done
	name=${name}b
	raw=$(printf '%s' "$name" | cut -c2-3)
	FAKE_COL_name=$name
	FAKE_COL_stdout="/tmp/out-$name-%x.out"
	FAKE_COL_stderr=$FAKE_COL_stdout
	export FAKE_COL_name FAKE_COL_stdout FAKE_COL_stderr
	PATH="$fake:$PATH" "$MBSBATCH" jobs --via sbatch >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
	expect_status "$t: jobs" 0
	clean "$t: jobs" "$raw"
	if [ "$(wc -l <"$tmp/out")" -eq 2 ] && grep -q '^11 ' "$tmp/out"; then ok; else bad "$t: jobs: not one row for job 11: $(cat "$tmp/out")"; fi
	PATH="$fake:$PATH" "$MBSBATCH" status 11 --via sbatch >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
	expect_status "$t: status" 0
	clean "$t: status" "$raw"
	PATH="$fake:$PATH" "$MBSBATCH" logs 11 --via sbatch >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
	one_error "$t: logs" 1
	clean "$t: logs" "$raw"
	if grep -q '^mbsbatch: logs: job 11 is PENDING' "$tmp/err"; then ok; else bad "$t: logs: $(cat "$tmp/err")"; fi
	[ -n "$have_jq" ] || continue
	# JSON: valid, the name as Slurm has it (\xHH for a byte that is
	# not UTF-8), the job counted once.
	# \xHH for the byte that is not UTF-8.
	want=$(printf '%s' "$name" | LC_ALL=C sed "s/$(printf '\377')/\\\\xff/")
	for cmd in "status 11" "jobs"; do
		# shellcheck disable=SC2086
		PATH="$fake:$PATH" "$MBSBATCH" $cmd --via sbatch --json >"$tmp/out" 2>"$tmp/err" </dev/null
		status=$?
		expect_status "$t: $cmd --json" 0
		expect_no_stderr "$t: $cmd --json"
		case $cmd in
		jobs) expect_json "$t: jobs --json count" '[.count, (.jobs | length)]' '[1,1]'
		      jname=$("$JQ" -j '.jobs[0].name' "$tmp/out"; echo .) ;;
		*) jname=$("$JQ" -j '.name' "$tmp/out"; echo .) ;;
		esac
		if [ "${jname%.}" = "$want" ]; then ok; else bad "$t: $cmd --json: name $(printf '%s' "${jname%.}" | od -c | head -n 2)"; fi
	done
done
# A byte that is not UTF-8 in a string option is refused naming the
# option and where the byte is (it once reached gen's template as an
# "unknown variable"), and so is a control character; in a job file too.
run gen --model llama3-8b --recipe llama3_8b_pretrain_config --job-name "$(printf 'ab\377c')"
expect_status "gen, --job-name not UTF-8" 2
expect_err "gen, --job-name not UTF-8" "mbsbatch: --job-name: value is not valid UTF-8 (byte 0xff at offset 2)"
run gen --template command --command "$(printf 'echo \033[2J')" --gpus 8
expect_status "gen, --command with ESC" 2
expect_err "gen, --command with ESC" "mbsbatch: --command: value contains a control character (U+001B at offset 5)"
printf '{"gpus": 8, "slurm": {"job_name": "x\\u202ey"}}\n' >"$tmp/run/rlo.json"
run plan "$tmp/run/rlo.json"
expect_status "job file, U+202E" 2
expect_err "job file, U+202E" "mbsbatch: job file '$tmp/run/rlo.json': line 1, column 23: 'job_name' contains a control character (U+202E at offset 1)"
echo "$nseq hostile byte sequences"
finish
