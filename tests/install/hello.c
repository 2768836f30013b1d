/* Built against the installed headers and library (tests/install/run): the set libibverbs-dev
 * installs must be there (sa.h for librdmacm users), and the enum-typed API must take enums. */
#include <stdio.h>
#include <infiniband/verbs.h>
#include <infiniband/sa.h>

int main(void)
{
	struct ibv_sa_path_rec path = { .rate = IBV_RATE_40_GBPS };

	printf("%s %d\n", ibv_wc_status_str(IBV_WC_SUCCESS), ibv_rate_to_mbps(path.rate));
	return 0;
}
