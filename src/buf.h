/*
 * buf.h: a growable, always NUL-terminated byte buffer (git's strbuf).
 * Embedded: buf_init() before use, buf_release() after; buf_detach()
 * hands the string to the caller, who frees it.
 */
#ifndef MBSBATCH_BUF_H
#define MBSBATCH_BUF_H

#include <stddef.h>

struct buf {
	char	*data;	/* never NULL after buf_init() */
	size_t	 len;
	size_t	 cap;
};

void	 buf_init(struct buf *);
void	 buf_release(struct buf *);
char	*buf_detach(struct buf *);
void	 buf_reset(struct buf *);
void	 buf_add(struct buf *, const void *, size_t);
void	 buf_adds(struct buf *, const char *);
void	 buf_addc(struct buf *, char);
void	 buf_addf(struct buf *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));

#endif
