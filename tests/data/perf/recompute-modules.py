#!/usr/bin/env python3
"""Write the recipe's recompute_modules into the recompute column of
configs-by-release.tsv: each selective row cites, in its sources column,
the revision (@REV) and the file:line where its workload sets
recompute_modules; the list on that line (read with git show REV:FILE in
the Megatron-Bridge checkout GITDIR) becomes "selective:MOD,...", an
empty list "none" (selective granularity with no module recomputes
nothing: Megatron-Core transformer_block/transformer_layer checkpoint
only the modules named).  25.09 rows cite run_script.py:89-98, which
sets the list per GPU (v0.1.0rc4 scripts/performance/run_script.py:90-98:
H100 mla_up_proj,mlp; B200 mla_up_proj; GB200 mla_up_proj with token
drop, mla_up_proj,mlp dropless: the 25.09 GB200 rows are the tables'
DeepSeekV3 (tokendrop)).
Usage: recompute-modules.py GITDIR < configs-by-release.tsv > new"""
import ast, re, subprocess, sys

GIT = sys.argv[1]
RS2509 = {"h100": ["mla_up_proj", "mlp"], "b200": ["mla_up_proj"],
          "gb200": ["mla_up_proj"]}


def modules_at(rev, path, line):
    text = subprocess.run(["git", "-C", GIT, "show", "%s:%s" % (rev, path)],
                          check=True, capture_output=True, text=True).stdout
    l = text.split("\n")[line - 1]
    return ast.literal_eval(re.search(r"=\s*(\[.*\])", l).group(1))


for row in sys.stdin:
    f = row.rstrip("\n").split("\t")
    if row.startswith("#") or len(f) < 12 or f[9] != "selective":
        sys.stdout.write(row)
        continue
    rev = re.search(r"@(\S+)", f[11]).group(1)
    m = re.search(r"recompute_modules=(\S+):(\d+)(-\d+)?", f[11])
    if m is None:
        sys.stdout.write(row)
        continue
    if m.group(3):
        mods = RS2509[f[2]]
    else:
        mods = modules_at(rev, m.group(1), int(m.group(2)))
    f[9] = "selective:" + ",".join(mods) if mods else "none"
    sys.stdout.write("\t".join(f) + "\n")
