# signals.sh: --signal as sbatch of each release reads it, against
# mbsbatch's one signal table and parser (src/slurm/slurmopt.c), with no
# cluster: sbatch reads its options and SBATCH_* variables before it
# reaches slurmctld, -v prints the signal it made
# (signal_opts_to_cmdline(): R, B, ':', sig_num2name(), @SECS unless 60),
# and slurmctld's port is closed, so it stops there at once.
#
# For Debian's sbatch (22.05) and the sbatch of each build in
# MBS_SLURM_BUILDS (MBS_SIGNALS_RELEASES: 22.05 and 25.11 by default, the
# first and the last table; 24.11 and 25.05 have 23.11's too; a missing
# build is left out), the same --signal values, fixed ones and seeded
# random ones (MBS_TEST_SEED, printed; MBS_SIGNALS_N of them, default 40),
# go through SBATCH_SIGNAL to:
#   sbatch -v                  taken (the signal it made) or "Invalid
#                              --signal specification";
#   submit --dry-run, REST     the #SBATCH reader, the release check and
#   of the release's API       the name REST gives the signal
#                              (jobdesc_check_release(), rest-submit.c);
#   gen --signal, that API     the setting's check and gen's release rule.
# A difference is a defect, or one of mbsbatch's documented refusals:
# R cannot be sent (submit), no signal above 64 (both), B: through
# slurmrestd v0.0.38 (22.05's REST), an empty SBATCH_SIGNAL.
. "${top_srcdir:-.}/tests/cli/lib.sh"
[ "${MBS_SLURM_TESTS:-yes}" = no ] && skip "MBS_SLURM_TESTS=no"
need sbatch "Debian's Slurm 22.05 client: slurm-client"
need "${JQ:-jq}" "to read the REST job"
JQ=${JQ:-jq}

seed=${MBS_TEST_SEED:-$(date +%s)}
case $seed in '' | *[!0-9]*) echo "FAIL: MBS_TEST_SEED=$seed is not a number"; exit 1 ;; esac
n=${MBS_SIGNALS_N:-40}
echo "signals: seed $seed (replay: MBS_TEST_SEED=$seed)"
builds=${MBS_SLURM_BUILDS:-$(cd "$top_srcdir" && pwd)/../shared/slurm}

# The values: the cases the table turns on, then N drawn from flags,
# names (Slurm's in any case, with SIG or not; Linux names Slurm lacks;
# junk), numbers (16 bits, signs, white space) and seconds.
{
	printf '%s\n' XFSZ@60 ABRT@60 CHLD@60 pipe 17 13@5 TTIN TTOU@1 \
	    usr2 SIGusr1@9 B:TERM bUSR2 RB:USR1 br:term r:USR2 '10@' \
	    '65537' '-1' 64 65 0 'USR2@65536' 'USR2@+7' ' 12 @ 9' WINCH \
	    'BB:TERM' ':TERM' 'B:B:TERM'
	awk -v seed="$seed" -v n="$n" '
	function r(k) { return int(rand() * k) }
	function pick(s,   a, k) { k = split(s, a, "|"); return a[r(k) + 1] }
	function anycase(s,   i, c, t) {
		t = ""
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			t = t (r(2) ? tolower(c) : c)
		}
		return t
	}
	function sig(   k) {
		k = r(10)
		if (k < 5) return anycase(pick("||SIG") \
		    pick("HUP|INT|QUIT|ABRT|KILL|ALRM|TERM|CHLD|USR1|USR2|PIPE|URG|CONT|STOP|TSTP|TTIN|TTOU|XCPU"))
		if (k < 7) return anycase(pick("|SIG") \
		    pick("XFSZ|WINCH|BUS|SEGV|IO|SYS|PWR|CLD|IOT|ILL|TRAP|FPE|PROF|VTALRM"))
		if (k < 9) return pick("| |+|-|  ") pick("0|1|9|10|12|15|17|31|34|63|64|65|100|65535|65536|65546|99999") pick("| | \t")
		return pick("|SIG|x|USR|1x|TERM TERM")
	}
	BEGIN {
		srand(seed)
		for (i = 0; i < n; i++)
			print pick("|||B:|b:|R:|RB:|BR:|rb:|B|r|:|BB:|X:") sig() \
			    pick("|||@|@0|@5|@60|@90|@65535|@65536|@-1|@+7|@ 9|@9x|@@9|@" r(70000))
	}'
} >"$tmp/values"

