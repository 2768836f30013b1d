/* Runs one of the libibverbs example pingpongs (ibv_rc_pingpong, ibv_ud_pingpong,
 * ibv_srq_pingpong, ...) as server and client over rxe0 in this one guest, and prints both exit
 * codes and both outputs with the run-dependent parts (QPNs, PSNs, GIDs, timings) masked, so the
 * output is the same under the system libibverbs and under ours (tests/vm/checks.txt).
 *
 *   pingpong PROGRAM [ARGS...]     (the client adds 127.0.0.1; both add -d rxe0 -g 1)
 *
 * Both processes inherit this one's environment, so they run on the library under test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

int main(int argc, char **argv)
{
	char args[512] = "", cmd[2048];
	int ret;

	if (argc < 2) {
		fprintf(stderr, "usage: pingpong PROGRAM [ARGS...]\n");
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		strncat(args, " ", sizeof(args) - strlen(args) - 1);
		strncat(args, argv[i], sizeof(args) - strlen(args) - 1);
	}
	snprintf(cmd, sizeof(cmd),
		 "%s -d rxe0 -g 1%s > /tmp/pp.srv 2>&1 & sleep 2; "
		 "%s -d rxe0 -g 1%s 127.0.0.1 > /tmp/pp.cli 2>&1; c=$?; wait $!; "
		 "echo \"client $c server $?\"; "
		 "sed -E 's/0x[0-9a-f]+/X/g; s/[0-9]+[.][0-9]+ (seconds|Mbit.sec|usec.iter)/N \\1/g; "
		 "s/GID [0-9a-f:.]+/GID G/' /tmp/pp.srv /tmp/pp.cli",
		 argv[1], args, argv[1], args);
	fflush(stdout);
	ret = system(cmd);
	return ret == -1 ? 1 : WEXITSTATUS(ret);
}
