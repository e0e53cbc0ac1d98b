# gres.sh: typed GPUs (issue 28, item 3): a cluster profile's gres_types
# gives the site's GRES type of the job's --gpu-type, gpu_request the form
# the site takes (--gpus-per-node=TYPE:N or --gres=gpu:TYPE:N); the script
# carries it, and each back end's job description (REST of each API
# family, libslurm's tres_per_node) sends it; what clashes is refused.
. "${top_srcdir:-.}/tests/cli/lib.sh"

cmd="--template command --command true --gpus 16"
cat >"$tmp/conf.json" <<'CONF'
{ "clusters": { "lab": { "gpu_type": "h100",
  "gres_types": { "h100": "nvidia_h100_80gb_hbm3", "a100": "3g.20gb" } },
  "gres": { "gpu_type": "a100", "gpu_request": "gres",
  "gres_types": { "a100": "a100-sxm4" } } },
  "default_cluster": "lab" }
CONF

# shellcheck disable=SC2086
run --config "$tmp/conf.json" gen $cmd
expect_status "typed --gpus-per-node" 0
expect_out_has "typed --gpus-per-node" "#SBATCH --gpus-per-node=nvidia_h100_80gb_hbm3:8"
expect_out_lacks "no --gres" "#SBATCH --gres"
# shellcheck disable=SC2086
run --config "$tmp/conf.json" gen $cmd --gpu-type a100 --gpu-request gres
expect_status "--gres form" 0
expect_out_has "--gres form" "#SBATCH --gres=gpu:3g.20gb:8"
expect_out_lacks "no --gpus-per-node" "#SBATCH --gpus-per-node"
# The other profile's form, and the command line over it.
# shellcheck disable=SC2086
run --config "$tmp/conf.json" --cluster gres gen $cmd -o "$tmp/gres.sbatch"
expect_status "profile's form" 0
if grep -qx '#SBATCH --gres=gpu:a100-sxm4:8' "$tmp/gres.sbatch"; then ok; else
	bad "profile's gpu_request: $(grep SBATCH "$tmp/gres.sbatch")"
fi
# shellcheck disable=SC2086
run --config "$tmp/conf.json" --cluster gres gen $cmd --gpu-request gpus-per-node
expect_out_has "--gpu-request over the profile" "#SBATCH --gpus-per-node=a100-sxm4:8"
# A job file's slurm.gpu_request.
printf '{ "gpu_type": "a100", "slurm": { "gpu_request": "gres" } }\n' >"$tmp/form.json"
# shellcheck disable=SC2086
run --config "$tmp/conf.json" gen "$tmp/form.json" $cmd
expect_out_has "job file's gpu_request" "#SBATCH --gres=gpu:3g.20gb:8"
# No GPU type: any GPU, untyped.
# shellcheck disable=SC2086
run gen $cmd --gpu-request gres
expect_out_has "untyped --gres" "#SBATCH --gres=gpu:8"
# plan --json shows the directive as written.
run --config "$tmp/conf.json" plan --json --gpus 16 --model llama3-8b
expect_status "plan --json" 0
expect_out_has "plan --json" '"value": "nvidia_h100_80gb_hbm3:8"'

# Each back end's description of the typed request.
# shellcheck disable=SC2086
run --config "$tmp/conf.json" gen $cmd -o "$tmp/typed.sbatch"
body() {
	run submit --script "$1" --dry-run --via rest \
	    --rest-url http://127.0.0.1:9 --api-version "$2"
	expect_status "REST $2" 0
	sed -n '/^{/,$p' "$tmp/out" >"$tmp/body"
}
if command -v jq >/dev/null 2>&1; then
	expect_body() {
		got=$(jq -c "$2" "$tmp/body" 2>&1)
		if [ "$got" = "$3" ]; then ok; else bad "$1: $2 is $got, want $3"; fi
	}
	body "$tmp/typed.sbatch" v0.0.36
	expect_body "v0.0.36" '.job | [.gpus_per_node, .gres, .tres_per_node]' \
	    '["nvidia_h100_80gb_hbm3:8",null,null]'
	expect_body "v0.0.36 environment" '.job.environment.SLURM_GPUS_PER_NODE' \
	    '"nvidia_h100_80gb_hbm3:8"'
	body "$tmp/gres.sbatch" v0.0.38
	expect_body "v0.0.38 --gres" '.job | [.gpus_per_node, .gres]' \
	    '[null,"gpu:a100-sxm4:8"]'
	body "$tmp/typed.sbatch" v0.0.39
	expect_body "v0.0.39" '.job | [.gpus_per_node, .tres_per_node]' \
	    '[null,"gres:gpu:nvidia_h100_80gb_hbm3:8"]'
	for v in v0.0.40 v0.0.41 v0.0.42 v0.0.43 v0.0.44; do
		body "$tmp/gres.sbatch" "$v"
		expect_body "$v --gres" '.job | [.gres, .tres_per_node]' \
		    '[null,"gres/gpu:a100-sxm4:8"]'
	done
