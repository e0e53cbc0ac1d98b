"""render.py TEMPLATE CONTEXT: the alternative mbsbatch gen is measured
against in tests/bench/gen.sh -- Python 3 and Jinja2 (what NeMo-Run
renders its sbatch scripts with) rendering the same script from a JSON
context, as a launcher written in Python would."""
import json
import os
import sys

import jinja2


def main():
    template, context = sys.argv[1], sys.argv[2]
    with open(context) as f:
        ctx = json.load(f)
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(os.path.dirname(template) or "."),
        keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
        autoescape=False, undefined=jinja2.StrictUndefined)
    sys.stdout.write(env.get_template(os.path.basename(template)).render(**ctx))


if __name__ == "__main__":
    main()
