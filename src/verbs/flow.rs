//! Flow steering rules, flow actions and flow counters: the provider's commands (rdma-core:
//! cmd.c `ibv_cmd_create_flow`; cmd_flow.c, cmd_flow_action.c, cmd_counters.c).
//!
//! A rule's specs follow its `ibv_flow_attr` in the caller's memory; they are read here and
//! converted by [`cmd::flow`](crate::cmd::flow) (action specs name their flow action or counters by
//! address, turned into kernel handles here). The provider's command chains are read before each
//! command and written back after it. Command bytes come from [`cmd::flow`](crate::cmd::flow) and,
//! for the counters, [`cmd::dm`](crate::cmd::dm). Called by [`capi::flow`](crate::capi::flow).
use crate::abi::ctype::CEnum;
use crate::abi::driver::ibv_flow_action_type::IBV_FLOW_ACTION_ESP;
use crate::abi::driver::{verbs_counters, verbs_flow_action};
use crate::abi::uapi::{ib_uverbs_flow_action_esp, ib_uverbs_flow_action_esp_encap};
use crate::abi::verbs::ibv_flow_action_esp_mask::IBV_FLOW_ACTION_ESP_MASK_ESN;
use crate::abi::verbs::{
    ibv_counters_init_attr, ibv_flow, ibv_flow_action_esp_attr, ibv_flow_attr,
};
use crate::cmd::flow::{EspAttrs, FlowAttr, SpecObj, ib_spec_read_len, kern_spec};
use crate::errno::{Errno, Result};
use crate::verbs::cmdbuf::Chain;
use crate::verbs::disassoc::allow_disassociate;
use crate::verbs::handle::{Counters, Ctx, Flow, FlowAction, Ptr, Qp, set};

/// The kernel handle behind an object an action spec names by address (`p`: the `action`
/// member of a `verbs_flow_action`, or the `counters` member of a `verbs_counters`, each its
/// wrapper's first). EINVAL for NULL.
fn spec_handle(kind: SpecObj, p: u64) -> Result<u32> {
    if p == 0 {
        return Err(Errno::EINVAL);
    }
    let at = p as usize;
    Ok(match kind {
        // SAFETY: the C contract of `ibv_create_flow`: an action spec names a live object.
        SpecObj::FlowAction => unsafe { (*(at as *const verbs_flow_action)).handle },
        // SAFETY: the C contract of `ibv_create_flow`: a counters spec names a live `verbs_counters`.
        SpecObj::Counters => unsafe { (*(at as *const verbs_counters)).handle },
    })
}

/// The rule's fields and the specs that follow `flow_attr` in memory, in the kernel's layout.
/// EINVAL for an unknown spec type or a too-short filter, EOPNOTSUPP for mask bits the kernel
/// cannot take, ENOMEM when the list cannot be allocated.
fn flow_specs(flow_attr: Ptr<ibv_flow_attr>) -> Result<(FlowAttr, Vec<Vec<u8>>)> {
    let a = flow_attr.read();
    let attr = FlowAttr {
        r#type: a.r#type.raw(),
        priority: a.priority,
        num_of_specs: a.num_of_specs,
        port: a.port,
        flags: a.flags,
    };
    let mut at = flow_attr.as_ptr().wrapping_add(1).cast::<u8>();
    let mut specs = Vec::new();
    specs
        .try_reserve_exact(usize::from(a.num_of_specs))
        .map_err(|_| Errno::ENOMEM)?;
    for _ in 0..a.num_of_specs {
        // SAFETY: the C contract: `num_of_specs` specs follow the rule, each starting with its
        // 32-bit type and 16-bit size.
        let t = unsafe { at.cast::<u32>().read_unaligned() };
        // SAFETY: the same spec's header: its 16-bit size follows the 32-bit type, within the spec.
        let size = unsafe { at.wrapping_add(4).cast::<u16>().read_unaligned() };
        // SAFETY: the C contract: the spec's fixed struct (or its declared size) is readable.
        let ib = unsafe { core::slice::from_raw_parts(at, ib_spec_read_len(t, size)) };
        specs.push(kern_spec(ib, &mut spec_handle)?);
        at = at.wrapping_add(usize::from(size));
    }
    Ok((attr, specs))
}

/// `ibv_cmd_create_flow`: the rule on the QP (extended CREATE_FLOW:
/// [`cmd::flow::create_flow`](crate::cmd::flow::create_flow)): the specs that follow `flow_attr` in
/// memory, converted to the kernel's layout (action specs name their flow action or counters by
/// handle), then the provider's `ucmd` (NULL counts as empty whatever its size); sets the flow's
/// context and handle. The specs are converted (and refused) before the QP's context is looked at,
/// as rdma-core does: an unknown spec type or a too-short filter is EINVAL, mask bits the kernel
/// cannot take EOPNOTSUPP. Divergence: a NULL object in an action spec is EINVAL.
pub(crate) fn cmd_create_flow(
    qp: Qp,
    flow_id: Ptr<ibv_flow>,
    flow_attr: Ptr<ibv_flow_attr>,
    ucmd: &[u8],
) -> Result<()> {
    let (attr, specs) = flow_specs(flow_attr)?;
    let c = qp.ctx().channel();
    create_flow_run(c.cmd(), qp, flow_id, &attr, &specs, ucmd)
}

