/*
 * script.h: render a job's sbatch script: the template context (the plan
 * object of "plan --json" plus the Slurm directives, the launch
 * environment as exports, and the launch command's pieces) and the
 * rendering itself.
 */
#ifndef MBSBATCH_SCRIPT_H
#define MBSBATCH_SCRIPT_H

#include <jansson.h>

#include "plan.h"

/* The resilience section's fixed figures (templates/resilience.sh). */
#define SCRIPT_GATE_TIMEOUT	60	/* seconds, each node's checks */
#define SCRIPT_HANG_STEPS	3	/* a hang: no iteration for this many
					   median steps (and the floor) */
#define SCRIPT_HANG_GRACE	30	/* seconds for the dump before the
					   step is signalled */

struct buf;
struct error;
struct template;

/*
 * The context a template sees for the plan, of TEMPLATE (its name); a
 * new reference.  REGEN is the command that regenerates the script,
 * shown in its header.
 *
 * To add a template variable: set it here (launch.*, or a key of the
 * plan object in report.c, which plan --json shows too) from a field of
 * the plan (plan.h: add it there, resolved once, if it has none), never
 * from text the template could not otherwise see; describe it in
 * mbsbatch-template(5), THE CONTEXT; make a job of tests/cli/docs.sh
 * fill it if it is optional (docs.sh fails on an undocumented key).
 * Values reach the script through the renderer's quoting (quote.c),
 * never raw.
 */
json_t		*script_context(const struct plan *, const char *, const char *);

/*
 * Where a shell outside the container sees DIR, a path inside it: under
 * the source of the mount of MOUNTS (pyxis --container-mounts,
 * "SRC[:DST[:FLAGS]],...") whose destination holds DIR, the longest;
 * else DIR (also when MOUNTS is NULL or DIR is relative).  A new string.
 */
char		*script_host_path(const char *, const char *);

/* The training script the plan's job runs with TEMPLATE (its name):
 * --train-script, else the template's own (static or borrowed). */
const char	*script_train_script(const struct plan *, const char *);

/* Render T for the plan into OUT.  EXIT_USAGE errors for template
 * mistakes and for settings the template needs but the job lacks. */
struct error	*script_render(const struct plan *, const struct template *,
		    const char *, struct buf *);

#endif
