/*
 * script.c: the template context and the rendering of a job's script;
 * see script.h and mbsbatch-template(5).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "autoconf.h"

#include "buf.h"
#include "error.h"
#include "report.h"
#include "script.h"
#include "script-bridge.h"
#include "script-mlm.h"
#include "template.h"
#include "tmpl.h"
#include "xmalloc.h"

static json_t *
str_or_null(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}

static json_t *
exports_json(const struct launchenv *env, struct buf *names)
{
	json_t	*a = json_array();
	char	 name[256];
	int	 i;

	for (i = 0; i < env->nvars; i++) {
		snprintf(name, sizeof name, "%.*s", env->vars[i].name_len,
		    env->vars[i].name);
		json_array_append_new(a, json_pack("{s:s,s:s}", "name", name,
		    "value", env->vars[i].value));
		if (i > 0)
			buf_addc(names, ',');
		buf_adds(names, name);
	}
	return a;
}

char *
script_host_path(const char *dir, const char *mounts)
{
	const char	*m = mounts, *end, *src, *dst, *best_src = NULL;
	size_t		 nsrc = 0, ndst, best = 0, n;
	char		*colon;

	while (dir[0] == '/' && m != NULL && *m != '\0') {
		end = m + strcspn(m, ",");
		src = m;
		colon = memchr(m, ':', (size_t)(end - m));
		n = colon != NULL ? (size_t)(colon - m) : (size_t)(end - m);
		dst = colon != NULL ? colon + 1 : m;
		ndst = strcspn(dst, ":,");
		while (ndst > 1 && dst[ndst - 1] == '/')
			ndst--;
		/* The longest destination that holds DIR, at a '/'. */
		if (ndst > best && dst[0] == '/' &&
		    strncmp(dir, dst, ndst) == 0 &&
		    (dir[ndst] == '/' || dir[ndst] == '\0' || ndst == 1)) {
			best = ndst;
			best_src = src;
			nsrc = n;
		}
		m = *end == ',' ? end + 1 : NULL;
	}
	if (best_src == NULL)
		return xstrdup(dir);
	if (best == 1)		/* "/" itself: everything under SRC */
		return xasprintf("%.*s%s%s", (int)nsrc, best_src,
		    nsrc > 0 && best_src[nsrc - 1] == '/' ? "" : "/", dir + 1);
	return xasprintf("%.*s%s", (int)nsrc, best_src, dir + best);
}

/* The iterations the run trains for, when the script says (null when
 * the recipe's own count runs, or an --override gives it). */
static json_t *
iterations_json(const struct plan *p, bool mlm)
{
	bool	 iters, lr;

	if (p->train_iters.set)
		return json_integer(p->train_iters.v);
	if (mlm && script_mlm_defaults(p, &iters, &lr) && iters)
		return json_integer(SCRIPT_MLM_TRAIN_ITERS);
	return json_null();
}

const char *
script_train_script(const struct plan *p, const char *template)
{
	/* The template loaded, by its name: a file of the user's called
	 * megatron-lm.sbatch is one too. */
	if (p->train_script != NULL)
		return p->train_script;
	if (settings_choice(&settings_table[SET_TEMPLATE], template) !=
	    TEMPLATE_MEGATRON_LM)
		return "scripts/training/run_recipe.py";
	/* A hybrid model is Megatron-LM's HybridModel (pretrain_hybrid.py,
	 * at core_v0.19.0 and main); pretrain_gpt.py builds a GPTModel. */
	return p->in->model.hybrid_pattern != NULL ? "pretrain_hybrid.py" :
	    "pretrain_gpt.py";
}

