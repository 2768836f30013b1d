/* ibv_resolve_eth_l2_from_gid on rxe0 port 1 (tests/vm/checks.txt runs this under the system
 * libibverbs and under ours; the output must be identical).
 *
 * Each case prints the return value, errno (cleared before the call), the MAC and the VLAN id.
 * The outputs are pre-filled with ee bytes so an untouched buffer shows. Own GIDs: index 0 is the
 * link-local GID of dummy0, index 1 the IPv4-mapped 10.99.0.1; index 2 is an empty slot.
 *
 * dummy0 does no ARP (IFF_NOARP): there a neighbour entry takes the device's own MAC as soon as a
 * packet needs one. The second half turns ARP on, so that an address nobody answers stays
 * unresolved (the 3 s timeout), and adds static neighbours and routes; it undoes all of that at
 * the end, so each run starts from the same state. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>

static struct ibv_context *ctx;

/* A setup command; its output is not part of the comparison. */
static void sh(const char *cmd)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "(%s) >/dev/null 2>&1", cmd);
	if (system(buf) == -1)
		perror("system");
}

/* One call; its result line (the comparison's) into line. Returns the call's return value. */
static int attempt(char *line, size_t len, const char *name, uint8_t port, uint8_t sgid_index,
		   const union ibv_gid *dgid, int want_vid)
{
	struct ibv_ah_attr attr;
	uint8_t mac[6];
	uint16_t vid = 0xeeee;
	int ret, err;

	memset(&attr, 0, sizeof(attr));
	attr.is_global = 1;
	attr.port_num = port;
	attr.grh.sgid_index = sgid_index;
	attr.grh.dgid = *dgid;
	memset(mac, 0xee, sizeof(mac));

	errno = 0;
	ret = ibv_resolve_eth_l2_from_gid(ctx, &attr, mac, want_vid ? &vid : NULL);
	err = errno;
	snprintf(line, len,
		 "%-22s ret %d errno %d (%s) mac %02x:%02x:%02x:%02x:%02x:%02x vid 0x%04x\n", name,
		 ret, err, err ? strerrorname_np(err) : "0", mac[0], mac[1], mac[2], mac[3], mac[4],
		 mac[5], vid);
	return ret;
}

static void run(const char *name, uint8_t port, uint8_t sgid_index, const union ibv_gid *dgid,
		int want_vid)
{
	char line[160];

	attempt(line, sizeof(line), name, port, sgid_index, dgid, want_vid);
	fputs(line, stdout);
}

static union ibv_gid gid_of(const char *text)
{
	union ibv_gid g;

	if (inet_pton(AF_INET6, text, g.raw) != 1) {
		fprintf(stderr, "bad address %s\n", text);
		memset(&g, 0, sizeof(g));
	}
	return g;
}

