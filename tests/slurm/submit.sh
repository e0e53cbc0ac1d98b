# submit.sh (Slurm): mbsbatch submit, status and cancel through the sbatch
# back end on a real cluster: a job that runs and completes, one that
# pends, cancel, a chain with its dependencies, Slurm's refusals, and
# "submit --script" of gen's script giving the same job as "submit";
# the site's options, setup lines, --chdir and typed GPUs through every
# back end;
# through each back end, the job a resumed sweep finds is its own, by its
# whole name (commas included) and its user.
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/slurm/lib.sh"
: "${JQ:=jq}"
[ -n "$JQ" ] || JQ=jq
need "$JQ" "to parse --json"

work="$tmp/work"
mkdir -p "$work"
cd "$work" || exit 1
job="--template command --partition $MBS_SLURM_PARTITION --time 5"

# (--ntasks-per-node: slurmrestd 22.05 cannot be told a task a node.)
printf '#!/bin/sh\n#SBATCH --nodes=99 --ntasks-per-node=1\ntrue\n' >nodes99.sbatch
for via in $(test_vias); do
	# How to reach slurmrestd: the TCP server with a token.
	rest=
	[ "$via" = rest ] && rest="--rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE"
# A 1-node job runs and completes.
run submit $job --command 'echo "rank $RANK"' --gpus 8 --job-name one --via "$via" $rest
expect_status "submit" 0
if grep -Eq '^Submitted batch job [0-9]+$' "$tmp/out"; then ok; else bad "submit: output"; fi
id=$(sed -n 's/^Submitted batch job //p' "$tmp/out")
final=$(wait_done "$id" 60)
if [ "$final" = COMPLETED ]; then ok; else bad "one: $final"; fi
run status "$id" --json --via "$via" $rest
expect_status "status" 0
expect_json "status completed" '[.state,.nodes,.partition,.name,.exit_code,.backend]' \
    "[\"COMPLETED\",1,\"$MBS_SLURM_PARTITION\",\"one\",0,\"$via\"]"
run status "$id" --via "$via" $rest
expect_out_has "status text" "job $id: COMPLETED, 1 node in partition $MBS_SLURM_PARTITION on mbsnode0, exit code 0"
if [ "$(grep -c '^rank ' logs/one-"$id".out)" -eq 8 ]; then ok; else bad "one: 8 ranks in the log"; fi

# submit says where the output goes: the file Slurm wrote, for Slurm's
# patterns as the release's slurmstepd expands them (src/slurm/logpath.c).
run submit $job --command 'echo out; echo err >&2' --gpus 8 --job-name pat \
    --output 'logs/%u.%x.%6j.%s.%%.%a.out' --error 'logs/%x-%J-%n%t.err' \
    --via "$via" $rest
expect_status "patterns" 0
id=$(sed -n 's/^Submitted batch job //p' "$tmp/out")
want="$work/logs/$(id -un).pat.$(printf %06d "$id").batch.%.4294967294.out"
expect_out_has "patterns: output" "  output: $want"
expect_out_has "patterns: error" "  error: $work/logs/pat-$id-00.err"
final=$(wait_done "$id" 60)
if [ "$final" = COMPLETED ]; then ok; else bad "patterns: $final"; fi
if grep -qx out "$want"; then ok; else bad "patterns: no $want: $(ls logs)"; fi
if grep -qx err "logs/pat-$id-00.err"; then ok; else bad "patterns: no logs/pat-$id-00.err: $(ls logs)"; fi
# A path the releases write apart: through 25.05 a width before a letter
# Slurm does not expand loses its '%' and all but its last digit; 25.11
# keeps them.  Each back end knows its cluster's release (sbatch: its
# --version).
case ${MBS_SLURM_RELEASE:-22.05} in
25.11) want="$work/logs/q%15z-" ;;
*) want="$work/logs/q5z-" ;;
esac
run submit $job --command true --gpus 8 --job-name q --output 'logs/q%15z-%j.out' \
    --via "$via" $rest
