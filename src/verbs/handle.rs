//! Typed handles on the objects the C edge is handed (rdma-core has none: its verbs dereference
//! what they are given).
//!
//! Each export converts its pointer parameters once
//! ([`capi::export::FromC`](crate::capi::export::FromC)): a NULL object, or an object whose
//! `context` is NULL, is EINVAL there (Divergence: rdma-core crashes), and the body gets a handle
//! that is not NULL and knows its context. A handle lives for one call: it is made from the C
//! caller's contract (a live object of an open context of this library) and never stored, so its
//! accessors may read the object without `unsafe` at every use.
//!
//! Called by `capi` (the conversions) and by the rest of `verbs`.
use core::ptr::NonNull;

use crate::abi::driver::{verbs_context_ops, verbs_dm, verbs_dmah, verbs_mr};
use crate::abi::verbs::*;
use crate::errno::{Errno, Result};

/// EINVAL for a NULL object or pointer, on a path marked cold ([`Handle::from_raw`],
/// [`Ptr::from_raw`]): checks of several arguments in a row then stay a test and a branch each
/// instead of being folded into one flag computed on every call, and a result is not carried
/// as a discriminant to the return (bench rows ibv_get_cq_event+ibv_ack_cq_events and
/// ibv_destroy_cq). [`Ctx::from_raw`] keeps the plain test: there the copies into saved
/// registers then move ahead of the op lookup, one instruction more (rows ibv_alloc_pd,
/// ibv_create_cq).
#[cold]
#[inline(never)]
fn null() -> Errno {
    Errno::EINVAL
}

/// A library object the C edge is handed, which names its context.
pub trait Object {
    /// The object's `context` member.
    ///
    /// # Safety
    /// `p` points to a live object.
    unsafe fn context_of(p: *mut Self) -> *mut ibv_context;
}

macro_rules! objects {
    ($($c:ident)*) => {$(
        impl Object for $c {
            #[inline(always)]
            unsafe fn context_of(p: *mut Self) -> *mut ibv_context {
                // SAFETY: the caller's contract: a live object.
                unsafe { (*p).context }
            }
        }
    )*};
}
objects!(ibv_pd ibv_cq ibv_qp ibv_srq ibv_wq ibv_mr ibv_mw ibv_ah ibv_xrcd ibv_dm ibv_flow
    ibv_counters ibv_rwq_ind_table ibv_td ibv_flow_action ibv_comp_cntr ibv_dmah ibv_cq_ex
    ibv_comp_channel);

/// The provider-facing wrappers a provider's command hands over (`struct verbs_mr *`, ...): their
/// context is their public object's.
macro_rules! wrappers {
    ($($w:ident . $obj:ident)*) => {$(
        impl Object for $w {
            #[inline(always)]
            unsafe fn context_of(p: *mut Self) -> *mut ibv_context {
                // SAFETY: the caller's contract: a live object.
                unsafe { (*p).$obj.context }
            }
        }
    )*};
}
wrappers!(verbs_mr.ibv_mr verbs_dm.dm verbs_dmah.dmah);

/// A live object of type `T` of an open context of this library, for one call.
pub struct Handle<T: Object> {
    raw: NonNull<T>,
    ctx: NonNull<ibv_context>,
}

impl<T: Object> Clone for Handle<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: Object> Copy for Handle<T> {}

impl<T: Object> Handle<T> {
    /// The handle of `p`; EINVAL for NULL, or for an object whose `context` is NULL.
    ///
    /// # Safety
    /// `p` is NULL or a live object of a context of this library (whose `priv` is NULL or ours),
    /// and both stay live for the call the handle is made for.
    #[inline(always)]
    pub(crate) unsafe fn from_raw(p: *mut T) -> Result<Self> {
        let raw = NonNull::new(p).ok_or_else(null)?;
        // SAFETY: the caller's contract: a live object.
        let ctx = unsafe { T::context_of(p) };
        let ctx = NonNull::new(ctx).ok_or_else(null)?;
        Ok(Handle { raw, ctx })
    }

    /// The object.
    #[inline(always)]
    pub(crate) fn raw(self) -> *mut T {
        self.raw.as_ptr()
    }

    /// Its context.
    #[inline(always)]
    pub(crate) fn context(self) -> *mut ibv_context {
        self.ctx.as_ptr()
    }

    /// Its context's op table (the provider's ops, or the defaults).
    #[inline(always)]
    pub(crate) fn ops(self) -> &'static verbs_context_ops {
        // SAFETY: from_raw's contract: an open context of this library, live for the call.
        unsafe { crate::verbs::ctxpriv::ops_of(self.context()) }
    }

    /// Its context, as a handle.
    #[inline(always)]
    pub(crate) fn ctx(self) -> Ctx {
        Ctx { raw: self.ctx }
    }
}

