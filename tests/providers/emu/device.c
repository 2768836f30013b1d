/* uvemu: the fake devices, one per provider, and the sysfs tree each is seen through.
 *
 * A device is what its kernel driver would register: a PCI function with the ids the provider's
 * match table names (or a virtual device for rxe and siw, which match by name or driver id), the
 * per-device uverbs ABI the provider accepts, one active port, and device limits that every
 * provider's checks pass. The sysfs tree is laid out as a kernel lays it out (class links into
 * devices/), with the files both libraries and the providers read.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CAPS 0x00203c76ull /* RESIZE_MAX_WR ... RC_RNR_NAK_GEN, SRQ_RESIZE, MEM_MGT_EXTENSIONS */
#define LIMITS                                                                                  \
	.max_qp = 1 << 17, .max_qp_wr = 32768, .max_sge = 30, .max_cq = 1 << 16, .max_cqe = 4194303, \
	.max_srq = 1 << 15, .max_srq_wr = 32767, .max_srq_sge = 31, .max_mr = 1 << 24,               \
	.max_pd = 1 << 24, .max_ah = 1 << 24, .max_inline = 512, .num_comp_vectors = 2,               \
	.device_cap_flags = CAPS, .fw_ver = "1.2.3"

#define ETH .link_layer = IB_LINK_LAYER_ETHERNET
#define IB .link_layer = IB_LINK_LAYER_INFINIBAND

