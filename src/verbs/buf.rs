//! Caller- and provider-owned buffers as byte slices, for the command layer (rdma-core has no
//! counterpart: its commands take raw pointers and sizes).
//!
//! One clamp for every buffer a C caller sizes: no slice is made past `isize::MAX` bytes.
//! Called by the `ibv_cmd_*` exports of `capi` and by [`verbs::gid`](crate::verbs::gid).

/// A provider's buffer of `size` bytes as a slice; NULL is an empty one (no driver data).
///
/// # Safety
/// `p` is NULL or valid for `size` bytes for `'a`.
pub(crate) unsafe fn provider_buf<'a, T>(p: *mut T, size: usize) -> &'a mut [u8] {
    if p.is_null() {
        return &mut [];
    }
    // No buffer is longer than isize::MAX bytes (nor may a slice be): a larger size is the
    // caller's garbage, taken as that bound (the kernel refuses such a command).
    let size = size.min(isize::MAX as usize);
    // SAFETY: the caller's contract.
    unsafe { core::slice::from_raw_parts_mut(p.cast::<u8>(), size) }
}
