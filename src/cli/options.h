/*
 * options.h: the command-line parser.  Long options are matched by their
 * exact name (no abbreviations: they break scripts when an option is
 * added), as --name VALUE or --name=VALUE; short options are single
 * letters; "--" ends the options.  Global options (--config, --cluster,
 * -v, -q, -h) are accepted before or after the command name.
 */
#ifndef MBSBATCH_OPTIONS_H
#define MBSBATCH_OPTIONS_H

#include "cmd.h"

struct error;

/*
 * Parse argv[0..argc) (the words after the command name) for ENTRY into
 * ARGS, which the caller has zeroed and will release with
 * options_release().  Errors are EXIT_USAGE and name the option.
 */
struct error	*options_parse(const struct cmd_entry *, int, char **,
		    struct cmd_args *);

/*
 * Parse one global option at argv[*i] (before the command name); returns
 * 1 if it was one (and advances *i past its value), 0 if not.
 */
int		 options_parse_global(int, char **, int *, struct cmd_args *,
		    struct error **);

void		 options_release(struct cmd_args *);

#endif
