/* Runs a command (e.g. ibv_asyncwatch -d rxe0) with its stdout on a pipe, relays its lines, and
 * flaps dummy0 (down, then up) once the command printed its first line, waiting up to 30 s for
 * the line naming IBV_EVENT_PORT_ERR, then IBV_EVENT_PORT_ACTIVE. Then stops the command
 * (SIGTERM) and reports how it ended. Lines like "async event FD N" are relayed without N. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int fd;
static char buf[8192];
static size_t have;

static long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000L + t.tv_nsec / 1000000;
}

/* Relay lines until one contains `want` (NULL: any line), or timeout. 1 when found. */
static int relay_until(const char *want, int timeout_ms)
{
	long end = now_ms() + timeout_ms;
	for (;;) {
		char *nl;
		while ((nl = memchr(buf, '\n', have))) {
			*nl = 0;
			char *fdp = strstr(buf, "async event FD ");
			if (fdp)
				fdp[strlen("async event FD")] = 0;
			printf("| %s\n", buf);
			fflush(stdout);
			int hit = !want || strstr(buf, want);
			size_t used = nl + 1 - buf;
			memmove(buf, nl + 1, have - used);
			have -= used;
			if (hit)
				return 1;
		}
		long left = end - now_ms();
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (left <= 0 || poll(&p, 1, left) <= 0)
			return 0;
		ssize_t n = read(fd, buf + have, sizeof buf - 1 - have);
		if (n <= 0)
			return 0;
		have += n;
	}
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	int p[2];
	if (pipe(p))
		return 2;
	pid_t pid = fork();
	if (!pid) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	close(p[1]);
	fd = p[0];
	if (!relay_until(NULL, 30000))
		printf("no first line\n");
	printf("down: %d\n", system("ip link set dummy0 down"));
	if (!relay_until("IBV_EVENT_PORT_ERR", 30000))
		printf("no PORT_ERR within 30 s\n");
	printf("up: %d\n", system("ip link set dummy0 up"));
	if (!relay_until("IBV_EVENT_PORT_ACTIVE", 30000))
		printf("no PORT_ACTIVE within 30 s\n");
	kill(pid, SIGTERM);
	int st;
	waitpid(pid, &st, 0);
	relay_until("\001", 0);
	if (WIFSIGNALED(st))
		printf("command ended by signal %d\n", WTERMSIG(st));
	else
		printf("command exited %d\n", WEXITSTATUS(st));
	return 0;
}
