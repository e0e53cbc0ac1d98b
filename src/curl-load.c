/*
 * curl-load.c: libcurl, loaded when first needed; see curl-load.h.
 */
#include <dlfcn.h>
#include <stddef.h>

#define CURL_LOAD_NO_RENAME
#include "curl-load.h"
#include "error.h"

struct curl_fns	 curl_fns;

/* libcurl's soname: its ABI has been 4 since 2006. */
#define CURL_SONAME	"libcurl.so.4"

struct error *
curl_load(void)
{
	static void	*lib;
	static const struct {
		const char	*name;
		size_t		 off;
	} syms[] = {
		{ "curl_easy_init", offsetof(struct curl_fns, easy_init) },
		{ "curl_easy_setopt", offsetof(struct curl_fns, easy_setopt) },
		{ "curl_easy_perform", offsetof(struct curl_fns, easy_perform) },
		{ "curl_easy_getinfo", offsetof(struct curl_fns, easy_getinfo) },
		{ "curl_easy_cleanup", offsetof(struct curl_fns, easy_cleanup) },
		{ "curl_easy_strerror", offsetof(struct curl_fns,
		    easy_strerror) },
		{ "curl_slist_append", offsetof(struct curl_fns, slist_append) },
		{ "curl_slist_free_all", offsetof(struct curl_fns,
		    slist_free_all) },
	};
	const char	*why;
	void		*f;
	size_t		 i;

	if (lib != NULL)
		return NULL;
	if ((lib = dlopen(CURL_SONAME, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		why = dlerror();
		return error_hint(error_new(EXIT_FAILURE_OP, "libcurl: cannot "
		    "load %s: %s", CURL_SONAME, why != NULL ? why : "unknown"),
		    "install libcurl4 (Debian), or use --via native or --via "
		    "sbatch");
	}
	for (i = 0; i < sizeof syms / sizeof syms[0]; i++) {
		if ((f = dlsym(lib, syms[i].name)) == NULL) {
			dlclose(lib);
			lib = NULL;
			return error_new(EXIT_FAILURE_OP, "libcurl: %s has no "
			    "%s", CURL_SONAME, syms[i].name);
		}
		*(void **)((char *)&curl_fns + syms[i].off) = f;
	}
	return NULL;
}
