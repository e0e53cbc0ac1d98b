# site.sh (Slurm): mbsbatch site asks the test cluster, given limits of
# a site (a partition "short" of MaxTime 10 and MaxNodes 2, a QoS
# short30 of MaxWall 30 and MaxTRESPerJob node=2, root's account
# research), through each back end, and writes a profile that holds them;
# then plan, submit and sweep refuse each broken limit before anything
# is queued, one line each, and queue a valid job.  Accounting
# (MBS_SLURM_ACCOUNTING=yes: 22.05 and 25.11) for the QoS and accounts.
MBS_SLURM_ACCOUNTING=yes
export MBS_SLURM_ACCOUNTING
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/slurm/lib.sh"
: "${JQ:=jq}"
need "$JQ" "to read the profiles written"
nope() { fail=$((fail + 1)); echo "FAIL: $*"; }

work="$tmp/work"
mkdir -p "$work" "$tmp/home"
cd "$work" || exit 1
# Never the real config: the user's file is the test's.
HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config
export HOME XDG_CONFIG_HOME
unset MBSBATCH_CONFIG

scontrol create PartitionName=short Nodes=mbsnode[0-1] MaxTime=10 \
    MaxNodes=2 State=UP >"$tmp/setup" 2>&1 &&
sacctmgr -i add qos short30 MaxWall=00:30:00 MaxTRESPerJob=node=2 \
    >>"$tmp/setup" 2>&1 &&
sacctmgr -i add account research >>"$tmp/setup" 2>&1 &&
sacctmgr -i add user root account=research qos=normal,short30 \
    >>"$tmp/setup" 2>&1 || { cat "$tmp/setup"; echo "FAIL: setup"; exit 1; }

# The profile each back end writes (-o FILE), read with jq.
want_short='{"max_time":10,"max_nodes":2,"nodes":2,"gpus_per_node":8,"gres":["gpu:tesla:8"],"features":[]}'
for via in $(test_vias); do
	rest=
	[ "$via" = rest ] && rest="--rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE"
	# shellcheck disable=SC2086
	run site --cluster "c-$via" --via "$via" $rest -o "$tmp/$via.json"
	expect_status "site --via $via" 0
	expect_out_has "site --via $via" "short            "
	got=$("$JQ" -c ".default_cluster, (.clusters[\"c-$via\"].site |
	    (.partitions.short | del(.default)), .qos.short30,
	    ([.associations[] | select(.account == \"research\") | .qos] |
	    .[0]))" "$tmp/$via.json" 2>&1 | tr '\n' ' ')
	want="\"c-$via\" $want_short {\"max_wall\":30,\"max_nodes\":2} [\"normal\",\"short30\"] "
	if [ "$got" = "$want" ]; then ok; else
		nope "site --via $via wrote: $got; want $want"; fi
	# The default partition: said by 22.05's REST and the clients, not by
	# REST from v0.0.39 on (mbsbatch-site(1)).
	got=$("$JQ" -c ".clusters[\"c-$via\"].site.partitions.local.default" \
	    "$tmp/$via.json")
	case $via:$MBS_SLURM_RELEASE:$got in
	rest:22.05:true | native:*:true | sbatch:*:true | rest:2[45]*:null) ok ;;
	*) nope "site --via $via: local's default is $got" ;;
	esac
done

# Into the user's config: the profile made beside what was there, which
# stays as it was.
mkdir -p "$XDG_CONFIG_HOME/mbsbatch"
printf '{\n  "presets_dir": "/nowhere",\n  "clusters": {\n    "other": {\n      "gpus_per_node": 4,\n      "partition": "x"\n    }\n  }\n}\n' \
    >"$XDG_CONFIG_HOME/mbsbatch/config.json"
run site --cluster mine --via sbatch
expect_status "site into the user's config" 0
got=$("$JQ" -c '[.presets_dir, .clusters.other, .clusters.mine.via,
    .clusters.mine.partition, .clusters.mine.gpus_per_node,
    .clusters.mine.site.partitions.short.max_time]' \
    "$XDG_CONFIG_HOME/mbsbatch/config.json" 2>&1)
want='["/nowhere",{"gpus_per_node":4,"partition":"x"},"sbatch","local",8,10]'
if [ "$got" = "$want" ]; then ok; else nope "user config: $got, want $want"; fi
# Asked again, it updates the same profile (no second one, no loss).
run site --cluster mine
expect_status "site again" 0
got=$("$JQ" -c '[(.clusters | keys), .clusters.mine.via]' \
    "$XDG_CONFIG_HOME/mbsbatch/config.json" 2>&1)
if [ "$got" = '[["mine","other"],"sbatch"]' ]; then ok; else
	nope "user config again: $got"; fi
