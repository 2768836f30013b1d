/* An attacker's "provider" for the set-uid / set-gid test (tests/secure/run): loading it leaves
 * a file named after TAG in MARKS, which is all it does. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

__attribute__((constructor)) static void mark(void)
{
	char p[4096];
	int fd;

	snprintf(p, sizeof(p), "%s/%s.%d", MARKS, TAG, (int)getpid());
	fd = open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0666);
	if (fd >= 0)
		close(fd);
}
