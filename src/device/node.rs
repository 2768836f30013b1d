//! Node types and transports.
//!
//! Answers to rdma-core's `decode_knode_type` (`libibverbs/init.c`) and the transport switch in
//! its `try_driver`. The kernel numbers are `RDMA_NODE_*` of `rdma/rdma_netlink.h`; the decoded
//! values are `enum ibv_node_type` / `enum ibv_transport_type` of `infiniband/verbs.h`.
#![forbid(unsafe_code)]

/// Kernel `RDMA_NODE_IB_CA`.
pub const RDMA_NODE_IB_CA: u32 = 1;
/// Kernel `RDMA_NODE_IB_SWITCH`.
pub const RDMA_NODE_IB_SWITCH: u32 = 2;
/// Kernel `RDMA_NODE_IB_ROUTER`.
pub const RDMA_NODE_IB_ROUTER: u32 = 3;
/// Kernel `RDMA_NODE_RNIC`.
pub const RDMA_NODE_RNIC: u32 = 4;
/// Kernel `RDMA_NODE_USNIC`.
pub const RDMA_NODE_USNIC: u32 = 5;
/// Kernel `RDMA_NODE_USNIC_UDP`.
pub const RDMA_NODE_USNIC_UDP: u32 = 6;
/// Kernel `RDMA_NODE_UNSPECIFIED`.
pub const RDMA_NODE_UNSPECIFIED: u32 = 7;

/// `enum ibv_node_type`; `as i32` gives the C value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum NodeType {
    Unknown = -1,
    Ca = 1,
    Switch = 2,
    Router = 3,
    Rnic = 4,
    Usnic = 5,
    UsnicUdp = 6,
    Unspecified = 7,
}

/// `enum ibv_transport_type`; `as i32` gives the C value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum Transport {
    Unknown = -1,
    Ib = 0,
    Iwarp = 1,
    Usnic = 2,
    UsnicUdp = 3,
    Unspecified = 4,
}

/// The kernel's node type number as `ibv_node_type`; anything unlisted is `Unknown`.
pub fn decode_knode_type(knode_type: u32) -> NodeType {
    match knode_type {
        RDMA_NODE_IB_CA => NodeType::Ca,
        RDMA_NODE_IB_SWITCH => NodeType::Switch,
        RDMA_NODE_IB_ROUTER => NodeType::Router,
        RDMA_NODE_RNIC => NodeType::Rnic,
        RDMA_NODE_USNIC => NodeType::Usnic,
        RDMA_NODE_USNIC_UDP => NodeType::UsnicUdp,
        RDMA_NODE_UNSPECIFIED => NodeType::Unspecified,
        _ => NodeType::Unknown,
    }
}

/// The transport `ibv_device.transport_type` gets for a node type: IB for CA/switch/router,
/// iWARP for RNIC, the usNIC ones for usNIC, and unspecified/unknown alike.
pub fn transport_of(node: NodeType) -> Transport {
    match node {
        NodeType::Ca | NodeType::Switch | NodeType::Router => Transport::Ib,
        NodeType::Rnic => Transport::Iwarp,
        NodeType::Usnic => Transport::Usnic,
        NodeType::UsnicUdp => Transport::UsnicUdp,
        NodeType::Unspecified => Transport::Unspecified,
        NodeType::Unknown => Transport::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_and_transport() {
        let table = [
            (0, NodeType::Unknown, Transport::Unknown),
            (1, NodeType::Ca, Transport::Ib),
            (2, NodeType::Switch, Transport::Ib),
            (3, NodeType::Router, Transport::Ib),
            (4, NodeType::Rnic, Transport::Iwarp),
            (5, NodeType::Usnic, Transport::Usnic),
            (6, NodeType::UsnicUdp, Transport::UsnicUdp),
            (7, NodeType::Unspecified, Transport::Unspecified),
            (8, NodeType::Unknown, Transport::Unknown),
            (u32::MAX, NodeType::Unknown, Transport::Unknown),
        ];
        for (k, n, t) in table {
            assert_eq!(decode_knode_type(k), n, "node type {k}");
            assert_eq!(transport_of(n), t, "transport of {n:?}");
        }
        assert_eq!(NodeType::Unknown as i32, -1);
        assert_eq!(NodeType::Unspecified as i32, 7);
        assert_eq!(Transport::Unspecified as i32, 4);
    }
}