static json_t *
list_json(char *const *v, size_t n)
{
	json_t	*a = json_array();
	size_t	 i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

/*
 * What templates/resilience.sh needs: the gate's checks, the hang rule
 * and the stall stop (mbsbatch-template(5), RESILIENCE).  The lost-node
 * allowance: a quarter of the job's nodes, at least one.  The grace
 * for PyTorch's dump: SCRIPT_HANG_GRACE, or the floor when shorter (its
 * watchdog times out at the floor too).
 */
static json_t *
resilience_json(const struct plan *p)
{
	int64_t	 nodes = p->fig != NULL ? p->fig->sizing.nodes : 1;

	return json_pack("{s:b,s:i,s:s,s:I,s:i,s:I,s:I,s:I}",
	    "gate", p->gate,
	    "gate_timeout", SCRIPT_GATE_TIMEOUT,
	    "gpu_type", p->gpu != NULL ? p->gpu->name : "",
	    "hang_floor", (json_int_t)p->hang_floor,
	    "hang_steps", SCRIPT_HANG_STEPS,
	    "stall_restarts", (json_int_t)p->stall_restarts,
	    "max_lost_nodes", (json_int_t)(nodes / 4 > 1 ? nodes / 4 : 1),
	    "dump_grace", (json_int_t)(p->hang_floor < SCRIPT_HANG_GRACE ?
	    p->hang_floor : SCRIPT_HANG_GRACE));
}

/*
 * The launch step's own srun options: --cpus-per-task first, which srun
 * of Slurm 22.05 to 23.02 no longer takes from the batch job's
 * SLURM_CPUS_PER_TASK (NEWS, 22.05.0: "srun will no longer read in
 * SLURM_CPUS_PER_TASK"); torchrun's one task a node gets the CPUs of all
 * the node's processes.  Then the user's, in order.
 */
static json_t *
srun_options_json(const struct plan *p, bool torchrun)
{
	json_t	*a = list_json(p->srun_options, p->nsrun_options);
	char	*s;

	if (p->cpus_per_task != 0 && p->fig != NULL) {
		s = xasprintf("--cpus-per-task=%lld", (long long)
		    (p->cpus_per_task * (torchrun &&
		    p->fig->sizing.tasks_per_node > 0 ?
		    p->fig->sizing.tasks_per_node : 1)));
		json_array_insert_new(a, 0, json_string(s));
		free(s);
	}
	return a;
}

static json_t *
launch_json(const struct plan *p, const char *template,
    const char *env_names)
{
	const char	*script = script_train_script(p, template);
	char		*host;
	json_t		*o = json_object();
	bool		 torchrun = p->launcher == LAUNCHER_TORCHRUN;

	json_object_set_new(o, "launcher", json_string(p->launcher_word));
	json_object_set_new(o, "srun", json_boolean(!torchrun));
	json_object_set_new(o, "torchrun", json_boolean(torchrun));
	json_object_set_new(o, "train_script", json_string(script));
	json_object_set_new(o, "smoke", json_boolean(p->smoke));
	json_object_set_new(o, "iterations", iterations_json(p,
	    settings_choice(&settings_table[SET_TEMPLATE], template) ==
	    TEMPLATE_MEGATRON_LM));
	json_object_set_new(o, "recipe", str_or_null(p->recipe_name));
	json_object_set_new(o, "dataset", str_or_null(
	    p->dataset != NULL ? bridge_dataset(p->bridge, p->dataset) :
	    NULL));
	json_object_set_new(o, "command", str_or_null(p->command));
	json_object_set_new(o, "overrides", script_bridge_overrides(p));
	json_object_set_new(o, "setup", list_json(p->setup, p->nsetup));
	json_object_set_new(o, "has_setup", json_boolean(p->nsetup > 0));
	json_object_set_new(o, "srun_options", srun_options_json(p,
	    torchrun));
	json_object_set_new(o, "args", script_mlm_args(p));
	if (p->container_image != NULL)
		json_object_set_new(o, "container", json_pack("{s:s,s:o,s:o,"
		    "s:s}", "image", p->container_image,
		    "mounts", str_or_null(p->container_mounts),
		    "workdir", str_or_null(p->container_workdir),
		    "env", env_names));
	else
		json_object_set_new(o, "container", json_null());
	/* Where a chain's job looks for checkpoints: the batch shell runs
	 * outside the container. */
	if (p->checkpoint_dir != NULL) {
		host = script_host_path(p->checkpoint_dir,
		    p->container_image != NULL ? p->container_mounts : NULL);
		json_object_set_new(o, "checkpoint_dir", json_string(host));
		free(host);
	} else
		json_object_set_new(o, "checkpoint_dir", json_null());
	if (p->requeue)
		json_object_set_new(o, "requeue", json_pack("{s:s,s:I}",
		    "signal", p->fig->slurm.trap_signal, "max_restarts",
		    (json_int_t)p->max_restarts));
	else
		json_object_set_new(o, "requeue", json_null());
	json_object_set_new(o, "resilience", resilience_json(p));
	return o;
}

/* The derivation lines of "plan", for the script's header. */
static json_t *
figures_json(const struct plan *p)
{
	struct lines	 l;
	json_t		*a = json_array();
	size_t		 i;

	lines_init(&l);
	report_figures(&l, p);
	for (i = 0; i < l.n; i++)
		if (l.v[i][0] != '\0')
			json_array_append_new(a, json_string(l.v[i]));
	lines_release(&l);
	return a;
}

json_t *
script_context(const struct plan *p, const char *template, const char *regen)
{
	struct buf	 names;
	json_t		*ctx = report_json(p);

	buf_init(&names);
	json_object_set_new(ctx, "mbsbatch_version",
	    json_string(PACKAGE_VERSION));
	json_object_set_new(ctx, "template", json_string(template));
	json_object_set_new(ctx, "job_name", json_string(p->name));
	json_object_set_new(ctx, "header", json_pack("{s:s,s:o}", "command",
	    regen, "figures", figures_json(p)));
	json_object_set_new(ctx, "exports", exports_json(&p->fig->env,
	    &names));
	/* The rendezvous is exported before srun too. */
	buf_adds(&names, ",MASTER_ADDR,MASTER_PORT");
	json_object_set_new(ctx, "launch", launch_json(p, template,
	    names.data));
	buf_release(&names);
	return ctx;
}

/* What a template may need and how the user provides it. */
static const struct {
	const char	*name;		/* as written in a tag */
	const char	*path;		/* into the context */
	const char	*hint;
} needs[] = {
	{ "launch.recipe", "launch.recipe", "--recipe NAME" },
	{ "launch.command", "launch.command", "--command CMD" },
	{ "model.num_layers", "model.num_layers", "--model or --num-layers" },
};

static json_t *
ctx_get(json_t *ctx, const char *path)
{
	char	 key[64];
	const char *dot;

	while (ctx != NULL && (dot = strchr(path, '.')) != NULL) {
		snprintf(key, sizeof key, "%.*s", (int)(dot - path), path);
		ctx = json_object_get(ctx, key);
		path = dot + 1;
	}
	return ctx != NULL ? json_object_get(ctx, path) : NULL;
}

/* Does TEXT write NAME in a tag ({{name}} or {{ name }})? */
static bool
mentions(const char *text, const char *name)
{
	const char	*p = text, *q;
	size_t		 n = strlen(name);

	while ((p = strstr(p, "{{")) != NULL) {
		p += 2;
		while (*p == ' ')
			p++;
		q = p + strspn(p, "abcdefghijklmnopqrstuvwxyz_.");
		if ((size_t)(q - p) == n && strncmp(p, name, n) == 0)
			return true;
	}
	return false;
}

static struct error *
check_needs(const struct plan *p, const struct template *t, json_t *ctx)
{
	const struct model	*m = &p->in->model;
	json_t			*v;
	size_t			 i;

	for (i = 0; i < sizeof needs / sizeof needs[0]; i++) {
		if (needs[i].path == NULL || !mentions(t->text, needs[i].path))
			continue;
		v = ctx_get(ctx, needs[i].path);
		if ((v == NULL || json_is_null(v)) &&
		    strcmp(needs[i].name, "launch.recipe") == 0 &&
		    p->recipe_missing != NULL)
			return error_new(EXIT_USAGE, "gen: template '%s' needs "
			    "a recipe: %s; give --recipe NAME ('mbsbatch plan "
			    "--list-recipes' lists them)", t->name,
			    p->recipe_missing);
		if (v == NULL || json_is_null(v))
			return error_new(EXIT_USAGE, "gen: template '%s' needs "
			    "%s: give %s", t->name, needs[i].path,
			    needs[i].hint);
	}
	/* pretrain_gpt.py cannot run without the model's shape. */
	if (strstr(t->text, "{{#launch.args}}") != NULL &&
	    (m->num_layers == 0 || m->hidden_size == 0 ||
	    m->num_attention_heads == 0 || p->in->seq_length == 0))
		return error_new(EXIT_USAGE, "gen: template '%s' needs the "
		    "model's layers, hidden size and heads and the sequence "
		    "length: give --model (or --num-layers, --hidden-size, "
		    "--num-attention-heads) and --seq-length", t->name);
	return NULL;
}

struct error *
script_render(const struct plan *p, const struct template *t,
    const char *regen, struct buf *out)
{
	struct error	*err;
	json_t		*ctx = script_context(p, t->name, regen);
	size_t		 start = out->len;

	const char	*name = t->path != NULL ? t->path : t->name;

	/* The template's syntax first, then what it needs of the job. */
	if ((err = tmpl_check(name, t->text)) == NULL &&
	    (err = check_needs(p, t, ctx)) == NULL)
		err = tmpl_render(name, t->text, ctx, out);
	/* sbatch refuses a script that does not start with #!. */
	if (err == NULL && (out->len - start < 2 ||
	    strncmp(out->data + start, "#!", 2) != 0))
		err = error_new(EXIT_USAGE, "gen: template '%s': the script it "
		    "writes does not start with '#!' (sbatch would refuse it)",
		    name);
	json_decref(ctx);
	return err;
}
