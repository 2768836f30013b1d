/* VM check: the IBVERBS_1.0 device and context symbols against their IBVERBS_1.1 twins.
 * Lists devices through both versions (names, GUIDs, the wrapped device), opens each device
 * through both, and compares device/port/GID/P_Key queries; error paths of the queries too.
 * Prints no pointers: only results, errno names and "same"/"differs". NULL arguments are not
 * tried (rdma-core crashes on them). */
#include "compat_1_0.h"
#include <arpa/inet.h>

static int same(const void *a, const void *b, size_t n)
{
	return memcmp(a, b, n) == 0;
}

static void check_context(struct old_device *od, struct ibv_device *nd)
{
	const char *name = ibv_get_device_name(nd);

	errno = 0;
	struct old_context *oc = old_ibv_open_device(od);
	printf("%s: open@1.0 = %s errno=%s\n", name, oc ? "context" : "NULL", ename(oc ? 0 : errno));
	if (!oc)
		return;
	struct ibv_context *nc = ibv_open_device(nd);
	if (!nc) {
		printf("%s: open@1.1 failed errno=%s\n", name, ename(errno));
		old_ibv_close_device(oc);
		return;
	}
	printf("%s: context->device is the 1.0 device: %s\n", name, oc->device == od ? "yes" : "no");
	printf("%s: data-path slots set: poll_cq %d req_notify_cq %d post_send %d post_recv %d "
	       "post_srq_recv %d\n", name, !!oc->ops.poll_cq, !!oc->ops.req_notify_cq,
	       !!oc->ops.post_send, !!oc->ops.post_recv, !!oc->ops.post_srq_recv);
	printf("%s: real_context is another context of the device: %s\n", name,
	       oc->real_context && oc->real_context != nc &&
	       oc->real_context->device == nd ? "yes" : "no");

	struct ibv_device_attr oa, na;
	memset(&oa, 0xa5, sizeof(oa));
	memset(&na, 0x5a, sizeof(na));
	int r1 = old_ibv_query_device(oc, &oa), r2 = ibv_query_device(nc, &na);
	printf("%s: query_device@1.0 = %d, @1.1 = %d, attrs %s; phys_port_cnt %d max_qp>0 %d\n",
	       name, r1, r2, same(&oa, &na, sizeof(oa)) ? "same" : "differ", oa.phys_port_cnt,
	       oa.max_qp > 0);

	for (int port = 0; port <= oa.phys_port_cnt + 1; port++) {
		/* Room past the struct: the 1.0 symbol fills the library's own ibv_port_attr, whose
		 * size depends on the rdma-core release; the 1.0-era part (48 bytes) is compared. */
		union { struct ibv_port_attr a; char pad[256]; } op, np;
		memset(&op, 0, sizeof(op));
		memset(&np, 0, sizeof(np));
		errno = 0;
		r1 = old_ibv_query_port(oc, port, &op.a);
		int e1 = errno;
		r2 = ibv_query_port(nc, port, &np.a);
		printf("%s: port %d: query_port@1.0 = %d (%s) @1.1 = %d; head %s; state %d "
		       "link_layer %d gid_tbl_len>0 %d pkey_tbl_len %d\n",
		       name, port, r1, ename(r1 ? e1 : 0), r2,
		       same(&op, &np, offsetof(struct ibv_port_attr, port_cap_flags2)) ? "same" : "differs",
		       op.a.state, op.a.link_layer, op.a.gid_tbl_len > 0, op.a.pkey_tbl_len);
		if (r1)
			continue;
		for (int idx = 0; idx < 2; idx++) {
			union ibv_gid og, ng;
			memset(&og, 0, sizeof(og));
			memset(&ng, 0, sizeof(ng));
			errno = 0;
			r1 = old_ibv_query_gid(oc, port, idx, &og);
			e1 = errno;
			r2 = ibv_query_gid(nc, port, idx, &ng);
			printf("%s: port %d gid[%d]: @1.0 = %d (%s) @1.1 = %d, %s\n", name, port, idx, r1,
			       ename(r1 ? e1 : 0), r2, same(&og, &ng, sizeof(og)) ? "same" : "differs");
		}
		for (int idx = 0; idx < 2; idx++) {
			__be16 ok = 0x1234, nk = 0x4321;
			errno = 0;
			r1 = old_ibv_query_pkey(oc, port, idx, &ok);
			e1 = errno;
			r2 = ibv_query_pkey(nc, port, idx, &nk);
			printf("%s: port %d pkey[%d]: @1.0 = %d (%s) @1.1 = %d", name, port, idx, r1,
			       ename(r1 ? e1 : 0), r2);
			if (!r1)
				printf(", %s, 0x%04x", ok == nk ? "same" : "differs", ntohs(ok));
			printf("\n");
		}
		union ibv_gid g;
		errno = 0;
		r1 = old_ibv_query_gid(oc, port, 100000, &g);
		printf("%s: port %d gid[100000]: @1.0 = %d (%s)\n", name, port, r1,
		       ename(r1 ? errno : 0));
		__be16 k;
		errno = 0;
		r1 = old_ibv_query_pkey(oc, port, 100000, &k);
		printf("%s: port %d pkey[100000]: @1.0 = %d (%s)\n", name, port, r1,
		       ename(r1 ? errno : 0));
	}
	ibv_close_device(nc);
	errno = 0;
	int r = old_ibv_close_device(oc);
	printf("%s: close@1.0 = %d errno=%s\n", name, r, ename(r ? errno : 0));
}

int main(void)
{
	int on = -7, nn = -7;
	errno = 0;
	struct old_device **ol = old_ibv_get_device_list(&on);
	if (!ol) {
		printf("get_device_list@1.0 = NULL errno=%s num=%d\n", ename(errno), on);
		return 1;
	}
	struct ibv_device **nl = ibv_get_device_list(&nn);
	if (!nl) {
		printf("get_device_list@1.1 = NULL errno=%s\n", ename(errno));
		return 1;
	}
	int n = 0;
	while (ol[n])
		n++;
	printf("get_device_list@1.0: num=%d entries=%d; @1.1 num=%d\n", on, n, nn);
	for (int i = 0; i < n && i < nn; i++) {
		const char *oname = old_ibv_get_device_name(ol[i]);
		const char *nname = ibv_get_device_name(nl[i]);
		__be64 og = old_ibv_get_device_guid(ol[i]), ng = ibv_get_device_guid(nl[i]);
		printf("[%d] name@1.0 %s (@1.1 %s), guid %s, wraps the 1.1 device: %s\n", i,
		       oname ? oname : "(null)", strcmp(oname, nname) ? "differs" : "same",
		       og == ng && og ? "same" : "differs", ol[i]->real_device == nl[i] ? "yes" : "no");
	}
	for (int i = 0; i < n && i < nn; i++)
		check_context(ol[i], nl[i]);
	ibv_free_device_list(nl);
	old_ibv_free_device_list(ol);

	/* A second list without a count, freed at once. */
	errno = 0;
	ol = old_ibv_get_device_list(NULL);
	n = 0;
	while (ol && ol[n])
		n++;
	printf("get_device_list@1.0(NULL): %s entries=%d\n", ol ? "list" : "NULL", n);
	if (ol)
		old_ibv_free_device_list(ol);
	return 0;
}
