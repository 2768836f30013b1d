//! The IBVERBS_1.0 object layouts (rdma-core: the `struct ibv_*_1_0` types of compat-1_0.c).
//!
//! Binaries linked against libibverbs 1.0 see these structs, not verbs.h's: every object the old
//! symbols hand out is one of these wrappers around the real object (`real_*`, the last member),
//! and the old inline verbs call through [`ibv_context_ops_1_0`]. No installed header declares them
//! (rdma-core keeps them private to compat-1_0.c), so they sit beside `verbs`, not in it; the
//! offsets are pinned by the tests at the end of this file. Used by `verbs::compat_1_0` and the
//! declarations of [`capi::compat_1_0`](crate::capi::compat_1_0).
use core::ffi::{c_int, c_void};

use crate::abi::verbs::{
    _ibv_device_ops, ibv_ah, ibv_context, ibv_cq, ibv_device, ibv_mr, ibv_pd, ibv_qp, ibv_qp_cap,
    ibv_sge, ibv_srq, ibv_wc,
};

/// A listed device as a 1.0 binary sees it; only `real_device` is used.
#[repr(C)]
pub struct ibv_device_1_0 {
    pub obsolete_sysfs_dev: *mut c_void,
    pub obsolete_sysfs_ibdev: *mut c_void,
    pub real_device: *mut ibv_device,
    pub _ops: _ibv_device_ops,
}

/// An untyped slot of the 1.0 dispatch table that this library leaves NULL.
pub type OpSlot = Option<unsafe extern "C" fn()>;

/// The 1.0 per-context dispatch table: only the data-path slots are filled (the 1.0 headers
/// call nothing else through it).
#[repr(C)]
pub struct ibv_context_ops_1_0 {
    pub query_device: OpSlot,
    pub query_port: OpSlot,
    pub alloc_pd: OpSlot,
    pub dealloc_pd: OpSlot,
    pub reg_mr: OpSlot,
    pub dereg_mr: OpSlot,
    pub create_cq: OpSlot,
    pub poll_cq: Option<
        unsafe extern "C" fn(cq: *mut ibv_cq_1_0, num_entries: c_int, wc: *mut ibv_wc) -> c_int,
    >,
    pub req_notify_cq:
        Option<unsafe extern "C" fn(cq: *mut ibv_cq_1_0, solicited_only: c_int) -> c_int>,
    pub cq_event: OpSlot,
    pub resize_cq: OpSlot,
    pub destroy_cq: OpSlot,
    pub create_srq: OpSlot,
    pub modify_srq: OpSlot,
    pub query_srq: OpSlot,
    pub destroy_srq: OpSlot,
    pub post_srq_recv: Option<
        unsafe extern "C" fn(
            srq: *mut ibv_srq_1_0,
            recv_wr: *mut ibv_recv_wr_1_0,
            bad_recv_wr: *mut *mut ibv_recv_wr_1_0,
        ) -> c_int,
    >,
    pub create_qp: OpSlot,
    pub query_qp: OpSlot,
    pub modify_qp: OpSlot,
    pub destroy_qp: OpSlot,
    pub post_send: Option<
        unsafe extern "C" fn(
            qp: *mut ibv_qp_1_0,
            wr: *mut ibv_send_wr_1_0,
            bad_wr: *mut *mut ibv_send_wr_1_0,
        ) -> c_int,
    >,
    pub post_recv: Option<
        unsafe extern "C" fn(
            qp: *mut ibv_qp_1_0,
            wr: *mut ibv_recv_wr_1_0,
            bad_wr: *mut *mut ibv_recv_wr_1_0,
        ) -> c_int,
    >,
    pub create_ah: OpSlot,
    pub destroy_ah: OpSlot,
    pub attach_mcast: OpSlot,
    pub detach_mcast: OpSlot,
}

/// An open context as a 1.0 binary sees it.
#[repr(C)]
pub struct ibv_context_1_0 {
    pub device: *mut ibv_device_1_0,
    pub ops: ibv_context_ops_1_0,
    pub cmd_fd: c_int,
    pub async_fd: c_int,
    pub num_comp_vectors: c_int,
    pub real_context: *mut ibv_context,
}