static const struct emu_dev devices[] = {
	{ .provider = "mlx5", .ibdev = "mlx5_0", .driver_id = RDMA_DRIVER_MLX5, .abi_ver = 1, .node_type = 1,
	  .pci_vendor = 0x15b3, .pci_device = 0x1017, .protocol = "ib", IB, .vendor_id = 0x02c9,
	  .vendor_part_id = 4119, .node_guid = 0x0c42a10300658f2eull, LIMITS, .xrc = true,
	  .dm = true, .odp = true, .dmabuf = true, .mcast = true,
	  .cq_max_period = 4095 /* MLX5_MAX_CQ_PERIOD */,
	  .qp_types = EMU_QPT(IB_UVERBS_QPT_RC) | EMU_QPT(IB_UVERBS_QPT_UC) | EMU_QPT(IB_UVERBS_QPT_UD) |
		      EMU_QPT(IB_UVERBS_QPT_RAW_PACKET), .wq = true,
	  .cq_flags = IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION | IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN,
	  .rate_limit = true, .import = true, .port_speed = 1000 /* 4X EDR: 100 Gb/s */,
	  .dmah = true, .devx = true },
	{ .provider = "mlx4", .ibdev = "mlx4_0", .driver_id = RDMA_DRIVER_MLX4, .abi_ver = 4, .node_type = 1,
	  .pci_vendor = 0x15b3, .pci_device = 0x1003, .protocol = "ib", IB, .vendor_id = 0x02c9,
	  .vendor_part_id = 4099, .node_guid = 0x0002c90300a1b2c0ull, LIMITS, .mcast = true,
	  .cq_flags = IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION, .cq_max_period = 0xffff /* MLX4_MAX_CQ_PERIOD */,
	  .xrc = true, .wq = true,
	  .qp_types = EMU_QPT(IB_UVERBS_QPT_RC) | EMU_QPT(IB_UVERBS_QPT_UC) | EMU_QPT(IB_UVERBS_QPT_UD) |
		      EMU_QPT(IB_UVERBS_QPT_RAW_PACKET) },
	{ .provider = "efa", .ibdev = "efa_0", .driver_id = RDMA_DRIVER_EFA, .abi_ver = 1, .node_type = 7,
	  .pci_vendor = 0x1d0f, .pci_device = 0xefa1, .protocol = "unspecified", .link_layer = 0,
	  .vendor_id = 0x1d0f, .vendor_part_id = 0xefa1, .node_guid = 0x0a1b2c3d4e5f6071ull, LIMITS,
	  .qp_types = 1 << IB_UVERBS_QPT_UD | 1u << 31, .max_srq = 0 },
	{ .provider = "irdma", .ibdev = "irdma0", .driver_id = RDMA_DRIVER_IRDMA, .abi_ver = 5, .node_type = 1,
	  .pci_vendor = 0x8086, .pci_device = 0x1592, .protocol = "roce", ETH, .vendor_id = 0x8086,
	  .vendor_part_id = 0x1592, .node_guid = 0x3efdfefffe9b2c10ull, LIMITS, .mcast = true },
	{ .provider = "bnxt_re", .ibdev = "bnxt_re0", .driver_id = RDMA_DRIVER_BNXT_RE, .abi_ver = 1,
	  .node_type = 1, .pci_vendor = 0x14e4, .pci_device = 0x16d7, .protocol = "roce", ETH,
	  .vendor_id = 0x14e4, .vendor_part_id = 0x16d7, .node_guid = 0x0a0b0cfffe0d0e0full, LIMITS },
	{ .provider = "hns", .ibdev = "hns_0", .driver_id = RDMA_DRIVER_HNS, .abi_ver = 1, .node_type = 1,
	  .pci_vendor = 0x19e5, .pci_device = 0xa222, .protocol = "roce", ETH, .vendor_id = 0x19e5,
	  .vendor_part_id = 0xa222, .node_guid = 0x1a2b3cfffe4d5e6full, LIMITS,
	  .hw_ver = 0x130 /* HNS_ROCE_HW_VER3 */, .xrc = true },
	{ .provider = "erdma", .ibdev = "erdma_0", .driver_id = RDMA_DRIVER_ERDMA, .abi_ver = 1, .node_type = 4,
	  .pci_vendor = 0x1ded, .pci_device = 0x107f, .protocol = "iw", ETH, .vendor_id = 0x1ded,
	  .vendor_part_id = 0x107f, .node_guid = 0x2a2b2cfffe2d2e2full, LIMITS,
	  .qp_types = 1 << IB_UVERBS_QPT_RC, .max_srq = 0 },
	{ .provider = "mana", .ibdev = "mana_0", .driver_id = RDMA_DRIVER_MANA, .abi_ver = 1, .node_type = 1,
	  .pci_vendor = 0x1414, .pci_device = 0x00ba, .protocol = "roce", ETH, .vendor_id = 0x1414,
	  .vendor_part_id = 0x00ba, .node_guid = 0x3a3b3cfffe3d3e3full, LIMITS,
	  .qp_types = 1 << IB_UVERBS_QPT_RAW_PACKET, .max_srq = 0 },
	{ .provider = "cxgb4", .ibdev = "cxgb4_0", .driver_id = RDMA_DRIVER_CXGB4, .abi_ver = 3, .node_type = 4,
	  .pci_vendor = 0x1425, .pci_device = 0x5401, .protocol = "iw", ETH, .vendor_id = 0x1425,
	  .vendor_part_id = 0x5401, .node_guid = 0x0007430000001234ull, LIMITS,
	  .qp_types = 1 << IB_UVERBS_QPT_RC },
	{ .provider = "qedr", .ibdev = "qedr0", .driver_id = RDMA_DRIVER_QEDR, .abi_ver = 8, .node_type = 1,
	  .pci_vendor = 0x1077, .pci_device = 0x1656, .protocol = "roce", ETH, .vendor_id = 0x1077,
	  .vendor_part_id = 0x1656, .node_guid = 0x4a4b4cfffe4d4e4full, LIMITS },
	{ .provider = "ocrdma", .ibdev = "ocrdma0", .driver_id = RDMA_DRIVER_OCRDMA, .abi_ver = 2, .node_type = 1,
	  .pci_vendor = 0x10df, .pci_device = 0x0720, .protocol = "roce", ETH, .vendor_id = 0x10df,
	  .vendor_part_id = 0x0720, .node_guid = 0x5a5b5cfffe5d5e5full, LIMITS },
	{ .provider = "vmw_pvrdma", .ibdev = "vmw_pvrdma0", .driver_id = RDMA_DRIVER_VMW_PVRDMA, .abi_ver = 3,
	  .node_type = 1, .pci_vendor = 0x15ad, .pci_device = 0x0820, .protocol = "roce", ETH,
	  .vendor_id = 0x15ad, .vendor_part_id = 0x0820, .node_guid = 0x6a6b6cfffe6d6e6full, LIMITS },
	{ .provider = "siw", .ibdev = "siw0", .driver_id = RDMA_DRIVER_SIW, .abi_ver = 1, .node_type = 4,
	  .protocol = "iw", ETH, .vendor_id = 0x626d74, .vendor_part_id = 0, .node_guid = 0x7a7b7c0000000001ull,
	  LIMITS, .qp_types = 1 << IB_UVERBS_QPT_RC },
	/* hfi1 (Omni-Path) at its driver's first uverbs ABI: hfi1verbs then maps no queue and posts,
	 * polls and receives through the kernel (its sends always go so) */
	{ .provider = "hfi1verbs", .ibdev = "hfi1_0", .driver_id = RDMA_DRIVER_HFI1, .abi_ver = 1,
	  .node_type = 1, .pci_vendor = 0x8086, .pci_device = 0x24f0, .protocol = "opa", IB,
	  .vendor_id = 0x1175, .vendor_part_id = 0x24f0, .node_guid = 0x0011750101a2b3c4ull, LIMITS,
	  .kpost = true },
	{ .provider = "rxe", .ibdev = "rxe0", .driver_id = RDMA_DRIVER_RXE, .abi_ver = 2, .node_type = 1,
	  .protocol = "roce", ETH, .vendor_id = 0xffffff, .vendor_part_id = 0,
	  .node_guid = 0x7221abfffe8af353ull, LIMITS, .mcast = true },
};

