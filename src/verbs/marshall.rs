//! Kernel-to-verbs struct copies of infiniband/marshall.h (rdma-core: marshall.c).
//!
//! Field-by-field copies between the kernel's layouts and the verbs ones, converting widths as C
//! assignment does; fields the other side lacks (reserved bytes, `ibv_qp_attr::qp_state` and
//! `rate_limit`) are left as they were. Called by [`capi::marshall`](crate::capi::marshall).
use core::ffi::{c_int, c_void};

use crate::abi::uapi::{ib_uverbs_ah_attr, ib_uverbs_qp_attr};
use crate::abi::verbs::{ibv_ah_attr, ibv_gid, ibv_qp_attr};
use crate::verbs::handle::Ptr;

/// `struct ibv_sa_path_rec` (infiniband/sa.h): an SA path record in verbs form (64 bytes).
/// Only the marshall helpers use it, through `void *`, so it is not part of the generated headers.
#[repr(C)]
#[derive(Clone, Copy)]
struct ibv_sa_path_rec {
    dgid: ibv_gid,
    sgid: ibv_gid,
    dlid: u16,
    slid: u16,
    raw_traffic: c_int,
    flow_label: u32,
    hop_limit: u8,
    traffic_class: u8,
    reversible: c_int,
    numb_path: u8,
    pkey: u16,
    sl: u8,
    mtu_selector: u8,
    mtu: u8,
    rate_selector: u8,
    rate: u8,
    packet_life_time_selector: u8,
    packet_life_time: u8,
    preference: u8,
}

/// `struct ib_user_path_rec` (rdma/ib_user_sa.h): the kernel's SA path record (64 bytes).
#[repr(C)]
#[derive(Clone, Copy)]
struct ib_user_path_rec {
    dgid: [u8; 16],
    sgid: [u8; 16],
    dlid: u16,
    slid: u16,
    raw_traffic: u32,
    flow_label: u32,
    reversible: u32,
    mtu: u32,
    pkey: u16,
    hop_limit: u8,
    traffic_class: u8,
    numb_path: u8,
    sl: u8,
    mtu_selector: u8,
    rate_selector: u8,
    rate: u8,
    packet_life_time_selector: u8,
    packet_life_time: u8,
    preference: u8,
}

const _: () = assert!(size_of::<ibv_sa_path_rec>() == 64 && size_of::<ib_user_path_rec>() == 64);
const _: () = assert!(
    core::mem::offset_of!(ibv_sa_path_rec, reversible) == 48
        && core::mem::offset_of!(ibv_sa_path_rec, pkey) == 54
        && core::mem::offset_of!(ibv_sa_path_rec, preference) == 63
        && core::mem::offset_of!(ib_user_path_rec, pkey) == 52
        && core::mem::offset_of!(ib_user_path_rec, preference) == 63
);

/// The address vector fields of `s` into `d` (reserved bytes dropped).
fn copy_ah(d: &mut ibv_ah_attr, s: &ib_uverbs_ah_attr) {
    d.grh.dgid.raw = s.grh.dgid;
    d.grh.flow_label = s.grh.flow_label;
    d.grh.sgid_index = s.grh.sgid_index;
    d.grh.hop_limit = s.grh.hop_limit;
    d.grh.traffic_class = s.grh.traffic_class;
    d.dlid = s.dlid;
    d.sl = s.sl;
    d.src_path_bits = s.src_path_bits;
    d.static_rate = s.static_rate;
    d.is_global = s.is_global;
    d.port_num = s.port_num;
}

/// `ibv_copy_ah_attr_from_kern`: the kernel's address vector into the verbs one (every field but
/// the reserved bytes).
pub(crate) fn copy_ah_attr_from_kern(dst: Ptr<ibv_ah_attr>, src: Ptr<ib_uverbs_ah_attr>) {
    let s = src.read();
    // SAFETY: the caller's struct (`Ptr`: valid for writes for the call).
    copy_ah(unsafe { &mut *dst.as_ptr() }, &s);
}

