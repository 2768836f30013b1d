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

use crate::abi::verbs::{ibv_context, ibv_device};
use crate::errno::{Errno, Result};
use crate::verbs::handle::{Ctx, Dev, Handle, Object, Ptr, Region, Wrap, Wrapper};

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

/// A pointer the C contract allows to be NULL (an optional out parameter, the head of a
/// NULL-terminated list): None for NULL.
impl<T> FromC for Option<Ptr<T>> {
    type C = *mut T;
    #[inline(always)]
    unsafe fn from_c(c: *mut T) -> Result<Self> {
        // SAFETY: the caller's contract: NULL or valid for the call.
        Ok(unsafe { Ptr::from_raw_opt(c) })
    }
}

impl FromC for Dev {
    type C = *mut ibv_device;
    #[inline(always)]
    unsafe fn from_c(c: *mut ibv_device) -> Result<Self> {
        // SAFETY: the caller's contract: NULL or a held device.
        unsafe { Dev::from_raw(c) }
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

/// An IBVERBS_1.0 wrapper (`struct ibv_pd_1_0 *`, ...) with its real object's handle: EINVAL
/// for NULL, or for a wrapper whose real object the 1.1 export would refuse, so that a 1.0
/// function answers as its 1.1 twin does (Divergence: rdma-core dereferences it).
impl<W: Wrapper> FromC for Wrap<W> {
    type C = *mut W;
    #[inline(always)]
    unsafe fn from_c(c: *mut W) -> Result<Self> {
        // SAFETY: the caller's contract: NULL or a live wrapper this library handed out.
        unsafe { Wrap::from_raw(c) }
    }
}

/// A record the call only reads (`const T *`), EINVAL for NULL; borrowed for the call.
impl<T> FromC for &T {
    type C = *const T;
    #[inline(always)]
    unsafe fn from_c(c: *const T) -> Result<Self> {
        // SAFETY: the caller's contract: NULL or valid for reads of a `T` for the call.
        unsafe { c.as_ref() }.ok_or(Errno::EINVAL)
    }
}

/// A context the verb needs only on some paths (`ibv_init_ah_from_wc`: only for a GRH): None
/// for NULL, which the body refuses where it needs one.
impl FromC for Option<Ctx> {
    type C = *mut ibv_context;
    #[inline(always)]
    unsafe fn from_c(c: *mut ibv_context) -> Result<Self> {
        // SAFETY: the caller's contract: NULL or an open context.
        Ok(unsafe { Ctx::from_raw(c) }.ok())
    }
}

/// A C string (`const char *`), NUL-terminated and live for the call. Divergence: NULL is
/// EINVAL (rdma-core would crash).
impl FromC for &'static core::ffi::CStr {
    type C = *const core::ffi::c_char;
    #[inline(always)]
    unsafe fn from_c(c: *const core::ffi::c_char) -> Result<Self> {
        if c.is_null() {
            return Err(Errno::EINVAL);
        }
        // SAFETY: the caller's contract: a NUL-terminated string, live for the call.
        Ok(unsafe { core::ffi::CStr::from_ptr(c) })
    }
}

/// A provider's chain of command buffers (`struct ibv_command_buffer *driver` or `*link`; NULL
/// for none), read and written back by the body.
impl FromC for crate::verbs::cmdbuf::Chain {
    type C = *mut crate::abi::kern_abi::ibv_command_buffer;
    #[inline(always)]
    unsafe fn from_c(c: Self::C) -> Result<Self> {
        // SAFETY: the caller's contract: NULL or a chain of live command buffers.
        Ok(unsafe { Self::from_raw(c) })
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

/// A provider buffer refused: EINVAL, with the reason at debug level.
#[cold]
#[inline(never)]
fn refused(what: &str, size: usize) -> Errno {
    crate::log::log(
        crate::log::VERBS_LOG_DEBUG,
        format_args!("ibverbs-rs: a provider's command buffer is {what} ({size} bytes): EINVAL"),
    );
    Errno::EINVAL
}

impl<T> FromCPair for Buf<T> {
    type A = *mut T;
    type B = usize;
    #[inline(always)]
    unsafe fn from_c(a: *mut T, b: usize) -> Result<Self> {
        // Each refusal on a path of its own (two instructions a buffer less than one merged
        // test: `ibv_cmd_reg_mr`, in the `ibv_reg_mr` rows of `make bench-vm`).
        if a.is_null() {
            return Err(refused("NULL", b));
        }
        if b < size_of::<T>() || b > isize::MAX as usize {
            return Err(refused("too short", b));
        }
        // SAFETY: the caller's contract: `b` bytes at `a` for the call (checked above: not NULL,
        // within isize::MAX).
        Ok(Buf(
            unsafe { crate::verbs::buf::provider_buf(a, b) },
            PhantomData,
        ))
    }
}

/// A caller's array of `T` and its count (`(ptr, n)`, a 32-bit count), for the call: NULL with
/// a count of 0 is the empty array. Divergence: NULL with a nonzero count is EINVAL (rdma-core
/// would crash), as is an array past `isize::MAX` bytes.
pub struct Array<T: 'static>(&'static mut [T]);

impl<T: 'static> Array<T> {
    /// Its elements.
    #[inline(always)]
    pub(crate) fn slice(self) -> &'static mut [T] {
        self.0
    }

