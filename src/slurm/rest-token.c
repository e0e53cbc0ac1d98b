/*
 * rest-token.c: what the REST back end checks before a token travels:
 * the token itself, as a token file or $SLURM_JWT holds it
 * (rest_token_parse()), and whether the URL's host is this machine
 * (rest_url_loopback()); see rest.h.
 */
#include <arpa/inet.h>
#include <netinet/in.h>

#include <ctype.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "error.h"
#include "rest.h"
#include "xmalloc.h"

static bool
token_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	    c == '\v' || c == '\f';
}

/* What a token file (or SLURM_JWT) may hold, for messages. */
#define TOKEN_FORMS	"it must hold the token alone, SLURM_JWT=TOKEN as " \
	"'scontrol token' prints it, or that as a shell line: export " \
	"SLURM_JWT=\"TOKEN\""

/*
 * A character of a JWT: base64url's and the dots between its three parts
 * (RFC 7519 section 3, RFC 7515 section 2), plain base64's '+', '/' and
 * '=' too.
 */
static bool
token_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ||
	    c == '+' || c == '/' || c == '=';
}

/* P, past "export" and its blanks when it starts so, else P. */
static const char *
token_export(const char *p, const char *end)
{
	if (end - p < 7 || memcmp(p, "export", 6) != 0 ||
	    (p[6] != ' ' && p[6] != '\t'))
		return p;
	for (p += 6; p < end && (*p == ' ' || *p == '\t'); p++)
		;
	return p;
}

struct error *
rest_token_parse(const char *what, const char *text, size_t len, char **out)
{
	const char	*p = text, *end = text + len, *q, *e;
	char		 quote;

	*out = NULL;
	while (p < end && token_space(*p))
		p++;
	while (end > p && token_space(end[-1]))
		end--;
	/* A shell line, "export SLURM_JWT=..." (the SLURM_JWT= needed). */
	if ((e = token_export(p, end)) != p) {
		if (end - e < 10 || memcmp(e, "SLURM_JWT=", 10) != 0)
			return error_new(EXIT_USAGE, "%s: an 'export' of another "
			    "variable than SLURM_JWT (%s)", what, TOKEN_FORMS);
		p = e;
	}
	if ((size_t)(end - p) >= 10 && memcmp(p, "SLURM_JWT=", 10) == 0)
		p += 10;
	/* Quoted as a shell quotes it: "TOKEN" or 'TOKEN'. */
	if (p < end && (*p == '"' || *p == '\'')) {
		quote = *p++;
		if (p == end || end[-1] != quote)
			return error_new(EXIT_USAGE, "%s: a quote that does not "
			    "end where the token does (%s)", what, TOKEN_FORMS);
		end--;
	}
	if (p == end)
		return error_new(EXIT_USAGE, "%s: empty", what);
	for (q = p; q < end; q++) {
		if (token_space(*q))
			return error_new(EXIT_USAGE, "%s: white space or a line "
			    "break inside the token (%s)", what, TOKEN_FORMS);
		if (!token_char(*q))
			return error_new(EXIT_USAGE, "%s: byte %zu is not one "
			    "a token has (letters, digits, '-', '_', '.'; %s)",
			    what, (size_t)(q - text), TOKEN_FORMS);
	}
	*out = xstrndup(p, (size_t)(end - p));
	return NULL;
}

bool
rest_url_loopback(const char *url)
{
	struct in_addr	 a4;
	struct in6_addr	 a6;
	const char	*auth, *host, *after;
	char		 name[64];
	size_t		 n, hostlen, i;

	if (strncmp(url, "http://", 7) == 0)
		auth = url + 7;
	else if (strncmp(url, "https://", 8) == 0)
		auth = url + 8;
	else
		return false;
	n = strcspn(auth, "/?#");
	/* No user@, no %-escape, nothing curl might read another way. */
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)auth[i]) &&
		    strchr(".-:[]", auth[i]) == NULL)
			return false;
	if (auth[0] == '[') {
		host = auth + 1;
		after = memchr(auth, ']', n);
		if (after == NULL)
			return false;
		hostlen = (size_t)(after - host);
		after++;
	} else {
		host = auth;
		after = memchr(auth, ':', n);
		if (after == NULL)
			after = auth + n;
		hostlen = (size_t)(after - host);
	}
	/* Then nothing, or ":PORT". */
	if (after != auth + n) {
		if (*after != ':' || after + 1 == auth + n)
			return false;
		for (i = 1; after + i < auth + n; i++)
			if (!isdigit((unsigned char)after[i]))
				return false;
	}
	if (hostlen == 0 || hostlen >= sizeof name)
		return false;
	memcpy(name, host, hostlen);
	name[hostlen] = '\0';
	if (auth[0] == '[')
		return inet_pton(AF_INET6, name, &a6) == 1 &&
		    IN6_IS_ADDR_LOOPBACK(&a6);
	if (strcasecmp(name, "localhost") == 0)
		return true;
	return inet_pton(AF_INET, name, &a4) == 1 &&
	    (ntohl(a4.s_addr) >> 24) == 127;
}
