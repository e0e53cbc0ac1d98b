/*
 * rest-int.h: what the files of the REST protocol share, and nothing
 * else includes (rest.h is the interface): the Slurm error numbers they
 * tell apart, and the first steps of reading any slurmrestd answer, which
 * rest-answer.c defines and rest.c and rest-job.c use too.  Pure, as
 * rest.h.
 */
#ifndef MBSBATCH_REST_INT_H
#define MBSBATCH_REST_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "error.h"
#include "rest.h"

/* Slurm error numbers this module treats specially. */
#define SLURM_E_AUTH		1007	/* Protocol authentication */
#define SLURM_E_NO_JOB		2017	/* Invalid job id specified */
#define SLURM_E_BAD_NODE	2018	/* Invalid node name specified */
#define SLURM_E_ENV_IO		2019	/* 23.11 on: no environment */
#define SLURM_E_DONE		2021	/* Job already completing */
#define SLURM_E_ZERO_BYTES	5005	/* 22.05: how a bad token shows */

/* BODY (LEN bytes) as JSON: a new reference, or NULL when it is none. */
json_t		*rest_load(const char *body, size_t len);

/* Is STATUS an HTTP success (2xx)? */
bool		 rest_http_ok(long status);

/*
 * The number J in *OUT, however slurmrestd writes it; NUM_SET when it is
 * one (*OUT 0 otherwise).
 */
enum num_kind { NUM_NONE, NUM_SET, NUM_INFINITE };
enum num_kind	 rest_get_num(json_t *j, int64_t *out);

/* OBJ[KEY] when a non-empty string: a new string; else NULL. */
char		*rest_get_str(json_t *obj, const char *key);

/* Has the "errors" list ERRORS an entry with Slurm error CODE? */
bool		 rest_has_code(json_t *errors, long code);

/*
 * The error (EXIT_FAILURE_OP, with a hint where one helps) for an answer
 * of version V that is not what was asked for: HTTP STATUS, ROOT its JSON
 * or NULL, BODY its LEN bytes.  Never NULL.
 */
struct error	*rest_answer_error(enum rest_version v, long status,
		    json_t *root, const char *body, size_t len);

/* "job JOB_ID: no such job", EXIT_FAILURE_OP of kind ERROR_NO_SUCH_JOB. */
struct error	*rest_no_such_job(int64_t job_id);

#endif
