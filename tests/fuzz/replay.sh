# replay.sh: every fuzz target, built without libFuzzer, over its seed
# corpus and the inputs that once crashed it (tests/fuzz/regress/): a
# crash found by fuzzing stays fixed.  make fuzz does the fuzzing.
. "${top_srcdir:-.}/tests/cli/lib.sh"
dir=$(cd "$top_srcdir/tests/fuzz" && pwd)
# An input that hangs a target (a template bomb) fails it, in time.
limit=
command -v timeout >/dev/null 2>&1 && limit="timeout 300"
for t in tmpl jobfile config directives rest number journal argv logpath jobref sacct squeue sbatch logcheck submitted site logtimeline; do
	bin="$top_builddir/tests/fuzz/replay_$t"
	if $limit "$bin" "$dir/corpus/$t" "$dir/regress/$t" >"$tmp/out" 2>"$tmp/err"; then
		ok
	else
		bad "replay_$t: status $?: $(tail -n 5 "$tmp/err")"
	fi
done
finish
