/* Runs one of the libibverbs example pingpongs (ibv_rc_pingpong, ibv_ud_pingpong,
 * ibv_srq_pingpong, ...) as server and client over rxe0 in this one guest, and prints both exit
 * codes and both outputs with the run-dependent parts (QPNs, PSNs, GIDs, timings) masked, so the
 * output is the same under the system libibverbs and under ours (tests/vm/checks.txt).
 *
 *   pingpong PROGRAM [ARGS...]     (the client adds 127.0.0.1; both add -d rxe0 -g 1)
 *
 * Both processes inherit this one's environment, so they run on the library under test. A client
 * that finds no server yet is run again (up to 60 times, a second apart); timeouts keep a lost
 * peer from hanging the check. */
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
	/* The server gets ready at its own pace (other guests share the CPUs): the client is
	 * retried while the server is not listening yet; neither may hang the check. */
	snprintf(cmd, sizeof(cmd),
		 "timeout 120 %s -d rxe0 -g 1%s > /tmp/pp.srv 2>&1 & s=$!; "
		 "for i in $(seq 60); do "
		 "timeout 60 %s -d rxe0 -g 1%s 127.0.0.1 > /tmp/pp.cli 2>&1; c=$?; "
		 "grep -q \"Couldn't connect\" /tmp/pp.cli || break; sleep 1; done; wait $s; "
		 "echo \"client $c server $?\"; "
		 "sed -E 's/0x[0-9a-f]+/X/g; s/[0-9]+[.][0-9]+ (seconds|Mbit.sec|usec.iter)/N \\1/g; "
		 "s/GID [0-9a-f:.]+/GID G/' /tmp/pp.srv /tmp/pp.cli",
		 argv[1], args, argv[1], args);
	fflush(stdout);
	ret = system(cmd);
	return ret == -1 ? 1 : WEXITSTATUS(ret);
}
