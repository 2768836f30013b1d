//! What the QP, SRQ, WQ and flow glue shares (rdma-core: the event waits that end the destroys
//! of cmd_qp.c, cmd_srq.c and cmd_wq.c; the early-return conventions of cmd.c). Walking work
//! request lists is `verbs::post`.
//!
//! Return conventions: rdma-core's provider commands return the positive errno, and most of
//! them leave `errno` equal to it (the failing system call set it, or the code did). A few early
//! checks return the value without touching `errno` (ibv_cmd_modify_qp's mask check, for
//! example); [`quiet`] marks those.
//!
//! Called by `verbs::qp` and the SRQ, WQ, CQ and flow exports of `capi`.
use crate::errno::Result;

pub(crate) use crate::cret::quiet;

pub(crate) use crate::verbs::disassoc::allow_disassociate;

/// Initialise an object's event lock (`pthread_mutex_init` / `pthread_cond_init` with default
/// attributes, which cannot fail).
///
/// # Safety
/// Both point to writable storage not in use by another thread.
pub(crate) unsafe fn init_lock(mutex: *mut libc::pthread_mutex_t, cond: *mut libc::pthread_cond_t) {
    // SAFETY: the caller's contract: writable storage nobody uses; default attributes.
    unsafe { libc::pthread_mutex_init(mutex, core::ptr::null()) };
    // SAFETY: as above, for the condition variable.
    unsafe { libc::pthread_cond_init(cond, core::ptr::null()) };
}

/// The end of every destroy that waits for acknowledged events (rdma-core: cmd_qp.c, cmd_srq.c,
/// cmd_wq.c, cmd_cq.c): after a destroy command that answered with the kernel's event counts
/// (`Some`), block on the object's condition variable until `reached` says every reported event
/// was acknowledged; a forgiven EIO (`None`) and errors return at once.
///
/// # Safety
/// `mutex` and `cond` are the object's initialised event lock; `reached` reads only what the
/// ack verbs write under that mutex.
pub(crate) unsafe fn destroy_and_wait<R>(
    destroyed: Result<Option<R>>,
    mutex: *mut libc::pthread_mutex_t,
    cond: *mut libc::pthread_cond_t,
    reached: impl Fn(&R) -> bool,
) -> Result<()> {
    let Some(reported) = destroyed? else {
        return Ok(());
    };
    // SAFETY: the caller's contract: an initialised mutex.
    unsafe { libc::pthread_mutex_lock(mutex) };
    while !reached(&reported) {
        // SAFETY: the caller's contract; this thread holds `mutex`.
        unsafe { libc::pthread_cond_wait(cond, mutex) };
    }
    // SAFETY: this thread holds `mutex`.
    unsafe { libc::pthread_mutex_unlock(mutex) };
    Ok(())
}
