//! Byte views of plain kernel records: the one place the command layer's structs meet raw bytes.
//!
//! The uverbs kernel interface passes `#[repr(C)]` records by address; the command layer hands
//! the kernel the address of a zeroed record and reads it back as a typed value, or builds a
//! request record and sends its bytes. [`Pod`] marks the record types for which that is sound.

use crate::abi::kern_abi::*;
use crate::abi::uapi::*;
use crate::abi::verbs::{ibv_gid, ibv_gid_entry, ibv_sge};

/// A `#[repr(C)]` record of integers (or arrays, structs and unions of them) that:
/// - accepts every bit pattern, including all-zero, and
/// - has no padding bytes (every byte belongs to a field), so its bytes are always initialised.
///
/// # Safety
/// Implementors must satisfy both points; `tests/cmd_pod.rs` checks the second against the
/// layout tables.
pub unsafe trait Pod: Copy + 'static {}

/// An all-zero `T`.
pub fn zeroed<T: Pod>() -> T {
    // SAFETY: T accepts every bit pattern (Pod), all-zero included.
    unsafe { core::mem::zeroed() }
}

/// The bytes of `t`.
pub fn bytes<T: Pod>(t: &T) -> &[u8] {
    // SAFETY: T has no padding (Pod), so all size_of::<T>() bytes are initialised; the slice
    // borrows t.
    unsafe { core::slice::from_raw_parts((t as *const T).cast::<u8>(), size_of::<T>()) }
}

/// The bytes of the records of `t`.
pub fn slice_bytes<T: Pod>(t: &[T]) -> &[u8] {
    // SAFETY: as for `bytes`, for each of the records, which lie back to back (a slice); the
    // slice borrows t.
    unsafe { core::slice::from_raw_parts(t.as_ptr().cast::<u8>(), size_of_val(t)) }
}

/// The bytes of `t`, writable: any bytes written form a valid `T`.
pub fn bytes_mut<T: Pod>(t: &mut T) -> &mut [u8] {
    // SAFETY: as for `bytes`; and every bit pattern is a valid T, so writes cannot break it.
    unsafe { core::slice::from_raw_parts_mut((t as *mut T).cast::<u8>(), size_of::<T>()) }
}

/// A `T` from the first `size_of::<T>()` bytes of `b`, missing bytes read as zero.
#[inline]
pub fn read<T: Pod>(b: &[u8]) -> T {
    if let Some(src) = b.get(..size_of::<T>()) {
        // SAFETY: `src` holds size_of::<T>() readable bytes; any bytes are a valid T (Pod);
        // read_unaligned asks no alignment of the address.
        return unsafe { src.as_ptr().cast::<T>().read_unaligned() };
    }
    read_short(b)
}

/// [`read`] of fewer bytes than a `T`: the rest is zero.
#[cold]
fn read_short<T: Pod>(b: &[u8]) -> T {
    let mut t = zeroed::<T>();
    let n = b.len().min(size_of::<T>());
    if let (Some(dst), Some(src)) = (bytes_mut(&mut t).get_mut(..n), b.get(..n)) {
        dst.copy_from_slice(src);
    }
    t
}

macro_rules! pod {
    ($($t:ident),* $(,)?) => {
        // SAFETY: each is a repr(C) record of integer fields (and arrays, records and unions of
        // them) without padding; tests/cmd_pod.rs checks the padding against the layout tables.
        $(unsafe impl Pod for $t {})*

        /// Every [`Pod`] type, by C name, with its Rust size (for the padding test).
        pub const POD_TYPES: &[(&str, usize)] = &[$((stringify!($t), size_of::<$t>())),*];
    };
}

pod!(
    ibv_sge,
    ib_uverbs_cmd_hdr,
    ib_uverbs_ex_cmd_hdr,
    ex_hdr,
    ib_uverbs_get_context_resp,
    ib_uverbs_query_device_resp,
    ib_uverbs_ex_query_device_resp,
    ib_uverbs_query_port_resp,
    ib_uverbs_query_port_resp_ex,
    ib_uverbs_alloc_pd_resp,
    ib_uverbs_open_xrcd_resp,
    ib_uverbs_reg_mr_resp,
    ib_uverbs_rereg_mr_resp,
    ib_uverbs_alloc_mw_resp,
    ib_uverbs_create_cq_resp,
    ib_uverbs_ex_create_cq_resp,
    ib_uverbs_resize_cq_resp,
    ib_uverbs_poll_cq_resp,
    ib_uverbs_wc,
    ib_uverbs_wc_ex,
    ib_uverbs_destroy_cq_resp,
    ib_uverbs_create_comp_channel_resp,
    ib_uverbs_comp_event_desc,
    ib_uverbs_async_event_desc,
    ib_uverbs_query_srq_resp,
    ib_uverbs_create_srq_resp,
    ib_uverbs_destroy_srq_resp,
    ib_uverbs_create_qp_resp,
    ib_uverbs_ex_create_qp_resp,
    ib_uverbs_query_qp_resp,
    ib_uverbs_destroy_qp_resp,
    ib_uverbs_create_ah_resp,
    ib_uverbs_ah_attr,
    ib_uverbs_global_route,
    ib_uverbs_qp_dest,
    ib_uverbs_qp_cap,
    ib_uverbs_post_send_resp,
    ib_uverbs_ex_create_wq_resp,
    ib_uverbs_ex_destroy_wq_resp,
    ib_uverbs_ex_create_rwq_ind_table_resp,
    ibv_create_qp_resp_v3,
    ibv_create_qp_resp_v4,
    ibv_create_srq_resp_v5,
    ibv_gid,
    ibv_gid_entry,
    u8,
    u16,
    u32,
    u64,
);