/// A 1.0 protection domain.
#[repr(C)]
pub struct ibv_pd_1_0 {
    pub context: *mut ibv_context_1_0,
    pub handle: u32,
    pub real_pd: *mut ibv_pd,
}

/// A 1.0 memory region.
#[repr(C)]
pub struct ibv_mr_1_0 {
    pub context: *mut ibv_context_1_0,
    pub pd: *mut ibv_pd_1_0,
    pub handle: u32,
    pub lkey: u32,
    pub rkey: u32,
    pub real_mr: *mut ibv_mr,
}

/// A 1.0 shared receive queue.
#[repr(C)]
pub struct ibv_srq_1_0 {
    pub context: *mut ibv_context_1_0,
    pub srq_context: *mut c_void,
    pub pd: *mut ibv_pd_1_0,
    pub handle: u32,
    pub mutex: libc::pthread_mutex_t,
    pub cond: libc::pthread_cond_t,
    pub events_completed: u32,
    pub real_srq: *mut ibv_srq,
}

/// The 1.0 `ibv_create_qp`/`ibv_query_qp` attributes (1.0 CQ and SRQ wrappers).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_qp_init_attr_1_0 {
    pub qp_context: *mut c_void,
    pub send_cq: *mut ibv_cq_1_0,
    pub recv_cq: *mut ibv_cq_1_0,
    pub srq: *mut ibv_srq_1_0,
    pub cap: ibv_qp_cap,
    pub qp_type: u32,
    pub sq_sig_all: c_int,
}

/// The 1.0 send work request: `next` before `wr_id`, and nothing after `wr`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_send_wr_1_0 {
    pub next: *mut ibv_send_wr_1_0,
    pub wr_id: u64,
    pub sg_list: *mut ibv_sge,
    pub num_sge: c_int,
    pub opcode: u32,
    pub send_flags: c_int,
    /// Big-endian (network byte order).
    pub imm_data: u32,
    pub wr: ibv_send_wr_1_0_wr,
}

/// Opcode-specific part of a 1.0 send work request.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_send_wr_1_0_wr {
    pub rdma: ibv_send_wr_1_0_wr_rdma,
    pub atomic: ibv_send_wr_1_0_wr_atomic,
    pub ud: ibv_send_wr_1_0_wr_ud,
}

/// RDMA target of a 1.0 send work request.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_send_wr_1_0_wr_rdma {
    pub remote_addr: u64,
    pub rkey: u32,
}

/// Atomic target and operands of a 1.0 send work request.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_send_wr_1_0_wr_atomic {
    pub remote_addr: u64,
    pub compare_add: u64,
    pub swap: u64,
    pub rkey: u32,
}

/// UD destination of a 1.0 send work request (a 1.0 AH wrapper).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_send_wr_1_0_wr_ud {
    pub ah: *mut ibv_ah_1_0,
    pub remote_qpn: u32,
    pub remote_qkey: u32,
}

/// The 1.0 receive work request: `next` before `wr_id`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_recv_wr_1_0 {
    pub next: *mut ibv_recv_wr_1_0,
    pub wr_id: u64,
    pub sg_list: *mut ibv_sge,
    pub num_sge: c_int,
}

/// A 1.0 queue pair.
#[repr(C)]
pub struct ibv_qp_1_0 {
    pub context: *mut ibv_context_1_0,
    pub qp_context: *mut c_void,
    pub pd: *mut ibv_pd_1_0,
    pub send_cq: *mut ibv_cq_1_0,
    pub recv_cq: *mut ibv_cq_1_0,
    pub srq: *mut ibv_srq_1_0,
    pub handle: u32,
    pub qp_num: u32,
    pub state: u32,
    pub qp_type: u32,
    pub mutex: libc::pthread_mutex_t,
    pub cond: libc::pthread_cond_t,
    pub events_completed: u32,
    pub real_qp: *mut ibv_qp,
}

/// A 1.0 completion queue.
#[repr(C)]
pub struct ibv_cq_1_0 {
    pub context: *mut ibv_context_1_0,
    pub cq_context: *mut c_void,
    pub handle: u32,
    pub cqe: c_int,
    pub mutex: libc::pthread_mutex_t,
    pub cond: libc::pthread_cond_t,
    pub comp_events_completed: u32,
    pub async_events_completed: u32,
    pub real_cq: *mut ibv_cq,
}

