# site-opts.sh: the options that fit a job to its site (issue 28, items 1
# and 2): --exclude, --nodelist, --comment, --mail-user, --mail-type,
# --cpus-per-task and --chdir as #SBATCH lines and in each back end's job
# description; --setup lines and --srun-opt options in every shipped
# template, a profile's first; their refusals, one line each.
. "${top_srcdir:-.}/tests/cli/lib.sh"
need bash "to check the generated scripts' syntax"

cmd="--template command --command true --gpus 16"
mkdir -p "$tmp/work dir/logs"

# shellcheck disable=SC2086
run gen $cmd --exclude 'gpu[01-03]' --nodelist gpu07 --comment 'a "b" c' \
    --mail-user me@example.org --mail-type end,FAIL --cpus-per-task 4 \
    --chdir "$tmp/work dir"
expect_status "site options" 0
expect_out_has "--exclude" "#SBATCH --exclude=gpu[01-03]"
expect_out_has "--nodelist" "#SBATCH --nodelist=gpu07"
expect_out_has "--comment, quoted for sbatch" '#SBATCH --comment="a \"b\" c"'
expect_out_has "--mail-user" "#SBATCH --mail-user=me@example.org"
expect_out_has "--mail-type" "#SBATCH --mail-type=end,FAIL"
expect_out_has "--cpus-per-task" "#SBATCH --cpus-per-task=4"
expect_out_has "--chdir, quoted for sbatch" "#SBATCH --chdir=\"$tmp/work dir\""
expect_out_has "--cpus-per-task reaches the launch's srun" "	--cpus-per-task=4"
# The command template runs no training script: no warning about one.
expect_no_stderr "no training script, no warning"

# Job-file and profile keys, and the script read back by submit: every
# back end's description carries them.
cat >"$tmp/conf.json" <<'CONF'
{ "clusters": { "lab": { "gpus_per_node": 8, "exclude": "bad1",
  "mail_type": "END", "setup": ["module load site", "echo 'site two'"],
  "srun_options": ["--mpi=pmix"] } }, "default_cluster": "lab" }
CONF
cat >"$tmp/job.json" <<'JOB'
{ "template": "command", "command": "true", "gpus": 16,
  "setup": ["source venv/bin/activate"], "srun_options": ["--cpu-bind=cores"],
  "slurm": { "comment": "from the job", "cpus_per_task": 2,
    "nodelist": "n[1-2]" } }
JOB
run --config "$tmp/conf.json" gen "$tmp/job.json" --setup 'cd "$HOME" && pwd' \
    --srun-opt '--export=ALL,A=b c'
expect_status "profile, job file, command line" 0
expect_out_has "profile's --exclude" "#SBATCH --exclude=bad1"
expect_out_has "job file's --nodelist" "#SBATCH --nodelist=n[1-2]"
expect_out_has "job file's --comment" '#SBATCH --comment="from the job"'
awk '/^eval /' "$tmp/out" >"$tmp/setup"
printf '%s\n' "eval 'module load site'" "eval 'echo '\\''site two'\\'''" \
    "eval 'source venv/bin/activate'" "eval 'cd \"\$HOME\" && pwd'" \
    >"$tmp/setup.want"
if cmp -s "$tmp/setup" "$tmp/setup.want"; then ok; else
	bad "setup lines: profile's, job file's, command line's, in order: $(cat "$tmp/setup")"
fi
sed -n '/^srun_opts=(/,/^)/p' "$tmp/out" >"$tmp/srun"
printf '%s\n' 'srun_opts=(' '	--kill-on-bad-exit=1' '	--cpus-per-task=2' \
    '	--mpi=pmix' '	--cpu-bind=cores' "	'--export=ALL,A=b c'" ')' \
    >"$tmp/srun.want"
if cmp -s "$tmp/srun" "$tmp/srun.want"; then ok; else
	bad "srun options: $(cat "$tmp/srun")"
fi
# Between set +u and set -u: activate scripts read unset variables.
sed -n '/^set +u$/,/^set -u$/p' "$tmp/out" | grep -c '^eval ' >"$tmp/between"
if [ "$(cat "$tmp/between")" = 4 ]; then ok; else bad "setup lines not between set +u and set -u"; fi
cp "$tmp/out" "$tmp/job.sbatch"
if bash -n "$tmp/job.sbatch" 2>"$tmp/syntax"; then ok; else bad "bash -n: $(cat "$tmp/syntax")"; fi
# The setup lines run as written, in order, in the batch shell.
{ echo 'module() { echo "module $*"; }'; echo 'source() { echo "source $*"; }'
  cat "$tmp/setup"; } >"$tmp/run-setup.sh"
(HOME="$tmp/work dir" bash -e "$tmp/run-setup.sh") >"$tmp/ran" 2>&1
printf '%s\n' "module load site" "site two" "source venv/bin/activate" \
    "$tmp/work dir" >"$tmp/ran.want"
if cmp -s "$tmp/ran" "$tmp/ran.want"; then ok; else bad "setup lines ran: $(cat "$tmp/ran")"; fi