fi
if "$MBSBATCH" --version | grep -q '^back ends:.* native'; then
	run submit --script "$tmp/typed.sbatch" --dry-run --via native
	expect_status "native" 0
	if grep -Eq '^#   tres_per_node +gres[:/]gpu:nvidia_h100_80gb_hbm3:8$' "$tmp/out"; then ok; else
		bad "native: no typed tres_per_node"
	fi
fi

# Refusals: one line each, status 2.
# shellcheck disable=SC2086
run --config "$tmp/conf.json" gen $cmd --gpu-type b200
expect_status "a type the profile does not map" 2
expect_err_prefix "a type the profile does not map" "mbsbatch: --gpu-type: the cluster profile's gres_types has no GRES type for b200 (it maps h100, a100)"
# shellcheck disable=SC2086
run gen $cmd --gpu-request gpu
expect_status "--gpu-request word" 2
expect_err "--gpu-request word" "mbsbatch: --gpu-request: 'gpu' is not a GPU request form (gpus-per-node or gres)"
for g in '{ "h100": "a:b" }|has a type that is not a GRES type' \
    '{ "x100": "t" }|does not name a GPU type of --gpu-type' \
    '{ "h100": true }|needs the site' \
    '{ "h100": "8" }|has a type that is a number'; do
	printf '{ "clusters": { "c": { "gres_types": %s } } }\n' "${g%%|*}" >"$tmp/bad.json"
	# shellcheck disable=SC2086
	run --config "$tmp/bad.json" --cluster c gen $cmd
	expect_status "gres_types ${g%%|*}" 2
	if [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "config file '$tmp/bad.json': line 1, column [0-9]*: '.*' ${g#*|}" "$tmp/err"; then ok; else
		bad "gres_types ${g%%|*}: $(cat "$tmp/err")"
	fi
done
printf '{ "gres_types": { "h100": "t" } }\n' >"$tmp/job.json"
# shellcheck disable=SC2086
run gen "$tmp/job.json" $cmd
expect_status "gres_types in a job file" 2
expect_err_prefix "gres_types in a job file" "mbsbatch: job file '$tmp/job.json': line 1, column"
# --slurm-opt may not ask for GPUs beside mbsbatch's.
# shellcheck disable=SC2086
run --config "$tmp/conf.json" gen $cmd --slurm-opt gres=gpu:nvidia_h100_80gb_hbm3:8
expect_status "--slurm-opt gres" 2
expect_err "--slurm-opt gres" "mbsbatch: --slurm-opt: 'gres=gpu:nvidia_h100_80gb_hbm3:8' would ask for GPUs beside those mbsbatch writes: for a GPU type give --gpu-type with the profile's gres_types, for the --gres form --gpu-request gres"
# shellcheck disable=SC2086
run --config "$tmp/conf.json" gen $cmd --slurm-opt gpus-per-node=h100:8
expect_status "--slurm-opt gpus-per-node" 2
expect_err "--slurm-opt gpus-per-node" "mbsbatch: --slurm-opt: 'gpus-per-node=h100:8' is sized by mbsbatch: give --gpus-per-node, and for a GPU type --gpu-type with the profile's gres_types"
# A script's own typed request per task cannot be sent.
printf '#!/bin/sh\n#SBATCH -n 2 --gpus-per-task=tesla:1\ntrue\n' >"$tmp/task.sbatch"
run submit --script "$tmp/task.sbatch" --dry-run --via rest \
    --rest-url http://127.0.0.1:9 --api-version v0.0.41
expect_status "typed --gpus-per-task" 2
expect_err "typed --gpus-per-task" "mbsbatch: script '$tmp/task.sbatch': line 2: --gpus-per-task=tesla:1: 'tesla:1': GPU types cannot be sent; write the count only"

finish
