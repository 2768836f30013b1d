/* CQs and completion channels on rxe0: create/resize/destroy with and without a channel, bad
 * sizes and vectors, the channel's use count and EBUSY, arming, non-blocking channel and async
 * fds (EAGAIN, nothing lost), ibv_create_cq_ex. Prints results, errno names and counts only. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>

static const char *en(int e)
{
	switch (e) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case ENOMEM: return "ENOMEM";
	case EBUSY: return "EBUSY";
	case EAGAIN: return "EAGAIN";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENOSYS: return "ENOSYS";
	case EFAULT: return "EFAULT";
	case EBADF: return "EBADF";
	case ENOENT: return "ENOENT";
	default: {
		static char b[32];
		snprintf(b, sizeof b, "errno%d", e);
		return b;
	}
	}
}

static struct ibv_context *open_rxe0(void)
{
	struct ibv_device **l = ibv_get_device_list(NULL);
	struct ibv_context *c = NULL;
	for (int i = 0; l && l[i]; i++)
		if (!strcmp(ibv_get_device_name(l[i]), "rxe0"))
			c = ibv_open_device(l[i]);
	if (l)
		ibv_free_device_list(l);
	if (!c) {
		printf("cannot open rxe0\n");
		exit(1);
	}
	return c;
}

static int tag;

/* Create a CQ and report; returns it (or NULL). */
static struct ibv_cq *try_cq(struct ibv_context *c, const char *what, int cqe,
			     struct ibv_comp_channel *ch, int vec)
{
	errno = 0;
	struct ibv_cq *cq = ibv_create_cq(c, cqe, &tag, ch, vec);
	if (!cq) {
		printf("create_cq %s: NULL %s\n", what, en(errno));
		return NULL;
	}
	printf("create_cq %s: ok cqe>=req %d context %d channel %d cq_context %d\n", what,
	       cq->cqe >= cqe, cq->context == c, cq->channel == ch, cq->cq_context == &tag);
	return cq;
}

static void destroy(struct ibv_cq *cq, const char *what)
{
	if (cq)
		printf("destroy_cq %s: %s\n", what, en(ibv_destroy_cq(cq)));
}

