//! Provider command layer: flow, flow action and counters commands (rdma-core: cmd_flow.c,
//! cmd_flow_action.c, cmd_counters.c, cmd.c).
//!
//! As in `cmd_qp`: each export checks its pointers and finds the command channel; where the
//! C objects need reading or updating, a `*_with` function does that on a given channel.
//! Command bytes come from [`crate::cmd::flow`] and [`crate::cmd::dm`].
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use crate::verbs::ctxpriv::Context;
use core::ffi::{c_int, c_void};

use crate::abi::ctype::CEnum;
use crate::abi::driver::ibv_flow_action_type::IBV_FLOW_ACTION_ESP;
use crate::abi::driver::{verbs_counters, verbs_flow_action};
use crate::abi::kern_abi::ibv_command_buffer;
use crate::abi::uapi::{ib_uverbs_flow_action_esp, ib_uverbs_flow_action_esp_encap};
use crate::abi::verbs::ibv_flow_action_esp_mask::IBV_FLOW_ACTION_ESP_MASK_ESN;
use crate::abi::verbs::{
    ibv_context, ibv_counters_init_attr, ibv_flow, ibv_flow_action_esp_attr, ibv_flow_attr, ibv_qp,
};
use crate::cmd::Ctx;
use crate::cmd::flow::{EspAttrs, FlowAttr, SpecObj, ib_spec_read_len, kern_spec};
use crate::cret::CRet;
use crate::errno::{Errno, Result};
use crate::verbs::cmdbuf::{chain_from_c, chain_to_c};
use crate::verbs::qpcommon::{allow_disassociate, quiet};

/// `n` bytes at `p` (empty for NULL or 0).
///
/// # Safety
/// A non-NULL `p` points to `n` readable bytes for `'a`.
unsafe fn bytes<'a>(p: *const c_void, n: usize) -> &'a [u8] {
    if p.is_null() || n == 0 {
        return &[];
    }
    // No buffer is longer than isize::MAX bytes (nor may a slice be): a larger size is garbage,
    // taken as that bound (the kernel refuses such a command).
    let n = n.min(isize::MAX as usize);
    // SAFETY: the caller's contract.
    unsafe { core::slice::from_raw_parts(p.cast::<u8>(), n) }
}

/// `int ibv_cmd_create_flow(struct ibv_qp *qp, struct ibv_flow *flow_id, struct ibv_flow_attr *flow_attr, void *ucmd, size_t ucmd_size)`
///
/// Creates a steering rule on `qp` (extended write command CREATE_FLOW): the application's
/// specs, which follow `flow_attr` in memory, converted to the kernel's layout (action specs
/// name their flow action or counters by handle), then the provider's `ucmd`. Sets `flow_id`'s
/// context and handle. 0, or the positive errno: an unknown spec type or a too-short filter is
/// EINVAL, mask bits the kernel cannot take EOPNOTSUPP. Divergence: NULL arguments (or a NULL
/// object in an action spec) give EINVAL; a NULL `ucmd` counts as empty whatever `ucmd_size`.
#[export(PRIVATE 34..)]
fn ibv_cmd_create_flow(
    qp: *mut ibv_qp,
    flow_id: *mut ibv_flow,
    flow_attr: *mut ibv_flow_attr,
    ucmd: *mut c_void,
    ucmd_size: usize,
) -> Raw<c_int> {
    // SAFETY: the provider's objects per the prototype.
    unsafe {
        if qp.is_null() || (*qp).context.is_null() || flow_id.is_null() || flow_attr.is_null() {
            return Errno::EINVAL.ret_errno();
        }
        // rdma-core converts the specs (and refuses a bad one) before it looks at the context.
        let (attr, specs) = match flow_specs(flow_attr) {
            Ok(v) => v,
            Err(e) => return e.ret_errno(),
        };
        let ctx = (*qp).context;
        let Ok(cx) = Context::from_raw(ctx) else {
            return Errno::EINVAL.ret_errno();
        };
        let c = cx.cmd();
        create_flow_run(c, qp, flow_id, &attr, &specs, bytes(ucmd, ucmd_size))
    }
}