/// Handles by the object's name.
pub use names::*;
mod names {
    // The families not converted to declarations yet do not use theirs.
    #![allow(dead_code)]
    use super::Handle;
    use crate::abi::verbs::*;
    pub type Pd = Handle<ibv_pd>;
    pub type Cq = Handle<ibv_cq>;
    pub type Qp = Handle<ibv_qp>;
    pub type Srq = Handle<ibv_srq>;
    pub type Wq = Handle<ibv_wq>;
    pub type Mr = Handle<ibv_mr>;
    pub type Mw = Handle<ibv_mw>;
    pub type Ah = Handle<ibv_ah>;
    pub type Xrcd = Handle<ibv_xrcd>;
    pub type Dm = Handle<ibv_dm>;
    pub type Flow = Handle<ibv_flow>;
    pub type Counters = Handle<ibv_counters>;
    pub type RwqIndTable = Handle<ibv_rwq_ind_table>;
    pub type Td = Handle<ibv_td>;
    pub type FlowAction = Handle<ibv_flow_action>;
    pub type CompCntr = Handle<ibv_comp_cntr>;
    pub type Dmah = Handle<ibv_dmah>;
    pub type VerbsMr = Handle<crate::abi::driver::verbs_mr>;
    pub type VerbsDm = Handle<crate::abi::driver::verbs_dm>;
    pub type VerbsDmah = Handle<crate::abi::driver::verbs_dmah>;
    pub type Channel = Handle<ibv_comp_channel>;
}

/// An open context of this library, for one call.
#[derive(Clone, Copy)]
pub struct Ctx {
    raw: NonNull<ibv_context>,
}

impl Ctx {
    /// The handle of `ctx`; EINVAL for NULL.
    ///
    /// # Safety
    /// `ctx` is NULL or an open context of this library (whose `priv` is NULL or ours), live for
    /// the call the handle is made for.
    #[inline(always)]
    pub(crate) unsafe fn from_raw(ctx: *mut ibv_context) -> Result<Ctx> {
        NonNull::new(ctx)
            .map(|raw| Ctx { raw })
            .ok_or(Errno::EINVAL)
    }

    /// The context.
    #[inline(always)]
    pub(crate) fn raw(self) -> *mut ibv_context {
        self.raw.as_ptr()
    }

    /// Its op table (the provider's ops, or the defaults).
    #[inline(always)]
    pub(crate) fn ops(self) -> &'static verbs_context_ops {
        // SAFETY: from_raw's contract: an open context of this library, live for the call.
        unsafe { crate::verbs::ctxpriv::ops_of(self.raw()) }
    }

    /// Its command channel and private part.
    #[inline(always)]
    pub(crate) fn channel(self) -> crate::verbs::ctxpriv::Context {
        // SAFETY: from_raw's contract.
        unsafe { crate::verbs::ctxpriv::Context::of(self.raw) }
    }
}

/// A pointer the C contract says is valid and that is not NULL (EINVAL for NULL): an object
/// under construction (its `context` not set yet), an attribute record, an out parameter, or an
/// object whose verb never needs its context (a completion channel read, a CQ's events acked).
pub struct Ptr<T>(NonNull<T>);

impl<T> Clone for Ptr<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Ptr<T> {}

/// A place of the library's own (a local out parameter, a wrapper's field).
impl<T> From<&mut T> for Ptr<T> {
    #[inline(always)]
    fn from(r: &mut T) -> Self {
        Ptr(NonNull::from(r))
    }
}

/// A handle's object, where the core works on it without its context (a command on a given
/// channel).
impl<T: Object> From<Handle<T>> for Ptr<T> {
    #[inline(always)]
    fn from(h: Handle<T>) -> Self {
        Ptr(h.raw)
    }
}

impl<T> Ptr<T> {
    /// EINVAL for NULL ([`null`]).
    ///
    /// # Safety
    /// `p` is NULL or valid for reads and writes of a `T` for the call.
    #[inline(always)]
    pub(crate) unsafe fn from_raw(p: *mut T) -> Result<Self> {
        NonNull::new(p).map(Ptr).ok_or_else(null)
    }

    /// None for NULL: a pointer the C contract allows to be NULL. Without [`null`]'s call, whose
    /// unused result a compiler may not drop when it sits in another codegen unit (then the
    /// export keeps a call on that path and saves every register for it: bench row mlx5
    /// (emulated) ibv_query_device_ex, `ibv_cmd_query_device_any`'s `resp_size`).
    ///
    /// # Safety
    /// As for [`Self::from_raw`].
    #[inline(always)]
    pub(crate) unsafe fn from_raw_opt(p: *mut T) -> Option<Self> {
        NonNull::new(p).map(Ptr)
    }

    /// The pointer.
    #[inline(always)]
    pub(crate) fn as_ptr(self) -> *mut T {
        self.0.as_ptr()
    }