const struct emu_dev *emu_dev_find(const char *provider)
{
	for (size_t i = 0; i < sizeof(devices) / sizeof(devices[0]); i++)
		if (!strcmp(devices[i].provider, provider))
			return &devices[i];
	return NULL;
}

void emu_dev_gid(const struct emu_dev *d, unsigned index, uint8_t gid[16])
{
	memset(gid, 0, 16);
	if (index == 0 || d->link_layer == IB_LINK_LAYER_INFINIBAND) {
		gid[0] = index ? 0xfe : 0xfe;
		gid[1] = index ? 0xc0 : 0x80;
		for (int i = 0; i < 8; i++)
			gid[8 + i] = d->node_guid >> (56 - 8 * i);
		return;
	}
	/* RoCE v2: the IPv4 address 10.99.0.1 as an IPv4-mapped GID. */
	gid[10] = gid[11] = 0xff;
	gid[12] = 10;
	gid[13] = 99;
	gid[15] = 1;
}

/* ---- the tree ---- */

/* dir/rel's parent directories, made as needed. */
static int parents(const char *dir, char *path)
{
	for (char *slash = strchr(path + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = 0;
		if (mkdir(path, 0755) && errno != EEXIST)
			return -1;
		*slash = '/';
	}
	return 0;
}

static int put(const char *dir, const char *rel, const char *fmt, ...)
{
	char path[4096];
	va_list ap;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	if (parents(dir, path))
		return -1;
	f = fopen(path, "w");
	if (!f)
		return -1;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	return fclose(f);
}

static int link_to(const char *dir, const char *rel, const char *target)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	if (parents(dir, path))
		return -1;
	unlink(path);
	return symlink(target, path);
}

static void guid_text(uint64_t g, char *buf)
{
	sprintf(buf, "%04x:%04x:%04x:%04x", (unsigned)(g >> 48) & 0xffff, (unsigned)(g >> 32) & 0xffff,
		(unsigned)(g >> 16) & 0xffff, (unsigned)g & 0xffff);
}

static void gid_text(const uint8_t *g, char *buf)
{
	for (int i = 0; i < 16; i += 2)
		buf += sprintf(buf, "%s%02x%02x", i ? ":" : "", g[i], g[i + 1]);
}

