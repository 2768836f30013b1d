/* ibv_init_ah_from_wc and ibv_create_ah_from_wc on rxe0 port 1 with hand-made completions and
 * GRH buffers (tests/vm/checks.txt runs this under the system libibverbs and under ours; the
 * output must be identical): no GRH, RoCE v2 over IPv6 and IPv4 (with valid and broken IPv4
 * checksums), IB next header, unknown headers, multicast and unknown addresses, an empty GID slot.
 * Own GIDs: index 0 is dummy0's link-local address, index 1 ::ffff:10.99.0.1, index 2 empty. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <infiniband/verbs.h>

static struct ibv_context *ctx;
static union ibv_gid own0, own1;

static void show(const char *name, int ret, int err, const struct ibv_ah_attr *a)
{
	char g[INET6_ADDRSTRLEN];

	inet_ntop(AF_INET6, a->grh.dgid.raw, g, sizeof(g));
	printf("%-26s ret %d errno %s | dlid %#x sl %u bits %u port %u global %u flow %#x sgid %u hop %u"
	       " tclass %#x rate %u dgid %s\n",
	       name, ret, ret ? strerrorname_np(err) : "0", a->dlid, a->sl, a->src_path_bits,
	       a->port_num, a->is_global, a->grh.flow_label, a->grh.sgid_index, a->grh.hop_limit,
	       a->grh.traffic_class, a->static_rate, g);
}

static void run(const char *name, struct ibv_wc *wc, struct ibv_grh *grh)
{
	struct ibv_ah_attr a;
	int ret, err;

	memset(&a, 0xee, sizeof(a));
	errno = 0;
	ret = ibv_init_ah_from_wc(ctx, 1, wc, grh, &a);
	err = errno;
	show(name, ret, err, &a);
}

/* An IPv6 GRH: version 6, traffic class, flow label, next header, hop limit, addresses. */
static struct ibv_grh grh6(uint8_t tclass, uint32_t flow, uint8_t next, uint8_t hop,
			   const union ibv_gid *sgid, const union ibv_gid *dgid)
{
	struct ibv_grh g;

	memset(&g, 0, sizeof(g));
	g.version_tclass_flow = htonl(6u << 28 | (uint32_t)tclass << 20 | (flow & 0xfffff));
	g.next_hdr = next;
	g.hop_limit = hop;
	g.sgid = *sgid;
	g.dgid = *dgid;
	return g;
}

/* The IPv4 header checksum over 20 bytes. */
static uint16_t csum(const uint8_t *h)
{
	uint32_t s = 0;

	for (int i = 0; i < 20; i += 2)
		s += (uint32_t)h[i] << 8 | h[i + 1];
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return htons(~s & 0xffff);
}

/* A RoCE v2 IPv4 receive buffer: 20 bytes of `first`, then the IPv4 header. */
static struct ibv_grh grh4(uint32_t first, const char *src, const char *dst, uint8_t tos, uint8_t ttl,
			   int good_csum)
{
	struct ibv_grh g;
	uint8_t *h = (uint8_t *)&g + 20;
	uint16_t c;

	memset(&g, 0, sizeof(g));
	g.version_tclass_flow = htonl(first);
	h[0] = 0x45;
	h[1] = tos;
	h[3] = 60;
	h[8] = ttl;
	h[9] = 17;
	inet_pton(AF_INET, src, h + 12);
	inet_pton(AF_INET, dst, h + 16);
	c = csum(h);
	if (!good_csum)
		c ^= 0x0101;
	memcpy(h + 10, &c, 2);
	return g;
}

static union ibv_gid gid_of(const char *text)
{
	union ibv_gid g;

	memset(&g, 0, sizeof(g));
	inet_pton(AF_INET6, text, g.raw);
	return g;
}