/// `ibv_copy_qp_attr_from_kern`: the kernel's QP attributes into the verbs ones: everything
/// the two share except `qp_state` (as rdma-core: only `cur_qp_state` is copied); `cap` from the
/// five `max_*` fields, both address vectors as
/// [`ibv_copy_ah_attr_from_kern`](copy_ah_attr_from_kern). `rate_limit` is left
/// alone.
pub(crate) fn copy_qp_attr_from_kern(dst: Ptr<ibv_qp_attr>, src: Ptr<ib_uverbs_qp_attr>) {
    let s = src.read();
    // SAFETY: the caller's struct (`Ptr`: valid for writes for the call).
    let d = unsafe { &mut *dst.as_ptr() };
    d.cur_qp_state = s.cur_qp_state.into();
    d.path_mtu = s.path_mtu.into();
    d.path_mig_state = s.path_mig_state.into();
    d.qkey = s.qkey;
    d.rq_psn = s.rq_psn;
    d.sq_psn = s.sq_psn;
    d.dest_qp_num = s.dest_qp_num;
    d.qp_access_flags = s.qp_access_flags;
    d.cap.max_send_wr = s.max_send_wr;
    d.cap.max_recv_wr = s.max_recv_wr;
    d.cap.max_send_sge = s.max_send_sge;
    d.cap.max_recv_sge = s.max_recv_sge;
    d.cap.max_inline_data = s.max_inline_data;
    copy_ah(&mut d.ah_attr, &s.ah_attr);
    copy_ah(&mut d.alt_ah_attr, &s.alt_ah_attr);
    d.pkey_index = s.pkey_index;
    d.alt_pkey_index = s.alt_pkey_index;
    d.en_sqd_async_notify = s.en_sqd_async_notify;
    d.sq_draining = s.sq_draining;
    d.max_rd_atomic = s.max_rd_atomic;
    d.max_dest_rd_atomic = s.max_dest_rd_atomic;
    d.min_rnr_timer = s.min_rnr_timer;
    d.port_num = s.port_num;
    d.timeout = s.timeout;
    d.retry_cnt = s.retry_cnt;
    d.rnr_retry = s.rnr_retry;
    d.alt_port_num = s.alt_port_num;
    d.alt_timeout = s.alt_timeout;
}

/// `$d.f = $s.f` for every field the two SA path records (`ibv_sa_path_rec`, `ib_user_path_rec`)
/// share with the same type; the GIDs, `raw_traffic`, `reversible` and `mtu` differ in type and
/// are converted by each direction.
macro_rules! same_path_fields {
    ($d:ident, $s:ident) => {
        $d.dlid = $s.dlid;
        $d.slid = $s.slid;
        $d.flow_label = $s.flow_label;
        $d.hop_limit = $s.hop_limit;
        $d.traffic_class = $s.traffic_class;
        $d.numb_path = $s.numb_path;
        $d.pkey = $s.pkey;
        $d.sl = $s.sl;
        $d.mtu_selector = $s.mtu_selector;
        $d.rate_selector = $s.rate_selector;
        $d.rate = $s.rate;
        $d.packet_life_time = $s.packet_life_time;
        $d.preference = $s.preference;
        $d.packet_life_time_selector = $s.packet_life_time_selector;
    };
}

/// `ibv_copy_path_rec_from_kern`: the kernel's SA path record (`struct ib_user_path_rec`) into
/// the verbs one (`struct ibv_sa_path_rec`), field by field (`mtu` narrowed to 8 bits).
pub(crate) fn copy_path_rec_from_kern(dst: Ptr<c_void>, src: Ptr<c_void>) {
    // SAFETY: the caller's record (`Ptr`), an `ib_user_path_rec` (64 bytes).
    let s = unsafe { src.as_ptr().cast::<ib_user_path_rec>().read() };
    // SAFETY: the caller's record (`Ptr`), an `ibv_sa_path_rec` (64 bytes), valid for writes.
    let d = unsafe { &mut *dst.as_ptr().cast::<ibv_sa_path_rec>() };
    d.dgid.raw = s.dgid;
    d.sgid.raw = s.sgid;
    d.raw_traffic = s.raw_traffic as c_int;
    d.reversible = s.reversible as c_int;
    d.mtu = s.mtu as u8;
    same_path_fields!(d, s);
}

/// `ibv_copy_path_rec_to_kern`: the verbs SA path record into the kernel's, field by field
/// (reserved space untouched).
pub(crate) fn copy_path_rec_to_kern(dst: Ptr<c_void>, src: Ptr<c_void>) {
    // SAFETY: the caller's record (`Ptr`), an `ibv_sa_path_rec` (64 bytes).
    let s = unsafe { src.as_ptr().cast::<ibv_sa_path_rec>().read() };
    // SAFETY: the caller's record (`Ptr`), an `ib_user_path_rec` (64 bytes), valid for writes.
    let d = unsafe { &mut *dst.as_ptr().cast::<ib_user_path_rec>() };
    // SAFETY: every bit pattern is a valid `raw` view of a GID.
    d.dgid = unsafe { s.dgid.raw };
    // SAFETY: every bit pattern is a valid `raw` view of the source GID too.
    d.sgid = unsafe { s.sgid.raw };
    d.raw_traffic = s.raw_traffic as u32;
    d.reversible = s.reversible as u32;
    d.mtu = u32::from(s.mtu);
    same_path_fields!(d, s);
}