/// A 1.0 address handle.
#[repr(C)]
pub struct ibv_ah_1_0 {
    pub context: *mut ibv_context_1_0,
    pub pd: *mut ibv_pd_1_0,
    pub handle: u32,
    pub real_ah: *mut ibv_ah,
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::{offset_of, size_of};

    // Offsets and sizes from a C probe (x86_64, glibc) compiled with the structs as compat-1_0.c
    // declares them.
    #[test]
    fn object_layouts() {
        assert_eq!(size_of::<ibv_device_1_0>(), 40);
        assert_eq!(offset_of!(ibv_device_1_0, real_device), 16);
        assert_eq!(offset_of!(ibv_device_1_0, _ops), 24);

        assert_eq!(size_of::<ibv_context_ops_1_0>(), 216);
        assert_eq!(offset_of!(ibv_context_ops_1_0, poll_cq), 7 * 8);
        assert_eq!(offset_of!(ibv_context_ops_1_0, req_notify_cq), 8 * 8);
        assert_eq!(offset_of!(ibv_context_ops_1_0, post_srq_recv), 16 * 8);
        assert_eq!(offset_of!(ibv_context_ops_1_0, post_send), 21 * 8);
        assert_eq!(offset_of!(ibv_context_ops_1_0, post_recv), 22 * 8);
        assert_eq!(offset_of!(ibv_context_ops_1_0, detach_mcast), 26 * 8);

        assert_eq!(size_of::<ibv_context_1_0>(), 248);
        assert_eq!(offset_of!(ibv_context_1_0, ops), 8);
        assert_eq!(offset_of!(ibv_context_1_0, cmd_fd), 224);
        assert_eq!(offset_of!(ibv_context_1_0, async_fd), 228);
        assert_eq!(offset_of!(ibv_context_1_0, num_comp_vectors), 232);
        assert_eq!(offset_of!(ibv_context_1_0, real_context), 240);

        assert_eq!(size_of::<ibv_pd_1_0>(), 24);
        assert_eq!(offset_of!(ibv_pd_1_0, handle), 8);
        assert_eq!(offset_of!(ibv_pd_1_0, real_pd), 16);

        assert_eq!(size_of::<ibv_mr_1_0>(), 40);
        assert_eq!(offset_of!(ibv_mr_1_0, pd), 8);
        assert_eq!(offset_of!(ibv_mr_1_0, handle), 16);
        assert_eq!(offset_of!(ibv_mr_1_0, lkey), 20);
        assert_eq!(offset_of!(ibv_mr_1_0, rkey), 24);
        assert_eq!(offset_of!(ibv_mr_1_0, real_mr), 32);

        // The offsets are rdma-core's on x86_64; after a pthread_mutex_t they move by the bytes the
        // target's mutex has beyond x86_64's 40 (aarch64: 48).
        let mx = size_of::<libc::pthread_mutex_t>() - 40;
        assert_eq!(size_of::<ibv_srq_1_0>(), 136 + mx);
        assert_eq!(offset_of!(ibv_srq_1_0, srq_context), 8);
        assert_eq!(offset_of!(ibv_srq_1_0, pd), 16);
        assert_eq!(offset_of!(ibv_srq_1_0, handle), 24);
        assert_eq!(offset_of!(ibv_srq_1_0, mutex), 32);
        assert_eq!(offset_of!(ibv_srq_1_0, cond), 72 + mx);
        assert_eq!(offset_of!(ibv_srq_1_0, events_completed), 120 + mx);
        assert_eq!(offset_of!(ibv_srq_1_0, real_srq), 128 + mx);

        assert_eq!(size_of::<ibv_qp_1_0>(), 168 + mx);
        assert_eq!(offset_of!(ibv_qp_1_0, qp_context), 8);
        assert_eq!(offset_of!(ibv_qp_1_0, pd), 16);
        assert_eq!(offset_of!(ibv_qp_1_0, send_cq), 24);
        assert_eq!(offset_of!(ibv_qp_1_0, recv_cq), 32);
        assert_eq!(offset_of!(ibv_qp_1_0, srq), 40);
        assert_eq!(offset_of!(ibv_qp_1_0, handle), 48);
        assert_eq!(offset_of!(ibv_qp_1_0, qp_num), 52);
        assert_eq!(offset_of!(ibv_qp_1_0, state), 56);
        assert_eq!(offset_of!(ibv_qp_1_0, qp_type), 60);
        assert_eq!(offset_of!(ibv_qp_1_0, mutex), 64);
        assert_eq!(offset_of!(ibv_qp_1_0, cond), 104 + mx);
        assert_eq!(offset_of!(ibv_qp_1_0, events_completed), 152 + mx);
        assert_eq!(offset_of!(ibv_qp_1_0, real_qp), 160 + mx);

        assert_eq!(size_of::<ibv_cq_1_0>(), 128 + mx);
        assert_eq!(offset_of!(ibv_cq_1_0, cq_context), 8);
        assert_eq!(offset_of!(ibv_cq_1_0, handle), 16);
        assert_eq!(offset_of!(ibv_cq_1_0, cqe), 20);
        assert_eq!(offset_of!(ibv_cq_1_0, mutex), 24);
        assert_eq!(offset_of!(ibv_cq_1_0, cond), 64 + mx);
        assert_eq!(offset_of!(ibv_cq_1_0, comp_events_completed), 112 + mx);
        assert_eq!(offset_of!(ibv_cq_1_0, async_events_completed), 116 + mx);
        assert_eq!(offset_of!(ibv_cq_1_0, real_cq), 120 + mx);

        assert_eq!(size_of::<ibv_ah_1_0>(), 32);
        assert_eq!(offset_of!(ibv_ah_1_0, pd), 8);
        assert_eq!(offset_of!(ibv_ah_1_0, handle), 16);
        assert_eq!(offset_of!(ibv_ah_1_0, real_ah), 24);
    }