printf '{"clusters": {}}\n' >"$tmp/config.json"
printf '#!/bin/sh\ntrue\n' >"$tmp/job.sh"
# sbatch never gets further than its options: its controller's port is
# closed (9, discard), and nothing else is configured.
conf() {
	cat >"$tmp/slurm-$1.conf" <<EOF
ClusterName=signals
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=9
AuthType=auth/munge
MessageTimeout=1
NodeName=n1 CPUs=1
PartitionName=p Nodes=n1
$2
EOF
}

# What sbatch of release $rel made of SBATCH_SIGNAL=$1, into $2: the
# signal as -v prints it, or "invalid".  A value sbatch takes costs a
# second (its retry to reach slurmctld): run them all at once.
sbatch_reads() {
	out=$(SLURM_CONF="$tmp/slurm-$rel.conf" SBATCH_SIGNAL="$1" \
	    timeout 20 $sbatch -v --wrap=true 2>&1)
	case $out in
	*"Invalid --signal specification"*) echo invalid ;;
	*"signal              : "*)
		printf '%s\n' "$out" | sed -n 's/^sbatch: signal  *: //p' ;;
	*) echo "unexpected: $(printf '%s\n' "$out" | tail -n 1)" ;;
	esac >"$2"
}

# What submit --dry-run through REST $api makes of it: the signal in
# sbatch -v's form, or "refused: WHY" / "deliberate: WHY".
rest_reads() {
	SBATCH_SIGNAL="$1" "$MBSBATCH" --config "$tmp/config.json" submit \
	    --script "$tmp/job.sh" --via rest --rest-url http://127.0.0.1:1 \
	    --api-version "$api" --dry-run >"$tmp/rest.out" 2>"$tmp/rest.err"
	if [ $? -ne 0 ]; then
		why=$(head -n 1 "$tmp/rest.err")
		case $why in
		*"is not a signal sbatch takes"* | *"knows no name for signal"* | \
		    *"SBATCH_SIGNAL: the value is empty"*)
			echo "refused: $why" ;;
		*"the R (reservation) flag cannot be sent"*) echo "deliberate: R" ;;
		*"cannot be sent (1 to 64)"*) echo "deliberate: 64" ;;
		*"B: (to the batch shell"*) echo "deliberate: B" ;;
		*) echo "unexpected: $why" ;;
		esac
		return
	fi
	sed -n '/^{/,$p' "$tmp/rest.out" | $JQ -r '.job |
	    if has("kill_warning_signal") then
		((if ((.kill_warning_flags // []) | index("BATCH_JOB")) then "B:" else "" end)
		 + .kill_warning_signal
		 + (if .kill_warning_delay.number == 60 then "" else "@\(.kill_warning_delay.number)" end))
	    else (.signal | sub("@60$"; "")) end' 2>&1
}

# What gen --signal makes of it: "taken", or "refused: WHY" /
# "deliberate: WHY".
gen_reads() {
	"$MBSBATCH" --config "$tmp/config.json" gen -q --api-version "$api" \
	    --template command --command true --gpus 1 --signal="$1" \
	    >/dev/null 2>"$tmp/gen.err"
	if [ $? -eq 0 ]; then echo taken; return; fi
	why=$(head -n 1 "$tmp/gen.err")
	case $why in
	*"is not a signal sbatch takes"* | *"knows no signal"*) echo "refused: $why" ;;
	*"names a signal above 64"*) echo "deliberate: 64" ;;
	*"value contains a control character"*) echo "deliberate: control" ;;
	*) echo "unexpected: $why" ;;
	esac
}

# The signal number in sbatch -v's form ("RB:USR1@5" -> USR1).
number_of() {
	printf '%s\n' "$1" | sed 's/^[RB]*://; s/@.*//'
}

differ() {
	fail=$((fail + 1))
	echo "FAIL: $*"
}