    /// A copy of what it points to.
    #[inline(always)]
    pub(crate) fn read(self) -> T
    where
        T: Copy,
    {
        // SAFETY: from_raw's contract: valid for reads for the call.
        unsafe { self.0.as_ptr().read() }
    }

    /// Store `v` there.
    #[inline(always)]
    #[allow(dead_code)] // for the families' out parameters
    pub(crate) fn write(self, v: T) {
        // SAFETY: from_raw's contract: valid for writes for the call.
        unsafe { self.0.as_ptr().write(v) }
    }
}

/// `get!(p.a.b)`: a copy of a field of the object a [`Ptr`] (or a [`Handle`], through
/// `Ptr::from`) points to. The one reason for every such read: [`Ptr::from_raw`]'s contract (or
/// [`Handle::from_raw`]'s, a live object) makes the whole `T` valid for reads for the call, so
/// each of its fields is.
macro_rules! get {
    ($p:ident $(. $f:ident)+) => {{
        let p = $crate::verbs::handle::Ptr::from($p).as_ptr();
        // SAFETY: the `Ptr`'s contract: a whole `T`, valid for reads for the call, hence this
        // field of it (a plain `Copy` member, read by value).
        unsafe { (*p)$(.$f)+ }
    }};
}
pub(crate) use get;

/// `set!(p.a.b = v)`: store `v` (evaluated first, outside the unsafe block) into a field of the
/// object a [`Ptr`] (or a [`Handle`]) points to; sound for the reason [`get!`] gives, for
/// writes: the caller's object under construction, attribute record or out parameter.
macro_rules! set {
    ($p:ident $(. $f:ident)+ = $v:expr) => {{
        let v = $v;
        let p = $crate::verbs::handle::Ptr::from($p).as_ptr();
        // SAFETY: the `Ptr`'s contract: a whole `T`, valid for writes for the call, hence this
        // field of it (a plain `Copy` member: nothing is dropped).
        unsafe { (*p)$(.$f)+ = v }
    }};
}
pub(crate) use set;

/// `place!(p.a.b)`: the raw place of a field of the object a [`Ptr`] (or a [`Handle`]) points
/// to, without reading it (a lock, a union, a counter whose accesses have their own rules).
macro_rules! place {
    ($p:ident $(. $f:ident)+) => {{
        let p = $crate::verbs::handle::Ptr::from($p).as_ptr();
        // SAFETY: the `Ptr`'s contract: a whole `T` for the call, so the field's place is in
        // bounds of a live allocation; nothing is read or written here.
        unsafe { &raw mut (*p)$(.$f)+ }
    }};
}
pub(crate) use place;

/// A device of a list this library handed out (`ibv_get_device_list`), held by the caller, for
/// one call.
#[derive(Clone, Copy)]
pub struct Dev(NonNull<ibv_device>);

impl Dev {
    /// EINVAL for NULL.
    ///
    /// # Safety
    /// `p` is NULL or a device of a list this library handed out, still held, for the call.
    #[inline(always)]
    pub(crate) unsafe fn from_raw(p: *mut ibv_device) -> Result<Dev> {
        NonNull::new(p).map(Dev).ok_or(Errno::EINVAL)
    }

    /// The device.
    #[inline(always)]
    pub(crate) fn raw(self) -> *mut ibv_device {
        self.0.as_ptr()
    }

    /// The library's record around it (`struct verbs_device`).
    #[inline(always)]
    pub(crate) fn vdev(self) -> crate::verbs::devlist::VdevPtr {
        crate::verbs::devlist::vdev_of(self.raw())
    }
}

/// A caller's buffer of `size` bytes for (the first `size` bytes of) a `T`, as rdma-core's
/// extensible out-structs are passed (`T *p, size_t size`), for one call. Divergence: NULL with a
/// size, or a size past `isize::MAX`, is EINVAL (rdma-core would write through it).
pub struct Region<T> {
    ptr: *mut T,
    len: usize,
}

impl<T> Region<T> {
    /// The region; EINVAL as above.
    ///
    /// # Safety
    /// `p` is NULL or valid for writes of `size` bytes for the call.
    #[inline(always)]
    pub(crate) unsafe fn from_raw(p: *mut T, size: usize) -> Result<Self> {
        if size != 0 && (p.is_null() || size > isize::MAX as usize) {
            return Err(Errno::EINVAL);
        }
        Ok(Region { ptr: p, len: size })
    }

    /// The caller's pointer (NULL possible when empty).
    #[inline(always)]
    pub(crate) fn ptr(&self) -> *mut T {
        self.ptr
    }