    #[test]
    fn request_layouts() {
        assert_eq!(size_of::<ibv_qp_init_attr_1_0>(), 64);
        assert_eq!(offset_of!(ibv_qp_init_attr_1_0, send_cq), 8);
        assert_eq!(offset_of!(ibv_qp_init_attr_1_0, recv_cq), 16);
        assert_eq!(offset_of!(ibv_qp_init_attr_1_0, srq), 24);
        assert_eq!(offset_of!(ibv_qp_init_attr_1_0, cap), 32);
        assert_eq!(offset_of!(ibv_qp_init_attr_1_0, qp_type), 52);
        assert_eq!(offset_of!(ibv_qp_init_attr_1_0, sq_sig_all), 56);

        assert_eq!(size_of::<ibv_send_wr_1_0>(), 72);
        assert_eq!(offset_of!(ibv_send_wr_1_0, wr_id), 8);
        assert_eq!(offset_of!(ibv_send_wr_1_0, sg_list), 16);
        assert_eq!(offset_of!(ibv_send_wr_1_0, num_sge), 24);
        assert_eq!(offset_of!(ibv_send_wr_1_0, opcode), 28);
        assert_eq!(offset_of!(ibv_send_wr_1_0, send_flags), 32);
        assert_eq!(offset_of!(ibv_send_wr_1_0, imm_data), 36);
        assert_eq!(offset_of!(ibv_send_wr_1_0, wr), 40);
        assert_eq!(size_of::<ibv_send_wr_1_0_wr>(), 32);
        assert_eq!(offset_of!(ibv_send_wr_1_0_wr_rdma, rkey), 8);
        assert_eq!(offset_of!(ibv_send_wr_1_0_wr_atomic, compare_add), 8);
        assert_eq!(offset_of!(ibv_send_wr_1_0_wr_atomic, swap), 16);
        assert_eq!(offset_of!(ibv_send_wr_1_0_wr_atomic, rkey), 24);
        assert_eq!(offset_of!(ibv_send_wr_1_0_wr_ud, remote_qpn), 8);
        assert_eq!(offset_of!(ibv_send_wr_1_0_wr_ud, remote_qkey), 12);

        assert_eq!(size_of::<ibv_recv_wr_1_0>(), 32);
        assert_eq!(offset_of!(ibv_recv_wr_1_0, wr_id), 8);
        assert_eq!(offset_of!(ibv_recv_wr_1_0, sg_list), 16);
        assert_eq!(offset_of!(ibv_recv_wr_1_0, num_sge), 24);
    }
}