int emu_dev_write_tree(const struct emu_dev *d, const char *dir, const char *uverbs)
{
	static const char *const node_types[] = { "0: <unknown>", "1: CA", "2: SWITCH", "3: ROUTER",
						   "4: RNIC", "5: usNIC", "6: usNIC UDP", "7: unspecified" };
	char parent[256], ib[512], uv[512], rel[1024], target[1024], guid[32], gid[48];
	bool eth = d->link_layer != IB_LINK_LAYER_INFINIBAND;
	int ok = 0;

	if (d->pci_vendor)
		snprintf(parent, sizeof(parent), "devices/pci0000:00/0000:00:05.0");
	else
		snprintf(parent, sizeof(parent), "devices/virtual");
	snprintf(ib, sizeof(ib), "sys/%s/infiniband/%s", parent, d->ibdev);
	snprintf(uv, sizeof(uv), "sys/%s/infiniband_verbs/%s", parent, uverbs);

	ok |= put(dir, "sys/class/infiniband_verbs/abi_version", "6\n");
	snprintf(rel, sizeof(rel), "%s/ibdev", uv);
	ok |= put(dir, rel, "%s\n", d->ibdev);
	snprintf(rel, sizeof(rel), "%s/abi_version", uv);
	ok |= put(dir, rel, "%u\n", d->abi_ver);
	snprintf(rel, sizeof(rel), "%s/dev", uv);
	ok |= put(dir, rel, "231:192\n");
	snprintf(rel, sizeof(rel), "sys/class/infiniband_verbs/%s", uverbs);
	snprintf(target, sizeof(target), "../../%s/infiniband_verbs/%s", parent, uverbs);
	ok |= link_to(dir, rel, target);

	guid_text(d->node_guid, guid);
	snprintf(rel, sizeof(rel), "%s/node_type", ib);
	ok |= put(dir, rel, "%s\n", node_types[d->node_type < 8 ? d->node_type : 0]);
	snprintf(rel, sizeof(rel), "%s/node_guid", ib);
	ok |= put(dir, rel, "%s\n", guid);
	snprintf(rel, sizeof(rel), "%s/sys_image_guid", ib);
	ok |= put(dir, rel, "%s\n", guid);
	snprintf(rel, sizeof(rel), "%s/fw_ver", ib);
	ok |= put(dir, rel, "%s\n", d->fw_ver);
	snprintf(rel, sizeof(rel), "%s/hw_rev", ib);
	ok |= put(dir, rel, "0x%x\n", d->hw_ver);
	snprintf(rel, sizeof(rel), "%s/hca_type", ib);
	ok |= put(dir, rel, "%s\n", d->provider);
	snprintf(rel, sizeof(rel), "%s/board_id", ib);
	ok |= put(dir, rel, "EMU0000000001\n");
	snprintf(rel, sizeof(rel), "%s/node_desc", ib);
	ok |= put(dir, rel, "uvemu %s\n", d->ibdev);
	snprintf(rel, sizeof(rel), "%s/ports/1/state", ib);
	ok |= put(dir, rel, "4: ACTIVE\n");
	snprintf(rel, sizeof(rel), "%s/ports/1/phys_state", ib);
	ok |= put(dir, rel, "5: LinkUp\n");
	snprintf(rel, sizeof(rel), "%s/ports/1/rate", ib);
	ok |= put(dir, rel, "100 Gb/sec (4X EDR)\n");
	snprintf(rel, sizeof(rel), "%s/ports/1/lid", ib);
	ok |= put(dir, rel, "0x%x\n", eth ? 0 : 1);
	snprintf(rel, sizeof(rel), "%s/ports/1/sm_lid", ib);
	ok |= put(dir, rel, "0x%x\n", eth ? 0 : 1);
	snprintf(rel, sizeof(rel), "%s/ports/1/lid_mask_count", ib);
	ok |= put(dir, rel, "0\n");
	snprintf(rel, sizeof(rel), "%s/ports/1/sm_sl", ib);
	ok |= put(dir, rel, "0\n");
	snprintf(rel, sizeof(rel), "%s/ports/1/cap_mask", ib);
	ok |= put(dir, rel, "0x%08x\n", eth ? 0x04010000 : 0x2651e848);
	snprintf(rel, sizeof(rel), "%s/ports/1/link_layer", ib);
	ok |= put(dir, rel, "%s\n", d->link_layer == IB_LINK_LAYER_INFINIBAND ? "InfiniBand"
				    : d->link_layer ? "Ethernet" : "Unknown");
	for (unsigned i = 0; i < EMU_NUM_GIDS; i++) {
		uint8_t g[16];

		emu_dev_gid(d, i, g);
		gid_text(g, gid);
		snprintf(rel, sizeof(rel), "%s/ports/1/gids/%u", ib, i);
		ok |= put(dir, rel, "%s\n", gid);
		snprintf(rel, sizeof(rel), "%s/ports/1/gid_attrs/types/%u", ib, i);
		ok |= put(dir, rel, "%s\n", !eth ? "IB/RoCE v1" : i ? "RoCE v2" : "IB/RoCE v1");
		if (eth) {
			snprintf(rel, sizeof(rel), "%s/ports/1/gid_attrs/ndevs/%u", ib, i);
			ok |= put(dir, rel, "lo\n");
		}
	}
	snprintf(rel, sizeof(rel), "%s/ports/1/pkeys/0", ib);
	ok |= put(dir, rel, "0xffff\n");
	snprintf(rel, sizeof(rel), "sys/class/infiniband/%s", d->ibdev);
	snprintf(target, sizeof(target), "../../%s/infiniband/%s", parent, d->ibdev);
	ok |= link_to(dir, rel, target);

	if (d->pci_vendor) {
		snprintf(rel, sizeof(rel), "sys/%s/vendor", parent);
		ok |= put(dir, rel, "0x%04x\n", d->pci_vendor);
		snprintf(rel, sizeof(rel), "sys/%s/device", parent);
		ok |= put(dir, rel, "0x%04x\n", d->pci_device);
		snprintf(rel, sizeof(rel), "sys/%s/subsystem_vendor", parent);
		ok |= put(dir, rel, "0x%04x\n", d->pci_vendor);
		snprintf(rel, sizeof(rel), "sys/%s/subsystem_device", parent);
		ok |= put(dir, rel, "0x0001\n");
		snprintf(rel, sizeof(rel), "sys/%s/modalias", parent);
		ok |= put(dir, rel, "pci:v%08Xd%08Xsv%08Xsd00000001bc02sc00i00\n", d->pci_vendor, d->pci_device,
			  d->pci_vendor);
		snprintf(rel, sizeof(rel), "%s/device", ib);
		ok |= link_to(dir, rel, "../../../0000:00:05.0");
		snprintf(rel, sizeof(rel), "%s/device", uv);
		ok |= link_to(dir, rel, "../../../0000:00:05.0");
	}
	return ok ? -1 : 0;
}
