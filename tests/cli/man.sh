# man.sh: the manual pages are mandoc -Tlint clean, and each command's
# usage line (from --help) is its page's SYNOPSIS (git's t0450).
. "${top_srcdir:-.}/tests/cli/lib.sh"
: "${MANDOC:=mandoc}"
[ -n "$MANDOC" ] || MANDOC=mandoc
need "$MANDOC" "to lint the manual pages"

for page in "$top_srcdir"/man/*.[1-9]; do
	out=$("$MANDOC" -Tlint -Wwarning "$page" 2>&1)
	if [ -z "$out" ]; then ok; else bad "lint $(basename "$page"): $out"; status=1; fi
done

# synopsis PAGE: the SYNOPSIS section, one line per synopsis block.
synopsis() {
	"$MANDOC" -Tascii "$1" | sed 's/.\x08//g' |
	    sed -n '/^SYNOPSIS/,/^[A-Z]/p' | sed '1d;$d' |
	    awk 'NF == 0 { if (line != "") print line; line = ""; next }
	         { sub(/^ +/, ""); line = line == "" ? $0 : line " " $0 }
	         END { if (line != "") print line }' |
	    tr -s ' '
}

status=0
want=$("$MBSBATCH" --help | sed -n 's/^usage: //p; s/^       mbsbatch/mbsbatch/p' | tr -s ' ')
got=$(synopsis "$top_srcdir/man/mbsbatch.1")
if [ "$got" = "$want" ]; then ok; else bad "mbsbatch.1 SYNOPSIS: '$got' want '$want'"; fi

for cmd in $("$MBSBATCH" --help | sed -n '/^commands:/,/^$/p' | awk 'NF > 1 { print $1 }'); do
	page="$top_srcdir/man/mbsbatch-$cmd.1"
	if [ ! -f "$page" ]; then bad "no manual page for $cmd"; continue; fi
	want=$("$MBSBATCH" "$cmd" --help | sed -n '1s/^usage: //p' | tr -s ' ')
	got=$(synopsis "$page")
	if [ "$got" = "$want" ]; then ok; else bad "$cmd SYNOPSIS: '$got' want '$want'"; fi
done

finish
