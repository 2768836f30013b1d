/* Cold ibv_get_device_list: the first call in a fresh process (library init, enumeration,
 * provider loading), timed with CLOCK_MONOTONIC; prints nanoseconds and the device count. */
#include <stdio.h>
#include <time.h>
#include <infiniband/verbs.h>

int main(void)
{
	struct timespec a, b;
	int n = 0;

	clock_gettime(CLOCK_MONOTONIC, &a);
	struct ibv_device **l = ibv_get_device_list(&n);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%lld %d\n", (long long)(b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec), n);
	if (l)
		ibv_free_device_list(l);
	return 0;
}
