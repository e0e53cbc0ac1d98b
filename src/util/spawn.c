/* spawn.c: run a client program and collect its output; see spawn.h. */
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "spawn.h"

void
spawn_result_release(struct spawn_result *res)
{
	buf_release(&res->out);
	buf_release(&res->err);
}

static void
close_pair(int p[2])
{
	if (p[0] != -1)
		close(p[0]);
	if (p[1] != -1)
		close(p[1]);
}

struct error *
spawn_run(char *const *argv, const char *input, size_t len,
    struct spawn_result *res)
{
	int		 in[2] = { -1, -1 }, out[2] = { -1, -1 };
	int		 err[2] = { -1, -1 }, ex[2] = { -1, -1 }, st, e = 0;
	struct pollfd	 pfd[3];
	char		 chunk[4096];
	size_t		 off = 0;
	ssize_t		 n;
	pid_t		 pid;
	sigset_t	 pipe_set, old_set;
	bool		 broken = false;

	buf_init(&res->out);
	buf_init(&res->err);
	res->status = -1;
	if (pipe2(in, O_CLOEXEC) == -1 || pipe2(out, O_CLOEXEC) == -1 ||
	    pipe2(err, O_CLOEXEC) == -1 || pipe2(ex, O_CLOEXEC) == -1) {
		e = errno;
		goto fail;
	}
	if ((pid = fork()) == -1) {
		e = errno;
		goto fail;
	}
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		execvp(argv[0], argv);
		e = errno;
		(void)!write(ex[1], &e, sizeof e);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	close(err[1]);
	close(ex[1]);
	in[0] = out[1] = err[1] = ex[1] = -1;
	/* Did exec work?  The pipe closes on exec, or carries errno. */
	if (read(ex[0], &e, sizeof e) == (ssize_t)sizeof e) {
		waitpid(pid, &st, 0);
		goto fail;
	}
	e = 0;
	/*
	 * A child that exits without reading its input makes the write
	 * raise SIGPIPE, in this thread: blocked here, and taken back below
	 * if it came.  The disposition is the process's: swapping it, as
	 * this once did, raced with the other workers' writes.
	 */
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
	if (input == NULL || len == 0) {
		close(in[1]);
		in[1] = -1;
	}
	for (;;) {
		pfd[0].fd = in[1];
		pfd[0].events = POLLOUT;
		pfd[1].fd = out[0];
		pfd[1].events = POLLIN;
		pfd[2].fd = err[0];
		pfd[2].events = POLLIN;
		if (in[1] == -1 && out[0] == -1 && err[0] == -1)
			break;
		if (poll(pfd, 3, -1) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (in[1] != -1 && (pfd[0].revents & (POLLOUT | POLLERR))) {
			n = write(in[1], input + off, len - off);
			if (n > 0)
				off += (size_t)n;
			else if (n == -1 && errno == EPIPE)
				broken = true;
			if ((n < 0 && errno != EINTR && errno != EAGAIN) ||
			    off == len) {
				close(in[1]);
				in[1] = -1;
			}
		}
		if (out[0] != -1 && (pfd[1].revents & (POLLIN | POLLHUP))) {
			n = read(out[0], chunk, sizeof chunk);
			if (n > 0)
				buf_add(&res->out, chunk, (size_t)n);
			else {
				close(out[0]);
				out[0] = -1;
			}
		}
		if (err[0] != -1 && (pfd[2].revents & (POLLIN | POLLHUP))) {
			n = read(err[0], chunk, sizeof chunk);
			if (n > 0)
				buf_add(&res->err, chunk, (size_t)n);
			else {
				close(err[0]);
				err[0] = -1;
			}
		}
	}
	if (broken && !sigismember(&old_set, SIGPIPE)) {
		struct timespec	 now = { 0, 0 };

		while (sigtimedwait(&pipe_set, NULL, &now) == -1 &&
		    errno == EINTR)
			continue;
	}
	pthread_sigmask(SIG_SETMASK, &old_set, NULL);
	while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
		continue;
	res->status = WIFEXITED(st) ? WEXITSTATUS(st) :
	    WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
	close_pair(in);
	close_pair(out);
	close_pair(err);
	close_pair(ex);
	return NULL;

fail:
	close_pair(in);
	close_pair(out);
	close_pair(err);
	close_pair(ex);
	spawn_result_release(res);
	return error_new(EXIT_FAILURE_OP, "cannot run '%s': %s", argv[0],
	    strerror(e));
}
