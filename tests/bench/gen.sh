#!/bin/sh
# gen.sh: how fast mbsbatch gen writes a script, side by side in one run
# with Python 3 + Jinja2 rendering the same script (what NeMo-Run renders
# with; tests/bench/gen/render.py, Debian's python3-jinja2) and with the
# process floor, /bin/true.  The two scripts are checked to be the same,
# byte for byte, first.
. "${top_srcdir:-.}/tests/bench/lib.sh"
PYTHON=${PYTHON:-/usr/bin/python3}
j2="$top_srcdir/tests/bench/gen/llama3-70b.sbatch.j2"
ctx="$top_srcdir/tests/bench/gen/llama3-70b.context.json"
render="$top_srcdir/tests/bench/gen/render.py"

"$PYTHON" -c 'import jinja2' 2>/dev/null || {
	echo "gen.sh: $PYTHON has no jinja2 (./bootstrap installs python3-jinja2)" >&2
	exit 1
}
top_srcdir=$(cd "$top_srcdir" && pwd)
j2="$top_srcdir/tests/bench/gen/llama3-70b.sbatch.j2"
ctx="$top_srcdir/tests/bench/gen/llama3-70b.context.json"
render="$top_srcdir/tests/bench/gen/render.py"
(cd "$top_srcdir" && "$MBSBATCH" gen examples/llama3-70b.json) >"$tmp/mbsbatch.sbatch"
"$PYTHON" "$render" "$j2" "$ctx" >"$tmp/python.sbatch"
if ! cmp -s "$tmp/mbsbatch.sbatch" "$tmp/python.sbatch"; then
	echo "gen.sh: the Jinja2 template no longer renders mbsbatch's script;" >&2
	echo "gen.sh: update tests/bench/gen/ from examples/llama3-70b.sbatch" >&2
	diff "$tmp/mbsbatch.sbatch" "$tmp/python.sbatch" | head >&2
	exit 1
fi

cd "$top_srcdir"
t_true=$(median_ms /bin/true)
t_gen=$(median_ms "$MBSBATCH" gen examples/llama3-70b.json)
t_py=$(median_ms "$PYTHON" "$render" "$j2" "$ctx")

echo "gen: the same $(wc -c <"$tmp/mbsbatch.sbatch")-byte script (examples/llama3-70b.sbatch); medians of $RUNS batches of $BATCH runs"
printf '%-42s %10s %14s\n' "how" "time" "vs mbsbatch"
row() { printf '%-42s %7s ms %13s\n' "$1" "$2" "$(echo "$2 $t_gen" | awk '{ printf "%.2fx", $1 / $2 }')"; }
row "/bin/true (the process floor)" "$t_true"
row "mbsbatch gen" "$t_gen"
row "python3 + jinja2 (render.py)" "$t_py"
echo "$t_py $t_gen $t_true" | awk '{ printf "python3 + jinja2 / mbsbatch gen: %.1fx; mbsbatch gen / process floor: %.2fx\n", $1 / $2, $2 / $3 }'
