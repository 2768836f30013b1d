//! The default op table and how a provider's ops are installed into a context
//! (rdma-core `libibverbs/dummy_ops.c`: `verbs_dummy_ops` and `verbs_set_ops`, v44 to v65).
//!
//! Every context keeps its ops in the newest provider ABI's layout (`verbs_context_ops`), whatever
//! its provider's ABI: [`set_ops`] reads a provider's own table (the ops of its ABI, [`pabi`]) into
//! that layout (`provider_table`, the tests' whole-table reading, does the same). A context starts
//! with [`DEFAULT_OPS`] in the slots of its private table that the oldest ABI has, except
//! `async_event`, whose default does nothing (left empty, so `ibv_get_async_event` skips the call;
//! `cq_event` keeps its default, so that `ibv_get_cq_event` calls the slot without a test), and in
//! the public slots that mirror them; the slots later ABIs added stay empty until a provider fills
//! them (the public verbs then do what rdma-core's default op does). A provider then overwrites the
//! ops it implements with [`set_ops`], possibly several times.
//!
//! The defaults never touch their arguments. What they report:
//! - ops returning a pointer: NULL with errno EOPNOTSUPP;
//! - ops returning `int`: the positive value EOPNOTSUPP, errno left alone — including `poll_cq`,
//!   `post_send`, `post_recv`, `post_srq_recv` and `post_srq_ops`, which do NOT set `*bad_wr`;
//! - `query_qp_data_in_order`: 0 (no in-order guarantee), not an error;
//! - `rereg_mr`: `IBV_REREG_MR_ERR_INPUT` (-1) with errno EOPNOTSUPP;
//! - `async_event`, `cq_event`, `free_context`, `unimport_dm`, `unimport_mr`, `unimport_pd`:
//!   return nothing and do nothing.
//!
//! Called by [`capi::driver`](crate::capi::driver) (`verbs_set_ops`) and
//! [`verbs::context`](crate::verbs::context).

use crate::abi::driver::pabi;
use crate::abi::driver::{verbs_context_ops, verbs_context_pabi34};
use crate::verbs::ctxpriv::ContextPriv;

mod defaults;
pub(crate) use defaults::DEFAULT_OPS;
use defaults::DEFAULT_PRIVATE;

/// A provider's op table of provider ABI `abi` (the ops of that ABI, in order) in the newest
/// layout: the slots its ABI lacks are empty (what [`set_ops`] reads op by op).
///
/// # Safety
/// `ops` points to a readable `verbs_context_ops` of provider ABI `abi` (`pabi::op_count(abi)`
/// function pointers, each NULL or an op of the provider).
#[cfg(test)]
pub(crate) unsafe fn provider_table(abi: u32, ops: *const core::ffi::c_void) -> verbs_context_ops {
    let src = ops.cast::<usize>();
    let mut slots = [0usize; pabi::OPS];
    for (i, slot) in slots.iter_mut().enumerate() {
        if let Some(k) = pabi::slot_in(abi, i) {
            // SAFETY: the caller's contract: slot k of the provider's table exists.
            *slot = unsafe { src.wrapping_add(k).read_unaligned() };
        }
    }
    // SAFETY: `verbs_context_ops` is OPS `Option<fn>` slots with the layout of [usize; OPS]; each
    // value is 0 (None) or the address of one of the provider's ops.
    unsafe { core::mem::transmute::<[usize; pabi::OPS], verbs_context_ops>(slots) }
}

/// Slot `k` of an op table at `src` as the op type `T` (`Option` of a function pointer), or
/// None (`k` None: the table's ABI lacks the op).
///
/// # Safety
/// `src` points to a table of at least `k + 1` slots, each NULL or a function of type `T`.
#[inline(always)]
unsafe fn slot<T: Copy>(src: *const usize, k: Option<usize>) -> Option<T> {
    const { assert!(size_of::<Option<T>>() == size_of::<usize>()) };
    let k = k?;
    // SAFETY: the caller's contract: slot k exists and holds NULL (None) or a `T`.
    unsafe { src.wrapping_add(k).cast::<Option<T>>().read_unaligned() }
}

/// [`set_ops`] from a whole table in the newest layout (the defaults, tests).
///
/// # Safety
/// As for [`set_ops`].
#[cfg(test)]
pub(crate) unsafe fn set_ops_table(
    vctx: *mut verbs_context_pabi34,
    abi: u32,
    ops: &verbs_context_ops,
) {
    // SAFETY: the caller's contract; a whole table is the newest ABI's layout.
    unsafe {
        set_ops::<{ pabi::NEWEST }, true>(vctx, abi, (ops as *const verbs_context_ops).cast())
    }
}

