/*
 * curl-load.c: libcurl, loaded when first needed; see curl-load.h.
 */
#include <dlfcn.h>
#include <stddef.h>

#define CURL_LOAD_NO_RENAME
#include "curl-load.h"
#include "dlib.h"
#include "error.h"

struct curl_fns	 curl_fns;

/* libcurl's soname: its ABI has been 4 since 2006. */
#define CURL_SONAME	"libcurl.so.4"

struct error *
curl_load(void)
{
	static void	*lib;
	static const struct dlib_sym syms[] = {
#define SYM(f) { "curl_" #f, offsetof(struct curl_fns, f), 0 }
		SYM(easy_init), SYM(easy_setopt), SYM(easy_perform),
		SYM(easy_getinfo), SYM(easy_cleanup), SYM(easy_strerror),
		SYM(slist_append), SYM(slist_free_all),
#undef SYM
	};

	return dlib_load(&lib, "libcurl", CURL_SONAME, RTLD_NOW | RTLD_LOCAL,
	    syms, sizeof syms / sizeof syms[0], &curl_fns, "install libcurl4 "
	    "(Debian), or use --via native or --via sbatch");
}