int main(void)
{
	struct ibv_context *c = open_rxe0();
	struct ibv_device_attr da;
	int r = ibv_query_device(c, &da);
	printf("query_device %s max_cqe %d num_comp_vectors %d\n", en(r), da.max_cqe,
	       c->num_comp_vectors);
	int max = da.max_cqe;

	/* Sizes and vectors, no channel. */
	destroy(try_cq(c, "cqe=1", 1, NULL, 0), "cqe=1");
	destroy(try_cq(c, "cqe=16", 16, NULL, 0), "cqe=16");
	destroy(try_cq(c, "cqe=max", max, NULL, 0), "cqe=max");
	destroy(try_cq(c, "cqe=max+1", max + 1, NULL, 0), "cqe=max+1");
	destroy(try_cq(c, "cqe=0", 0, NULL, 0), "cqe=0");
	destroy(try_cq(c, "cqe=-1", -1, NULL, 0), "cqe=-1");
	destroy(try_cq(c, "cqe=INT_MAX", INT_MAX, NULL, 0), "cqe=INT_MAX");
	destroy(try_cq(c, "vector=num", 4, NULL, c->num_comp_vectors), "vector=num");
	destroy(try_cq(c, "vector=-1", 4, NULL, -1), "vector=-1");

	/* A channel shared by two CQs. */
	errno = 0;
	struct ibv_comp_channel *ch = ibv_create_comp_channel(c);
	if (!ch) {
		printf("create_comp_channel: NULL %s\n", en(errno));
		return 1;
	}
	printf("create_comp_channel: ok fd>=0 %d context %d refcnt %d\n", ch->fd >= 0,
	       ch->context == c, ch->refcnt);
	struct ibv_cq *cq1 = try_cq(c, "chan#1", 8, ch, 0);
	printf("refcnt %d\n", ch->refcnt);
	struct ibv_cq *cq2 = try_cq(c, "chan#2", 8, ch, 0);
	printf("refcnt %d\n", ch->refcnt);
	r = ibv_destroy_comp_channel(ch);
	printf("destroy_comp_channel in use: %s refcnt %d\n", en(r), ch->refcnt);
	try_cq(c, "chan cqe=0", 0, ch, 0);
	printf("refcnt after failed create %d\n", ch->refcnt);
	if (!cq1 || !cq2)
		return 1;

	/* Resize. */
	/* Each call before the fields it changes are read (argument order is unspecified). */
	struct {
		const char *what;
		int cqe;
	} rs[] = { { "100", 100 }, { "0", 0 }, { "max+1", max + 1 }, { "-1", -1 },
		   { "max", max }, { "1", 1 } };
	for (unsigned i = 0; i < sizeof rs / sizeof rs[0]; i++) {
		int before = cq1->cqe;
		r = ibv_resize_cq(cq1, rs[i].cqe);
		printf("resize %s: %s cqe>=req %d unchanged %d\n", rs[i].what, en(r),
		       cq1->cqe >= rs[i].cqe, cq1->cqe == before);
	}

	/* Arm, then look for events on non-blocking fds: nothing there, nothing lost. */
	printf("req_notify 0: %s\n", en(ibv_req_notify_cq(cq1, 0)));
	printf("req_notify 1: %s\n", en(ibv_req_notify_cq(cq1, 1)));
	printf("req_notify cq2: %s\n", en(ibv_req_notify_cq(cq2, 0)));
	fcntl(ch->fd, F_SETFL, fcntl(ch->fd, F_GETFL) | O_NONBLOCK);
	for (int i = 0; i < 2; i++) {
		struct ibv_cq *ecq = NULL;
		void *ectx = NULL;
		errno = 0;
		r = ibv_get_cq_event(ch, &ecq, &ectx);
		printf("get_cq_event nonblocking: %d %s cq set %d\n", r, en(errno), ecq != NULL);
	}
	struct pollfd p = { .fd = ch->fd, .events = POLLIN };
	printf("poll channel: %d\n", poll(&p, 1, 0));
	struct ibv_wc wc[4];
	printf("poll_cq: %d\n", ibv_poll_cq(cq1, 4, wc));
	ibv_ack_cq_events(cq1, 0);
	printf("ack 0: done\n");
	fcntl(c->async_fd, F_SETFL, fcntl(c->async_fd, F_GETFL) | O_NONBLOCK);
	struct ibv_async_event ae;
	errno = 0;
	r = ibv_get_async_event(c, &ae);
	printf("get_async_event nonblocking: %d %s\n", r, en(errno));

	/* Tear down in the order the channel allows. */
	destroy(cq1, "chan#1");
	printf("refcnt %d\n", ch->refcnt);
	printf("destroy_comp_channel in use: %s\n", en(ibv_destroy_comp_channel(ch)));
	destroy(cq2, "chan#2");
	printf("refcnt %d\n", ch->refcnt);
	printf("destroy_comp_channel: %s\n", en(ibv_destroy_comp_channel(ch)));

	/* ibv_create_cq_ex (inline, through the library's create_cq_ex). */
	struct ibv_comp_channel *ch2 = ibv_create_comp_channel(c);
	struct {
		const char *what;
		uint64_t wc_flags;
		uint32_t comp_mask, flags;
		int cqe;
	} ex[] = {
		{ "ex standard", IBV_WC_STANDARD_FLAGS, 0, 0, 16 },
		{ "ex no flags", 0, 0, 0, 1 },
		{ "ex timestamp", IBV_WC_EX_WITH_COMPLETION_TIMESTAMP, 0, 0, 16 },
		{ "ex wallclock", IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK, 0, 0, 16 },
		{ "ex unknown wc flag", 1ULL << 40, 0, 0, 16 },
		{ "ex unknown mask bit", 0, 1 << 2, 0, 16 },
		{ "ex ignore overrun", 0, IBV_CQ_INIT_ATTR_MASK_FLAGS,
		  IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN, 16 },
		{ "ex cqe=0", 0, 0, 0, 0 },
		{ "ex cqe=max+1", 0, 0, 0, max + 1 },
	};
	for (unsigned i = 0; i < sizeof ex / sizeof ex[0]; i++) {
		struct ibv_cq_init_attr_ex a = {
			.cqe = ex[i].cqe, .cq_context = &tag, .channel = ch2,
			.wc_flags = ex[i].wc_flags, .comp_mask = ex[i].comp_mask,
			.flags = ex[i].flags,
		};
		errno = 0;
		struct ibv_cq_ex *cx = ibv_create_cq_ex(c, &a);
		if (!cx) {
			printf("%s: NULL %s refcnt %d\n", ex[i].what, en(errno), ch2->refcnt);
			continue;
		}
		struct ibv_cq *b = ibv_cq_ex_to_cq(cx);
		printf("%s: ok context %d channel %d cq_context %d refcnt %d\n", ex[i].what,
		       b->context == c, b->channel == ch2, b->cq_context == &tag, ch2->refcnt);
		struct ibv_modify_cq_attr m = { .attr_mask = IBV_CQ_ATTR_MODERATE,
						.moderate = { .cq_count = 4, .cq_period = 10 } };
		printf("  modify_cq: %s\n", en(ibv_modify_cq(b, &m)));
		printf("  req_notify: %s\n", en(ibv_req_notify_cq(b, 0)));
		r = ibv_destroy_cq(b);
		printf("  destroy: %s refcnt %d\n", en(r), ch2->refcnt);
	}
	printf("destroy_comp_channel: %s\n", en(ibv_destroy_comp_channel(ch2)));

	/* A channel of another context of the same device. */
	struct ibv_context *c2 = open_rxe0();
	struct ibv_comp_channel *och = ibv_create_comp_channel(c2);
	struct ibv_cq *x = try_cq(c, "other context's channel", 4, och, 0);
	printf("refcnt %d\n", och->refcnt);
	destroy(x, "other context's channel");
	printf("refcnt %d\n", och->refcnt);
	printf("destroy_comp_channel: %s\n", en(ibv_destroy_comp_channel(och)));
	printf("close c2: %d\n", ibv_close_device(c2));

	/* A CQ left open at close. */
	try_cq(c, "left open", 4, NULL, 0);
	printf("close: %d\n", ibv_close_device(c));
	return 0;
}
