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

use crate::errno::Result;

/// A parameter of an export, converted once from its C form before the body runs: a C value as
/// it is, or a typed handle that checked it (EINVAL for NULL).
pub(crate) trait FromC: Sized {
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

/// The provider ABIs this library loads, oldest first (the one list: `ibverbs_edge`'s).
pub const PROVIDER_ABIS: [u32; 5] = ibverbs_edge::provider_abis!();