    /// Its bytes (`n * size_of::<T>()`), for a record the kernel reads as it is.
    #[inline(always)]
    pub(crate) fn bytes(self) -> &'static [u8]
    where
        T: crate::sys::pod::Pod,
    {
        crate::sys::pod::slice_bytes(self.0)
    }
}

impl<T: 'static> FromCPair for Array<T> {
    type A = *mut T;
    type B = u32;
    #[inline(always)]
    unsafe fn from_c(a: *mut T, b: u32) -> Result<Self> {
        let n = b as usize;
        if n == 0 {
            return Ok(Array(&mut []));
        }
        if a.is_null()
            || n.checked_mul(size_of::<T>())
                .is_none_or(|s| s > isize::MAX as usize)
        {
            return Err(Errno::EINVAL);
        }
        // SAFETY: the caller's contract: `n` elements at `a` for the call (checked above: not
        // NULL, within isize::MAX bytes).
        Ok(Array(unsafe { core::slice::from_raw_parts_mut(a, n) }))
    }
}

/// A caller's buffer for one read(2), `(buf, size)` passed to the kernel as they are (it checks
/// the range: NULL is EFAULT, as under rdma-core).
impl FromCPair for crate::verbs::sysfs::ReadBuf {
    type A = *mut core::ffi::c_char;
    type B = usize;
    #[inline(always)]
    unsafe fn from_c(a: Self::A, b: usize) -> Result<Self> {
        // SAFETY: the caller's contract: NULL or `b` bytes at `a`, writable for the call.
        Ok(unsafe { Self::from_raw(a, b) })
    }
}

/// A caller's buffer of `size` bytes for (the first `size` bytes of) an extensible out-struct.
impl<T> FromCPair for Region<T> {
    type A = *mut T;
    type B = usize;
    #[inline(always)]
    unsafe fn from_c(a: *mut T, size: usize) -> Result<Self> {
        // SAFETY: the caller's contract: NULL, or `size` bytes at `a` for the call.
        unsafe { Region::from_raw(a, size) }
    }
}

/// A provider's request or response that must be given (NULL is EINVAL: Divergence, rdma-core
/// would crash) but whose length the command checks itself, after the checks rdma-core makes
/// before it touches the buffer (`ibv_cmd_modify_qp` refuses a mask first, whatever the size).
/// A size past `isize::MAX` is taken as that bound, as [`Bytes`] takes it.
pub struct BufAny<T>(&'static mut [u8], PhantomData<T>);

impl<T> BufAny<T> {
    /// Its bytes.
    #[inline(always)]
    pub(crate) fn bytes(self) -> &'static mut [u8] {
        self.0
    }
}

impl<T> FromCPair for BufAny<T> {
    type A = *mut T;
    type B = usize;
    #[inline(always)]
    unsafe fn from_c(a: *mut T, b: usize) -> Result<Self> {
        if a.is_null() {
            return Err(Errno::EINVAL);
        }
        // SAFETY: the caller's contract: `b` bytes at `a` for the call.
        Ok(BufAny(
            unsafe { crate::verbs::buf::provider_buf(a, b) },
            PhantomData,
        ))
    }
}
