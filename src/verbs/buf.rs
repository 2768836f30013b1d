//! Caller- and provider-owned buffers as byte slices, for the command layer (rdma-core has no
//! counterpart: its commands take raw pointers and sizes).
//!
//! One clamp for every buffer a C caller sizes: no slice is made past `isize::MAX` bytes.
//! Called by the `ibv_cmd_*` exports of `capi` and by `verbs::gid`.
use crate::errno::Errno;

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

/// A provider's request (`cmd`, `cmd_size` bytes, at least a whole `Q`: header and core request)
/// and response (`resp`, `resp_size` bytes, at least a whole core response `R`) as byte slices.
/// Divergence: NULL or shorter buffers are EINVAL (rdma-core would write or read past them), as
/// are sizes past isize::MAX (no buffer is that long).
///
/// # Safety
/// Non-NULL pointers address buffers of the given sizes that live for `'a`.
pub(crate) unsafe fn provider_bufs<'a, Q, R>(
    cmd: *mut Q,
    cmd_size: usize,
    resp: *mut R,
    resp_size: usize,
) -> crate::errno::Result<(&'a mut [u8], &'a mut [u8])> {
    let fits = |n: usize, min: usize| n >= min && n <= isize::MAX as usize;
    if cmd.is_null()
        || resp.is_null()
        || !fits(cmd_size, size_of::<Q>())
        || !fits(resp_size, size_of::<R>())
    {
        return Err(Errno::EINVAL);
    }
    // SAFETY: the caller's contract: `cmd` is valid for `cmd_size` bytes for 'a (checked
    // non-NULL and at most isize::MAX above).
    let req = unsafe { core::slice::from_raw_parts_mut(cmd.cast::<u8>(), cmd_size) };
    // SAFETY: as above, for `resp` and `resp_size`.
    let rsp = unsafe { core::slice::from_raw_parts_mut(resp.cast::<u8>(), resp_size) };
    Ok((req, rsp))
}
