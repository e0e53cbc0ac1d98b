/*
 * replay.c: a fuzz target without libFuzzer: runs the target on every
 * file named on the command line, or in the directories named (its seed
 * corpus, and the inputs that once crashed it).  make check runs it, so a
 * crash found by fuzzing stays fixed.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int
run_file(const char *path)
{
	FILE	*f;
	uint8_t	*data;
	long	 n;

	if ((f = fopen(path, "rb")) == NULL) {
		perror(path);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	if ((data = malloc(n > 0 ? (size_t)n : 1)) == NULL ||
	    fread(data, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "%s: cannot read\n", path);
		fclose(f);
		free(data);
		return 1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(data, (size_t)n);
	free(data);
	return 0;
}

int
main(int argc, char **argv)
{
	struct dirent	*de;
	struct stat	 st;
	DIR		*d;
	char		 path[4096];
	int		 i, n = 0, bad = 0;

	for (i = 1; i < argc; i++) {
		if (stat(argv[i], &st) == -1) {
			perror(argv[i]);
			return 1;
		}
		if (!S_ISDIR(st.st_mode)) {
			bad |= run_file(argv[i]);
			n++;
			continue;
		}
		if ((d = opendir(argv[i])) == NULL) {
			perror(argv[i]);
			return 1;
		}
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof path, "%s/%s", argv[i],
			    de->d_name);
			bad |= run_file(path);
			n++;
		}
		closedir(d);
	}
	printf("%s: %d inputs\n", argv[0], n);
	return bad || n == 0;
}
