/* fuzz_number.c: the number parsers every option and key goes through. */
#include "fuzz.h"
#include "number.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	*s = fuzz_string(data, size), buf[32];
	int64_t	 i;
	double	 d;

	(void)number_parse_int(s, 0, INT64_C(1) << 40, &i);
	if (number_parse_count(s, 1, INT64_C(1) << 50, &i) == NULL)
		number_format_count(i, buf, sizeof buf);
	(void)number_parse_decimal(s, 0, 4096, &d);
	free(s);
	return 0;
}
