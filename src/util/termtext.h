/*
 * termtext.h: text from outside (Slurm's answers, a job's name, a path,
 * a file's key) made safe to show, on a terminal and in JSON.
 *
 * On a terminal, every byte that is not part of a printable character of
 * valid UTF-8 is written as an escape, so that nothing mbsbatch prints
 * can move the cursor, clear the screen, set a window title, ring the
 * bell, rewrite a line (CR) or start a line of its own (LF):
 *   \t \n \r       tab, line feed, carriage return
 *   \xHH           any other C0 control byte, DEL, and each byte of a C1
 *                  control (U+0080-U+009F: a terminal may read U+009B as
 *                  CSI), of a character that reorders or breaks text
 *                  (U+061C, U+200E-U+200F, U+2028-U+202E, U+2066-U+2069:
 *                  "Trojan source"), or of a sequence that is not UTF-8
 * Backslashes are kept as they are: the escapes show what is there, they
 * are not meant to be decoded back (a name may itself hold "\x1b").
 *
 * In JSON every string must be valid UTF-8 (jansson refuses others, and
 * a job name is any bytes): each byte that is not part of valid UTF-8
 * becomes the four characters \xHH, the rest is kept (JSON escapes its
 * own controls).  Valid text is never changed.
 */
#ifndef MBSBATCH_TERMTEXT_H
#define MBSBATCH_TERMTEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

struct buf;

/* Append LEN bytes of S to OUT, escaped for a terminal. */
void	 termtext_add(struct buf *, const char *, size_t);

/* S escaped for a terminal: a new string; NULL for NULL. */
char	*termtext_dup(const char *);

/*
 * Print to F the line the printf-style FMT makes, escaped for a terminal
 * but for its final line feed (a message is one line: a line feed inside
 * is data, and shown as \n).  What fprintf() returns.
 */
int	 termtext_printf(FILE *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));

/*
 * The offset of the first byte of the LEN bytes of S that is not part of
 * valid UTF-8 (RFC 3629: no overlong form, no surrogate, nothing above
 * U+10FFFF; what jansson accepts), or LEN when they all are.
 */
size_t	 termtext_utf8_valid(const char *, size_t);

/*
 * The offset of the first character of the LEN bytes of S (valid UTF-8)
 * that a terminal does not get as it is (a control, DEL, C1, one that
 * reorders text: above), its code point in *CP; LEN when there is none.
 */
size_t	 termtext_hidden(const char *, size_t, uint32_t *);

/* Append LEN bytes of S to OUT, made valid UTF-8 (\xHH, above). */
void	 termtext_add_utf8(struct buf *, const char *, size_t);

/*
 * Append a JSON document's LEN bytes to OUT, each byte that is not part
 * of valid UTF-8 replaced by the JSON text \\xHH, which a string reads as
 * the four characters \xHH: slurmrestd and squeue --json copy a job's
 * name into their JSON as the bytes it is.  (Outside a string such a
 * byte was never JSON, and still is not.)
 */
void	 termtext_add_json_body(struct buf *, const char *, size_t);

/* S as a JSON string made valid UTF-8 (a new reference), or JSON null
 * for NULL; never NULL. */
json_t	*termtext_json(const char *);

#endif
