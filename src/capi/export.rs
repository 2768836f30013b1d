//! The C edge's grammar, library side: the `#[export]` attribute (from the `ibverbs-edge` crate,
//! whose doc is the full grammar) and [`FromC`], the one conversion of an export's parameters.
//!
//! An export is declared once:
//!
//! ```ignore
//! /// `struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)`
//! ///
//! /// A new PD from the provider's `alloc_pd`, its `context` set.
//! #[export("IBVERBS_1.1")]
//! fn ibv_alloc_pd(context: *mut ibv_context) -> Null<*mut ibv_pd> { ... }
//! ```
//!
//! Its doc's first line is the C prototype (the generated headers and the sweep read it), the
//! attribute names every symbol version it is (a public node, an older twin, or a range of the
//! provider ABIs' private nodes, see `ibverbs_edge::export`), and the arrow names the C return
//! convention. `tools/symbols-map` writes the version script from what the declarations leave in
//! the archive: there is no hand-written list of symbols.

pub(crate) use ibverbs_edge::{export, export_byte, export_c};

use core::ffi::c_void;
use core::marker::PhantomData;

use crate::abi::verbs::ibv_context;
use crate::errno::{Errno, Result};
use crate::verbs::handle::{Ctx, Handle, Object, Ptr};

/// A parameter of an export, converted once from its C form before the body runs: a C value as
/// it is, or a typed handle that checked it (EINVAL for NULL).
pub trait FromC: Sized {
    /// The C-side type of the parameter.
    type C;
    /// The typed value, or the error the export returns through its convention.
    ///
    /// # Safety
    /// `c` is what the export's C prototype says it is (the C caller's contract).
    unsafe fn from_c(c: Self::C) -> Result<Self>;
}

macro_rules! as_is {
    ($($t:ty)*) => {$(
        impl FromC for $t {
            type C = $t;
            #[inline(always)]
            unsafe fn from_c(c: $t) -> Result<$t> {
                Ok(c)
            }
        }
    )*};
}
as_is!(u8 u16 u32 u64 i8 i16 i32 i64 usize isize bool);

impl<T> FromC for *mut T {
    type C = *mut T;
    #[inline(always)]
    unsafe fn from_c(c: *mut T) -> Result<*mut T> {
        Ok(c)
    }
}

impl<T> FromC for *const T {
    type C = *const T;
    #[inline(always)]
    unsafe fn from_c(c: *const T) -> Result<*const T> {
        Ok(c)
    }
}

impl<T: Object> FromC for Handle<T> {
    type C = *mut T;
    #[inline(always)]
    unsafe fn from_c(c: *mut T) -> Result<Self> {
        // SAFETY: the caller's contract: NULL or a live object of an open context.
        unsafe { Handle::from_raw(c) }
    }
}

impl<T> FromC for Ptr<T> {
    type C = *mut T;
    #[inline(always)]
    unsafe fn from_c(c: *mut T) -> Result<Self> {
        // SAFETY: the caller's contract: NULL or valid for the call.
        unsafe { Ptr::from_raw(c) }
    }
}

/// An optional pointer (a provider's command chain, an array that may be empty): NULL is None.
impl<T> FromC for Option<Ptr<T>> {
    type C = *mut T;
    #[inline(always)]
    unsafe fn from_c(c: *mut T) -> Result<Self> {
        // SAFETY: the caller's contract: NULL or valid for the call.
        Ok(unsafe { Ptr::from_raw(c) }.ok())
    }
}

impl FromC for Ctx {
    type C = *mut ibv_context;
    #[inline(always)]
    unsafe fn from_c(c: *mut ibv_context) -> Result<Self> {
        // SAFETY: the caller's contract: NULL or an open context.
        unsafe { Ctx::from_raw(c) }
    }
}

/// Two adjacent C parameters converted into one value: a provider's buffer and its size (a
/// declaration writes the pair as one tuple-pattern parameter, `(cmd, cmd_size): Bytes`).
pub trait FromCPair: Sized {
    /// The C-side types of the two parameters.
    type A;
    type B;
    /// The typed value, or the error the export returns through its convention.
    ///
    /// # Safety
    /// `a` and `b` are what the export's C prototype says they are (the C caller's contract).
    unsafe fn from_c(a: Self::A, b: Self::B) -> Result<Self>;
}

/// A provider's optional buffer (driver data a provider may leave out: NULL is none), its bytes
/// for the length of the call.
pub type Bytes = &'static mut [u8];

impl FromCPair for Bytes {
    type A = *mut c_void;
    type B = usize;
    #[inline(always)]
    unsafe fn from_c(a: *mut c_void, b: usize) -> Result<Self> {
        // SAFETY: the caller's contract: NULL, or `b` bytes at `a` for the call.
        Ok(unsafe { crate::verbs::buf::provider_buf(a, b) })
    }
}

/// A provider's request or response, which must hold at least a whole core record `T` (the
/// command header and core request, or the core response). Divergence: NULL or shorter is EINVAL
/// (rdma-core would read or write past it), as is a size past `isize::MAX`.
pub struct Buf<T>(&'static mut [u8], PhantomData<T>);

impl<T> Buf<T> {
    /// Its bytes.
    #[inline(always)]
    pub(crate) fn bytes(self) -> &'static mut [u8] {
        self.0
    }
}

impl<T> FromCPair for Buf<T> {
    type A = *mut T;
    type B = usize;
    #[inline(always)]
    unsafe fn from_c(a: *mut T, b: usize) -> Result<Self> {
        if a.is_null() || b < size_of::<T>() || b > isize::MAX as usize {
            return Err(Errno::EINVAL);
        }
        // SAFETY: the caller's contract: `b` bytes at `a` for the call (checked above: not NULL,
        // within isize::MAX).
        Ok(Buf(
            unsafe { crate::verbs::buf::provider_buf(a, b) },
            PhantomData,
        ))
    }
}
