//! Types rdma-core v65's `verbs.h` declares but does not define (`struct X;`): only pointers to
//! them exist in the public API. Not emitted by the header generator (tools/headers,
//! `config::NOT_EMITTED`), so verbs.h forward-declares them and their size stays unknown to C, as with
//! rdma-core's header.

/// The buffer handle of `ibv_alloc_buf` (its layout is rdma-core v65's driver.h's; the library's
/// own is private to src/capi/mr.rs).
#[repr(C)]
pub struct ibv_buf {
    _opaque: [u8; 0],
}

/// The pre-1.1 port attribute layout, named only by `ibv_query_port`'s exported symbol and the
/// `_compat_query_port` op slot.
#[repr(C)]
pub struct _compat_ibv_port_attr {
    _opaque: [u8; 0],
}