/// The kernel handle behind an object an action spec names.
///
/// # Safety
/// `p` is NULL or the `action` / `counters` member of a live `verbs_flow_action` /
/// `verbs_counters`.
unsafe fn spec_handle(kind: SpecObj, p: u64) -> Result<u32> {
    if p == 0 {
        return Err(Errno::EINVAL);
    }
    // SAFETY: the caller's contract; the member is the wrapper's first.
    unsafe {
        Ok(match kind {
            SpecObj::FlowAction => (*(p as usize as *const verbs_flow_action)).handle,
            SpecObj::Counters => (*(p as usize as *const verbs_counters)).handle,
        })
    }
}

/// The flow attributes and the specs that follow `flow_attr` in memory, in the kernel's layout
/// (action specs name their flow action or counters by handle). EINVAL for an unknown spec type
/// or a too-short filter, EOPNOTSUPP for mask bits the kernel cannot take.
///
/// # Safety
/// `flow_attr` is followed by `num_of_specs` specs.
unsafe fn flow_specs(flow_attr: *mut ibv_flow_attr) -> Result<(FlowAttr, Vec<Vec<u8>>)> {
    // SAFETY: the caller's contract.
    unsafe {
        let a = *flow_attr;
        let attr = FlowAttr {
            r#type: a.r#type.raw(),
            priority: a.priority,
            num_of_specs: a.num_of_specs,
            port: a.port,
            flags: a.flags,
        };
        let mut at = flow_attr.add(1).cast::<u8>();
        let mut specs = Vec::new();
        specs
            .try_reserve_exact(usize::from(a.num_of_specs))
            .map_err(|_| Errno::ENOMEM)?;
        for _ in 0..a.num_of_specs {
            let (t, size) = (
                at.cast::<u32>().read_unaligned(),
                at.add(4).cast::<u16>().read_unaligned(),
            );
            let ib = core::slice::from_raw_parts(at, ib_spec_read_len(t, size));
            specs.push(kern_spec(ib, &mut |k, p| spec_handle(k, p))?);
            at = at.add(usize::from(size));
        }
        Ok((attr, specs))
    }
}

/// [`ibv_cmd_create_flow`] on a given command channel.
///
/// # Safety
/// As for the export: `flow_attr` is followed by `num_of_specs` specs.
pub unsafe fn create_flow_with(
    c: Ctx<'_>,
    qp: *mut ibv_qp,
    flow_id: *mut ibv_flow,
    flow_attr: *mut ibv_flow_attr,
    ucmd: &[u8],
) -> c_int {
    // SAFETY: the caller's contract.
    match unsafe { flow_specs(flow_attr) } {
        // SAFETY: as above.
        Ok((attr, specs)) => unsafe { create_flow_run(c, qp, flow_id, &attr, &specs, ucmd) },
        Err(e) => e.ret_errno(),
    }
}

/// CREATE_FLOW of converted specs on `qp`; sets `flow_id`'s context and handle.
///
/// # Safety
/// `qp` and `flow_id` are the provider's live objects.
unsafe fn create_flow_run(
    c: Ctx<'_>,
    qp: *mut ibv_qp,
    flow_id: *mut ibv_flow,
    attr: &FlowAttr,
    specs: &[Vec<u8>],
    ucmd: &[u8],
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe {
        crate::cmd::flow::create_flow(c, (*qp).handle, attr, specs, ucmd)
            .map(|h| {
                (*flow_id).context = (*qp).context;
                (*flow_id).handle = h;
            })
            .ret_errno()
    }
}

/// `int ibv_cmd_destroy_flow(struct ibv_flow *flow_id)`
///
/// FLOW_DESTROY (ioctl, else the extended write command). 0, or the positive errno; a forgiven
/// EIO (disassociated device) is success. Divergence: NULL gives EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_destroy_flow(flow_id: *mut ibv_flow) -> Raw<c_int> {
    // SAFETY: the provider's flow.
    unsafe {
        if flow_id.is_null() || (*flow_id).context.is_null() {
            return Errno::EINVAL.ret_errno();
        }
        let ctx = (*flow_id).context;
        let Ok(cx) = Context::from_raw(ctx) else {
            return Errno::EINVAL.ret_errno();
        };
        let c = cx.cmd();
        crate::cmd::flow::destroy_flow(c, (*flow_id).handle, allow_disassociate()).ret_errno()
    }
}

