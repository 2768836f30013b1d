//! Return conventions of the few exports that [`crate::cret::CRet`] does not cover.
//!
//! Named at each call site like `CRet`'s: a negated errno (`_ibv_query_gid_table`), and a
//! neutral value for functions with no error channel (`ibv_get_device_guid` answers 0).
use crate::errno::Result;

/// A count, or the negated errno (`errno` set to the positive value as well).
pub(crate) fn ret_neg_errno_count(r: Result<isize>) -> isize {
    r.unwrap_or_else(|e| {
        crate::sys::set_errno(e.0);
        -(e.0 as isize)
    })
}

/// No error channel: the value, or `neutral` with `errno` set.
pub(crate) fn ret_or<T>(r: Result<T>, neutral: T) -> T {
    r.unwrap_or_else(|e| {
        crate::sys::set_errno(e.0);
        neutral
    })
}
