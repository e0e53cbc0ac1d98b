/*
 * dlib.h: a library loaded when first needed (curl-load.c, slurm-load.c):
 * dlopen it by its soname and fill a struct of function pointers from a
 * table of symbol names and offsets into it.
 */
#ifndef MBSBATCH_DLIB_H
#define MBSBATCH_DLIB_H

#include <stddef.h>

struct error;

struct dlib_sym {
	const char	*name;		/* "curl_easy_init" */
	size_t		 off;		/* offsetof the pointer in FNS */
	int		 optional;	/* left NULL when absent */
};

/*
 * Load SONAME with dlopen FLAGS into *LIB (once: a loaded *LIB is kept)
 * and fill FNS from the N symbols.  Every pointer of the table is
 * cleared first; when two entries share an offset (a function renamed
 * between releases, both optional), the first one found is kept.
 * Errors (EXIT_FAILURE_OP) start with WHAT ("libcurl") and carry HINT.
 */
struct error	*dlib_load(void **, const char *, const char *, int,
		    const struct dlib_sym *, size_t, void *, const char *);

/*
 * The same, and when SONAME is not found through the dynamic linker's
 * search path, DIR/SONAME (DIR absolute, or NULL for none): a library
 * installed outside that path is still found where it was at build time,
 * as an rpath would find it, without linking.
 */
struct error	*dlib_load_dir(void **, const char *, const char *,
		    const char *, int, const struct dlib_sym *, size_t, void *,
		    const char *);

#endif
