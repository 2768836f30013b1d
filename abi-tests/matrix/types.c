/* Typical C use of the verbs types and constants (no inline verbs: their programs live beside this
 * one). Built by abi-tests' matrix in every C cell with -Wall -Wextra -Werror -Wpedantic. */
#include <infiniband/verbs.h>
#include <infiniband/sa.h>
#include <infiniband/opcode.h>
#include <infiniband/tm_types.h>

static const char *describe(const struct ibv_wc *wc)
{
	switch (wc->status) {
	case IBV_WC_SUCCESS:
		return "success";
	default:
		return ibv_wc_status_str(wc->status);
	}
}

int main(void)
{
	struct ibv_wc wc = { .wr_id = 1, .status = IBV_WC_SUCCESS, .opcode = IBV_WC_RECV };
	struct ibv_qp_init_attr init = { .qp_type = IBV_QPT_RC, .sq_sig_all = 1 };
	struct ibv_qp_attr attr = { .qp_state = IBV_QPS_RTR, .path_mtu = IBV_MTU_1024 };
	struct ibv_port_attr port;
	struct ibv_flow_spec_ipv4 ipv4 = { .type = IBV_FLOW_SPEC_IPV4, .size = sizeof(ipv4) };
	struct ibv_sa_path_rec path;
	struct ibv_tmh tmh = { .opcode = IBV_TMH_RNDV };
	uint64_t caps = IBV_DEVICE_RAW_SCATTER_FCS | IBV_DEVICE_CC_DMA_BOUNCE;
	uint64_t hash = IBV_RX_HASH_INNER | IBV_RX_HASH_SRC_PORT_TCP;
	uint64_t wc_flags = IBV_CREATE_CQ_SUP_WC_FLAGS;
	int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_ATOMIC | IBV_ACCESS_RELAXED_ORDERING;
	__be32 imm = wc.imm_data;

	memset(&port, 0, sizeof(port));
	memset(&path, 0, sizeof(path));
	port.state = IBV_PORT_ACTIVE;
	if (errno == ENOENT || port.active_mtu > IBV_MTU_4096)
		return 2;
	(void)init, (void)attr, (void)ipv4, (void)tmh, (void)caps, (void)hash, (void)wc_flags;
	(void)access, (void)imm, (void)IBV_OPCODE_UD_SEND_ONLY;
	return describe(&wc)[0] == 's' ? 0 : 1;
}