/// [`cmd_create_flow`] on a given command channel (the fake-kernel tests' seam).
pub(crate) fn create_flow_on(
    c: crate::cmd::Ctx<'_>,
    qp: Qp,
    flow_id: Ptr<ibv_flow>,
    flow_attr: Ptr<ibv_flow_attr>,
    ucmd: &[u8],
) -> Result<()> {
    let (attr, specs) = flow_specs(flow_attr)?;
    create_flow_run(c, qp, flow_id, &attr, &specs, ucmd)
}

/// CREATE_FLOW of converted specs on the QP; sets the flow's context and handle.
fn create_flow_run(
    c: crate::cmd::Ctx<'_>,
    qp: Qp,
    flow_id: Ptr<ibv_flow>,
    attr: &FlowAttr,
    specs: &[Vec<u8>],
    ucmd: &[u8],
) -> Result<()> {
    // SAFETY: a live QP (the handle's contract).
    let qph = unsafe { (*qp.raw()).handle };
    let h = crate::cmd::flow::create_flow(c, qph, attr, specs, ucmd)?;
    set!(flow_id.context = qp.context());
    set!(flow_id.handle = h);
    Ok(())
}

/// `ibv_cmd_destroy_flow`: the rule destroyed by handle (FLOW_DESTROY ioctl, else the extended
/// write command: [`cmd::flow::destroy_flow`](crate::cmd::flow::destroy_flow)); EIO counts as done
/// on a disassociated device when allowed
/// ([`allow_disassociate`]: `RDMAV_ALLOW_DISASSOC_DESTROY` set).
pub(crate) fn cmd_destroy_flow(flow: Flow) -> Result<()> {
    // SAFETY: a live flow (the handle's contract).
    let h = unsafe { (*flow.raw()).handle };
    let c = flow.ctx().channel();
    crate::cmd::flow::destroy_flow(c.cmd(), h, allow_disassociate())
}

/// `n` bytes at `p`, or None for NULL.
///
/// # Safety
/// A non-NULL `p` points to `n` readable bytes for the call.
unsafe fn present(p: *mut core::ffi::c_void, n: usize) -> Option<&'static [u8]> {
    if p.is_null() {
        return None;
    }
    // SAFETY: the caller's contract.
    Some(unsafe { crate::verbs::buf::provider_buf(p, n) })
}

/// The ESP attributes rdma-core sends: ESN with its mask bit, key material and replay state
/// when their pointers are set, the encapsulation and ESP records when set.
fn esp_attrs(a: Ptr<ibv_flow_action_esp_attr>) -> EspAttrs<'static> {
    let a = a.read();
    let esn = a.comp_mask & IBV_FLOW_ACTION_ESP_MASK_ESN as u32 != 0;
    // SAFETY: the C contract of the ESP commands: each pointer the attributes hold is NULL or
    // its record, of the length given beside it, live for the call.
    let keymat = unsafe { present(a.keymat_ptr, a.keymat_len.into()) };
    // SAFETY: the C contract: `replay_ptr` is NULL or `replay_len` readable bytes, live for the call.
    let replay = unsafe { present(a.replay_ptr, a.replay_len.into()) };
    let encap_len = size_of::<ib_uverbs_flow_action_esp_encap>();
    // SAFETY: the C contract: `esp_encap` is NULL or a whole encap record, live for the call.
    let encap = unsafe { present(a.esp_encap.cast(), encap_len) };
    // SAFETY: the C contract: `esp_attr` is NULL or a whole ESP attribute record, live for the call.
    let attrs = unsafe { present(a.esp_attr.cast(), size_of::<ib_uverbs_flow_action_esp>()) };
    EspAttrs {
        esn: esn.then_some(a.esn),
        keymat: keymat.map(|b| (a.keymat_proto.raw() as u8, b)),
        replay: replay.map(|b| (a.replay_proto.raw() as u8, b)),
        encap,
        attrs,
    }
}