id=$(sed -n 's/^Submitted batch job //p' "$tmp/out")
expect_out_has "release rules: output" "  output: $want$id.out"
final=$(wait_done "$id" 60)
if [ -f "$want$id.out" ]; then ok; else bad "release rules: no $want$id.out: $(ls logs)"; fi
run submit $job --command true --gpus 8 --job-name js --hold --json --via "$via" $rest
expect_json "json: logs" '[.output == "'"$work"'/logs/js-\(.job_id).out", .error, (.logs | length)]' '[true,null,1]'
scancel "$("$JQ" .job_id "$tmp/out")"

# A 16-node job pends; status says so and why; cancel ends it.
run submit --template command --command true --tp 8 --gpus 128 \
    --partition "$MBS_SLURM_BIG_PARTITION" --job-name big --parsable --via "$via" $rest
expect_status "big" 0
id=$(cat "$tmp/out")
wait_state "$id" PENDING 10
run status "$id" --json --via "$via" $rest
expect_json "big pending" '[.state,.nodes,(.reason|length>0)]' '["PENDING",16,true]'
run cancel "$id" --via "$via" $rest
expect_status "cancel" 0
expect_no_stdout "cancel"
if wait_state "$id" CANCELLED 10; then ok; else bad "cancel: $(job_state "$id")"; fi

# A chain of 3: each depends on the previous (afterany), all held.
run submit $job --command true --chain 3 --hold --json --via "$via" $rest
expect_status "chain" 0
ids=$("$JQ" -r '.job_ids|map(tostring)|join(" ")' "$tmp/out")
set -- $ids
if [ $# -eq 3 ]; then ok; else bad "chain: $# jobs"; fi
d2=$(scontrol show job "$2" | sed -n 's/.*Dependency=\([^ ]*\).*/\1/p')
d3=$(scontrol show job "$3" | sed -n 's/.*Dependency=\([^ ]*\).*/\1/p')
case $d2 in "afterany:$1"*) ok ;; *) bad "chain: job 2 depends on '$d2'" ;; esac
case $d3 in "afterany:$2"*) ok ;; *) bad "chain: job 3 depends on '$d3'" ;; esac
if scontrol show job "$1" | grep -q 'Reason=JobHeldUser'; then ok; else bad "chain: not held"; fi
scancel "$1" "$2" "$3"

# Slurm's refusals carry Slurm's message; nothing is queued.
run submit --template command --command true --partition nope --via "$via" $rest
expect_status "bad partition" 1
case $via in
	sbatch) who="sbatch: Batch job submission failed" ;;
	native) who="libslurm: submit" ;;
	rest) who="slurmrestd" ;;
	esac
	expect_err_prefix "bad partition" "mbsbatch: $who: Invalid partition name specified"
if [ "$(wc -l <"$tmp/err")" -eq 1 ]; then ok; else bad "bad partition: more than one line on stderr"; fi
run submit --script nodes99.sbatch --via "$via" $rest
expect_status "too many nodes" 1
expect_err_prefix "too many nodes" "mbsbatch: $who: "
run status 99999 --via "$via" $rest
expect_status "unknown job" 1
expect_err_prefix "unknown job" "mbsbatch: job 99999: no such job"

# sweep --resume looks a submission the journal lost up by its whole name
# among the jobs of the user it submits as.  A name with a comma (squeue
# --name splits there): the job is found, not queued twice.
run sweep $job --command true --hold --job-name "a,b" --no-array \
    --journal "jcomma-$via" --grid time=1,2 --json --via "$via" $rest
expect_status "comma name: sweep" 0
sid=$("$JQ" -r .sweep "$tmp/out")
"$JQ" -c 'select(.queued and .points == [0] | not)' "jcomma-$via" >"jcomma-$via.cut"
mv "jcomma-$via.cut" "jcomma-$via"
run sweep $job --command true --hold --job-name "a,b" --no-array \
    --journal "jcomma-$via" --grid time=1,2 --resume --json --via "$via" $rest
