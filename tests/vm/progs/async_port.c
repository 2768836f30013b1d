/* Asynchronous port events on rxe0: `ip link set dummy0 down` then `up` (root in the guest)
 * should give IBV_EVENT_PORT_ERR then IBV_EVENT_PORT_ACTIVE for port 1. A CQ with a channel is
 * open meanwhile (its destroy must not wait for port events). Each step waits up to 30 s for its
 * event, then drains what else arrives within 1 s; a non-blocking read afterwards gives EAGAIN. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>

static const char *ev_name(int t)
{
	switch (t) {
	case IBV_EVENT_PORT_ACTIVE: return "IBV_EVENT_PORT_ACTIVE";
	case IBV_EVENT_PORT_ERR: return "IBV_EVENT_PORT_ERR";
	case IBV_EVENT_GID_CHANGE: return "IBV_EVENT_GID_CHANGE";
	case IBV_EVENT_DEVICE_FATAL: return "IBV_EVENT_DEVICE_FATAL";
	case IBV_EVENT_LID_CHANGE: return "IBV_EVENT_LID_CHANGE";
	case IBV_EVENT_PKEY_CHANGE: return "IBV_EVENT_PKEY_CHANGE";
	default: return "other";
	}
}

/* Wait up to first_ms for one event, then take what arrives within 1 s of the last. */
static void events(struct ibv_context *c, int first_ms)
{
	struct pollfd p = { .fd = c->async_fd, .events = POLLIN };
	int n = 0, ms = first_ms;
	while (poll(&p, 1, ms) > 0) {
		struct ibv_async_event ev;
		if (ibv_get_async_event(c, &ev)) {
			printf("  get_async_event: -1 %s\n", strerror(errno));
			return;
		}
		printf("  event %s (%d) port %d\n", ev_name(ev.event_type), ev.event_type,
		       ev.element.port_num);
		ibv_ack_async_event(&ev);
		n++;
		ms = 1000;
	}
	if (!n)
		printf("  no event within %d ms\n", first_ms);
}

static void port_state(struct ibv_context *c)
{
	struct ibv_port_attr pa;
	int r = ibv_query_port(c, 1, &pa);
	printf("  query_port: %d state %s\n", r, ibv_port_state_str(pa.state));
}

int main(void)
{
	struct ibv_device **l = ibv_get_device_list(NULL);
	struct ibv_context *c = NULL;
	for (int i = 0; l && l[i]; i++)
		if (!strcmp(ibv_get_device_name(l[i]), "rxe0"))
			c = ibv_open_device(l[i]);
	if (!c) {
		printf("cannot open rxe0\n");
		return 1;
	}
	struct ibv_comp_channel *ch = ibv_create_comp_channel(c);
	struct ibv_cq *cq = ibv_create_cq(c, 16, NULL, ch, 0);
	printf("cq %s\n", cq ? "ok" : "NULL");
	port_state(c);
	printf("ip link set dummy0 down: %d\n", system("ip link set dummy0 down"));
	events(c, 30000);
	port_state(c);
	printf("ip link set dummy0 up: %d\n", system("ip link set dummy0 up"));
	events(c, 30000);
	port_state(c);
	fcntl(c->async_fd, F_SETFL, fcntl(c->async_fd, F_GETFL) | O_NONBLOCK);
	struct ibv_async_event ev;
	errno = 0;
	int r = ibv_get_async_event(c, &ev);
	printf("get_async_event nonblocking: %d %s\n", r, r ? strerror(errno) : "");
	if (cq)
		printf("destroy_cq: %d\n", ibv_destroy_cq(cq));
	printf("destroy_comp_channel: %d\n", ibv_destroy_comp_channel(ch));
	printf("close: %d\n", ibv_close_device(c));
	ibv_free_device_list(l);
	return 0;
}
