# secrets.sh: a token never shows: every command, run with -v and a known
# token (in SLURM_JWT, and in a token file), prints it nowhere on stdout or
# stderr, in no file it writes, and a token file others can read is
# refused.  No command takes a token on its command line.  (On the real
# cluster, tests/slurm/rest.sh submits with a real token under -v.)
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

finish
