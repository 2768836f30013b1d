/* Fork and RDMA (issue: fork safety): the parent registers a buffer, forks; the child writes its
 * copy of the buffer and exits; the parent then writes new data into its own buffer and RDMA-reads
 * the registered buffer over a loopback RC QP pair on rxe0. The read must return the parent's
 * data (not the child's, not the stale pre-fork bytes). Run plain and with "init" (ibv_fork_init
 * first). Prints what it saw; the output must be identical under both libraries.
 * The 6.1 kernel copies pinned pages on fork (netlink's COPY_ON_FORK): then rdma-core v51+ and ours
 * leave fork protection off, while rdma-core 44 turns it on anyway. So "init" runs with
 * FORK_RDMA_HIDE_COF=1, which fails this program's NETLINK_RDMA sockets (both libraries then
 * enumerate through sysfs and cannot see COPY_ON_FORK): both protect the registered ranges with
 * MADV_DONTFORK, and the child, which has no mapping there, faults on its write. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/netlink.h>
#include <infiniband/verbs.h>

int socket(int domain, int type, int protocol)
{
	const char *e = getenv("FORK_RDMA_HIDE_COF");
	if (e && *e == '1' && domain == AF_NETLINK && protocol == NETLINK_RDMA) {
		errno = EPROTONOSUPPORT;
		return -1;
	}
	return syscall(SYS_socket, domain, type, protocol);
}

#define SZ 8192

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void connect_qp(struct ibv_qp *qp, uint32_t dest, union ibv_gid *gid)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE };
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		die("modify INIT");
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = dest;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = *gid;
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.port_num = 1;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			  IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		die("modify RTR");
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			  IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC))
		die("modify RTS");
}

int main(int argc, char **argv)
{
	int init = argc > 1 && !strcmp(argv[1], "init");
	static const char *fs[] = { "DISABLED", "ENABLED", "UNNEEDED" };
	if (init)
		printf("ibv_fork_init: %d\n", ibv_fork_init());
	enum ibv_fork_status fst = ibv_is_fork_initialized();
	printf("fork protection: %s\n", fst <= IBV_FORK_UNNEEDED ? fs[fst] : "?");
	struct ibv_device **l = ibv_get_device_list(NULL);
	if (!l || !l[0])
		die("no device");
	struct ibv_context *ctx = ibv_open_device(l[0]);
	if (!ctx)
		die("open");
	union ibv_gid gid;
	if (ibv_query_gid(ctx, 1, 0, &gid))
		die("query_gid");
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	struct ibv_cq *cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	char *src, *dst;
	if (!pd || !cq || posix_memalign((void **)&src, 4096, SZ) || posix_memalign((void **)&dst, 4096, SZ))
		die("setup");
	memset(src, 'P', SZ);
	memset(dst, 0, SZ);
	int acc = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;
	struct ibv_mr *smr = ibv_reg_mr(pd, src, SZ, acc), *dmr = ibv_reg_mr(pd, dst, SZ, acc);
	if (!smr || !dmr)
		die("reg_mr");
	struct ibv_qp_init_attr ia = { .send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1, .max_recv_sge = 1 } };
	struct ibv_qp *a = ibv_create_qp(pd, &ia), *b = ibv_create_qp(pd, &ia);
	if (!a || !b)
		die("create_qp");
	connect_qp(a, b->qp_num, &gid);
	connect_qp(b, a->qp_num, &gid);

	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		memset(src, 'C', SZ); /* the child's copy */
		_exit(src[0] == 'C' && src[SZ - 1] == 'C' ? 0 : 3);
	}
	int st;
	waitpid(pid, &st, 0);
	if (WIFEXITED(st))
		printf("child: exit %d\n", WEXITSTATUS(st));
	else
		printf("child: killed by %s\n", WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV ? "SIGSEGV" : "a signal");
	memset(src, 'Q', SZ); /* the parent's new data, after the fork */

	struct ibv_sge sge = { .addr = (uintptr_t)dst, .length = SZ, .lkey = dmr->lkey };
	struct ibv_send_wr wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_READ,
		.send_flags = IBV_SEND_SIGNALED, .wr.rdma = { .remote_addr = (uintptr_t)src, .rkey = smr->rkey } };
	struct ibv_send_wr *bad;
	if (ibv_post_send(a, &wr, &bad))
		die("post_send");
	struct ibv_wc wc;
	int n, spins = 0;
	while ((n = ibv_poll_cq(cq, 1, &wc)) == 0 && spins++ < 50000000)
		;
	printf("poll: %d status %s\n", n, n == 1 ? ibv_wc_status_str(wc.status) : "-");
	int q = 0, p = 0, c = 0;
	for (int i = 0; i < SZ; i++)
		q += dst[i] == 'Q', p += dst[i] == 'P', c += dst[i] == 'C';
	printf("RDMA read of the registered buffer: %d bytes of the parent's new data, %d stale, %d the child's\n",
	       q, p, c);
	printf("dealloc_pd with live MRs/QPs: %d\n", ibv_dealloc_pd(pd));
	ibv_destroy_qp(a);
	ibv_destroy_qp(b);
	ibv_dereg_mr(smr);
	ibv_dereg_mr(dmr);
	ibv_destroy_cq(cq);
	printf("dealloc_pd: %d\n", ibv_dealloc_pd(pd));
	ibv_close_device(ctx);
	ibv_free_device_list(l);
	return 0;
}
