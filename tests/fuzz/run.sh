#!/bin/sh
# run.sh: make fuzz.  Builds each target of tests/fuzz/ with clang's
# libFuzzer, ASan and UBSan over mbsbatch's own sources, then fuzzes each
# for FUZZ_SECONDS (default 300) from its seed corpus.  New interesting
# inputs stay in a scratch corpus; a crash is copied into
# tests/fuzz/regress/TARGET/ (make check replays it from then on) and
# fails the run.  Prints each target's executions and their rate.
set -eu
: "${top_srcdir:=.}"
: "${top_builddir:=.}"
: "${FUZZ_SECONDS:=300}"
: "${FUZZ_CC:=clang}"
: "${FUZZ_TARGETS:=tmpl jobfile config directives rest number journal argv logpath jobref sacct squeue sbatch logcheck submitted site logtimeline}"
src=$(cd "$top_srcdir" && pwd)
build=$(cd "$top_builddir" && pwd)
out="$build/tests/fuzz/bin"
command -v "$FUZZ_CC" >/dev/null || {
	echo "run.sh: $FUZZ_CC is not installed (apt-get install clang libclang-rt-14-dev)" >&2
	exit 1
}
mkdir -p "$out/obj"
flags="-g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
defs="-D_GNU_SOURCE -DSYSCONFDIR=\"/nonexistent/etc\" -DPKGDATADIR=\"/nonexistent/share\""
incs="$defs -I$build/src -I$build $(pkg-config --cflags jansson libcurl)"
for d in "$src"/src/*/; do
	incs="$incs -I${d%/}"
done
# mbsbatch's sources but main(): the native back end and libslurm's
# loader only when this build has them.
objs=
newest_h=$(ls -t "$src"/src/*/*.h "$build/autoconf.h" 2>/dev/null | head -n 1)
# The generated sources (bridge-recipes.c, templates-builtin.c) are in
# the build tree's src/.
for c in "$src"/src/*/*.c "$build"/src/*.c; do
	[ -f "$c" ] || continue
	b=$(basename "$c" .c)
	case $b in
	mbsbatch) continue ;;
	backend-native|slurm-load)
		grep -q '^#define HAVE_LIBSLURM 1' "$build/autoconf.h" 2>/dev/null || continue ;;
	esac
	# Again when the source or any header changed (a struct that grew
	# in a header once made a stale object look like a crash).
	if [ ! -f "$out/obj/$b.o" ] || [ "$c" -nt "$out/obj/$b.o" ] ||
	    [ "$newest_h" -nt "$out/obj/$b.o" ]; then
		# shellcheck disable=SC2086
		"$FUZZ_CC" $flags $incs -c "$c" -o "$out/obj/$b.o"
	fi
	objs="$objs $out/obj/$b.o"
done

status=0
printf '%-12s %12s %10s %s\n' target executions "per s" result
for t in $FUZZ_TARGETS; do
	# shellcheck disable=SC2086
	"$FUZZ_CC" $flags -fsanitize=fuzzer $incs "$src/tests/fuzz/fuzz_$t.c" \
	    $objs $(pkg-config --libs jansson) -lm -ldl -pthread -o "$out/fuzz_$t"
	work="$out/corpus-$t"
	mkdir -p "$work" "$out/crash-$t"
	log="$out/fuzz_$t.log"
	if "$out/fuzz_$t" -max_total_time="$FUZZ_SECONDS" -timeout=10 \
	    -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix="$out/crash-$t/" \
	    "$work" "$src/tests/fuzz/corpus/$t" "$src/tests/fuzz/regress/$t" \
	    >"$log" 2>&1; then
		result=ok
	else
		result="CRASH: $(ls "$out/crash-$t" | head -n 1)"
		cp "$out/crash-$t"/* "$src/tests/fuzz/regress/$t/" 2>/dev/null || true
		status=1
	fi
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	printf '%-12s %12s %10s %s\n' "$t" "${execs:-?}" \
	    "$(( ${execs:-0} / FUZZ_SECONDS ))" "$result"
	[ "$result" = ok ] || tail -n 30 "$log"
done
exit $status
