/* uvemu: NETLINK_RDMA's nldev family as drivers/infiniband/core/nldev.c answers it, for the one
 * device served: the device dump (RDMA_NLDEV_CMD_GET), its uverbs char device
 * (RDMA_NLDEV_CMD_GET_CHARDEV, with the driver id both libraries match providers by) and the system
 * attributes (RDMA_NLDEV_CMD_SYS_GET: copy-on-fork, as every kernel since 5.13 reports it). Answers
 * are written into the socket pair's other end, so the caller's poll/recv see them as datagrams.
 * Requests are logged ("nl ...") but are not commands: they get no number and no fault.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>

#define DEV_INDEX 1

struct msg {
	uint8_t buf[4096];
	size_t len;
};

static void begin(struct msg *m, uint16_t type, uint16_t flags, const struct nlmsghdr *req)
{
	struct nlmsghdr h = { .nlmsg_len = NLMSG_HDRLEN, .nlmsg_type = type, .nlmsg_flags = flags,
			      .nlmsg_seq = req->nlmsg_seq, .nlmsg_pid = req->nlmsg_pid };

	memset(m, 0, sizeof(*m));
	memcpy(m->buf, &h, sizeof(h));
	m->len = NLMSG_HDRLEN;
}

static void attr(struct msg *m, uint16_t type, const void *data, size_t len)
{
	struct nlattr a = { .nla_len = NLA_HDRLEN + len, .nla_type = type };

	if (m->len + NLA_ALIGN(a.nla_len) > sizeof(m->buf))
		return;
	memcpy(m->buf + m->len, &a, sizeof(a));
	memcpy(m->buf + m->len + NLA_HDRLEN, data, len);
	m->len += NLA_ALIGN(a.nla_len);
	((struct nlmsghdr *)m->buf)->nlmsg_len = m->len;
}

static void attr_u8(struct msg *m, uint16_t t, uint8_t v) { attr(m, t, &v, 1); }
static void attr_u32(struct msg *m, uint16_t t, uint32_t v) { attr(m, t, &v, 4); }
static void attr_u64(struct msg *m, uint16_t t, uint64_t v) { attr(m, t, &v, 8); }
static void attr_str(struct msg *m, uint16_t t, const char *s) { attr(m, t, s, strlen(s) + 1); }

static void send_msg(struct emu_fd *f, struct msg *m)
{
	if (send(f->peer, m->buf, m->len, MSG_DONTWAIT) < 0)
		emu_log("nl: answer lost: %s\n", strerror(errno));
}

static void send_error(struct emu_fd *f, const struct nlmsghdr *req, int err)
{
	struct msg m;
	struct nlmsgerr e = { .error = -err, .msg = *req };

	begin(&m, NLMSG_ERROR, 0, req);
	memcpy(m.buf + m.len, &e, sizeof(e));
	m.len += NLMSG_ALIGN(sizeof(e));
	((struct nlmsghdr *)m.buf)->nlmsg_len = m.len;
	send_msg(f, &m);
}

/* The request's attribute of type t, or NULL. */
static const struct nlattr *find_attr(const struct nlmsghdr *h, uint16_t t)
{
	size_t off = NLMSG_HDRLEN;

	while (off + NLA_HDRLEN <= h->nlmsg_len) {
		const struct nlattr *a = (const void *)((const uint8_t *)h + off);

		if (a->nla_len < NLA_HDRLEN)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) == t)
			return a;
		off += NLA_ALIGN(a->nla_len);
	}
	return NULL;
}

static void device(struct msg *m, const struct emu_dev *d)
{
	attr_u32(m, RDMA_NLDEV_ATTR_DEV_INDEX, DEV_INDEX);
	attr_str(m, RDMA_NLDEV_ATTR_DEV_NAME, d->ibdev);
	attr_u32(m, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	attr_u64(m, RDMA_NLDEV_ATTR_CAP_FLAGS, d->device_cap_flags);
	attr_str(m, RDMA_NLDEV_ATTR_FW_VERSION, d->fw_ver);
	attr_u64(m, RDMA_NLDEV_ATTR_NODE_GUID, d->node_guid);
	attr_u64(m, RDMA_NLDEV_ATTR_SYS_IMAGE_GUID, d->node_guid);
	attr_u8(m, RDMA_NLDEV_ATTR_DEV_NODE_TYPE, d->node_type);
	attr_str(m, RDMA_NLDEV_ATTR_DEV_PROTOCOL, d->protocol);
}

void emu_nl_request(struct emu_fd *f, const void *buf, size_t len)
{
	const struct nlmsghdr *h = buf;
	const struct emu_dev *d = emu_device;
	struct msg m;
	uint16_t op;

	if (len < NLMSG_HDRLEN || h->nlmsg_len > len)
		return;
	if (h->nlmsg_type >> 10 != RDMA_NL_NLDEV) {
		emu_log("nl type=%#x\n", h->nlmsg_type);
		send_error(f, h, EINVAL);
		return;
	}
	op = h->nlmsg_type & ((1 << 10) - 1);
	emu_log("nl nldev op=%u flags=%#x\n", op, h->nlmsg_flags);
	switch (op) {
	case RDMA_NLDEV_CMD_GET:
		if (h->nlmsg_flags & NLM_F_DUMP) {
			if (d) {
				begin(&m, h->nlmsg_type, NLM_F_MULTI, h);
				device(&m, d);
				send_msg(f, &m);
			}
			begin(&m, NLMSG_DONE, NLM_F_MULTI, h);
			m.len = NLMSG_HDRLEN + 4; /* the int 0 begin() zeroed */
			((struct nlmsghdr *)m.buf)->nlmsg_len = m.len;
			send_msg(f, &m);
			return;
		}
		if (!d || !find_attr(h, RDMA_NLDEV_ATTR_DEV_INDEX)) {
			send_error(f, h, ENODEV);
			return;
		}
		begin(&m, h->nlmsg_type, 0, h);
		device(&m, d);
		send_msg(f, &m);
		break;
	case RDMA_NLDEV_CMD_GET_CHARDEV: {
		const struct nlattr *idx = find_attr(h, RDMA_NLDEV_ATTR_DEV_INDEX);
		const struct nlattr *type = find_attr(h, RDMA_NLDEV_ATTR_CHARDEV_TYPE);
		uint32_t index;

		if (!d || !type || strncmp((const char *)type + NLA_HDRLEN, "uverbs", 7)) {
			send_error(f, h, EINVAL);
			return;
		}
		if (idx) {
			memcpy(&index, (const char *)idx + NLA_HDRLEN, 4);
			if (index != DEV_INDEX) {
				send_error(f, h, ENODEV);
				return;
			}
		}
		begin(&m, h->nlmsg_type, 0, h);
		attr_str(&m, RDMA_NLDEV_ATTR_CHARDEV_NAME, emu_node_name());
		attr_u64(&m, RDMA_NLDEV_ATTR_CHARDEV_ABI, d->abi_ver);
		attr_u64(&m, RDMA_NLDEV_ATTR_CHARDEV, (192 & 0xff) | (231 << 8));
		attr_u32(&m, RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID, d->driver_id);
		send_msg(f, &m);
		break;
	}
	case RDMA_NLDEV_CMD_SYS_GET:
		begin(&m, h->nlmsg_type, 0, h);
		attr_u8(&m, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 1);
		attr_u8(&m, RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK, 1);
		send_msg(f, &m);
		break;
	default:
		send_error(f, h, EOPNOTSUPP);
		return;
	}
	if (h->nlmsg_flags & NLM_F_ACK)
		send_error(f, h, 0);
}
