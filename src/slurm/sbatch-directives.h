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
 * never dropped.  So is every SBATCH_* variable sbatch would read.
 */
#ifndef MBSBATCH_SBATCH_DIRECTIVES_H
#define MBSBATCH_SBATCH_DIRECTIVES_H

#include <stddef.h>

struct error;
struct jobdesc;

/*
 * The job sbatch would make of SCRIPT (called NAME in messages) in the
 * environment ENV (NAME=value strings, NULL-terminated; NULL for none),
 * into D, which the caller has initialized; D->script gets a copy of
 * SCRIPT.  In sbatch's order (process_options_second_pass): the #SBATCH
 * lines, then the SBATCH_* variables sbatch reads, which win over the
 * lines, then sbatch's corrections of the numbers (_opt_verify).  A
 * variable goes through its directive's checks; one that is invalid, or
 * sets an option mbsbatch cannot send, is an EXIT_USAGE error naming it.
 * The script must start with "#!" (sbatch refuses it otherwise, and REST
 * would run it and fail).
 *
 * With LENIENT (for the sbatch back end, where sbatch itself reads the
 * lines and the variables), what cannot be carried is skipped, not
 * refused, and sbatch's own warnings are left to sbatch.
 *
 * If WARNINGS is not NULL, *WARNINGS is set to what sbatch would warn of
 * (a correction) and where a variable overrides a line, as a
 * NULL-terminated array of new strings without "warning: ", or to NULL
 * when there are none or on error; free it with
 * freev() (xmalloc.h).
 */
struct error	*sbatch_directives_parse_env(const char *, const char *, int,
		    char *const *, struct jobdesc *, char ***);

/*
 * The #SBATCH lines sbatch reads in a script, one a call, as sbatch walks
 * it: *POS starts at the script; returns the next such line (its length,
 * without the newline, in *LEN) and moves *POS past it, or NULL at the
 * first command or the end.  *LINENO (0 at the start) counts the lines
 * walked.
 */
const char	*sbatch_directives_next(const char **, size_t *, int *);

/*
 * The first long option of SCRIPT's #SBATCH lines that sbatch of Slurm
 * RELEASE (2205, ...) does not take though another release does
 * (sbatch-options.c), as an EXIT_USAGE error naming SCRIPT (NAME), the
 * line and the release that takes it; NULL when none, or when RELEASE
 * is 0 (not known).  Names no release knows are left to sbatch (an
 * abbreviation, a SPANK plugin's option).
 */
struct error	*sbatch_directives_check_release(const char *, const char *,
		    int);

/* As sbatch_directives_parse_env() with no environment and no warnings
 * wanted (the fuzzer). */
struct error	*sbatch_directives_parse(const char *, const char *, int,
		    struct jobdesc *);

#endif
