//! The provider ABIs after 34 (`lib<name>-rdmav<N>.so`, N in
//! [`abi::driver::pabi::PROVIDER_ABIS`](crate::abi::driver::pabi::PROVIDER_ABIS)).
//!
//! Symbol versions: every name of a provider ABI's private node is exported in its node
//! `IBVERBS_PRIVATE_<N>`, from the declaration of that name (`#[export(PRIVATE A..)]`): its first
//! ABI's node holds the default version (`IBVERBS_PRIVATE_34` for the names ABI 34 has, as
//! symbols-target.txt names them), later ones non-default twins. Providers always bind by
//! version, so the default only matters for unversioned lookups (dlsym, a link against this
//! library).
//!
//! What changed, and where it is handled:
//! - the layouts of `verbs_context` (public ops in front) and `verbs_context_ops` (more ops):
//!   data in [`abi::driver::pabi`](crate::abi::driver::pabi), used by the generic (`<const ABI:
//!   u32>`) forms of `_verbs_init_and_alloc_context`, `verbs_set_ops`, `verbs_uninit_context` and
//!   `verbs_register_driver_<N>` in [`capi::driver`](crate::capi::driver);
//! - prototypes some releases changed (`forms`): `ibv_cmd_get_context` (ABI 57 added `fd_arr`),
//!   `ibv_cmd_create_cq_ex`/`_ex2` (59 added `prov_attr`), `ibv_cmd_create_qp_ex2` (64 added
//!   `driver`); `ibv_cmd_reg_dmabuf_mr`'s (`driver`, which ABI 34's v44 form lacks) is in
//!   [`capi::mr`](crate::capi::mr) beside the older form;
//! - names later ABIs added: each in its family's file (`#[export(PRIVATE 59..)]` ...): DMA
//!   handles, the dma-buf export and the dma-buf heap in [`capi::dm`](crate::capi::dm),
//!   `ibv_cmd_reg_mr_ex` in [`capi::mr`](crate::capi::mr), the completion counters in
//!   [`capi::counters`](crate::capi::counters), the port speed in
//!   [`capi::device`](crate::capi::device).
//!
//! A context of any provider ABI is worked on through its common part
//! (`verbs::ctxpriv::view34`), which covers `priv`, `sz` and every public slot but the ones in
//! front.

mod forms;

#[cfg(test)]
mod tests;
