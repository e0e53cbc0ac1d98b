# help.sh: --help, --version, and "mbsbatch help CMD" opening the page.
. "${top_srcdir:-.}/tests/cli/lib.sh"

run --help
expect_status "--help" 0
expect_out_has "--help" "usage: mbsbatch [--config FILE] [--cluster NAME] [-v | -q] COMMAND [ARGS]"
expect_out_has "--help lists plan" "  plan "
expect_no_stderr "--help"
run -h
expect_status "-h" 0
run --version
expect_status "--version" 0
if grep -Eq '^mbsbatch [0-9]+\.[0-9]+\.[0-9]+$' "$tmp/out"; then ok; else bad "--version format"; fi

# Every command answers -h and --help with its usage line.
for cmd in $("$MBSBATCH" --help | sed -n '/^commands:/,/^$/p' | awk 'NF > 1 { print $1 }'); do
	run "$cmd" --help
	expect_status "$cmd --help" 0
	if head -n 1 "$tmp/out" | grep -q "^usage: mbsbatch $cmd"; then ok; else bad "$cmd --help usage"; fi
	run "$cmd" -h
	expect_status "$cmd -h" 0
done
run plan --help
expect_out_has "plan --help lists settings" "--tp N"
expect_out_has "plan --help lists --json" "--json"

run help nosuch
expect_status "help nosuch" 2
expect_err_prefix "help nosuch" "mbsbatch: help: 'nosuch' is not a command"

# help CMD runs man(1) on mbsbatch-CMD; point man at the source pages.
need man "to show manual pages"
mkdir -p "$tmp/man/man1" "$tmp/man/man5"
for p in "$top_srcdir"/man/*.1; do ln -s "$(cd "$(dirname "$p")" && pwd)/$(basename "$p")" "$tmp/man/man1/"; done
MANPATH="$tmp/man" MANPAGER=cat PAGER=cat MANWIDTH=80 "$MBSBATCH" help plan >"$tmp/out" 2>"$tmp/err"
status=$?
expect_status "help plan" 0
expect_out_has "help plan shows the page" "mbsbatch plan"
if grep -q "^SYNOPSIS" "$tmp/out"; then ok; else bad "help plan: no SYNOPSIS"; fi
MANPATH="$tmp/man" MANPAGER=cat PAGER=cat "$MBSBATCH" help >"$tmp/out" 2>"$tmp/err"
status=$?
expect_status "help" 0
if grep -q "^NAME" "$tmp/out" && grep -q "mbsbatch" "$tmp/out"; then ok; else bad "help: no page"; fi

finish
