/*
 * curl-load.h: libcurl, loaded by the REST back end when it first opens.
 * Linked into mbsbatch, libcurl and the thirty libraries it pulls in
 * (OpenSSL, GSSAPI, LDAP, ...) cost every process about 5 ms before
 * main() on these machines, five times what mbsbatch gen takes itself;
 * plan and gen never talk to Slurm.  The REST back end includes this
 * after <curl/curl.h> and calls libcurl by its usual names.
 */
#ifndef MBSBATCH_CURL_LOAD_H
#define MBSBATCH_CURL_LOAD_H

#include <curl/curl.h>

struct error;

struct curl_fns {
	CURL		*(*easy_init)(void);
	CURLcode	 (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode	 (*easy_perform)(CURL *);
	CURLcode	 (*easy_getinfo)(CURL *, CURLINFO, ...);
	void		 (*easy_cleanup)(CURL *);
	const char	*(*easy_strerror)(CURLcode);
	struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
	void		 (*slist_free_all)(struct curl_slist *);
};

extern struct curl_fns curl_fns;

/* Load libcurl (once; thread-unsafe: call before starting threads). */
struct error	*curl_load(void);

/* curl-load.c defines this: it loads the real names. */
#ifndef CURL_LOAD_NO_RENAME
#undef curl_easy_setopt
#undef curl_easy_getinfo
#define curl_easy_init		curl_fns.easy_init
#define curl_easy_setopt	curl_fns.easy_setopt
#define curl_easy_perform	curl_fns.easy_perform
#define curl_easy_getinfo	curl_fns.easy_getinfo
#define curl_easy_cleanup	curl_fns.easy_cleanup
#define curl_easy_strerror	curl_fns.easy_strerror
#define curl_slist_append	curl_fns.slist_append
#define curl_slist_free_all	curl_fns.slist_free_all
#endif

#endif
