//! The C return conventions of the verbs API: how a [`Result`] becomes a C return value and the
//! thread's `errno` (rdma-core has no one place for them: each verb in verbs.c picks one).
//!
//! rdma-core reports failure three ways, and the return type alone cannot tell which a function
//! uses, so every export names its convention at the call site:
//! - [`CRet::ret_null`]: a pointer, NULL on failure with `errno` set (`ibv_alloc_pd`);
//! - [`CRet::ret_errno`]: 0 or the positive errno (`ibv_modify_qp`, `ibv_destroy_qp`);
//! - [`CRet::ret_minus_one`]: a count/value, -1 on failure with `errno` set (`ibv_get_device_index`);
//! - [`ret_status`]: a provider's 0-or-positive-errno status passed on as it is, or the library's
//!   own refusal as [`CRet::ret_errno`] gives it (`ibv_destroy_srq`, `ibv_attach_mcast`);
//! - [`quiet`]: the positive errno with `errno` untouched, where rdma-core returns a value it did not
//!   get from a failing call (a missing op answering EOPNOTSUPP as rdma-core's default op does, an
//!   early check such as `ibv_cmd_modify_qp`'s mask test, a 1.0 data-path wrapper's refusal); a
//!   body that returns a `Result` says the same with `Err(e.quiet())`, which every convention
//!   returns without touching `errno`.
//!
//! Used by `capi` and by the C-ABI slot functions of `verbs`; sets `errno` through `sys`.
#![forbid(unsafe_code)]

use core::ffi::c_int;

use crate::errno::Result;

/// The C side of a [`Result`]: which convention the export follows is named where it returns.
pub trait CRet<T> {
    /// NULL and `errno` on failure.
    fn ret_null(self) -> T
    where
        T: NullPtr;
    /// 0, or the positive errno (and `errno` set to it, which rdma-core's callers may read too).
    fn ret_errno(self) -> c_int
    where
        T: Into<()>;
    /// The value, or -1 with `errno` set.
    fn ret_minus_one(self) -> T
    where
        T: MinusOne;
}

/// Pointer types that have a NULL.
pub trait NullPtr {
    fn null() -> Self;
}
impl<P> NullPtr for *mut P {
    fn null() -> Self {
        core::ptr::null_mut()
    }
}
impl<P> NullPtr for *const P {
    fn null() -> Self {
        core::ptr::null()
    }
}

/// Integer types that have a -1.
pub trait MinusOne {
    fn minus_one() -> Self;
}
macro_rules! minus_one {
    ($($t:ty)*) => { $(impl MinusOne for $t { fn minus_one() -> Self { -1 } })* };
}
minus_one!(i8 i16 i32 i64 isize);

impl<T> CRet<T> for Result<T> {
    fn ret_null(self) -> T
    where
        T: NullPtr,
    {
        self.unwrap_or_else(|e| {
            set(e);
            T::null()
        })
    }

    fn ret_errno(self) -> c_int
    where
        T: Into<()>,
    {
        match self {
            Ok(_) => 0,
            Err(e) => {
                set(e);
                e.value()
            }
        }
    }

    fn ret_minus_one(self) -> T
    where
        T: MinusOne,
    {
        match self {
            Ok(v) => v,
            Err(e) => minus_one_with(e),
        }
    }
}

/// -1 with `errno` set to `e` (unless quiet): the failure return of [`CRet::ret_minus_one`], out
/// of line, so that an export returns through it with a tail call and its success path keeps
/// its own return (the event getters' bench rows). Its value is opaque (`black_box`): a caller
/// that learns it is -1 merges its failure paths into one call and a constant kept in a saved
/// register, `xor ebx,ebx` / `mov eax,ebx` on the success path of `ibv_get_cq_event` instead of
/// `xor eax,eax` (bench row ibv_get_cq_event+ibv_ack_cq_events).
#[cold]
#[inline(never)]
fn minus_one_with<T: MinusOne>(e: crate::errno::Errno) -> T {
    set(e);
    core::hint::black_box(T::minus_one())
}

/// `errno` set to a failure's value, unless the failure is quiet ([`crate::errno::Errno::quiet`]).
#[inline(always)]
fn set(e: crate::errno::Errno) {
    if !e.is_quiet() {
        crate::sys::set_errno(e.0);
    }
}

/// A provider's status (0 or the positive errno, `errno` as the provider left it) passed on as it
/// is; the library's own refusal (`Err`) as [`CRet::ret_errno`] gives it.
pub fn ret_status(r: Result<c_int>) -> c_int {
    match r {
        Ok(status) => status,
        Err(e) => e.ret_errno(),
    }
}

/// 0-or-positive-errno functions where rdma-core returns the value without touching `errno`: the
/// positive errno, `errno` left as it was.
pub fn quiet(e: crate::errno::Errno) -> c_int {
    e.value()
}

impl crate::errno::Errno {
    /// The positive errno (and `errno` set to it): an early refusal under [`CRet::ret_errno`]'s
    /// convention, spelled `Errno::EINVAL.ret_errno()`.
    pub fn ret_errno(self) -> c_int {
        Err::<(), _>(self).ret_errno()
    }
}
