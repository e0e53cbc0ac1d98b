/*
 * slurmopt-carried.h: the sbatch options that --slurm-opt (or a script of
 * the user's) may set and that every back end carries, one row each.
 * They have no setting of their own: the sbatch back end passes the
 * #SBATCH line; sbatch-directives.c reads it into struct jobdesc; the
 * REST back end sends it under the key of the API version, the native
 * back end in job_desc_msg_t's member.  Every place that needs the rows
 * expands this list (an X-macro: no include guard):
 *
 *	jobdesc.h		CTYPE MEMBER in struct jobdesc
 *	slurmopt.c		the row of slurmopt_table (read back only)
 *	rest-submit.c		put_carried(): the key by API version, or a
 *				refusal naming the first version with one
 *	backend-native.c	nat_fill_desc() and the dry run's line
 *
 * SLURMOPT_CARRIED(OPTION, SHORT, ARG, KIND, CTYPE, MEMBER, CHECK,
 *     NATIVE, KEY_36, KEY_38, KEY_39):
 *	OPTION	 sbatch's long option, "licenses"
 *	SHORT	 its short option ('L'), or 0
 *	ARG	 SA_REQUIRED or SA_OPTIONAL, as sbatch takes it
 *	KIND	 SK_STRING (the value as given: slurm_opt.c's
 *		 COMMON_STRING_OPTION, copied as it is into the job
 *		 description) or SK_NICE (a number, NICE_OFFSET + it)
 *	CTYPE	 char * (SK_STRING) or int64_t (SK_NICE, 0 unset)
 *	MEMBER	 the field of struct jobdesc
 *	CHECK	 NULL or why a value is refused (slurmopt.h)
 *	NATIVE	 the member of libslurm's job_desc_msg_t
 *	KEY_36	 the REST key of API v0.0.36 and v0.0.37, or NULL: none
 *	KEY_38	 that of v0.0.38, or NULL
 *	KEY_39	 that of v0.0.39 to v0.0.44 (the data_parser's), or NULL
 *
 * Sources.  sbatch: slurm_opt_create_job_desc() (22.05.8
 * src/common/slurm_opt.c:5926-6258, 25.11.7 slurm_opt.c:5675-6061:
 * acctg_freq, cluster_features, prefer, licenses, mcs_label, nice,
 * wckey) and sbatch.c's _fill_job_desc_from_opts() (22.05.8
 * src/sbatch/sbatch.c:424-425, 25.11.7 :434-435: batch_features,
 * container).  v0.0.36-38 read the keys with sbatch's own option parser
 * (job_params[], 22.05.8 src/plugins/openapi/v0.0.3N/jobs.c:91-252;
 * 23.11.11 src/slurmrestd/plugins/openapi/v0.0.38/jobs.c alike):
 * v0.0.36 and v0.0.37 have no "container" and no "prefer", and spell
 * the MCS label "msc_label".  v0.0.39 on: the data_parser's
 * JOB_DESC_MSG (23.02.8 src/plugins/data_parser/v0.0.39/parsers.c, to
 * 25.11.7 v0.0.44/parsers.c), every key the same; "nice" is NICE there
 * (PARSE_FUNC(NICE): NICE_OFFSET + the number, within +/- 2147483645).
 */
#ifndef SLURMOPT_CARRIED
#define SLURMOPT_CARRIED(option, shortopt, arg, kind, ctype, member, check, \
    native, key36, key38, key39)	/* none: compiles on its own */
#endif

SLURMOPT_CARRIED("licenses", 'L', SA_REQUIRED, SK_STRING, char *, licenses,
    slurmopt_check_text, licenses, "licenses", "licenses", "licenses")
SLURMOPT_CARRIED("wckey", 0, SA_REQUIRED, SK_STRING, char *, wckey,
    slurmopt_check_text, wckey, "wckey", "wckey", "wckey")
/* arg_set_nice(): no value is 100. */
SLURMOPT_CARRIED("nice", 0, SA_OPTIONAL, SK_NICE, int64_t, nice,
    NULL, nice, "nice", "nice", "nice")
SLURMOPT_CARRIED("prefer", 0, SA_REQUIRED, SK_STRING, char *, prefer,
    slurmopt_check_constraint, prefer, NULL, "prefer", "prefer")
SLURMOPT_CARRIED("mcs-label", 0, SA_REQUIRED, SK_STRING, char *, mcs_label,
    slurmopt_check_text, mcs_label, "msc_label", "mcs_label", "mcs_label")
SLURMOPT_CARRIED("acctg-freq", 0, SA_REQUIRED, SK_STRING, char *, acctg_freq,
    slurmopt_check_acctg_freq, acctg_freq, "account_gather_frequency",
    "account_gather_frequency", "account_gather_frequency")
SLURMOPT_CARRIED("batch", 0, SA_REQUIRED, SK_STRING, char *, batch_features,
    slurmopt_check_constraint, batch_features, "batch_features",
    "batch_features", "batch_features")
SLURMOPT_CARRIED("cluster-constraint", 0, SA_REQUIRED, SK_STRING, char *,
    cluster_constraint, slurmopt_check_constraint, cluster_features,
    "cluster_constraint", "cluster_constraint", "cluster_constraint")
SLURMOPT_CARRIED("container", 0, SA_REQUIRED, SK_STRING, char *, container,
    slurmopt_check_text, container, NULL, "container", "container")

#undef SLURMOPT_CARRIED
