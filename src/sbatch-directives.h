/*
 * sbatch-directives.h: read a script's #SBATCH lines back into a job
 * description, the way sbatch does (slurm src/sbatch/opt.c): the lines
 * that start with "#SBATCH" before the first command, split by sbatch's
 * own lexer (quote.h), as long or short options.  The REST and native
 * back ends submit what this returns, so "gen" then "submit --script"
 * submits exactly what "submit" would.
 *
 * Every directive is either carried or refused: an option mbsbatch cannot
 * send is an EXIT_USAGE error naming the script, the line and the option,
 * never dropped.
 */
#ifndef MBSBATCH_SBATCH_DIRECTIVES_H
#define MBSBATCH_SBATCH_DIRECTIVES_H

struct error;
struct jobdesc;

/*
 * Parse SCRIPT (called NAME in errors) into D, which the caller has
 * initialized; D->script gets a copy of SCRIPT.  The script must start
 * with "#!" (sbatch refuses it otherwise, and REST would run it and fail).
 * With LENIENT (for the sbatch back end, where sbatch itself reads the
 * lines), directives that cannot be carried are skipped, not refused.
 */
struct error	*sbatch_directives_parse(const char *, const char *, int,
		    struct jobdesc *);

#endif