/// The ESP attributes rdma-core sends: ESN with its mask bit, key material and replay state
/// when their pointers are set, the encapsulation and ESP records when set.
///
/// # Safety
/// `a` and the buffers it points to are live.
unsafe fn esp_attrs<'a>(a: *const ibv_flow_action_esp_attr) -> EspAttrs<'a> {
    // SAFETY: the caller's contract.
    unsafe {
        let a = &*a;
        let with = |p: *mut c_void, n: usize| (!p.is_null()).then(|| bytes(p, n));
        EspAttrs {
            esn: (a.comp_mask & IBV_FLOW_ACTION_ESP_MASK_ESN as u32 != 0).then_some(a.esn),
            keymat: with(a.keymat_ptr, a.keymat_len.into())
                .map(|b| (a.keymat_proto.raw() as u8, b)),
            replay: with(a.replay_ptr, a.replay_len.into())
                .map(|b| (a.replay_proto.raw() as u8, b)),
            encap: with(
                a.esp_encap.cast(),
                size_of::<ib_uverbs_flow_action_esp_encap>(),
            ),
            attrs: with(a.esp_attr.cast(), size_of::<ib_uverbs_flow_action_esp>()),
        }
    }
}

/// `int ibv_cmd_create_flow_action_esp(struct ibv_context *ctx, struct ibv_flow_action_esp_attr *attr, struct verbs_flow_action *flow_action, struct ibv_command_buffer *driver)`
///
/// UVERBS_METHOD_FLOW_ACTION_ESP_CREATE (ioctl only) with the present ESP attributes and the
/// provider's `driver` chain: sets the action's context, type ESP and handle. 0, or the
/// positive errno. Divergence: NULL arguments give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_create_flow_action_esp(
    ctx: *mut ibv_context,
    attr: *mut ibv_flow_action_esp_attr,
    flow_action: *mut verbs_flow_action,
    driver: *mut ibv_command_buffer,
) -> Raw<c_int> {
    if ctx.is_null() || attr.is_null() || flow_action.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's objects and chain per the prototype.
    unsafe {
        let mut links = match chain_from_c(driver) {
            Ok(l) => l,
            Err(e) => return e.ret_errno(),
        };
        let Ok(cx) = Context::from_raw(ctx) else {
            return Errno::EINVAL.ret_errno();
        };
        let c = cx.cmd();
        let r = crate::cmd::flow::create_flow_action_esp(c, &esp_attrs(attr), &mut links);
        chain_to_c(driver, &links);
        r.map(|h| {
            (*flow_action).action.context = ctx;
            (*flow_action).r#type = CEnum::new(IBV_FLOW_ACTION_ESP as u32);
            (*flow_action).handle = h;
        })
        .ret_errno()
    }
}

/// `int ibv_cmd_modify_flow_action_esp(struct verbs_flow_action *flow_action, struct ibv_flow_action_esp_attr *attr, struct ibv_command_buffer *driver)`
///
/// UVERBS_METHOD_FLOW_ACTION_ESP_MODIFY (ioctl only) of the action, with the present ESP
/// attributes and the provider's `driver` chain. 0, or the positive errno. Divergence: NULL
/// arguments give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_modify_flow_action_esp(
    flow_action: *mut verbs_flow_action,
    attr: *mut ibv_flow_action_esp_attr,
    driver: *mut ibv_command_buffer,
) -> Raw<c_int> {
    // SAFETY: the provider's objects and chain per the prototype.
    unsafe {
        if flow_action.is_null() || (*flow_action).action.context.is_null() || attr.is_null() {
            return Errno::EINVAL.ret_errno();
        }
        let mut links = match chain_from_c(driver) {
            Ok(l) => l,
            Err(e) => return e.ret_errno(),
        };
        let ctx = (*flow_action).action.context;
        let Ok(cx) = Context::from_raw(ctx) else {
            return Errno::EINVAL.ret_errno();
        };
        let c = cx.cmd();
        let r = crate::cmd::flow::modify_flow_action_esp(
            c,
            (*flow_action).handle,
            &esp_attrs(attr),
            &mut links,
        );
        chain_to_c(driver, &links);
        r.ret_errno()
    }
}

/// `int ibv_cmd_destroy_flow_action(struct verbs_flow_action *action)`
///
/// UVERBS_METHOD_FLOW_ACTION_DESTROY (ioctl only). 0, or the positive errno; a forgiven EIO
/// (disassociated device) is success. Divergence: NULL gives EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_destroy_flow_action(action: *mut verbs_flow_action) -> Raw<c_int> {
    // SAFETY: the provider's action.
    unsafe {
        if action.is_null() || (*action).action.context.is_null() {
            return Errno::EINVAL.ret_errno();
        }
        let ctx = (*action).action.context;
        let Ok(cx) = Context::from_raw(ctx) else {
            return Errno::EINVAL.ret_errno();
        };
        let c = cx.cmd();
        crate::cmd::flow::destroy_flow_action(c, (*action).handle, allow_disassociate()).ret_errno()
    }
}

