//! C spellings a Rust field cannot say by itself: an enum-typed member and a big-endian member.
//!
//! `CEnum<E>` is a `u32` in memory (what C stores for an `enum E` of this API) that the header
//! generator writes as `enum E`; `Be16`/`Be32`/`Be64` hold network-order bits and are written
//! `__be16`/`__be32`/`__be64` (tools/headers, `spell::spell_c_types`). They are plain integers to Rust on purpose: a
//! provider, the kernel or the caller may store any value in such a field, and a Rust enum holding
//! an undeclared value would be undefined behaviour.

use core::fmt;
use core::marker::PhantomData;

/// A field or parameter C declares as `enum E`: the raw value, whatever it is.
#[repr(transparent)]
pub struct CEnum<E>(u32, PhantomData<E>);

impl<E> CEnum<E> {
    /// The value `raw` (any value: C does not check enums).
    pub const fn new(raw: u32) -> Self {
        CEnum(raw, PhantomData)
    }

    /// The raw value.
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// The raw value, read as C's `int` (for the enums with negative enumerators).
    pub const fn raw_signed(self) -> i32 {
        self.0 as i32
    }
}

impl<E> Clone for CEnum<E> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<E> Copy for CEnum<E> {}
impl<E> PartialEq for CEnum<E> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl<E> Eq for CEnum<E> {}
impl<E> Default for CEnum<E> {
    fn default() -> Self {
        Self::new(0)
    }
}
impl<E> From<u8> for CEnum<E> {
    fn from(raw: u8) -> Self {
        Self::new(raw.into())
    }
}
impl<E> From<u32> for CEnum<E> {
    fn from(raw: u32) -> Self {
        Self::new(raw)
    }
}
impl<E> fmt::Display for CEnum<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}
impl<E> fmt::Debug for CEnum<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A field C declares `atomic_int` (C11 `<stdatomic.h>`); C++ before C++23 has no such type and
/// the header gives it the `int` of the same layout. Rust touches it through `AtomicI32::from_ptr`.
pub type CAtomicInt = core::ffi::c_int;

macro_rules! big_endian {
    ($($name:ident($int:ty) $c:literal;)*) => {$(
        #[doc = concat!("A `", $c, "`: the bits as stored, most significant byte first in memory.")]
        #[repr(transparent)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name(pub $int);

        impl $name {
            /// From a host-order value.
            pub const fn from_host(v: $int) -> Self {
                $name(v.to_be())
            }
            /// The host-order value.
            pub const fn to_host(self) -> $int {
                <$int>::from_be(self.0)
            }
        }
    )*};
}

big_endian! {
    Be16(u16) "__be16";
    Be32(u32) "__be32";
    Be64(u64) "__be64";
}

/// rdma-core's private per-context part, which the public header names but never defines: only
/// pointers to it exist (`verbs_context::priv`). The library keeps its own there (src/verbs/ctxpriv.rs).
#[repr(C)]
pub struct verbs_ex_private {
    _opaque: [u8; 0],
}

/// The kernel's 64-bit integer (`<linux/types.h>`): `unsigned long long` where `uint64_t` is
/// `unsigned long`, so a kernel-ABI field spelled `__u64` by rdma-core is this alias in Rust (the
/// generated header then says `__u64` too). The same type to Rust.
#[allow(non_camel_case_types)]
pub type __u64 = u64;
