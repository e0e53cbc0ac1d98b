/*
 * dlib.c: load a library when first needed; see dlib.h.
 */
#include <dlfcn.h>

#include "dlib.h"
#include "error.h"

struct error *
dlib_load(void **lib, const char *what, const char *soname, int flags,
    const struct dlib_sym *syms, size_t n, void *fns, const char *hint)
{
	const char	*why;
	void		*f;
	size_t		 i;

	if (*lib != NULL)
		return NULL;
	if ((*lib = dlopen(soname, flags)) == NULL) {
		why = dlerror();
		return error_hint(error_new(EXIT_FAILURE_OP, "%s: cannot load "
		    "%s: %s", what, soname, why != NULL ? why : "unknown"),
		    "%s", hint);
	}
	for (i = 0; i < n; i++) {
		f = dlsym(*lib, syms[i].name);
		if (f == NULL && !syms[i].optional) {
			dlclose(*lib);
			*lib = NULL;
			return error_new(EXIT_FAILURE_OP, "%s: %s has no %s",
			    what, soname, syms[i].name);
		}
		*(void **)((char *)fns + syms[i].off) = f;
	}
	return NULL;
}