# The profile the limits are checked against; -o over an existing file
# only with --force.
run site --cluster lim --via sbatch -o "$tmp/limits.json"
expect_status "site -o" 0
run site --cluster lim --via sbatch -o "$tmp/limits.json"
expect_status "site -o over a file" 1
run site --cluster lim --via sbatch -o "$tmp/limits.json" --force
expect_status "site -o --force" 0

# Each limit broken alone: refused before queueing, one line naming it.
queued() { squeue -h -o %i | wc -l; }
before=$(queued)
src="(site profile of cluster lim, written $(date -u +%Y-%m-%d))"
m="--config $tmp/limits.json --template command --command true --tp 8"
check_refused() {
	what=$1 line=$2
	shift 2
	# shellcheck disable=SC2086
	run submit $m "$@"
	expect_status "$what" 3
	expect_err_prefix "$what" "mbsbatch: submit: site-limit: $line $src; no script written"
	if [ "$(grep -c '^mbsbatch: ' "$tmp/err")" -eq 1 ]; then ok; else
		bad "$what: more than one line"; fi
}
check_refused "time over MaxTime" \
    "partition short: MaxTime 00:10:00, the job asks 00:20:00" \
    --partition short --nodes 1 --time 20
check_refused "nodes over MaxNodes" \
    "partition short: MaxNodes 2, the job needs 3 nodes" \
    --partition short --nodes 3
check_refused "nodes over the partition's" \
    "partition local: 4 nodes in all, the job needs 5" --nodes 5
check_refused "unknown partition" \
    "partition 'nosuch': no such partition; the cluster has local, gpu, short" \
    --partition nosuch --nodes 1
# A typed GPU request (gres_types maps --gpu-type to the site's type):
# a type the nodes have (the test cluster's "tesla") passes, one they do
# not have is refused.
"$JQ" '.clusters.lim.gres_types = {"h100": "nosuch"}' "$tmp/limits.json" \
    >"$tmp/typed-bad.json"
"$JQ" '.clusters.lim.gres_types = {"h100": "tesla"}' "$tmp/limits.json" \
    >"$tmp/typed.json"
m_plain=$m
m="--config $tmp/typed-bad.json --template command --command true --tp 8"
check_refused "GRES type" \
    "partition local: no GPU of GRES type 'nosuch' on its nodes (they have gpu:tesla:8)" \
    --nodes 1 --gpu-type h100
m="--config $tmp/typed.json --template command --command true --tp 8"
# shellcheck disable=SC2086
run plan $m --nodes 1 --gpu-type h100
expect_status "a GRES type the nodes have" 0
m=$m_plain
check_refused "unknown QoS" \
    "QoS 'nosuch': no such QoS; the cluster has normal, short30" \
    --nodes 1 --qos nosuch
check_refused "QoS MaxWall" \
    "QoS short30: MaxWall 00:30:00, the job asks 01:00:00" \
    --nodes 1 --qos short30 --time 60
check_refused "QoS not the user's account's" \
    "QoS 'short30': not allowed to user root under account root (allowed: normal)" \
    --nodes 1 --qos short30 --account root
check_refused "account" \
    "account 'nosuch': user root has no association with it in partition local (theirs: research, root)" \
    --nodes 1 --account nosuch
# Several at once: every one, a line each.
run submit $m --partition short --nodes 3 --time 20 --qos short30
expect_status "three limits" 3
if [ "$(grep -c 'site-limit' "$tmp/err")" -eq 3 ]; then ok; else
	bad "three limits: not three lines"; fi
# plan says so too (exit 3); sweep skips the point that breaks one.
run plan $m --partition short --nodes 3
expect_status "plan over MaxNodes" 3
expect_out_has "plan over MaxNodes" "site-limit            partition short: MaxNodes 2"
if [ "$(queued)" -eq "$before" ]; then ok; else nope "a refused job was queued"; fi

# A valid job of the same profile is queued, whatever the back end.
for via in $(test_vias); do
	rest=
	[ "$via" = rest ] && rest="--rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE"
	# shellcheck disable=SC2086
	run submit $m --via "$via" $rest --partition short --nodes 2 --time 5 \
	    --qos short30 --account research --hold --parsable
	expect_status "valid job via $via" 0
	id=$(cat "$tmp/out")
	case $id in [1-9]*) scancel "$id" ;; *) nope "valid job via $via: '$id'" ;; esac
done
run sweep $m --partition short --grid nodes=1,3 --hold --journal "$tmp/j"
expect_status "sweep with a point over MaxNodes" 3
if grep -q "point 1 (nodes=3) skipped: site-limit: partition short: MaxNodes 2" "$tmp/err"; then
	ok; else bad "sweep: the point over MaxNodes"; fi
scancel -u root >/dev/null 2>&1
finish
