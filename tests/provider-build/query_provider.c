/*
 * A small provider of our own for soft-RoCE (rxe) devices that can open a context and answer the
 * device and port queries, nothing else: enough for `ibv_devinfo -v`. One source for every provider
 * ABI; tests/provider-build/run builds it against our installed driver.h as librxe-rdmav34.so
 * (default) and librxe-rdmav<N>.so (-DIBVERBS_PABI_VERSION=N: each later ABI, `tools/facts`; and 59 in rdma-core
 * v62/v63's layout with -DIBVERBS_PABI_LAYOUT=62, which also answers the port speed through
 * ibv_cmd_query_port_speed, the import v62's mlx5 has and the library tells that layout by; and 34
 * in rdma-core v34's, v35's and v54-v56's layouts with -DIBVERBS_PABI_LAYOUT=32, 33 and 54, which
 * the library tells by the rdma-core release installed beside them), and tests/vm runs
 * each under our library, where `ibv_devinfo -v` must print what Debian's rxe prints under the
 * system library (the ops' slots in the provider's table, and the context's layout, are its
 * ABI's: a slot read at another ABI's place would lose the queries). The queries go to the kernel through the library's
 * ibv_cmd_* helpers, and the firmware version is formatted as the rxe provider formats it.
 */
#include <infiniband/driver.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#if IBV_PABI_LAYOUT == 62
/* rdma-core v62.1's struct verbs_context: four public ops in front, 680 bytes. */
_Static_assert(sizeof(struct verbs_context) == 680 &&
		       offsetof(struct verbs_context, context) == 680 - sizeof(struct ibv_context),
	       "rdma-core v62's struct verbs_context");
#elif IBVERBS_PABI_VERSION == 59
_Static_assert(sizeof(struct verbs_context) == 672, "rdma-core v61's struct verbs_context");
#elif IBV_PABI_LAYOUT == 32
/* rdma-core v34.0's tables: 73 ops, and abi_ver right after ibdev_idx. */
_Static_assert(sizeof(struct verbs_context_ops) == 73 * sizeof(void *) &&
		       offsetof(struct verbs_sysfs_dev, abi_ver) ==
			       offsetof(struct verbs_sysfs_dev, ibdev_idx) + 4,
	       "rdma-core v34's struct verbs_context_ops and verbs_sysfs_dev");
#elif IBV_PABI_LAYOUT == 33
_Static_assert(sizeof(struct verbs_context_ops) == 75 * sizeof(void *),
	       "rdma-core v35's struct verbs_context_ops");
#elif IBVERBS_PABI_VERSION == 34
_Static_assert(sizeof(struct verbs_context_ops) == 76 * sizeof(void *),
	       "rdma-core v36-v56's struct verbs_context_ops");
#endif

struct query_device {
	struct verbs_device vdev;
};

struct query_context {
	struct verbs_context vctx;
};

static int query_device_ex(struct ibv_context *context, const struct ibv_query_device_ex_input *input,
			   struct ibv_device_attr_ex *attr, size_t attr_size)
{
	struct ib_uverbs_ex_query_device_resp resp;
	size_t resp_size = sizeof(resp);
	int ret = ibv_cmd_query_device_any(context, input, attr, attr_size, &resp, &resp_size);

	if (ret)
		return ret;
	/* rxe reports its firmware version as major.minor.sub from the 16-bit fields of fw_ver */
	snprintf(attr->orig_attr.fw_ver, sizeof(attr->orig_attr.fw_ver), "%d.%d.%d",
		 (int)((resp.base.fw_ver >> 32) & 0xffff), (int)((resp.base.fw_ver >> 16) & 0xffff),
		 (int)(resp.base.fw_ver & 0xffff));
	return 0;
}

static int query_port(struct ibv_context *context, uint8_t port, struct ibv_port_attr *attr)
{
	struct ibv_query_port cmd;

	return ibv_cmd_query_port(context, port, attr, &cmd, sizeof(cmd));
}

#if IBV_PABI_LAYOUT == 62
static int query_port_speed(struct ibv_context *context, uint32_t port, uint64_t *speed)
{
	return ibv_cmd_query_port_speed(context, port, speed);
}
#endif

static void free_context(struct ibv_context *context)
{
	struct query_context *ctx = container_of(context, struct query_context, vctx.context);

	verbs_uninit_context(&ctx->vctx);
	free(ctx);
}

static const struct verbs_context_ops query_ops = {
	.free_context = free_context,
	.query_device_ex = query_device_ex,
	.query_port = query_port,
#if IBV_PABI_LAYOUT == 62
	.query_port_speed = query_port_speed,
#endif
};

static struct verbs_context *alloc_context(struct ibv_device *device, int cmd_fd, void *private_data)
{
	struct query_context *ctx;
	struct ibv_get_context cmd;
	struct ib_uverbs_get_context_resp resp;
	int ret;

	(void)private_data;
	ctx = verbs_init_and_alloc_context(device, cmd_fd, ctx, vctx, RDMA_DRIVER_RXE);
	if (ctx == NULL)
		return NULL;
#if IBVERBS_PABI_VERSION >= 57
	ret = ibv_cmd_get_context(&ctx->vctx, &cmd, sizeof(cmd), NULL, &resp, sizeof(resp));
#else
	ret = ibv_cmd_get_context(&ctx->vctx, &cmd, sizeof(cmd), &resp, sizeof(resp));
#endif
	if (ret) {
		verbs_err(&ctx->vctx, "GET_CONTEXT failed: %d\n", ret);
		verbs_uninit_context(&ctx->vctx);
		free(ctx);
		return NULL;
	}
	verbs_set_ops(&ctx->vctx, &query_ops);
	return &ctx->vctx;
}

static struct verbs_device *alloc_device(struct verbs_sysfs_dev *sysfs_dev)
{
	struct query_device *dev = calloc(1, sizeof(*dev));

	/* The uverbs ABI version where this provider's verbs_sysfs_dev has it must be the one the test
	 * gives (QUERY_PROVIDER_ABI_VER): rdma-core v34's layout has no num_ports before abi_ver. */
	const char *want = getenv("QUERY_PROVIDER_ABI_VER");

	if (want && sysfs_dev->abi_ver != (uint32_t)atoi(want)) {
		free(dev);
		return NULL;
	}
	return dev ? &dev->vdev : NULL;
}

static void uninit_device(struct verbs_device *vdev)
{
	free(container_of(vdev, struct query_device, vdev));
}

static const struct verbs_match_ent query_table[] = {
	VERBS_DRIVER_ID(RDMA_DRIVER_RXE),
	VERBS_NAME_MATCH("rxe", NULL),
	{},
};

static const struct verbs_device_ops query_device_ops = {
	.name = "rxe",
	.match_min_abi_version = 1,
	.match_max_abi_version = 2,
	.match_table = query_table,
	.alloc_device = alloc_device,
	.uninit_device = uninit_device,
	.alloc_context = alloc_context,
};
PROVIDER_DRIVER(query_rxe, query_device_ops);
