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

/*
 * Lines of text written in pieces: lines_addf() appends to the line being
 * written, and each '\n' ends it.  v[0..n) are the ended lines, without
 * their '\n', owned; lines_release() frees them.
 */
struct lines {
	char		**v;
	size_t		  n;
	struct buf	  cur;
};

void	 lines_init(struct lines *);
void	 lines_release(struct lines *);
void	 lines_addf(struct lines *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));

#endif