int main(void)
{
	struct ibv_device **list;
	struct ibv_wc wc;
	struct ibv_grh g;
	union ibv_gid peer = gid_of("fe80::1:2"), zero = gid_of("::"), mc = gid_of("ff02::1");
	union ibv_gid other = gid_of("2001:db8::5");
	struct ibv_pd *pd;
	struct ibv_ah *ah;
	int n, i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), "rxe0"))
			ctx = ibv_open_device(list[i]);
	if (!ctx || ibv_query_gid(ctx, 1, 0, &own0) || ibv_query_gid(ctx, 1, 1, &own1)) {
		printf("no rxe0\n");
		return 1;
	}

	memset(&wc, 0, sizeof(wc));
	wc.slid = 0x1234;
	wc.sl = 3;
	wc.dlid_path_bits = 5;
	g = grh6(0x5a, 0xabcde, 17, 33, &peer, &own0);
	run("no grh flag", &wc, &g);

	wc.wc_flags = IBV_WC_GRH;
	run("v6 udp to gid0", &wc, &g);
	g = grh6(0x5a, 0xabcde, 17, 33, &peer, &own1);
	run("v6 udp to gid1", &wc, &g);
	g = grh6(0, 0, 0x1b, 1, &peer, &own0);
	run("v6 ib next hdr to gid0", &wc, &g);
	g = grh6(0, 0, 0x1b, 1, &peer, &zero);
	run("v6 ib next hdr to zero gid", &wc, &g);
	g = grh6(0, 0, 17, 1, &peer, &zero);
	run("v6 udp to zero gid", &wc, &g);
	g = grh6(0, 0, 6, 1, &peer, &own0);
	run("v6 tcp next hdr", &wc, &g);
	g = grh6(0, 0, 17, 1, &peer, &mc);
	run("v6 multicast dgid", &wc, &g);
	g = grh6(0, 0, 17, 1, &peer, &other);
	run("v6 unknown dgid", &wc, &g);

	g = grh4(0, "10.99.0.2", "10.99.0.1", 0x10, 7, 1);
	run("v4 to gid1", &wc, &g);
	g = grh4(0, "10.99.0.2", "10.99.0.1", 0x10, 7, 0);
	run("v4 bad csum (ignored)", &wc, &g);
	g = grh4(0x60000000, "10.99.0.2", "10.99.0.1", 0x10, 7, 1);
	run("v6 nibble, v4 csum ok", &wc, &g);
	g = grh4(0x60000000, "10.99.0.2", "10.99.0.1", 0x10, 7, 0);
	run("v6 nibble, v4 csum bad", &wc, &g);
	g = grh4(0, "10.99.0.2", "224.0.0.1", 0, 1, 1);
	run("v4 multicast daddr", &wc, &g);
	g = grh4(0, "10.99.0.2", "10.1.2.3", 0, 1, 1);
	run("v4 unknown daddr", &wc, &g);
	memset(&g, 0, sizeof(g));
	run("no ip version", &wc, &g);

	pd = ibv_alloc_pd(ctx);
	g = grh6(0x5a, 0xabcde, 17, 33, &own0, &own0);
	errno = 0;
	ah = ibv_create_ah_from_wc(pd, &wc, &g, 1);
	printf("create_ah_from_wc v6       %s errno %s\n", ah ? "ok" : "NULL", ah ? "0" : strerrorname_np(errno));
	if (ah) {
		printf("  ah context %d pd %d\n", ah->context == ctx, ah->pd == pd);
		printf("  destroy_ah %d\n", ibv_destroy_ah(ah));
	}
	g = grh6(0, 0, 6, 1, &peer, &own0);
	errno = 0;
	ah = ibv_create_ah_from_wc(pd, &wc, &g, 1);
	printf("create_ah_from_wc bad hdr  %s errno %s\n", ah ? "ok" : "NULL", ah ? "0" : strerrorname_np(errno));
	printf("dealloc_pd %d\n", ibv_dealloc_pd(pd));
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	return 0;
}