# Every shipped template has them, with either launcher.
for t in "--template command --command true" "--recipe llama3_8b_pretrain_config" \
    "--template megatron-lm --model llama3-8b --seq-length 4096"; do
	for l in srun torchrun; do
		[ "$l" = torchrun ] && case $t in --template\ command*) continue ;; esac
		# shellcheck disable=SC2086
		run gen $t --gpus 16 --launcher "$l" --setup 'module load x' \
		    --srun-opt --mpi=pmix --cpus-per-task 3
		expect_status "$t $l" 0
		expect_out_has "$t $l: setup" "eval 'module load x'"
		expect_out_has "$t $l: srun option" "	--mpi=pmix"
		if [ "$l" = torchrun ]; then
			expect_out_has "$t $l: a node's CPUs" "	--cpus-per-task=24"
		else
			expect_out_has "$t $l: a task's CPUs" "	--cpus-per-task=3"
		fi
	done
done

# --chdir: the training script is looked for there.
run gen --recipe llama3_8b_pretrain_config --gpus 8 --chdir "$tmp/work dir"
expect_status "--chdir, no script there" 0
if grep -qF "mbsbatch: gen: warning: the training script 'scripts/training/run_recipe.py' is not in the job's working directory '$tmp/work dir' (--chdir): '$tmp/work dir/scripts/training/run_recipe.py' does not exist" "$tmp/err"; then ok; else
	bad "--chdir: no warning naming the script"
fi
mkdir -p "$tmp/work dir/scripts/training"
: >"$tmp/work dir/scripts/training/run_recipe.py"
run gen --recipe llama3_8b_pretrain_config --gpus 8 --chdir "$tmp/work dir"
expect_no_stderr "--chdir, the script is there"
run gen --recipe llama3_8b_pretrain_config --gpus 8 --chdir "$tmp/none"
if grep -q "training script" "$tmp/err"; then
	bad "--chdir not visible here: nothing to say of the script"
else ok; fi
# Relative output paths are found from there: its logs/ is there.
if grep -qF "'$tmp/none/logs/' does not exist here" "$tmp/err"; then ok; else
	bad "--chdir: the log directory is not looked for there"
fi

# Each back end's job description.
run --config "$tmp/conf.json" submit "$tmp/job.json" --chdir "$tmp/work dir" \
    --mail-user m@x --dry-run --via rest --rest-url http://127.0.0.1:9 \
    --api-version v0.0.38
expect_status "REST v0.0.38" 0
sed -n '/^{/,$p' "$tmp/out" >"$tmp/body"
expect_body() {
	got=$("$JQ" -c "$2" "$tmp/body" 2>&1)
	if [ "$got" = "$3" ]; then ok; else bad "$1: $2 is $got, want $3"; fi
}
if command -v jq >/dev/null 2>&1; then
	JQ=jq
	expect_body "v0.0.38" '.job | [.exclude_nodes, .nodelist, .comment, .mail_user, .mail_type, .cpus_per_task, .current_working_directory]' \
	    "[\"bad1\",\"n[1-2]\",\"from the job\",\"m@x\",\"END\",2,\"$tmp/work dir\"]"
	run --config "$tmp/conf.json" submit "$tmp/job.json" --chdir "$tmp/work dir" \
	    --dry-run --via rest --rest-url http://127.0.0.1:9 --api-version v0.0.41
	sed -n '/^{/,$p' "$tmp/out" >"$tmp/body"
	expect_body "v0.0.41" '.job | [.excluded_nodes, .required_nodes, .mail_type, .current_working_directory]' \
	    "[[\"bad1\"],[\"n[1-2]\"],[\"END\"],\"$tmp/work dir\"]"
fi
if "$MBSBATCH" --version | grep -q '^back ends:.* native'; then
	run --config "$tmp/conf.json" submit "$tmp/job.json" --dry-run --via native
	expect_status "native" 0
	for k in "exclude          bad1" "nodelist         n[1-2]" \
	    "comment          from the job" "cpus_per_task    2"; do
		expect_out_has "native: $k" "#   $k"
	done
fi

# --slurm-opt: any other sbatch option, written with sbatch's quoting,
# after mbsbatch's own; a profile's and a job file's slurm.extra merged
# by name, the command line's last.
cat >"$tmp/extra-conf.json" <<'CONF'
{ "clusters": { "lab": { "slurm": { "extra": { "licenses": "a:1",
  "spread-job": true } } } }, "default_cluster": "lab" }
CONF
cat >"$tmp/extra-job.json" <<'JOB'
{ "template": "command", "command": "true", "gpus": 8,
  "slurm": { "extra": { "nice": 10, "extra": "a b" } } }
JOB
run --config "$tmp/extra-conf.json" gen "$tmp/extra-job.json" \
    --slurm-opt licenses=b:2
expect_status "--slurm-opt" 0
sed -n '/^#SBATCH --output/,/^#$/p' "$tmp/out" >"$tmp/extra"
printf '%s\n' '#SBATCH --output=logs/%x-%j.out' '#SBATCH --licenses=b:2' \
    '#SBATCH --spread-job' '#SBATCH --nice=10' '#SBATCH --extra="a b"' '#' \
    >"$tmp/extra.want"
