/* Device removal under an open context: `rdma link delete rxe0` (root in the guest, run in the
 * background) while a context with a CQ on a completion channel is open. Prints the async events
 * seen within 5 s, whether the delete is still pending, then the destroys' results, and restores
 * rxe0 (`rdma link add rxe0 type rxe netdev dummy0`, then waits up to 30 s for its port to be
 * ACTIVE) so later checks still find it. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>

static struct ibv_context *open_rxe0(void)
{
	struct ibv_device **l = ibv_get_device_list(NULL);
	struct ibv_context *c = NULL;
	for (int i = 0; l && l[i]; i++)
		if (!strcmp(ibv_get_device_name(l[i]), "rxe0"))
			c = ibv_open_device(l[i]);
	if (l)
		ibv_free_device_list(l);
	return c;
}

static int restore(void)
{
	int r = system("rdma link add rxe0 type rxe netdev dummy0");
	for (int i = 0; i < 300; i++) {
		struct ibv_context *c = open_rxe0();
		if (c) {
			struct ibv_port_attr pa;
			int ok = !ibv_query_port(c, 1, &pa) && pa.state == IBV_PORT_ACTIVE;
			ibv_close_device(c);
			if (ok) {
				printf("restored: rdma link add %d, port ACTIVE\n", r);
				return 0;
			}
		}
		usleep(100000);
	}
	printf("restore failed: rdma link add %d\n", r);
	return 1;
}

int main(void)
{
	struct ibv_context *c = open_rxe0();
	if (!c) {
		printf("cannot open rxe0\n");
		return restore() + 1;
	}
	struct ibv_comp_channel *ch = ibv_create_comp_channel(c);
	struct ibv_cq *cq = ibv_create_cq(c, 16, NULL, ch, 0);
	printf("cq %s, req_notify %d\n", cq ? "ok" : "NULL", cq ? ibv_req_notify_cq(cq, 0) : -1);
	fflush(stdout);
	pid_t pid = fork();
	if (!pid) {
		execlp("rdma", "rdma", "link", "delete", "rxe0", (char *)NULL);
		_exit(127);
	}
	struct pollfd p = { .fd = c->async_fd, .events = POLLIN };
	int n = 0;
	while (poll(&p, 1, 5000) > 0) {
		struct ibv_async_event ev;
		if (ibv_get_async_event(c, &ev)) {
			printf("get_async_event: -1 %s\n", strerror(errno));
			break;
		}
		printf("event %d%s port %d\n", ev.event_type,
		       ev.event_type == IBV_EVENT_DEVICE_FATAL ? " (IBV_EVENT_DEVICE_FATAL)" : "",
		       ev.element.port_num);
		ibv_ack_async_event(&ev);
		n++;
	}
	if (!n)
		printf("no async event within 5 s\n");
	int st;
	printf("delete still pending: %d\n", waitpid(pid, &st, WNOHANG) == 0);
	errno = 0;
	struct ibv_cq *cq2 = ibv_create_cq(c, 16, NULL, NULL, 0);
	printf("create_cq during removal: %s %s\n", cq2 ? "ok" : "NULL", cq2 ? "" : strerror(errno));
	if (cq2)
		printf("destroy_cq 2: %d\n", ibv_destroy_cq(cq2));
	if (cq)
		printf("destroy_cq: %d\n", ibv_destroy_cq(cq));
	printf("destroy_comp_channel: %d\n", ibv_destroy_comp_channel(ch));
	printf("close: %d\n", ibv_close_device(c));
	waitpid(pid, &st, 0);
	printf("rdma link delete: exit %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	struct ibv_context *gone = open_rxe0();
	printf("rxe0 listed after delete: %d\n", gone != NULL);
	if (gone)
		ibv_close_device(gone);
	return restore();
}
