//! Native-endian field access in byte buffers (provider request structs, caller-sized output
//! structs), bounds-checked: an access outside the buffer is `EINVAL`, never a panic.
#![forbid(unsafe_code)]

use crate::abi::ctype::{Be16, Be32, Be64, CEnum};
use crate::errno::{Errno, Result};

/// A fixed-size integer as it sits in memory.
pub trait Field: Copy {
    const N: usize;
    fn put(self, out: &mut [u8]);
    fn get(b: &[u8]) -> Self;
}

macro_rules! field {
    ($($t:ty),*) => {$(
        impl Field for $t {
            const N: usize = size_of::<$t>();
            fn put(self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_ne_bytes());
            }
            fn get(b: &[u8]) -> Self {
                let mut a = [0u8; size_of::<$t>()];
                a.copy_from_slice(b);
                <$t>::from_ne_bytes(a)
            }
        }
    )*};
}
field!(u8, u16, u32, u64, i32, i64);

/// The C spellings of src/abi/ctype.rs are their integer in memory.
macro_rules! spelled_field {
    ($($t:ty => $int:ty, $wrap:expr, $raw:expr;)*) => {$(
        impl Field for $t {
            const N: usize = size_of::<$int>();
            fn put(self, out: &mut [u8]) {
                let raw: fn(Self) -> $int = $raw;
                raw(self).put(out)
            }
            fn get(b: &[u8]) -> Self {
                let wrap: fn($int) -> Self = $wrap;
                wrap(<$int>::get(b))
            }
        }
    )*};
}
spelled_field! {
    Be16 => u16, Be16, |v| v.0;
    Be32 => u32, Be32, |v| v.0;
    Be64 => u64, Be64, |v| v.0;
}
impl<E> Field for CEnum<E> {
    const N: usize = 4;
    fn put(self, out: &mut [u8]) {
        self.raw().put(out)
    }
    fn get(b: &[u8]) -> Self {
        CEnum::new(u32::get(b))
    }
}

impl<const N: usize> Field for [u8; N] {
    const N: usize = N;
    fn put(self, out: &mut [u8]) {
        out.copy_from_slice(&self);
    }
    fn get(b: &[u8]) -> Self {
        let mut a = [0u8; N];
        a.copy_from_slice(b);
        a
    }
}

/// Store `v` at byte offset `off` of `buf`.
pub fn put<T: Field>(buf: &mut [u8], off: usize, v: T) -> Result<()> {
    let end = off.checked_add(T::N).ok_or(Errno::EINVAL)?;
    v.put(buf.get_mut(off..end).ok_or(Errno::EINVAL)?);
    Ok(())
}

/// Load the value at byte offset `off` of `buf`.
pub fn get<T: Field>(buf: &[u8], off: usize) -> Result<T> {
    let end = off.checked_add(T::N).ok_or(Errno::EINVAL)?;
    Ok(T::get(buf.get(off..end).ok_or(Errno::EINVAL)?))
}

/// Zero `len` bytes at `off`.
pub fn zero(buf: &mut [u8], off: usize, len: usize) -> Result<()> {
    let end = off.checked_add(len).ok_or(Errno::EINVAL)?;
    buf.get_mut(off..end).ok_or(Errno::EINVAL)?.fill(0);
    Ok(())
}

/// The user-space address of a buffer, as the kernel interface carries it (`ioctl_ptr_to_u64`).
pub fn addr(b: &[u8]) -> u64 {
    b.as_ptr().expose_provenance() as u64
}

/// The size of the value a (never called) field projection returns.
pub fn size_of_field<T, R>(_: impl Fn(T) -> R) -> usize {
    size_of::<R>()
}

/// Store `$v` into field `$f` of the `$T` laid out at the start of `$buf`; `$v` must have the
/// field's type. Evaluates to `Result<()>`.
/// `put_field!(buf, base; T, f, v)` does the same for a `$T` laid out at byte `base` (a core
/// request after its command header).
macro_rules! put_field {
    ($buf:expr, $T:ty, $($f:ident).+, $v:expr) => {
        $crate::cmd::wire::put_field!($buf, 0; $T, $($f).+, $v)
    };
    ($buf:expr, $base:expr; $T:ty, $($f:ident).+, $v:expr) => {{
        let v = $v;
        let _same_type = |x: &$T| [x.$($f).+, v];
        $crate::cmd::wire::put($buf, $base + core::mem::offset_of!($T, $($f).+), v)
    }};
}
pub(crate) use put_field;

/// The end offset of field `$f` of `$T` (`offsetofend`).
macro_rules! end_of {
    ($T:ty, $($f:ident).+) => {
        core::mem::offset_of!($T, $($f).+) + $crate::cmd::wire::size_of_field(|x: $T| x.$($f).+)
    };
}
pub(crate) use end_of;
