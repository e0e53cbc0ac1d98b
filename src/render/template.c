/* template.c: finding script templates; see template.h. */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "error.h"
#include "suggest.h"
#include "template.h"
#include "xmalloc.h"

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/local/share/mbsbatch"
#endif

#define TEMPLATE_MAX_SIZE	(1024 * 1024)
#define TEMPLATE_SUFFIX		".sbatch"

void
template_release(struct template *t)
{
	free(t->name);
	free(t->path);
	free(t->text);
	memset(t, 0, sizeof *t);
}

bool
template_shipped(const struct template *t)
{
	size_t	 i;

	for (i = 0; template_builtins[i].name != NULL; i++)
		if (strcmp(template_builtins[i].name, t->name) == 0)
			return strcmp(template_builtins[i].text, t->text) == 0;
	return false;
}

void
template_list_free(struct template *list, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		template_release(&list[i]);
	free(list);
}

/* The directories to search, in order; a NULL-terminated array. */
static char **
search_dirs(void)
{
	const char	*env = getenv("MBSBATCH_TEMPLATE_PATH");
	const char	*xdg = getenv("XDG_CONFIG_HOME");
	const char	*home = getenv("HOME");
	char		**dirs = NULL, *copy, *p, *tok;
	size_t		 n = 0;

	if (env != NULL && *env != '\0') {
		copy = xstrdup(env);
		for (p = copy; (tok = strsep(&p, ":")) != NULL;) {
			if (*tok == '\0')
				continue;
			dirs = xreallocarray(dirs, n + 2, sizeof *dirs);
			dirs[n++] = xstrdup(tok);
		}
		free(copy);
	}
	dirs = xreallocarray(dirs, n + 3, sizeof *dirs);
	if (xdg != NULL && xdg[0] == '/')
		dirs[n++] = xasprintf("%s/mbsbatch/templates", xdg);
	else if (home != NULL && home[0] == '/')
		dirs[n++] = xasprintf("%s/.config/mbsbatch/templates", home);
	dirs[n++] = xstrdup(PKGDATADIR "/templates");
	dirs[n] = NULL;
	return dirs;
}

static struct error *
read_file(const char *path, char **out)
{
	struct buf	 b;
	struct stat	 st;
	char		 chunk[8192];
	ssize_t		 r;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)) == -1)
		return error_new(EXIT_FAILURE_OP, "template '%s': %s", path,
		    strerror(errno));
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		close(fd);
		return error_new(EXIT_FAILURE_OP, "template '%s': not a "
		    "regular file", path);
	}
	buf_init(&b);
	while ((r = read(fd, chunk, sizeof chunk)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || b.len + (size_t)r > TEMPLATE_MAX_SIZE) {
			buf_release(&b);
			close(fd);
			return error_new(EXIT_FAILURE_OP, "template '%s': %s",
			    path, r < 0 ? strerror(errno) : "larger than 1 MiB");
		}
		buf_add(&b, chunk, (size_t)r);
	}
	close(fd);
	if (strlen(b.data) != b.len) {
		buf_release(&b);
		return error_new(EXIT_USAGE, "template '%s': contains a NUL "
		    "byte", path);
	}
	*out = buf_detach(&b);
	return NULL;
}

bool
template_is_path(const char *name)
{
	size_t	 n = strlen(name), s = strlen(TEMPLATE_SUFFIX);

	return strchr(name, '/') != NULL ||
	    (n > s && strcmp(name + n - s, TEMPLATE_SUFFIX) == 0);
}

static bool
name_ok(const char *name)
{
	if (*name == '\0' || *name == '.')
		return false;
	for (; *name != '\0'; name++)
		if (strchr("/\\ \t", *name) != NULL)
			return false;
	return true;
}

