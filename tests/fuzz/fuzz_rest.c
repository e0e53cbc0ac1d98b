/* fuzz_rest.c: slurmrestd's answers.  The first byte picks the parser
 * (its high nibble) and the API version, the second the HTTP status; the
 * rest is the body, passed with its length and no NUL after it. */
#include "error.h"
#include "fuzz.h"
#include "rest.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const long statuses[] = { 200, 201, 400, 401, 404, 500, 502 };
	struct rest_submit_result sr;
	struct rest_job_status	 js;
	struct job_list		 list = { NULL, 0 };
	struct error		*err = NULL;
	enum rest_version	 v, picked;
	int64_t			 id;
	long			 status;
	uint8_t			*body;

	if (size < 2)
		return 0;
	v = (enum rest_version)(data[0] % (REST_V0_0_44 + 1));
	status = statuses[data[1] % (sizeof statuses / sizeof statuses[0])];
	size -= 2;
	body = malloc(size > 0 ? size : 1);
	if (body == NULL)
		abort();
	memcpy(body, data + 2, size);
	switch ((data[0] >> 4) % 8) {
	case 0:
		memset(&sr, 0, sizeof sr);
		err = rest_parse_submit(v, status, (char *)body, size, &sr);
		rest_submit_result_release(&sr);
		break;
	case 1:
		if ((err = rest_parse_job(v, 7, status, (char *)body, size,
		    &js)) == NULL)
			rest_job_status_release(&js);
		break;
	case 2:
		err = rest_parse_cancel(v, 7, status, (char *)body, size);
		break;
	case 3:
		err = rest_parse_ping(v, status, (char *)body, size);
		break;
	case 4:
		err = rest_parse_find(v, status, (char *)body, size, "x", "root",
		    &id);
		break;
	case 5:
		err = rest_pick_version(status, (char *)body, size, &picked);
		break;
	case 6:
		err = rest_parse_jobs(v, status, (char *)body, size,
		    data[1] & 0x80 ? "root" : NULL, &list);
		break;
	default:
		err = rest_parse_history(v, status, (char *)body, size, &list);
		break;
	}
	job_list_release(&list);
	error_free(err);
	free(body);
	return 0;
}
