# check-layers.sh SRC FOLDER:FLOOR...: every file of SRC's folders
# includes only headers of its own floor or below (make check-layers,
# part of make check).  Floors as Makefile.am's src_layers gives them:
# util and core at the ground, cli at the top.  A folder without a
# floor, or a source lying flat in SRC (but the two generated ones),
# fails too: a new part of the tool gets its place first.  An include
# that must run back up says why on its line, after "up:" in a comment
# ('#include "settings.h"	/* up: ... */'); at most 2 do.
src=$1
shift
floors=" $* "

# floor FOLDER: its floor, or nothing.
floor() {
	f=${floors#* "$1":}
	[ "$f" = "$floors" ] && return
	echo "${f%% *}"
}

fail=0
ups=0
for f in "$src"/*.[ch]; do
	[ -e "$f" ] || continue
	case ${f##*/} in
	templates-builtin.c|bridge-recipes.c) continue ;;	# generated
	esac
	echo "check-layers: $f lies flat in src/: give it a folder"
	fail=1
done
for d in "$src"/*/; do
	d=${d%/}
	name=${d##*/}
	case $name in .*) continue ;; esac
	mine=$(floor "$name")
	if [ -z "$mine" ]; then
		echo "check-layers: src/$name/ has no floor in src_layers (Makefile.am)"
		fail=1
		continue
	fi
	for f in "$d"/*.[ch]; do
		[ -e "$f" ] || continue
		ups=$((ups + $(grep -c '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*".*/\*[[:space:]]*up:' "$f")))
		for i in $(grep -v '/\*[[:space:]]*up:' "$f" |
		    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p'); do
			[ -f "$d/$i" ] && continue
			for t in "$src"/*/"$i"; do
				[ -f "$t" ] || continue
				there=${t%/*}
				there=${there##*/}
				theirs=$(floor "$there")
				if [ -n "$theirs" ] && [ "$theirs" -gt "$mine" ]; then
					echo "check-layers: src/$name/${f##*/} (floor $mine) includes $there/$i (floor $theirs)"
					fail=1
				fi
			done
		done
	done
done
if [ $ups -gt 2 ]; then
	echo "check-layers: $ups includes run back up (\"up:\"); at most 2 may"
	fail=1
fi
[ $fail -eq 0 ] && echo "check-layers: every include of src/ stays on its floor or goes down ($ups back up, each saying why)"
exit $fail