# compare VALUE SBATCH REST GEN: differences, each a FAIL line.
compare() {
	v=$1 s=$2 rest=$3 g=$4
	case $s in
	unexpected*) differ "$rel '$v': sbatch: $s"; return ;;
	invalid)
		# Refused either way, for the first reason each finds (an R
		# before a name 22.05 lacks: mbsbatch names the R).
		case $rest in refused:* | deliberate:*) ok ;; *) differ "$rel '$v': sbatch refuses it, submit (REST $api): $rest" ;; esac
		case $g in refused:* | deliberate:*) ok ;; *) differ "$rel '$v': sbatch refuses it, gen: $g" ;; esac
		return ;;
	esac
	sig=$(number_of "$s")
	case $rest in
	"deliberate: R") case $s in R*) ok ;; *) differ "$rel '$v': sbatch made $s, no R, submit: $rest" ;; esac ;;
	"deliberate: B") case $s in *B*:*) [ "$api" = v0.0.38 ] && ok || differ "$rel '$v': $rest through $api" ;; *) differ "$rel '$v': sbatch made $s, no B, submit: $rest" ;; esac ;;
	"deliberate: 64") case $sig in *[!0-9]*) differ "$rel '$v': sbatch made $s, submit: $rest" ;; *) [ "$sig" -gt 64 ] && ok || differ "$rel '$v': sbatch made $s, submit: $rest" ;; esac ;;
	"$s") ok ;;
	*) differ "$rel '$v': sbatch made $s, submit (REST $api): $rest" ;;
	esac
	case $g in
	taken) ok ;;
	"deliberate: control") case $v in *[[:cntrl:]]*) ok ;; *) differ "$rel '$v': sbatch made $s, gen: $g" ;; esac ;;
	"deliberate: 64") case $sig in *[!0-9]*) differ "$rel '$v': sbatch made $s, gen: $g" ;; *) [ "$sig" -gt 64 ] && ok || differ "$rel '$v': sbatch made $s, gen: $g" ;; esac ;;
	*) differ "$rel '$v': sbatch made $s, gen: $g" ;;
	esac
}

releases=0
for rel in ${MBS_SIGNALS_RELEASES:-22.05 25.11}; do
	case $rel in
	22.05)
		sbatch=sbatch api=v0.0.38
		conf "$rel" ""
		v=$(SLURM_CONF="$tmp/slurm-$rel.conf" sbatch --version 2>&1)
		case $v in "slurm"*" 22.05."*) ;; *) echo "signals: sbatch is not 22.05's: $v"; continue ;; esac ;;
	*)
		tarball=$builds/slurm-$rel-debian12-amd64.tar.xz
		[ -f "$tarball" ] || { echo "signals: no build of $rel ($tarball)"; continue; }
		tar -xJf "$tarball" -C "$tmp" || { differ "$rel: cannot unpack $tarball"; continue; }
		sw=$tmp/slurm-$rel
		sbatch="env LD_LIBRARY_PATH=$sw/lib/slurm:$sw/lib $sw/bin/sbatch"
		case $rel in 24.11) api=v0.0.42 ;; 25.05) api=v0.0.43 ;; *) api=v0.0.44 ;; esac
		conf "$rel" "PluginDir=$sw/lib/slurm" ;;
	esac
	releases=$((releases + 1))
	before=$fail
	k=0
	while IFS= read -r v; do
		k=$((k + 1))
		sbatch_reads "$v" "$tmp/sbatch-$rel-$k" &
	done <"$tmp/values"
	wait
	k=0
	while IFS= read -r v; do
		k=$((k + 1))
		compare "$v" "$(cat "$tmp/sbatch-$rel-$k")" "$(rest_reads "$v")" "$(gen_reads "$v")"
	done <"$tmp/values"
	echo "signals: Slurm $rel: $(wc -l <"$tmp/values") values, $((fail - before)) differences"
done
[ "$releases" -gt 0 ] || skip "no sbatch of any release to compare with"
[ "$fail" -eq 0 ] || echo "signals: seed $seed (replay: MBS_TEST_SEED=$seed)"
finish