/// [`set_ops`]'s reading of one op from the provider's table `$src` of ABI `SRC` (its slot, a
/// constant, when the ABI has the op).
macro_rules! op {
    ($src:ident, $op:ident) => {
        // SAFETY: the caller's contract: a table of ABI SRC, whose slot for this op (a
        // constant) exists when the ABI has the op.
        unsafe {
            slot(
                $src,
                const {
                    pabi::slot_in(
                        SRC,
                        core::mem::offset_of!(verbs_context_ops, $op) / size_of::<usize>(),
                    )
                },
            )
        }
    };
}
/// [`set_ops`]'s rows: install op `$op` read from `$src` into the private `$table` (when
/// `PRIVATE`) and into the public slot of the row's kind in the context `$vctx` (`$front`: the
/// bytes in front of its common part that its ABI has).
macro_rules! install_op {
    // Same-named public slot of the verbs_context.
    ($table:ident, $vctx:ident, $src:ident, $front:ident; vctx $op:ident) => {
        if let Some(f) = op!($src, $op) {
            if PRIVATE {
                $table.$op = Some(f);
            }
            // SAFETY: writable verbs_context (caller's contract).
            unsafe { (*$vctx).$op = Some(f) };
        }
    };
    // Public slot of the verbs_context under another name.
    ($table:ident, $vctx:ident, $src:ident, $front:ident; vctx $op:ident => $slot:ident) => {
        if let Some(f) = op!($src, $op) {
            if PRIVATE {
                $table.$op = Some(f);
            }
            // SAFETY: writable verbs_context (caller's contract); `$slot` is a public slot of it.
            unsafe { (*$vctx).$slot = Some(f) };
        }
    };
    // Same-named public slot of ibv_context_ops.
    ($table:ident, $vctx:ident, $src:ident, $front:ident; ctx $op:ident) => {
        if let Some(f) = op!($src, $op) {
            if PRIVATE {
                $table.$op = Some(f);
            }
            // SAFETY: writable verbs_context (caller's contract): its embedded context's op table.
            unsafe { (*$vctx).context.ops.$op = Some(f) };
        }
    };
    // Untyped compatibility slot of ibv_context_ops.
    ($table:ident, $vctx:ident, $src:ident, $front:ident; compat $op:ident => $slot:ident) => {
        if let Some(f) = op!($src, $op) {
            if PRIVATE {
                $table.$op = Some(f);
            }
            // SAFETY: writable verbs_context; the slot is a bare code address that nobody
            // calls through its declared type, and an Option of any function pointer has
            // the slot's size and alignment, so the typed pointer is stored as is.
            unsafe {
                (&raw mut (*$vctx).context.ops.$slot)
                    .cast::<Option<_>>()
                    .write(Some(f))
            };
        }
    };
    // Private table only.
    ($table:ident, $vctx:ident, $src:ident, $front:ident; private $op:ident) => {
        if PRIVATE {
            if let Some(f) = op!($src, $op) {
                $table.$op = Some(f);
            }
        }
    };
    // A public slot in front of the common part, where the context's ABI has it.
    ($table:ident, $vctx:ident, $src:ident, $front:ident; front $op:ident) => {
        if let Some(f) = op!($src, $op) {
            if PRIVATE {
                $table.$op = Some(f);
            }
            let back =
                pabi::front_distance(core::mem::offset_of!(crate::abi::verbs::verbs_context, $op));
            if back <= $front {
                // SAFETY: the context's ABI has this slot `back` bytes before the common part
                // (pabi::FRONT_OPS), inside the provider's writable verbs_context.
                unsafe {
                    $vctx
                        .cast::<u8>()
                        .sub(back)
                        .cast::<Option<_>>()
                        .write_unaligned(Some(f))
                };
            }
        }
    };
}