struct error *
template_load(const char *name, struct template *t)
{
	const struct template_builtin	*b;
	struct template			*all;
	struct error			*err;
	const char			**names, *near, *base;
	char				**dirs, *path;
	size_t				 i, n;

	memset(t, 0, sizeof *t);
	if (template_is_path(name)) {
		if ((err = read_file(name, &t->text)) != NULL)
			return err;
		base = strrchr(name, '/');
		base = base != NULL ? base + 1 : name;
		n = strlen(base);
		if (n > strlen(TEMPLATE_SUFFIX) && strcmp(base + n -
		    strlen(TEMPLATE_SUFFIX), TEMPLATE_SUFFIX) == 0)
			n -= strlen(TEMPLATE_SUFFIX);
		t->name = xstrndup(base, n);
		t->path = xstrdup(name);
		return NULL;
	}
	if (!name_ok(name))
		return error_new(EXIT_USAGE, "template '%s': not a template "
		    "name", name);
	dirs = search_dirs();
	for (i = 0; dirs[i] != NULL; i++) {
		path = xasprintf("%s/%s%s", dirs[i], name, TEMPLATE_SUFFIX);
		if (access(path, F_OK) == 0) {
			freev(dirs);
			err = read_file(path, &t->text);
			if (err == NULL) {
				t->name = xstrdup(name);
				t->path = path;
			} else
				free(path);
			return err;
		}
		free(path);
	}
	freev(dirs);
	for (b = template_builtins; b->name != NULL; b++)
		if (strcmp(b->name, name) == 0) {
			t->name = xstrdup(name);
			t->text = xstrdup(b->text);
			return NULL;
		}

	if ((err = template_list(&all, &n)) != NULL) {
		error_free(err);
		all = NULL;
		n = 0;
	}
	names = xreallocarray(NULL, n + 1, sizeof *names);
	for (i = 0; i < n; i++)
		names[i] = all[i].name;
	near = suggest(name, names, n);
	err = error_new(EXIT_USAGE, "template '%s': no such template%s%s%s",
	    name, near != NULL ? " (did you mean '" : "",
	    near != NULL ? near : "", near != NULL ? "'?)" : "");
	error_hint(err, "'mbsbatch gen --list-templates' lists them");
	free(names);
	template_list_free(all, n);
	return err;
}

static bool
listed(const struct template *list, size_t n, const char *name)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (strcmp(list[i].name, name) == 0)
			return true;
	return false;
}

static int
cmp_templates(const void *a, const void *b)
{
	return strcmp(((const struct template *)a)->name,
	    ((const struct template *)b)->name);
}

struct error *
template_list(struct template **out, size_t *nout)
{
	const struct template_builtin	*b;
	struct template			*list = NULL;
	struct dirent			*de;
	char				**dirs, *name;
	size_t				 n = 0, i, len, s = strlen(TEMPLATE_SUFFIX);
	DIR				*d;

	dirs = search_dirs();
	for (i = 0; dirs[i] != NULL; i++) {
		if ((d = opendir(dirs[i])) == NULL)
			continue;
		while ((de = readdir(d)) != NULL) {
			len = strlen(de->d_name);
			if (len <= s || de->d_name[0] == '.' ||
			    strcmp(de->d_name + len - s, TEMPLATE_SUFFIX) != 0)
				continue;
			name = xstrndup(de->d_name, len - s);
			if (listed(list, n, name)) {
				free(name);
				continue;
			}
			list = xreallocarray(list, n + 1, sizeof *list);
			memset(&list[n], 0, sizeof list[n]);
			list[n].name = name;
			list[n].path = xasprintf("%s/%s", dirs[i], de->d_name);
			n++;
		}
		closedir(d);
	}
	freev(dirs);
	for (b = template_builtins; b->name != NULL; b++) {
		if (listed(list, n, b->name))
			continue;
		list = xreallocarray(list, n + 1, sizeof *list);
		memset(&list[n], 0, sizeof list[n]);
		list[n++].name = xstrdup(b->name);
	}
	qsort(list, n, sizeof *list, cmp_templates);
	*out = list;
	*nout = n;
	return NULL;
}
