/*
 * dlib.c: load a library when first needed; see dlib.h.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dlib.h"
#include "error.h"
#include "xmalloc.h"

/* dlerror()'s text, without the "SONAME: " it starts with. */
static char *
dlib_why(const char *soname)
{
	const char	*why = dlerror();
	size_t		 len = strlen(soname);

	if (why == NULL)
		return xstrdup("unknown error");
	if (strncmp(why, soname, len) == 0 && strncmp(why + len, ": ", 2) == 0)
		why += len + 2;
	return xstrdup(why);
}

/* dlopen SONAME, else DIR/SONAME; NULL and *WHY (owned) if neither. */
static void *
dlib_open(const char *soname, const char *dir, int flags, char **why)
{
	void	*lib;
	char	*path, *why2;

	*why = NULL;
	if ((lib = dlopen(soname, flags)) != NULL)
		return lib;
	*why = dlib_why(soname);
	if (dir == NULL)
		return NULL;
	path = xasprintf("%s/%s", dir, soname);
	if ((lib = dlopen(path, flags)) != NULL) {
		free(*why);
		*why = NULL;
	} else if (access(path, F_OK) == 0) {
		/* It is there but does not load: that is the reason. */
		free(*why);
		*why = dlib_why("");
	} else {
		why2 = xasprintf("%s (nor %s)", *why, path);
		free(*why);
		*why = why2;
	}
	free(path);
	return lib;
}

struct error *
dlib_load_dir(void **lib, const char *what, const char *soname,
    const char *dir, int flags, const struct dlib_sym *syms, size_t n,
    void *fns, const char *hint)
{
	struct error	*err;
	void		*f, **slot;
	char		*why;
	size_t		 i;

	if (*lib != NULL)
		return NULL;
	if ((*lib = dlib_open(soname, dir, flags, &why)) == NULL) {
		err = error_new(EXIT_FAILURE_OP, "%s: cannot load %s: %s",
		    what, soname, why);
		free(why);
		return error_hint(err, "%s", hint);
	}
	for (i = 0; i < n; i++)
		*(void **)((char *)fns + syms[i].off) = NULL;
	for (i = 0; i < n; i++) {
		slot = (void **)((char *)fns + syms[i].off);
		if ((f = dlsym(*lib, syms[i].name)) == NULL) {
			if (syms[i].optional)
				continue;
			dlclose(*lib);
			*lib = NULL;
			return error_hint(error_new(EXIT_FAILURE_OP, "%s: %s "
			    "has no %s", what, soname, syms[i].name), "%s",
			    hint);
		}
		if (*slot == NULL)
			*slot = f;
	}
	return NULL;
}

struct error *
dlib_load(void **lib, const char *what, const char *soname, int flags,
    const struct dlib_sym *syms, size_t n, void *fns, const char *hint)
{
	return dlib_load_dir(lib, what, soname, NULL, flags, syms, n, fns,
	    hint);
}
