/*
 * config.h: the configuration file (docs/SPEC.md section 4): named cluster
 * profiles, the default cluster and the user presets directory.
 *
 * The system file $(sysconfdir)/mbsbatch/config.json is read first; the
 * user's file ($MBSBATCH_CONFIG, else $XDG_CONFIG_HOME/mbsbatch/config.json,
 * else ~/.config/mbsbatch/config.json; or --config FILE) is read over it:
 * its clusters replace the system's of the same name, and its
 * default_cluster and presets_dir win.
 */
#ifndef MBSBATCH_CONFIG_H
#define MBSBATCH_CONFIG_H

#include <stddef.h>

#include "settings.h"
#include "site.h"

struct error;
struct jsondoc;

struct config_cluster {
	char		*name;
	char		*file;		/* the config file it came from */
	struct settings	 set;		/* ORIGIN_CONFIG values */
	bool		 has_site;	/* "site": what mbsbatch site wrote */
	struct site	 site;
};

struct config {
	char			*files[2];	/* files read, for -v */
	size_t			 nfiles;
	char			*default_cluster;
	char			*presets_dir;	/* absolute, or NULL */
	struct config_cluster	*clusters;
	size_t			 nclusters;
};

void		 config_init(struct config *);
void		 config_release(struct config *);

/*
 * Load the system file, then the user file: PATH if not NULL (it must
 * exist), else as above.  A missing default file is not an error.
 */
struct error	*config_load(struct config *, const char *);

/*
 * The user's file config_load() reads, a new string: PATH when not NULL,
 * else $MBSBATCH_CONFIG, else the XDG one; NULL when none is known (no
 * absolute $XDG_CONFIG_HOME or $HOME).
 */
char		*config_user_file(const char *);

/* Merge one parsed document over cfg; DIR resolves relative paths. */
struct error	*config_load_doc(struct config *, const struct jsondoc *,
		    const char *);

/* The profile called NAME; an unknown name is an EXIT_USAGE error. */
struct error	*config_cluster(const struct config *, const char *,
		    const struct config_cluster **);

/* The user presets directory when the config names none; may be NULL. */
char		*config_default_presets_dir(void);

#endif