int main(void)
{
	struct ibv_device **list;
	union ibv_gid own0, own1, g;
	int n, i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), "rxe0"))
			ctx = ibv_open_device(list[i]);
	if (!ctx) {
		printf("no rxe0\n");
		return 1;
	}
	if (ibv_query_gid(ctx, 1, 0, &own0) || ibv_query_gid(ctx, 1, 1, &own1)) {
		printf("ibv_query_gid failed\n");
		return 1;
	}

	run("own-gid0", 1, 0, &own0, 1);
	run("own-gid1", 1, 1, &own1, 1);
	run("own-gid1-from-gid0", 1, 0, &own1, 1);
	g = gid_of("fe80::211:22ff:fe33:4455");
	run("peer-link-local", 1, 0, &g, 1);
	run("peer-link-local-sgid1", 1, 1, &g, 1);
	run("peer-link-local-novid", 1, 0, &g, 0);
	g = gid_of("ff0e::ffff:e000:0101");
	run("mcast-ipv4-mapped", 1, 1, &g, 1);
	g = gid_of("ff02::1:ff33:4455");
	run("mcast-ipv6", 1, 0, &g, 1);
	g = gid_of("::ffff:10.99.0.77");
	run("ipv4-no-neighbour", 1, 1, &g, 1);
	run("ipv4-neighbour-again", 1, 1, &g, 1);
	run("ipv4-from-gid0", 1, 0, &g, 1);
	g = gid_of("::ffff:192.0.2.1");
	run("ipv4-no-route", 1, 1, &g, 1);
	g = gid_of("2001:db8::1");
	run("ipv6-no-route", 1, 0, &g, 1);
	run("empty-sgid", 1, 2, &own0, 1);
	run("bad-port", 2, 0, &own0, 1);

	sh("printf '%s\\n' 'link set dummy0 arp on' 'neigh flush dev dummy0 nud all'"
	   " 'neigh replace 10.99.0.78 lladdr 02:00:00:00:00:78 dev dummy0 nud permanent'"
	   " 'neigh replace 10.99.0.79 lladdr 02:00:00:00:00:79 dev dummy0 nud stale'"
	   " 'route replace 192.0.2.0/24 via 10.99.0.78 dev dummy0'"
	   " 'route replace blackhole 198.51.100.0/24'"
	   " 'route replace 2001:db8:1::/48 via fe80::211:22ff:fe33:4455 dev dummy0'"
	   " 'route replace blackhole 2001:db8:2::/48'"
	   " 'route replace unreachable 2001:db8:3::/48' | ip -force -batch -");
	g = gid_of("::ffff:10.99.0.78");
	run("arp-permanent", 1, 1, &g, 1);
	g = gid_of("::ffff:10.99.0.79");
	run("arp-stale", 1, 1, &g, 1);
	g = gid_of("::ffff:192.0.2.1");
	run("ipv4-via-gateway", 1, 1, &g, 1);
	g = gid_of("::ffff:198.51.100.1");
	run("ipv4-blackhole", 1, 1, &g, 1);
	g = gid_of("2001:db8:1::1");
	run("ipv6-via-link-local-gw", 1, 0, &g, 1);
	g = gid_of("2001:db8:2::1");
	run("ipv6-blackhole", 1, 0, &g, 1);
	g = gid_of("2001:db8:3::1");
	run("ipv6-unreachable", 1, 0, &g, 1);
	g = gid_of("::ffff:10.99.0.77");
	run("arp-timeout", 1, 1, &g, 1);
	run("arp-timeout-from-gid0", 1, 0, &g, 1);
	/* Answered while the call waits (or, under a slow emulator, before it looks): the same
	 * result either way, as long as it comes within the 3 s; once the call has the answer, the
	 * entry is in place and the clean-up below cannot race with it. A guest under load can take
	 * longer than the 3 s just to start the answering shell: then the call times out, and the
	 * case is tried again from no entry (at most 3 times, the last result printed, whatever the
	 * library: one that never takes a late answer still shows as a timeout). */
	g = gid_of("::ffff:10.99.0.80");
	for (i = 0; i < 3; i++) {
		char line[160];

		sh("ip neigh del 10.99.0.80 dev dummy0");
		sh("(sleep 0.2; ip neigh replace 10.99.0.80 lladdr 02:00:00:00:00:80 dev dummy0 nud reachable) &");
		if (!attempt(line, sizeof(line), "arp-late-answer", 1, 1, &g, 1) || i == 2) {
			fputs(line, stdout);
			break;
		}
	}
	sh("printf '%s\\n' 'route del 2001:db8:1::/48' 'route del 2001:db8:2::/48'"
	   " 'route del 2001:db8:3::/48' 'route del 192.0.2.0/24' 'route del 198.51.100.0/24'"
	   " 'neigh flush dev dummy0 nud all' 'link set dummy0 arp off' | ip -force -batch -");

	ibv_close_device(ctx);
	ibv_free_device_list(list);
	return 0;
}
