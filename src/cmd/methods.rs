//! The ioctl methods the library sends: one row each, the one list of them (rdma-core has none:
//! its `cmd_*.c` name each method where they build it). Every command the command layer builds is
//! [`IoctlCmd::of`] one of these rows; a provider's own command (`execute_ioctl`,
//! `verbs::cmdbuf`) is forwarded with its ids as the provider built it. The write commands' list
//! is the `KernCmd` impls of [`abi::kern_abi`](crate::abi::kern_abi) (one per request layout; a
//! command number can have several, its old-ABI forms).
//!
//! Read by `tests/providers/run` (`make providers`), which counts how many of these commands
//! and of the write commands the real providers on the emulator reach.
#![forbid(unsafe_code)]

use super::ioctl::{IoctlArg, IoctlCmd};
use crate::abi::uapi::*;

/// An ioctl method of an object (`ib_uverbs_ioctl_hdr`'s `object_id` and `method_id`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Method {
    /// `UVERBS_OBJECT_*`.
    pub object: u16,
    /// `UVERBS_METHOD_*` of that object.
    pub method: u16,
}

impl<'a> IoctlCmd<'a> {
    /// An empty command for method `m` (a row of this table), built and sent in `arg`.
    #[inline]
    pub fn of(arg: &'a mut IoctlArg, m: Method) -> Self {
        IoctlCmd::new(arg, m.object, m.method)
    }
}

macro_rules! methods {
    ($($name:ident = $object:ident . $method:ident;)*) => {
        $(
            #[doc = concat!("`", stringify!($method), "` of `", stringify!($object), "`.")]
            pub const $name: Method = Method { object: $object, method: $method };
        )*
        /// Every row, with its name.
        pub const ALL: &[(&str, Method)] = &[$((stringify!($name), $name)),*];
    };
}