expect_status "comma name: resume" 0
expect_json "comma name: resume" '[.queued,.submissions,.complete]' '[2,0,true]'
got=$("$JQ" -s -c '[.[] | select(.found) | .points[]]' "jcomma-$via")
if [ "$got" = "[0]" ]; then ok; else bad "comma name: found records $got, want [0]"; fi
n=$(squeue -h --states=all -o '%j' | grep -cxF -- "a,b-$sid-0")
if [ "$n" -eq 1 ]; then ok; else bad "comma name: $n jobs named a,b-$sid-0, want 1"; fi
run cancel --journal "jcomma-$via" --via "$via" $rest
expect_status "comma name: cancel" 0
# Another user's job of the lost point's name (daemon's, queued through
# slurmrestd with the root token; Slurm 25.11 cannot resolve nobody) is
# not the sweep's: the point is sent again, and daemon's job is left
# alone.
run sweep $job --command true --hold --job-name "mine" --no-array \
    --journal "juser-$via" --grid time=1,2 --json --via "$via" $rest
expect_status "another user's job: sweep" 0
sid=$("$JQ" -r .sweep "$tmp/out")
j1=$("$JQ" -s -r '.[] | select(.queued and .points == [1]) | .job_id' "juser-$via")
scontrol update JobId="$j1" JobName=renamed
"$JQ" -c 'select(.queued and .points == [1] | not)' "juser-$via" >"juser-$via.cut"
mv "juser-$via.cut" "juser-$via"
run submit $job --command true --hold --job-name "mine-$sid-1" --parsable \
    --via rest --rest-url "$MBS_REST_URL" --token-file "$MBS_JWT_FILE" --user daemon
other=$(cat "$tmp/out")
if [ "$(squeue -h --states=all -j "$other" -o '%u %j' 2>/dev/null)" = "daemon mine-$sid-1" ]; then ok; else
	bad "another user's job: daemon's job $other: $(squeue -h --states=all -j "$other" -o '%u %j' 2>&1) $(cat "$tmp/err")"
fi
run sweep $job --command true --hold --job-name "mine" --no-array \
    --journal "juser-$via" --grid time=1,2 --resume --json --via "$via" $rest
expect_status "another user's job: resume" 0
expect_json "another user's job: resume" '[.queued,.submissions,.complete]' '[2,1,true]'
got=$("$JQ" -s -c '[.[] | select(.found) | .points[]]' "juser-$via")
if [ "$got" = "[]" ]; then ok; else bad "another user's job: found records $got, want []"; fi
j1=$("$JQ" -s -r '[.[] | select(.queued and .points == [1]) | .job_id] | last' "juser-$via")
if [ "$j1" != "$other" ] && [ "$(squeue -h --states=all -j "$j1" -o '%u %j' 2>/dev/null)" = "root mine-$sid-1" ]; then ok; else
	bad "another user's job: point 1 queued as job $j1 ($(squeue -h --states=all -j "$j1" -o '%u %j' 2>&1)), daemon's is $other"
fi
if [ "$(job_state "$other")" = PENDING ]; then ok; else bad "another user's job: daemon's job $other is $(job_state "$other")"; fi
run cancel --journal "juser-$via" --via "$via" $rest
expect_status "another user's job: cancel" 0
scancel "$other"

done

# A native back end built for another release: libslurm cannot work
# with this cluster (it may end the process): one line and a hint that
# names this build's release and the back ends that work.
if "$MBSBATCH" --version | grep -q '^native: ' && ! test_vias | grep -qx native; then
	for c in "status 1" "submit $job --command true --hold"; do
		run $c --via native
		expect_status "native of another release: $c" 1
		expect_err_prefix "native of another release: $c" "mbsbatch: libslurm: "
		if sed -n 2p "$tmp/err" | grep -q "^hint: mbsbatch was built for Slurm .*--via rest or --via sbatch"; then ok; else bad "native of another release: $c: $(cat "$tmp/err")"; fi
		if [ "$(wc -l <"$tmp/err")" -eq 2 ]; then ok; else bad "native of another release: $c: $(wc -l <"$tmp/err") lines"; fi
	done
fi