/// Install every non-NULL op of the table at `src`, a provider table of provider ABI `SRC` (the
/// ops of that ABI, in order: each read from its slot there, a constant), into a context of
/// provider ABI `abi` (`verbs_set_ops`): into the private table (when `PRIVATE`), and for most
/// ops also into the public slot that exposes it. Straight-line code, one test per op.
///
/// Public destinations, as rdma-core assigns them:
/// - 39 ops go to the same-named slot of `verbs_context` or `context.ops`;
/// - 2 go to a differently named `verbs_context` slot (`create_flow` → `ibv_create_flow`,
///   `destroy_flow` → `ibv_destroy_flow`);
/// - 22 go, untyped, to `context.ops._compat_<op>` (kept only for old binaries);
/// - 6 of the ops later ABIs added go to their slots in front of the context
///   ([`pabi::FRONT_OPS`]) when the context's ABI has them;
/// - the others stay private: `create_cq_ex`, `free_context`, `import_dm`, `import_mr`,
///   `import_pd`, `query_ece`, `query_port`, `query_qp_data_in_order`, `reg_dmabuf_mr`,
///   `set_ece`, `unimport_dm`, `unimport_mr`, `unimport_pd` (`create_cq_ex` and `query_port`
///   have public slots of their own, which the library fills with its wrappers instead), the
///   completion-counter ops and `query_port_speed`.
///
/// # Safety
/// `vctx` points to the common part (`verbs_context_pabi34` view) of a writable `verbs_context`
/// of provider ABI `abi`, whose `priv` is a live `ContextPriv` not otherwise borrowed; `src`
/// points to a readable op table of provider ABI `SRC` (`pabi::op_count(SRC)` slots).
#[inline(always)]
pub(crate) unsafe fn set_ops<const SRC: u32, const PRIVATE: bool>(
    vctx: *mut verbs_context_pabi34,
    abi: u32,
    src: *const usize,
) {
    // SAFETY: the caller's contract: a writable verbs_context.
    let p = unsafe { (*vctx).r#priv }.cast::<ContextPriv>();
    // SAFETY: the caller's contract: `priv` is a live ContextPriv nobody else borrows; it is a
    // separate allocation, so this borrow does not overlap the writes through `vctx` below.
    let table = unsafe { &mut (*p).ops };
    let front = pabi::front_bytes(abi);

    macro_rules! install {
        ($($row:tt)+) => { install_op!(table, vctx, src, front; $($row)+) };
    }

    install!(vctx advise_mr);
    install!(vctx alloc_dm);
    install!(ctx alloc_mw);
    install!(vctx alloc_null_mr);
    install!(compat alloc_pd => _compat_alloc_pd);
    install!(vctx alloc_parent_domain);
    install!(vctx alloc_td);
    install!(vctx attach_counters_point_flow);
    install!(vctx create_counters);
    install!(compat async_event => _compat_async_event);
    install!(compat attach_mcast => _compat_attach_mcast);
    install!(ctx bind_mw);
    install!(vctx close_xrcd);
    install!(compat cq_event => _compat_cq_event);
    install!(compat create_ah => _compat_create_ah);
    install!(compat create_cq => _compat_create_cq);
    install!(private create_cq_ex);
    install!(vctx create_flow => ibv_create_flow);
    install!(vctx create_flow_action_esp);
    install!(compat create_qp => _compat_create_qp);
    install!(vctx create_qp_ex);
    install!(vctx create_rwq_ind_table);
    install!(compat create_srq => _compat_create_srq);
    install!(vctx create_srq_ex);
    install!(vctx create_wq);
    install!(ctx dealloc_mw);
    install!(compat dealloc_pd => _compat_dealloc_pd);
    install!(vctx dealloc_td);
    install!(vctx destroy_counters);
    install!(compat dereg_mr => _compat_dereg_mr);
    install!(compat destroy_ah => _compat_destroy_ah);
    install!(compat destroy_cq => _compat_destroy_cq);
    install!(vctx destroy_flow => ibv_destroy_flow);
    install!(vctx destroy_flow_action);
    install!(compat destroy_qp => _compat_destroy_qp);
    install!(vctx destroy_rwq_ind_table);
    install!(compat destroy_srq => _compat_destroy_srq);
    install!(vctx destroy_wq);
    install!(compat detach_mcast => _compat_detach_mcast);
    install!(private free_context);
    install!(vctx free_dm);
    install!(vctx get_srq_num);
    install!(private import_dm);
    install!(private import_mr);
    install!(private import_pd);
    install!(vctx modify_cq);
    install!(vctx modify_flow_action_esp);
    install!(compat modify_qp => _compat_modify_qp);
    install!(vctx modify_qp_rate_limit);
    install!(compat modify_srq => _compat_modify_srq);
    install!(vctx modify_wq);
    install!(vctx open_qp);
    install!(vctx open_xrcd);
    install!(ctx poll_cq);
    install!(ctx post_recv);
    install!(ctx post_send);
    install!(vctx post_srq_ops);
    install!(ctx post_srq_recv);
    install!(vctx query_device_ex);
    install!(private query_ece);
    install!(private query_port);
    install!(compat query_qp => _compat_query_qp);
    install!(private query_qp_data_in_order);
    install!(vctx query_rt_values);
    install!(vctx read_counters);
    install!(compat query_srq => _compat_query_srq);
    install!(vctx reg_dm_mr);
    install!(private reg_dmabuf_mr);
    install!(compat reg_mr => _compat_reg_mr);
    install!(ctx req_notify_cq);
    install!(compat rereg_mr => _compat_rereg_mr);
    install!(compat resize_cq => _compat_resize_cq);
    install!(private set_ece);
    install!(private unimport_dm);
    install!(private unimport_mr);
    install!(private unimport_pd);
    install!(front alloc_buf);
    install!(front alloc_dmah);
    install!(front dealloc_dmah);
    install!(front dm_export_dmabuf_fd);
    install!(front free_buf);
    install!(front reg_mr_ex);
    install!(private create_comp_cntr);
    install!(private destroy_comp_cntr);
    install!(private inc_comp_cntr);
    install!(private inc_err_comp_cntr);
    install!(private qp_attach_comp_cntr);
    install!(private query_comp_cntr_caps);
    install!(private query_port_speed);
    install!(private read_comp_cntr);
    install!(private read_err_comp_cntr);
    install!(private set_comp_cntr);
    install!(private set_err_comp_cntr);
}

/// `verbs_set_ops` of a provider of ABI `ABI`: its table `ops` into the context whose
/// `verbs_context` starts at `vctx`, each non-NULL op into the context's private table and, per
/// rdma-core's rules, into its public slot (NULL arguments are ignored). The C caller's contract:
/// `vctx` is a context `_verbs_init_and_alloc_context` of this ABI made; `ops` the provider's table
/// of its ABI.
pub(crate) fn verbs_set_ops<const ABI: u32>(
    vctx: *mut core::ffi::c_void,
    ops: *const core::ffi::c_void,
) {
    if vctx.is_null() || ops.is_null() {
        return;
    }
    // Another layout of this ABI (rdma-core v34/v35 of ABI 34, v62/v63 of 59:
    // verbs::ctxlayout); decided when this is compiled for every other ABI.
    if pabi::has_other_layouts(ABI) {
        let layout = crate::verbs::ctxlayout::of(ABI, vctx);
        if layout != ABI && pabi::tables_differ(layout) {
            set_ops_other(vctx, layout, ops);
            return;
        }
    }
    let view = crate::verbs::ctxpriv::view34(vctx, ABI);
    // SAFETY: the C caller's contract: a context of this ABI whose priv is ours; the provider's
    // op table of its ABI.
    unsafe { set_ops::<ABI, true>(view, ABI, ops.cast()) };
}

/// [`verbs_set_ops`] on a context of `layout`, another layout of its ABI whose tables differ
/// ([`pabi::tables_differ`]: it was recorded).
#[cold]
fn set_ops_other(vctx: *mut core::ffi::c_void, layout: u32, ops: *const core::ffi::c_void) {
    let view = crate::verbs::ctxpriv::view34(vctx, layout);
    let src = ops.cast::<usize>();
    match layout {
        // SAFETY: the C caller's contract, for a context and a table of rdma-core v34's layout.
        pabi::LAYOUT_V34 => unsafe { set_ops::<{ pabi::LAYOUT_V34 }, true>(view, layout, src) },
        // SAFETY: the C caller's contract, for a context and a table of rdma-core v35's layout.
        pabi::LAYOUT_V35 => unsafe { set_ops::<{ pabi::LAYOUT_V35 }, true>(view, layout, src) },
        // SAFETY: the C caller's contract, for a context and a table of rdma-core v62/v63's layout.
        pabi::LAYOUT_V62 => unsafe { set_ops::<{ pabi::LAYOUT_V62 }, true>(view, layout, src) },
        // Not a recorded layout (the caller passes only those whose tables differ).
        _ => {}
    }
}

/// Fill the private table and the public slots with the defaults, as a fresh context of provider
/// ABI `abi` gets them before its provider installs its own (`verbs_set_ops(ctx,
/// &verbs_dummy_ops)` in `verbs_init_context`).
///
/// # Safety
/// As for [`set_ops`].
///
/// Two differences from the defaults, in the private table only: `async_event` stays empty
/// (None) until a provider installs its own (its default does nothing, so
/// `ibv_get_async_event`, which tests the slot, skips the call; the public `_compat_*` slot
/// still holds the default, as rdma-core's does), and so do the ops later ABIs added (the public
/// verbs do what rdma-core's default op does when the provider gave none). `cq_event` keeps its
/// default, as in rdma-core: `ibv_get_cq_event` calls the slot without testing it (bench row
/// ibv_get_cq_event+ibv_ack_cq_events: a load, test and branch less), and it is never emptied
/// again ([`set_ops`] installs only a provider's non-NULL ops).
pub(crate) unsafe fn init_defaults(vctx: *mut verbs_context_pabi34, abi: u32) {
    // SAFETY: the caller's contract: a writable verbs_context.
    let p = unsafe { (*vctx).r#priv }.cast::<ContextPriv>();
    // SAFETY: the caller's contract: `priv` is a live ContextPriv nobody else borrows.
    unsafe { (*p).ops = DEFAULT_PRIVATE };
    // SAFETY: the caller's contract; the defaults are a whole table (the newest ABI's layout),
    // whose every slot is set, so each test below is decided when this is compiled.
    unsafe {
        set_ops::<{ pabi::NEWEST }, false>(vctx, abi, (&raw const DEFAULT_OPS).cast::<usize>())
    };
}

#[cfg(test)]
mod tests;