    /// Its size in bytes.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Every byte of it set to 0.
    #[inline(always)]
    pub(crate) fn zero(&self) {
        if self.len != 0 {
            // SAFETY: from_raw's contract: `len` writable bytes at `ptr` (not NULL when len > 0).
            unsafe { core::ptr::write_bytes(self.ptr.cast::<u8>(), 0, self.len) };
        }
    }
}

/// An IBVERBS_1.0 wrapper (compat-1_0.c's `struct ibv_*_1_0`, [`crate::abi::compat_1_0`]): the
/// real object it holds (its last member) and that object's handle type.
pub trait Wrapper: Sized {
    /// The real object's C type.
    type Obj;
    /// The real object's handle (`Dev`, `Ctx`, `Pd`, ...).
    type Real: Copy;
    /// The real object (NULL in a wrapper not filled).
    fn real_obj(&self) -> *mut Self::Obj;
    /// The handle of a real object.
    ///
    /// # Safety
    /// As the handle's own `from_raw`: `obj` is NULL or a live object of this library.
    unsafe fn handle(obj: *mut Self::Obj) -> Result<Self::Real>;
}

macro_rules! compat_1_0 {
    ($($w:ident . $field:ident : $obj:ident => $real:ty),* $(,)?) => {$(
        impl Wrapper for crate::abi::compat_1_0::$w {
            type Obj = $obj;
            type Real = $real;
            #[inline(always)]
            fn real_obj(&self) -> *mut $obj {
                self.$field
            }
            #[inline(always)]
            unsafe fn handle(obj: *mut $obj) -> Result<$real> {
                // SAFETY: the caller's contract.
                unsafe { <$real>::from_raw(obj) }
            }
        }
    )*};
}
compat_1_0! {
    ibv_device_1_0.real_device: ibv_device => Dev,
    ibv_context_1_0.real_context: ibv_context => Ctx,
    ibv_pd_1_0.real_pd: ibv_pd => Pd,
    ibv_mr_1_0.real_mr: ibv_mr => Mr,
    ibv_cq_1_0.real_cq: ibv_cq => Cq,
    ibv_srq_1_0.real_srq: ibv_srq => Srq,
    ibv_qp_1_0.real_qp: ibv_qp => Qp,
    ibv_ah_1_0.real_ah: ibv_ah => Ah,
}

/// A live IBVERBS_1.0 wrapper of this library and the handle of the real object it holds, for
/// one call. EINVAL for a NULL wrapper, or one whose real object its handle refuses (NULL, or a
/// NULL `context`): what the IBVERBS_1.1 export gives for that real object (Divergence: rdma-core
/// dereferences both).
pub struct Wrap<W: Wrapper> {
    raw: NonNull<W>,
    real: W::Real,
}

impl<W: Wrapper> Clone for Wrap<W> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<W: Wrapper> Copy for Wrap<W> {}

impl<W: Wrapper> Wrap<W> {
    /// The handle of `p`; EINVAL as above.
    ///
    /// # Safety
    /// `p` is NULL or a live wrapper this library handed out, whose real object stays live for
    /// the call the handle is made for.
    #[inline(always)]
    pub(crate) unsafe fn from_raw(p: *mut W) -> Result<Self> {
        let raw = NonNull::new(p).ok_or(Errno::EINVAL)?;
        // SAFETY: the caller's contract: a live wrapper.
        let obj = unsafe { raw.as_ref() }.real_obj();
        // SAFETY: the caller's contract: the wrapper's real object is live for the call.
        let real = unsafe { W::handle(obj) }?;
        Ok(Wrap { raw, real })
    }

    /// The wrapper.
    #[inline(always)]
    pub(crate) fn raw(self) -> *mut W {
        self.raw.as_ptr()
    }

    /// The real object's handle.
    #[inline(always)]
    pub(crate) fn real(self) -> W::Real {
        self.real
    }

    /// The wrapper's fields, read for the call.
    #[inline(always)]
    pub(crate) fn get(&self) -> &W {
        // SAFETY: from_raw's contract: a live wrapper for the call the handle is made for.
        unsafe { self.raw.as_ref() }
    }
}

/// The 1.0 wrappers' handles by the object's name.
pub type Dev10 = Wrap<crate::abi::compat_1_0::ibv_device_1_0>;
pub type Ctx10 = Wrap<crate::abi::compat_1_0::ibv_context_1_0>;
pub type Pd10 = Wrap<crate::abi::compat_1_0::ibv_pd_1_0>;
pub type Mr10 = Wrap<crate::abi::compat_1_0::ibv_mr_1_0>;
pub type Cq10 = Wrap<crate::abi::compat_1_0::ibv_cq_1_0>;
pub type Srq10 = Wrap<crate::abi::compat_1_0::ibv_srq_1_0>;
pub type Qp10 = Wrap<crate::abi::compat_1_0::ibv_qp_1_0>;
pub type Ah10 = Wrap<crate::abi::compat_1_0::ibv_ah_1_0>;