# gen then submit --script gives the same job as submit.
run gen $job --command true --gpus 16 --tp 2 --job-name same -o same.sbatch
expect_status "gen" 0
run submit $job --command true --gpus 16 --tp 2 --job-name same --hold --parsable
a=$(cat "$tmp/out")
run submit --script same.sbatch --hold --parsable
b=$(cat "$tmp/out")
show_job() {
	scontrol show job "$1" | tr ' ' '\n' | grep -E '^(NumNodes|NumTasks|TresPerNode|Partition|JobName|TimeLimit|StdOut)=' |
	    sed -e "s/-$1\.out/-ID.out/" -e 's/^NumNodes=\([0-9]*\)-\1$/NumNodes=\1/'
	# (a held job shows NumNodes=2-2 until the scheduler has looked at it)
}
if [ -n "$a" ] && [ "$(show_job "$a")" = "$(show_job "$b")" ]; then ok; else
	bad "submit and submit --script differ:"; show_job "$a"; show_job "$b"
fi
scancel "$a" "$b"
# The same script through every back end gives the same job.
for via in $(test_vias); do
	rest=
	[ "$via" = rest ] && rest="--rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE"
	run submit --script same.sbatch --hold --parsable --via "$via" $rest
	c=$(cat "$tmp/out")
	if [ -n "$c" ] && [ "$(show_job "$a")" = "$(show_job "$c")" ]; then ok; else
		bad "--via $via gives another job:"
		show_job "$a" >"$tmp/a.job"; show_job "$c" >"$tmp/c.job"
		diff "$tmp/a.job" "$tmp/c.job"
	fi
	scancel "$c"
done

# The site's options (issue 28): one job through every back end (and
# every REST API version) with --exclude, --nodelist, --comment,
# --mail-user, --mail-type, --cpus-per-task, --chdir (a blank in it),
# --setup lines, an --srun-opt and typed GPUs: scontrol shows each option, the setup
# lines ran in the job's directory before the launch, in order, and the
# tasks got the CPUs and the setup's variable.
# The GPUs are typed (issue 28, item 3): the cluster's are GRES type
# tesla (cluster.sh), the profile maps h100 to it; the two forms of the
# request alternate between the jobs that run, and each back end (and
# API version) also queues the other form, held: scontrol shows the type.
site="$work/site dir"
mkdir -p "$site"
chmod 1777 "$site"
printf '{ "clusters": { "t": { "gres_types": { "h100": "tesla" } } }, "default_cluster": "t" }\n' >"$tmp/gres.json"
site_n=0
typed_shown() {	# typed_shown TAG ID: scontrol shows the typed request
	tpn=$(scontrol show job "$2" | sed -n 's/.*TresPerNode=\([^ ]*\).*/\1/p')
	case $tpn in
	gres[:/]gpu:tesla:8) ok ;;
	*) bad "$1: TresPerNode=$tpn, want gres/gpu:tesla:8" ;;
	esac
}
site_job() {	# site_job TAG VIA [CONNECTION...]
	tag=$1 sv=$2
	shift 2
	site_n=$((site_n + 1))
	form=gpus-per-node other=gres
	[ $((site_n % 2)) = 0 ] && form=gres other=gpus-per-node
	run --config "$tmp/gres.json" submit $job --command true --gpus 8 \
	    --gpu-type h100 --gpu-request "$other" --hold --parsable \
	    --via "$sv" "$@"
	expect_status "site $tag: typed --$other, held" 0
	typed_shown "site $tag: typed --$other" "$(cat "$tmp/out")"
	scancel "$(cat "$tmp/out")"
	run --config "$tmp/gres.json" submit $job --command 'echo "rank $RANK $MBS_SETUP cpus=$SLURM_CPUS_PER_TASK gpus=$CUDA_VISIBLE_DEVICES"' \
	    --gpus 8 --gpu-type h100 --gpu-request "$form" \
	    --job-name "site-$tag" --exclude 'mbsnode[1-3]' \
	    --nodelist mbsnode0 --comment "site-$tag" --mail-user nobody@localhost \
	    --mail-type END,FAIL --cpus-per-task 2 --chdir "$site" \
	    --setup 'echo "setup one in $PWD"' --setup 'export MBS_SETUP=two' \
	    --setup 'echo "unset:${MBS_NEVER_SET}."' \
	    --srun-opt --cpu-bind=none --parsable --via "$sv" "$@"
	expect_status "site $tag: submit" 0
	id=$(cat "$tmp/out")
	final=$(wait_done "$id" 60)
	if [ "$final" = COMPLETED ]; then ok; else bad "site $tag: $final: $(cat "$tmp/err")"; fi
	scontrol show job "$id" >"$tmp/site.show"
	typed_shown "site $tag: typed --$form" "$id"
	for want in 'ExcNodeList=mbsnode[1-3]' 'ReqNodeList=mbsnode0' \
	    "Comment=site-$tag" 'MailUser=nobody@localhost' 'CPUs/Task=2' \
	    "WorkDir=$site" "StdOut=$site/logs/site-$tag-$id.out"; do
		if grep -qF -- "$want" "$tmp/site.show"; then ok; else
			bad "site $tag: scontrol lacks $want: $(grep -oE '(ExcNodeList|ReqNodeList|Comment|MailUser|CPUs/Task|WorkDir|StdOut)=[^ ]*' "$tmp/site.show" | tr '\n' ' ')"
		fi
	done
	mt=$(sed -n 's/.*MailType=\([^ ]*\).*/\1/p' "$tmp/site.show")
	case ,$mt, in
	*,END,*FAIL,* | *,FAIL,*END,*) ok ;;
	*) bad "site $tag: MailType=$mt, want END and FAIL" ;;
	esac
	log="$site/logs/site-$tag-$id.out"
	if [ "$(head -n 2 "$log" 2>/dev/null | tr '\n' '|')" = "setup one in $site|unset:.|" ]; then ok; else
		bad "site $tag: the setup lines' output does not start $log: $(head -n 3 "$log" 2>/dev/null)"
	fi
	# Either form of the request gives each task the node's 8 GPUs.
	if [ "$(grep -c '^rank [0-7] two cpus=2 gpus=0,1,2,3,4,5,6,7$' "$log" 2>/dev/null)" = 8 ]; then ok; else
		bad "site $tag: 8 ranks with the setup's variable, 2 CPUs and 8 GPUs: $(grep '^rank' "$log" | head -n 3)"
	fi
}
# --slurm-opt reaches the job through sbatch, which reads the line; an
# option the cluster's sbatch lacks is refused before anything is queued.
run submit $job --command true --gpus 8 --job-name site-extra \
    --slurm-opt nice=5 --parsable --via sbatch