/// `int ibv_cmd_create_counters(struct ibv_context *context, struct ibv_counters_init_attr *init_attr, struct verbs_counters *vcounters, struct ibv_command_buffer *link)`
///
/// UVERBS_METHOD_COUNTERS_CREATE (ioctl only) with the provider's `link` chain: sets the
/// counters' context and handle. 0, or the positive errno; any `comp_mask` bit is EOPNOTSUPP
/// (errno left alone, as rdma-core). Divergence: NULL arguments give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_create_counters(
    context: *mut ibv_context,
    init_attr: *mut ibv_counters_init_attr,
    vcounters: *mut verbs_counters,
    link: *mut ibv_command_buffer,
) -> Raw<c_int> {
    if context.is_null() || init_attr.is_null() || vcounters.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's objects and chain per the prototype.
    unsafe {
        if (*init_attr).comp_mask != 0 {
            return quiet(Errno::EOPNOTSUPP);
        }
        let mut links = match chain_from_c(link) {
            Ok(l) => l,
            Err(e) => return e.ret_errno(),
        };
        let Ok(cx) = Context::from_raw(context) else {
            return Errno::EINVAL.ret_errno();
        };
        let c = cx.cmd();
        let r = crate::cmd::dm::create_counters(c, 0, &mut links);
        chain_to_c(link, &links);
        r.map(|h| {
            (*vcounters).counters.context = context;
            (*vcounters).handle = h;
        })
        .ret_errno()
    }
}

/// `int ibv_cmd_destroy_counters(struct verbs_counters *vcounters)`
///
/// UVERBS_METHOD_COUNTERS_DESTROY (ioctl only). 0, or the positive errno; a forgiven EIO
/// (disassociated device) is success. Divergence: NULL gives EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_destroy_counters(vcounters: *mut verbs_counters) -> Raw<c_int> {
    // SAFETY: the provider's counters.
    unsafe {
        if vcounters.is_null() || (*vcounters).counters.context.is_null() {
            return Errno::EINVAL.ret_errno();
        }
        let ctx = (*vcounters).counters.context;
        let Ok(cx) = Context::from_raw(ctx) else {
            return Errno::EINVAL.ret_errno();
        };
        let c = cx.cmd();
        crate::cmd::dm::destroy_counters(c, (*vcounters).handle, allow_disassociate()).ret_errno()
    }
}

/// `int ibv_cmd_read_counters(struct verbs_counters *vcounters, uint64_t *counters_value, uint32_t ncounters, uint32_t flags, struct ibv_command_buffer *link)`
///
/// UVERBS_METHOD_COUNTERS_READ (ioctl only) into `ncounters` values at `counters_value`, with
/// `flags` and the provider's `link` chain. 0, or the positive errno. Divergence: a NULL
/// `vcounters`, or a NULL `counters_value` with a nonzero count, gives EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_read_counters(
    vcounters: *mut verbs_counters,
    counters_value: *mut u64,
    ncounters: u32,
    flags: u32,
    link: *mut ibv_command_buffer,
) -> Raw<c_int> {
    // SAFETY: the provider's counters, array and chain per the prototype.
    unsafe {
        if vcounters.is_null()
            || (*vcounters).counters.context.is_null()
            || (counters_value.is_null() && ncounters != 0)
        {
            return Errno::EINVAL.ret_errno();
        }
        let mut links = match chain_from_c(link) {
            Ok(l) => l,
            Err(e) => return e.ret_errno(),
        };
        let values: &mut [u8] = if ncounters == 0 {
            &mut []
        } else {
            core::slice::from_raw_parts_mut(counters_value.cast::<u8>(), ncounters as usize * 8)
        };
        let ctx = (*vcounters).counters.context;
        let Ok(cx) = Context::from_raw(ctx) else {
            return Errno::EINVAL.ret_errno();
        };
        let c = cx.cmd();
        let r = crate::cmd::dm::read_counters(c, (*vcounters).handle, values, flags, &mut links);
        chain_to_c(link, &links);
        r.ret_errno()
    }
}