if cmp -s "$tmp/extra" "$tmp/extra.want"; then ok; else bad "--slurm-opt lines: $(cat "$tmp/extra")"; fi
# sbatch reads them all; REST and libslurm send those of
# slurmopt-carried.h (nice: its number) and refuse the others, saying so.
run gen --template command --command true --gpus 8 --slurm-opt nice=3 \
    --slurm-opt gres-flags=enforce-binding -o "$tmp/nice.sbatch"
expect_status "--slurm-opt -o" 0
run submit --script "$tmp/nice.sbatch" --dry-run --via sbatch
expect_status "--slurm-opt through sbatch" 0
run submit --script "$tmp/nice.sbatch" --dry-run --via rest \
    --rest-url http://127.0.0.1:9 --api-version v0.0.41
expect_status "--slurm-opt through REST" 2
expect_err "--slurm-opt through REST" "mbsbatch: script '$tmp/nice.sbatch': line 8: --gres-flags=enforce-binding: not an option mbsbatch can send; submit with --via sbatch"
run gen --template command --command true --gpus 8 --slurm-opt nice=3 -o "$tmp/nice3.sbatch"
run submit --script "$tmp/nice3.sbatch" --dry-run --via rest \
    --rest-url http://127.0.0.1:9 --api-version v0.0.41
expect_status "--slurm-opt nice through REST" 0
expect_out_has "--slurm-opt nice through REST" '"nice": 3,'
run gen --template command --command true --gpus 8 --slurm-opt prefer=fast -o "$tmp/prefer.sbatch"
run submit --script "$tmp/prefer.sbatch" --dry-run --via rest \
    --rest-url http://127.0.0.1:9 --api-version v0.0.37
expect_status "--slurm-opt prefer through REST v0.0.37" 2
expect_err_prefix "--slurm-opt prefer through REST v0.0.37" "mbsbatch: --prefer: not in slurmrestd's v0.0.37 API (from v0.0.38)"
run gen --template command --command true --gpus 8 --slurm-opt licence=x
expect_status "--slurm-opt near miss" 2
expect_err "--slurm-opt near miss" "mbsbatch: --slurm-opt: 'licence=x' is not an option of sbatch (did you mean 'licenses'?)"
run gen --template command --command true --gpus 8 --slurm-opt nodes=4
expect_err "--slurm-opt sized" "mbsbatch: --slurm-opt: 'nodes=4' is sized by mbsbatch: give --nodes or --gpus"
run gen --template command --command true --gpus 8 --slurm-opt exclude=n1
expect_err "--slurm-opt has a setting" "mbsbatch: --slurm-opt: 'exclude=n1' has a setting of its own: give --exclude"
printf '{ "clusters": { "lab": { "slurm": { "partition": "x" } } } }\n' >"$tmp/slurmobj.json"
run --config "$tmp/slurmobj.json" gen --template command --command true --gpus 8
expect_status "a profile's slurm object holds extra only" 2
expect_err_prefix "a profile's slurm object holds extra only" "mbsbatch: config file '$tmp/slurmobj.json': line 1, column"

# Refusals: one line, the option named, status 2.
refuse() {
	desc=$1; want=$2; shift 2
	# shellcheck disable=SC2086
	run gen $cmd "$@"
	expect_status "$desc" 2
	expect_err_prefix "$desc" "$want"
}
refuse "a node file" "mbsbatch: --exclude: '/etc/hosts' is not a Slurm node list" --exclude /etc/hosts
refuse "unbalanced range" "mbsbatch: --nodelist: 'n[1-2' has an unbalanced" --nodelist 'n[1-2'
refuse "unknown mail type" "mbsbatch: --mail-type: 'BEGN' is not a list of mail types" --mail-type BEGN
refuse "no CPUs" "mbsbatch: --cpus-per-task: '0'" --cpus-per-task 0
refuse "srun tasks" "mbsbatch: --srun-opt: '--ntasks=3' sets the launch's tasks" --srun-opt --ntasks=3
refuse "srun -N" "mbsbatch: --srun-opt: '-N2' sets the launch's nodes" --srun-opt -N2
refuse "srun CPUs" "mbsbatch: --srun-opt: '--cpus-per-task=2' is written from --cpus-per-task" --srun-opt --cpus-per-task=2
refuse "not an option" "mbsbatch: --srun-opt: 'mpi' is not an srun option" --srun-opt mpi
refuse "value as a word" "mbsbatch: --srun-opt: '--mpi pmix' has a blank" --srun-opt '--mpi pmix'
refuse "blank setup" "mbsbatch: --setup: ' ' is blank" --setup ' '
refuse "newline in setup" "mbsbatch: --setup: value" --setup "$(printf 'a\nb')"
printf '{ "command": "true", "template": "command", "gpus": 16, "setup": "x" }\n' >"$tmp/bad.json"
run gen "$tmp/bad.json"
expect_status "setup not a list" 2

finish