expect_status "--slurm-opt: submit" 0
id=$(cat "$tmp/out")
if scontrol show job "$id" | grep -q ' Nice=5 '; then ok; else bad "--slurm-opt nice=5: $(scontrol show job "$id" | grep -o 'Nice=[^ ]*')"; fi
wait_done "$id" 60 >/dev/null
case ${MBS_SLURM_RELEASE:-22.05} in
22.05)
	run submit $job --command true --gpus 8 --slurm-opt extra=x --via sbatch
	expect_status "--slurm-opt of a later sbatch" 2
	if [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^mbsbatch: script 'generated': line [0-9]*: --extra=x: sbatch of Slurm 22.05 does not take it (from 23.02 on)$" "$tmp/err"; then
		ok
	else
		bad "--slurm-opt of a later sbatch: $(cat "$tmp/err")"
	fi
	;;
esac
for via in $(test_vias); do
	if [ "$via" = rest ]; then
		for v in $MBS_SLURM_APIS; do
			site_job "rest-$v" rest --rest-url "$MBS_REST_URL" \
			    --token-file "$MBS_JWT_FILE" --api-version "$v"
		done
	else
		site_job "$via" "$via"
	fi
done

# The options --slurm-opt sets that every back end carries
# (src/slurm/slurmopt-carried.h): a held job through every back end and
# REST API version, scontrol (and squeue, for the WCKey) shows each as
# sbatch's job has it.  --batch must be a subset of --constraint
# (slurmctld: "Job --batch option is invalid or not a subset of
# --constraints"), so the nodes get a feature for it and --prefer.
# --acctg-freq is sent too, but neither scontrol nor squeue shows it.
# An API version without a key for an option refuses it, naming the
# first with one (v0.0.36 and v0.0.37: --prefer, --container); v0.0.36-38
# refuse --batch, which slurmrestd 22.05.8 frees twice and dies of.
scontrol update NodeName='mbsnode[0-3]' AvailableFeatures=mbsfeat \
    ActiveFeatures=mbsfeat >"$tmp/feat" 2>&1 || bad "features: $(cat "$tmp/feat")"
carried_fields() {	# carried_fields ID: what the carried options became
	scontrol show job "$1" | tr ' ' '\n' | grep -E '^(Licenses|Nice|Prefer|MCS_label|BatchFeatures|ClusterFeatures|Container|Features)=' | sort | tr '\n' ' '
	printf 'WCKey=%s\n' "$(squeue -h -j "$1" -O wckey:40 | tr -d ' ')"
}
carried_all="licenses=mbslic:2 wckey=wk nice=7 prefer=mbsfeat mcs-label=lab
acctg-freq=task=30 batch=mbsfeat cluster-constraint=east container=/tmp/mbs-bundle"
carried_job() {	# carried_job TAG OPTIONS VIA [CONNECTION...]: the fields
	tag=$1 opts=$2 cv=$3
	shift 3
	# shellcheck disable=SC2046
	run submit $job --command true --gpus 8 --job-name "carried-$tag" \
	    --constraint mbsfeat $(printf -- '--slurm-opt %s ' $opts) \
	    --hold --parsable --via "$cv" "$@"
	expect_status "carried $tag: submit" 0
	: >"$tmp/carried.$tag"
	cid=$(cat "$tmp/out")
	[ -n "$cid" ] || return 0
	carried_fields "$cid" >"$tmp/carried.$tag"
	scancel "$cid"
}
carried_job sbatch "$carried_all" sbatch
want='BatchFeatures=mbsfeat ClusterFeatures=east Container=/tmp/mbs-bundle Features=mbsfeat Licenses=mbslic:2 MCS_label=lab Nice=7 Prefer=mbsfeat WCKey=wk'
if [ "$(cat "$tmp/carried.sbatch")" = "$want" ]; then ok; else
	bad "carried sbatch: $(cat "$tmp/carried.sbatch"), want $want"
fi
for via in $(test_vias); do
	[ "$via" = sbatch ] && continue
	if [ "$via" != rest ]; then
		carried_job "$via" "$carried_all" "$via"
		if [ "$(cat "$tmp/carried.$via")" = "$want" ]; then ok; else
			bad "carried $via: $(cat "$tmp/carried.$via"), want sbatch's $want"
		fi
		continue
	fi
	for v in $MBS_SLURM_APIS; do
		conn="--rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE --api-version $v"
		# The options this version refuses, each with the reason.
		case $v in
		v0.0.36 | v0.0.37) refused="prefer=mbsfeat container=/tmp/mbs-bundle batch=mbsfeat" ;;
		v0.0.38) refused="batch=mbsfeat" ;;
		*) refused= ;;
		esac
		opts=$carried_all w=$want
		for o in $refused; do
			# shellcheck disable=SC2086
			run submit $job --command true --gpus 8 --constraint mbsfeat --slurm-opt "$o" --via rest $conn
			expect_status "carried rest $v: $o refused" 2
			case $o in
			batch=*) why="frees it twice up to Slurm 22.05.8 and 23.02.1, which kills slurmrestd (safe from v0.0.39)" ;;
			*) why="(from v0.0.38)" ;;
			esac
			case $(head -n 1 "$tmp/err") in
			"mbsbatch: --${o%%=*}: not in slurmrestd's $v API $why" | \
			"mbsbatch: --${o%%=*}: slurmrestd's $v API $why") ok ;;
			*) bad "carried rest $v: $o refused: $(cat "$tmp/err")" ;;
			esac
			opts=$(echo "$opts" | tr ' ' '\n' | grep -vx -- "$o" | tr '\n' ' ')
			f=$(echo "${o%%=*}" | sed 's/^batch$/BatchFeatures/; s/^prefer$/Prefer/; s/^container$/Container/')
			w=$(echo "$w" | tr ' ' '\n' | grep -v "^$f=" | tr '\n' ' ' | sed 's/ $//')
		done
		carried_job "rest-$v" "$opts" rest $conn
		if [ "$(cat "$tmp/carried.rest-$v")" = "$w" ]; then ok; else
			bad "carried rest $v: $(cat "$tmp/carried.rest-$v"), want $w"
		fi
	done
