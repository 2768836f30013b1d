/* Diff program: ibv_open_device on fake devices (open.cases). The uverbs nodes the harness
 * makes have no driver behind them (or are not character devices at all), so every open fails:
 * what is compared is NULL versus a context, errno, and that the list stays usable. A context,
 * should one ever come back, is closed again and reported. NULL arguments are not tried here:
 * rdma-core crashes on them (ours is checked alone in tests/capi_null.rs). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <infiniband/verbs.h>

static const char *ename(int e)
{
	const char *n = e ? strerrorname_np(e) : "0";
	return n ? n : "?";
}

int main(void)
{
	int num = -7;
	struct ibv_device **l = ibv_get_device_list(&num);

	if (!l) {
		printf("ibv_get_device_list = NULL errno=%s\n", ename(errno));
		return 0;
	}
	printf("ibv_get_device_list: num=%d\n", num);
	for (int i = 0; l[i]; i++) {
		errno = 0;
		struct ibv_context *ctx = ibv_open_device(l[i]);
		int e = errno;

		printf("ibv_open_device(%s/%s) = %s errno=%s\n", l[i]->dev_name, ibv_get_device_name(l[i]),
		       ctx ? "context" : "NULL", ename(e));
		if (ctx) {
			errno = 0;
			int ret = ibv_close_device(ctx);
			printf("ibv_close_device = %d errno=%s\n", ret, ename(errno));
		}
	}
	ibv_free_device_list(l);

	l = ibv_get_device_list(&num);
	printf("after: ibv_get_device_list %s num=%d\n", l ? "ok" : "NULL", num);
	if (l)
		ibv_free_device_list(l);
	return 0;
}