/// `ibv_cmd_create_flow_action_esp`: an ESP flow action (ioctl only:
/// [`cmd::flow::create_flow_action_esp`](crate::cmd::flow::create_flow_action_esp)) with the
/// present attributes and the provider's `driver` chain; sets the action's context, type ESP and
/// handle.
pub(crate) fn cmd_create_flow_action_esp(
    ctx: Ctx,
    attr: Ptr<ibv_flow_action_esp_attr>,
    flow_action: Ptr<verbs_flow_action>,
    mut driver: Chain,
) -> Result<()> {
    let c = ctx.channel();
    let h = crate::cmd::flow::create_flow_action_esp(c.cmd(), &esp_attrs(attr), &mut driver)?;
    set!(flow_action.action.context = ctx.raw());
    set!(flow_action.r#type = CEnum::new(IBV_FLOW_ACTION_ESP as u32));
    set!(flow_action.handle = h);
    Ok(())
}

/// The handle of a flow action of this library's provider.
fn action_handle(action: FlowAction) -> u32 {
    let v = action.raw().cast::<verbs_flow_action>();
    // SAFETY: a live action (the handle's contract): the `action` member of a
    // `verbs_flow_action`, its first.
    unsafe { (*v).handle }
}

/// `ibv_cmd_modify_flow_action_esp`: the action modified (ioctl only:
/// [`cmd::flow::modify_flow_action_esp`](crate::cmd::flow::modify_flow_action_esp)) with the
/// present attributes and the provider's `driver` chain.
pub(crate) fn cmd_modify_flow_action_esp(
    action: FlowAction,
    attr: Ptr<ibv_flow_action_esp_attr>,
    mut driver: Chain,
) -> Result<()> {
    let c = action.ctx().channel();
    let h = action_handle(action);
    crate::cmd::flow::modify_flow_action_esp(c.cmd(), h, &esp_attrs(attr), &mut driver)
}

/// `ibv_cmd_destroy_flow_action`: the action destroyed by handle (ioctl only:
/// [`cmd::flow::destroy_flow_action`](crate::cmd::flow::destroy_flow_action)); EIO counts as done
/// on a disassociated device when allowed
/// ([`allow_disassociate`]: `RDMAV_ALLOW_DISASSOC_DESTROY` set).
pub(crate) fn cmd_destroy_flow_action(action: FlowAction) -> Result<()> {
    let c = action.ctx().channel();
    let h = action_handle(action);
    crate::cmd::flow::destroy_flow_action(c.cmd(), h, allow_disassociate())
}

/// `ibv_counters_init_attr` as `ibv_cmd_create_counters` takes it: any `comp_mask` bit is
/// EOPNOTSUPP (which rdma-core returns without setting errno: the export makes it quiet).
pub(crate) fn check_counters_attr(attr: Ptr<ibv_counters_init_attr>) -> Result<()> {
    if attr.read().comp_mask != 0 {
        return Err(Errno::EOPNOTSUPP);
    }
    Ok(())
}

/// `ibv_cmd_create_counters`: new counters (ioctl only:
/// [`cmd::dm::create_counters`](crate::cmd::dm::create_counters)) with the provider's `link` chain,
/// after the `comp_mask` check ([`check_counters_attr`]); sets their context and handle.
pub(crate) fn cmd_create_counters(
    ctx: Ctx,
    vcounters: Ptr<verbs_counters>,
    mut link: Chain,
) -> Result<()> {
    let c = ctx.channel();
    let h = crate::cmd::dm::create_counters(c.cmd(), 0, &mut link)?;
    set!(vcounters.counters.context = ctx.raw());
    set!(vcounters.handle = h);
    Ok(())
}

/// The handle of counters of this library's provider.
fn counters_handle(counters: Counters) -> u32 {
    let v = counters.raw().cast::<verbs_counters>();
    // SAFETY: live counters (the handle's contract): the `counters` member of a
    // `verbs_counters`, its first.
    unsafe { (*v).handle }
}

/// `ibv_cmd_destroy_counters`: the counters destroyed by handle (ioctl only:
/// [`cmd::dm::destroy_counters`](crate::cmd::dm::destroy_counters)); EIO counts as done on a
/// disassociated device when allowed
/// ([`allow_disassociate`]: `RDMAV_ALLOW_DISASSOC_DESTROY` set).
pub(crate) fn cmd_destroy_counters(counters: Counters) -> Result<()> {
    let c = counters.ctx().channel();
    let h = counters_handle(counters);
    crate::cmd::dm::destroy_counters(c.cmd(), h, allow_disassociate())
}

/// `ibv_cmd_read_counters`: the counters' values into the `ncounters` values at `counters_value`
/// (ioctl only: [`cmd::dm::read_counters`](crate::cmd::dm::read_counters)), with `flags` and the
/// provider's `link` chain.
pub(crate) fn cmd_read_counters(
    counters: Counters,
    values: &mut [u64],
    flags: u32,
    mut link: Chain,
) -> Result<()> {
    let bytes: &mut [u8] = if values.is_empty() {
        &mut []
    } else {
        let n = size_of_val(values);
        // SAFETY: the caller's values seen as their bytes (`n` of them), for the call.
        unsafe { core::slice::from_raw_parts_mut(values.as_mut_ptr().cast::<u8>(), n) }
    };
    let c = counters.ctx().channel();
    let h = counters_handle(counters);
    crate::cmd::dm::read_counters(c.cmd(), h, bytes, flags, &mut link)
}
