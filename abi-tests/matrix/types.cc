// Typical C++ use of the verbs types (no inline verbs: their programs live beside this one). Built
// by abi-tests' matrix in every C++ cell with warnings as errors: enum-typed members take and give
// their enum (C++ does not convert an integer to an enum), switches over them are checked for
// missing enumerators, big-endian members are __be*, and flag constants of different kinds mix.
#include <infiniband/verbs.h>
#include <infiniband/sa.h>
#include <infiniband/opcode.h>
#include <infiniband/tm_types.h>

static const char *describe(const ibv_wc &wc)
{
	switch (wc.status) {
	case IBV_WC_SUCCESS:
		return "success";
	case IBV_WC_WR_FLUSH_ERR:
		return "flushed";
	default:
		return ibv_wc_status_str(wc.status);
	}
}

static bool ready(const ibv_qp &qp)
{
	switch (qp.state) {
	case IBV_QPS_RTS:
	case IBV_QPS_SQD:
		return true;
	default:
		return false;
	}
}

int main()
{
	ibv_wc wc = {};
	wc.status = IBV_WC_SUCCESS;
	wc.opcode = IBV_WC_RECV_RDMA_WITH_IMM;
	enum ibv_wc_status status = wc.status;
	enum ibv_wc_opcode opcode = wc.opcode;
	__be32 imm = wc.imm_data;

	ibv_qp qp = {};
	qp.state = IBV_QPS_RTS;
	qp.qp_type = IBV_QPT_RC;
	enum ibv_qp_type type = qp.qp_type;

	ibv_qp_attr attr = {};
	attr.qp_state = IBV_QPS_INIT;
	attr.cur_qp_state = IBV_QPS_RESET;
	attr.path_mtu = IBV_MTU_4096;
	attr.path_mig_state = IBV_MIG_MIGRATED;
	attr.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;

	ibv_qp_init_attr init = {};
	init.qp_type = IBV_QPT_UD;

	ibv_port_attr port = {};
	port.state = IBV_PORT_ACTIVE;
	enum ibv_mtu mtu = port.active_mtu;

	ibv_async_event event = {};
	event.event_type = IBV_EVENT_PORT_ACTIVE;
	const char *what = ibv_event_type_str(event.event_type);

	ibv_send_wr wr = {};
	wr.opcode = IBV_WR_SEND_WITH_IMM;
	wr.imm_data = imm;

	ibv_device_attr dev = {};
	__be64 guid = dev.node_guid;
	union ibv_gid gid = {};
	__be64 prefix = gid.global.subnet_prefix;

	ibv_flow_spec_eth eth = {};
	eth.type = IBV_FLOW_SPEC_ETH;

	enum ibv_rate rate = mult_to_ibv_rate(4);
	int mult = ibv_rate_to_mult(IBV_RATE_10_GBPS) + ibv_rate_to_mbps(rate);

	uint64_t caps = IBV_DEVICE_RAW_SCATTER_FCS | IBV_DEVICE_PCI_WRITE_END_PADDING | IBV_DEVICE_CC_DMA_BOUNCE;
	uint64_t hash = IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4 | IBV_RX_HASH_INNER;
	uint64_t wc_flags = IBV_WC_STANDARD_FLAGS | IBV_WC_EX_WITH_COMPLETION_TIMESTAMP;
	uint64_t all_wc_flags = IBV_CREATE_CQ_SUP_WC_FLAGS;
	int optional = IBV_ACCESS_RELAXED_ORDERING & IBV_ACCESS_OPTIONAL_RANGE;

	ibv_sa_path_rec path = {};
	path.pkey = 0xffff;
	ibv_tmh tmh = {};
	tmh.opcode = IBV_TMH_EAGER;
	int bth = IBV_OPCODE_RC_SEND_ONLY;

	(void)status, (void)opcode, (void)type, (void)mtu, (void)what, (void)guid, (void)prefix;
	(void)mult, (void)caps, (void)hash, (void)wc_flags, (void)all_wc_flags, (void)optional, (void)bth;
	(void)init, (void)attr, (void)wr, (void)eth, (void)path, (void)tmh;
	return describe(wc)[0] == 's' && ready(qp) ? 0 : 1;
}