methods! {
    INVOKE_WRITE = UVERBS_OBJECT_DEVICE.UVERBS_METHOD_INVOKE_WRITE;
    GET_CONTEXT = UVERBS_OBJECT_DEVICE.UVERBS_METHOD_GET_CONTEXT;
    QUERY_CONTEXT = UVERBS_OBJECT_DEVICE.UVERBS_METHOD_QUERY_CONTEXT;
    QUERY_PORT = UVERBS_OBJECT_DEVICE.UVERBS_METHOD_QUERY_PORT;
    QUERY_PORT_SPEED = UVERBS_OBJECT_DEVICE.UVERBS_METHOD_QUERY_PORT_SPEED;
    QUERY_GID_TABLE = UVERBS_OBJECT_DEVICE.UVERBS_METHOD_QUERY_GID_TABLE;
    QUERY_GID_ENTRY = UVERBS_OBJECT_DEVICE.UVERBS_METHOD_QUERY_GID_ENTRY;
    QUERY_COMP_CNTR_CAPS = UVERBS_OBJECT_DEVICE.UVERBS_METHOD_QUERY_COMP_CNTR_CAPS;
    ASYNC_EVENT_ALLOC = UVERBS_OBJECT_ASYNC_EVENT.UVERBS_METHOD_ASYNC_EVENT_ALLOC;
    PD_DESTROY = UVERBS_OBJECT_PD.UVERBS_METHOD_PD_DESTROY;
    XRCD_DESTROY = UVERBS_OBJECT_XRCD.UVERBS_METHOD_XRCD_DESTROY;
    AH_DESTROY = UVERBS_OBJECT_AH.UVERBS_METHOD_AH_DESTROY;
    REG_MR = UVERBS_OBJECT_MR.UVERBS_METHOD_REG_MR;
    REG_DMABUF_MR = UVERBS_OBJECT_MR.UVERBS_METHOD_REG_DMABUF_MR;
    DM_MR_REG = UVERBS_OBJECT_MR.UVERBS_METHOD_DM_MR_REG;
    QUERY_MR = UVERBS_OBJECT_MR.UVERBS_METHOD_QUERY_MR;
    ADVISE_MR = UVERBS_OBJECT_MR.UVERBS_METHOD_ADVISE_MR;
    MR_DESTROY = UVERBS_OBJECT_MR.UVERBS_METHOD_MR_DESTROY;
    MW_DESTROY = UVERBS_OBJECT_MW.UVERBS_METHOD_MW_DESTROY;
    CQ_CREATE = UVERBS_OBJECT_CQ.UVERBS_METHOD_CQ_CREATE;
    CQ_DESTROY = UVERBS_OBJECT_CQ.UVERBS_METHOD_CQ_DESTROY;
    QP_CREATE = UVERBS_OBJECT_QP.UVERBS_METHOD_QP_CREATE;
    QP_DESTROY = UVERBS_OBJECT_QP.UVERBS_METHOD_QP_DESTROY;
    QP_ATTACH_COMP_CNTR = UVERBS_OBJECT_QP.UVERBS_METHOD_QP_ATTACH_COMP_CNTR;
    SRQ_CREATE = UVERBS_OBJECT_SRQ.UVERBS_METHOD_SRQ_CREATE;
    SRQ_DESTROY = UVERBS_OBJECT_SRQ.UVERBS_METHOD_SRQ_DESTROY;
    WQ_CREATE = UVERBS_OBJECT_WQ.UVERBS_METHOD_WQ_CREATE;
    WQ_DESTROY = UVERBS_OBJECT_WQ.UVERBS_METHOD_WQ_DESTROY;
    RWQ_IND_TBL_DESTROY = UVERBS_OBJECT_RWQ_IND_TBL.UVERBS_METHOD_RWQ_IND_TBL_DESTROY;
    FLOW_DESTROY = UVERBS_OBJECT_FLOW.UVERBS_METHOD_FLOW_DESTROY;
    FLOW_ACTION_ESP_CREATE = UVERBS_OBJECT_FLOW_ACTION.UVERBS_METHOD_FLOW_ACTION_ESP_CREATE;
    FLOW_ACTION_ESP_MODIFY = UVERBS_OBJECT_FLOW_ACTION.UVERBS_METHOD_FLOW_ACTION_ESP_MODIFY;
    FLOW_ACTION_DESTROY = UVERBS_OBJECT_FLOW_ACTION.UVERBS_METHOD_FLOW_ACTION_DESTROY;
    DM_ALLOC = UVERBS_OBJECT_DM.UVERBS_METHOD_DM_ALLOC;
    DM_FREE = UVERBS_OBJECT_DM.UVERBS_METHOD_DM_FREE;
    COUNTERS_CREATE = UVERBS_OBJECT_COUNTERS.UVERBS_METHOD_COUNTERS_CREATE;
    COUNTERS_READ = UVERBS_OBJECT_COUNTERS.UVERBS_METHOD_COUNTERS_READ;
    COUNTERS_DESTROY = UVERBS_OBJECT_COUNTERS.UVERBS_METHOD_COUNTERS_DESTROY;
    DMAH_ALLOC = UVERBS_OBJECT_DMAH.UVERBS_METHOD_DMAH_ALLOC;
    DMAH_FREE = UVERBS_OBJECT_DMAH.UVERBS_METHOD_DMAH_FREE;
    DMABUF_ALLOC = UVERBS_OBJECT_DMABUF.UVERBS_METHOD_DMABUF_ALLOC;
    COMP_CNTR_CREATE = UVERBS_OBJECT_COMP_CNTR.UVERBS_METHOD_COMP_CNTR_CREATE;
    COMP_CNTR_MODIFY = UVERBS_OBJECT_COMP_CNTR.UVERBS_METHOD_COMP_CNTR_MODIFY;
    COMP_CNTR_READ = UVERBS_OBJECT_COMP_CNTR.UVERBS_METHOD_COMP_CNTR_READ;
    COMP_CNTR_DESTROY = UVERBS_OBJECT_COMP_CNTR.UVERBS_METHOD_COMP_CNTR_DESTROY;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No method twice, and no two names for one.
    #[test]
    fn rows_are_distinct() {
        for (i, (n, m)) in ALL.iter().enumerate() {
            for (n2, m2) in ALL.iter().skip(i + 1) {
                assert!(n != n2 && m != m2, "{n} and {n2}");
            }
        }
    }
}
