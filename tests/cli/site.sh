# site.sh: a cluster profile's "site" (what mbsbatch site writes,
# mbsbatch.conf(5)) without a cluster: plan, gen and submit refuse each
# broken limit before anything is written or queued, one line each,
# exit 3; a valid job passes; a profile's site with a typo is refused
# with its position.  tests/slurm/site.sh writes such a profile from a
# real cluster.
. "${top_srcdir:-.}/tests/cli/lib.sh"
: "${JQ:=jq}"
need "$JQ" "to read plan --json"
HOME=$tmp XDG_CONFIG_HOME=$tmp/config
export HOME XDG_CONFIG_HOME
unset MBSBATCH_CONFIG
cd "$tmp" || exit 1
mkdir -p logs
cat >site.json <<'JSON'
{
  "default_cluster": "eos",
  "clusters": {
    "eos": {
      "via": "sbatch",
      "partition": "batch",
      "site": {
        "written": "2026-12-07",
        "via": "sbatch",
        "user": "alice",
        "partitions": {
          "batch": {"default": true, "max_time": 240, "max_nodes": 4,
                    "nodes": 16, "gpus_per_node": 8,
                    "gres": ["gpu:h100:8"], "features": ["ib"]},
          "debug": {"default": false, "max_time": 30, "nodes": 2,
                    "gpus_per_node": 4, "gres": ["gpu:a100:4"]}
        },
        "qos": {"normal": {}, "long": {"max_wall": 2880, "max_nodes": 2}},
        "associations": [{"account": "proj", "qos": ["normal", "long"]}]
      }
    }
  }
}
JSON
src="(site profile of cluster eos, written 2026-12-07)"
m="--config site.json --tp 8 --template command --command true"

# A valid job: nothing said.
run gen $m --nodes 2 --time 4:00:00 --qos long --account proj
expect_status "valid job" 0
expect_no_stderr "valid job"

refused() {
	what=$1 line=$2
	shift 2
	run gen $m "$@"
	expect_status "$what" 3
	expect_no_stdout "$what"
	expect_err_prefix "$what" "mbsbatch: gen: site-limit: $line $src; no script written"
}
refused "MaxTime" "partition batch: MaxTime 04:00:00, the job asks 08:00:00" \
    --nodes 1 --time 8:00:00
refused "MaxNodes" "partition batch: MaxNodes 4, the job needs 5 nodes" \
    --nodes 5
refused "nodes of the partition" "partition debug: 2 nodes in all, the job needs 4" \
    --partition debug --nodes 4 --gpus-per-node 4
refused "GPUs per node" "partition debug: 4 GPUs per node, the job asks 8" \
    --partition debug --nodes 1
refused "partition" "partition 'gpu': no such partition; the cluster has batch, debug" \
    --partition gpu --nodes 1
refused "QoS" "QoS 'high': no such QoS; the cluster has normal, long" \
    --nodes 1 --qos high
refused "QoS MaxTRESPerJob" "QoS long: MaxTRESPerJob node=2, the job needs 3 nodes" \
    --nodes 3 --qos long
refused "account" "account 'other': user alice has no association with it in partition batch (theirs: proj)" \
    --nodes 1 --account other
# Each of several, a line each; gen -o writes nothing.
run gen $m --nodes 5 --time 8:00:00 --qos long -o job.sbatch
expect_status "three limits" 3
if [ "$(grep -c '^mbsbatch: gen: site-limit: ' "$tmp/err")" -eq 3 ]; then ok; else
	bad "three limits: not three lines"; fi
if [ -e job.sbatch ]; then bad "a refused job's script was written"; else ok; fi
# plan: the findings, exit 3; submit refuses before reaching Slurm (no
# sbatch is needed to be refused).
run plan $m --nodes 5 --json
expect_status "plan" 3
expect_json "plan" '[.findings[] | select(.code == "site-limit") | .severity]' '["error"]'
run submit $m --nodes 5
expect_status "submit" 3
expect_err_prefix "submit" "mbsbatch: submit: site-limit: partition batch: MaxNodes 4, the job needs 5 nodes $src; no script written"

# A typo in the site: the key and where it is.
sed 's/"max_nodes": 4,/"max_node": 4,/' site.json >typo.json
run plan --config typo.json --nodes 1
expect_status "typo" 2
expect_err_prefix "typo" "mbsbatch: config file 'typo.json': line 12, column 55: unknown key 'max_node' (expected default, max_time, max_nodes, nodes, gpus_per_node, gres, features)"
# site itself: a cluster to write is needed; --force only with -o.
printf '{}\n' >empty.json
run site --config empty.json --via sbatch
expect_status "site without a cluster" 2
expect_err_prefix "site without a cluster" "mbsbatch: site: no cluster to write"
run site --config empty.json --cluster x --force
expect_status "site --force" 2
expect_err "site --force" "mbsbatch: site: --force goes with -o FILE"
finish
