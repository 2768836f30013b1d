//! rdma-core v65 `libibverbs/verbs.h`, in part:
//! work completions (`ibv_wc`) and the completion flag sets.

use core::ffi::c_uint;

use crate::abi::ctype::{Be32, CEnum};

/// Status of a work completion.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_wc_status {
    IBV_WC_SUCCESS = 0,
    IBV_WC_LOC_LEN_ERR = 1,
    IBV_WC_LOC_QP_OP_ERR = 2,
    IBV_WC_LOC_EEC_OP_ERR = 3,
    IBV_WC_LOC_PROT_ERR = 4,
    IBV_WC_WR_FLUSH_ERR = 5,
    IBV_WC_MW_BIND_ERR = 6,
    IBV_WC_BAD_RESP_ERR = 7,
    IBV_WC_LOC_ACCESS_ERR = 8,
    IBV_WC_REM_INV_REQ_ERR = 9,
    IBV_WC_REM_ACCESS_ERR = 10,
    IBV_WC_REM_OP_ERR = 11,
    IBV_WC_RETRY_EXC_ERR = 12,
    IBV_WC_RNR_RETRY_EXC_ERR = 13,
    IBV_WC_LOC_RDD_VIOL_ERR = 14,
    IBV_WC_REM_INV_RD_REQ_ERR = 15,
    IBV_WC_REM_ABORT_ERR = 16,
    IBV_WC_INV_EECN_ERR = 17,
    IBV_WC_INV_EEC_STATE_ERR = 18,
    IBV_WC_FATAL_ERR = 19,
    IBV_WC_RESP_TIMEOUT_ERR = 20,
    IBV_WC_GENERAL_ERR = 21,
    IBV_WC_TM_ERR = 22,
    IBV_WC_TM_RNDV_INCOMPLETE = 23,
}

/// Opcode of a work completion.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_wc_opcode {
    IBV_WC_SEND = 0,
    IBV_WC_RDMA_WRITE = 1,
    IBV_WC_RDMA_READ = 2,
    IBV_WC_COMP_SWAP = 3,
    IBV_WC_FETCH_ADD = 4,
    IBV_WC_BIND_MW = 5,
    IBV_WC_LOCAL_INV = 6,
    IBV_WC_TSO = 7,
    IBV_WC_FLUSH = 8,
    IBV_WC_ATOMIC_WRITE = 9,
    IBV_WC_RECV = 128,
    IBV_WC_RECV_RDMA_WITH_IMM = 129,
    IBV_WC_TM_ADD = 130,
    IBV_WC_TM_DEL = 131,
    IBV_WC_TM_SYNC = 132,
    IBV_WC_TM_RECV = 133,
    IBV_WC_TM_NO_TAG = 134,
    IBV_WC_DRIVER1 = 135,
    IBV_WC_DRIVER2 = 136,
    IBV_WC_DRIVER3 = 137,
}

// Bit position of `IBV_WC_IP_CSUM_OK` in `ibv_wc::wc_flags`.
pub const IBV_WC_IP_CSUM_OK_SHIFT: u32 = 2;

/// Completion fields an extended CQ is asked to report (`ibv_cq_init_attr_ex::wc_flags`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_create_cq_wc_flags {
    IBV_WC_EX_WITH_BYTE_LEN = 1 << 0,
    IBV_WC_EX_WITH_IMM = 1 << 1,
    IBV_WC_EX_WITH_QP_NUM = 1 << 2,
    IBV_WC_EX_WITH_SRC_QP = 1 << 3,
    IBV_WC_EX_WITH_SLID = 1 << 4,
    IBV_WC_EX_WITH_SL = 1 << 5,
    IBV_WC_EX_WITH_DLID_PATH_BITS = 1 << 6,
    IBV_WC_EX_WITH_COMPLETION_TIMESTAMP = 1 << 7,
    IBV_WC_EX_WITH_CVLAN = 1 << 8,
    IBV_WC_EX_WITH_FLOW_TAG = 1 << 9,
    IBV_WC_EX_WITH_TM_INFO = 1 << 10,
    IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK = 1 << 11,
}

// The completion fields every extended CQ can report.
pub const IBV_WC_STANDARD_FLAGS: u32 = 127;

// All completion-field bits this library knows.
pub const IBV_CREATE_CQ_SUP_WC_FLAGS: u32 = 4095;

/// Bits of `ibv_wc::wc_flags`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_wc_flags {
    IBV_WC_GRH = 1 << 0,
    IBV_WC_WITH_IMM = 1 << 1,
    IBV_WC_IP_CSUM_OK = 1 << 2,
    IBV_WC_WITH_INV = 1 << 3,
    IBV_WC_TM_SYNC_REQ = 1 << 4,
    IBV_WC_TM_MATCH = 1 << 5,
    IBV_WC_TM_DATA_VALID = 1 << 6,
}

/// A work completion as returned by `ibv_poll_cq`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_wc {
    pub wr_id: u64,
    pub status: CEnum<ibv_wc_status>,
    pub opcode: CEnum<ibv_wc_opcode>,
    pub vendor_err: u32,
    pub byte_len: u32,
    pub anon_1: ibv_wc_anon_1,
    pub qp_num: u32,
    pub src_qp: u32,
    pub wc_flags: c_uint,
    pub pkey_index: u16,
    pub slid: u16,
    pub sl: u8,
    pub dlid_path_bits: u8,
}

/// Immediate data or invalidated rkey of a completion.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_wc_anon_1 {
    pub imm_data: Be32,
    pub invalidated_rkey: u32,
}
