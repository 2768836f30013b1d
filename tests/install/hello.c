/* Built against the installed headers and library through pkg-config (tests/install/run). */
#include <stdio.h>
#include <infiniband/verbs.h>

int main(void)
{
	printf("%s %d\n", ibv_wc_status_str(0), ibv_rate_to_mbps(7));
	return 0;
}