done

# submit --test-only (issue 28): Slurm's answer through each back end
# that can ask (sbatch --test-only, libslurm's will-run), REST's one line
# naming its release; Slurm's refusal as a failure; nothing queued.
busy=$(sbatch --parsable -p "$MBS_SLURM_PARTITION" -N 4 --exclusive -t 30 \
    --wrap 'sleep 300' 2>"$tmp/sberr") || bad "test-only: busy job: $(cat "$tmp/sberr")"
wait_state "$busy" RUNNING 20 || bad "test-only: the busy job is $(job_state "$busy")"
squeue -h --states=all -o %i | sort >"$tmp/jobs.before"
for via in $(test_vias); do
	rest=
	[ "$via" = rest ] && rest="--rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE"
	run submit $job --command true --gpus 16 --test-only --via "$via" $rest
	if [ "$via" = rest ]; then
		expect_status "test-only ($via)" 1
		if [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^mbsbatch: submit --test-only: slurmrestd of Slurm ${MBS_SLURM_RELEASE:-22.05} (API v0\.0\.[0-9]*) cannot ask whether a job would run without queueing it: use --via sbatch or --via native$" "$tmp/err"; then ok; else
			bad "test-only ($via): $(cat "$tmp/err")"
		fi
		continue
	fi
	expect_status "test-only ($via)" 0
	# The nodes are busy for 30 min: it would start when they are free.
	if grep -Eq "^Job would start at [0-9T:-]+ \(in (29|30) min\) using 16 processors on nodes mbsnode\[[0-3]-[0-3]\] in partition $MBS_SLURM_PARTITION; nothing was queued$" "$tmp/out"; then ok; else
		bad "test-only ($via): $(cat "$tmp/out")"
	fi
	run submit $job --command true --gpus 8 --test-only --json --via "$via" $rest
	expect_json "test-only --json ($via)" '[.test_only, .backend, (.starts_in > 1700), (.nodes | test("^mbsnode[0-3]$")), .partition, .processors]' \
	    "[true,\"$via\",true,true,\"$MBS_SLURM_PARTITION\",8]"
	# Never: the big partition's nodes are down.
	run submit --template command --command true --gpus 8 \
	    --partition "$MBS_SLURM_BIG_PARTITION" --test-only --via "$via"
	expect_status "test-only, never ($via)" 1
	case $via in sbatch) who="sbatch --test-only" ;; *) who="libslurm: will-run" ;; esac
	expect_err_prefix "test-only, never ($via)" "mbsbatch: $who: Requested node configuration is not available"
done
squeue -h --states=all -o %i | sort >"$tmp/jobs.after"
if cmp -s "$tmp/jobs.before" "$tmp/jobs.after"; then ok; else
	bad "test-only queued jobs: $(comm -13 "$tmp/jobs.before" "$tmp/jobs.after" | tr '\n' ' ')"
fi
scancel "$busy"

# The controller down: one line with Slurm's reason (after Slurm's own
# retries, about 18 s), for the back ends that talk to slurmctld.
sed 's/^SlurmctldPort=.*/SlurmctldPort=9/' "$SLURM_CONF" >"$tmp/dead.conf"
for via in $(test_vias); do
	[ "$via" = rest ] && continue
	SLURM_CONF="$tmp/dead.conf" "$MBSBATCH" status 1 --via "$via" >"$tmp/out" 2>"$tmp/err"
	status=$?
	expect_status "controller down ($via)" 1
	if [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'Unable to contact slurm controller' "$tmp/err"; then ok; else
		bad "controller down ($via): $(cat "$tmp/err")"
	fi
done

finish
