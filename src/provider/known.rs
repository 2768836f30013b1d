//! What rdma-core's own providers claim, known without loading them: facts of the match tables in
//! rdma-core's providers/*/ (`VERBS_DRIVER_ID`, `VERBS_PCI_MATCH`, `VERBS_NAME_MATCH`,
//! `VERBS_MODALIAS_MATCH`), read at every release from v34 (the first at provider ABI 34) to v65,
//! and the kernel uapi's `enum rdma_driver_id` (rdma/ib_user_ioctl_verbs.h).
//!
//! Each entry is a *superset* of what any of those releases registers under that configured name
//! (the `driver NAME` of /etc/libibverbs.d, file `libNAME-rdmav<ABI>.so`): one provider, with a
//! match table and no `match_device` callback, whose table entries all fall inside the entry's
//! driver ids, name prefixes, PCI vendors (a vendor stands for every device id of that vendor, so
//! a release that adds a device of a vendor it already serves stays covered) and modalias
//! patterns. `session` relies on that to leave names unloaded; what it assumes of releases
//! after v65 is written there.
//!
//! Facts from the releases, for the record: hns has no driver id (and until v40 also matched
//! three platform modaliases); mthca has none either; i40iw (until v34) and irdma (from v35) claim
//! the same id; vmw_pvrdma registers as "pvrdma"; ionic is new in v62; no release has a provider
//! for CXGB3, NES or USNIC.
#![forbid(unsafe_code)]

use std::sync::atomic::{AtomicU32, Ordering};

use super::matcher::{Device, MatchKind, ProviderMatch, match_name};
use crate::abi::uapi::rdma_driver_id as id;

/// One rdma-core provider as its configured name knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnownProvider {
    /// The configured name (`driver NAME`).
    pub config_name: &'static str,
    /// The name its `verbs_device_ops` registers under.
    pub ops_name: &'static str,
    /// `VERBS_DRIVER_ID` entries.
    pub driver_ids: &'static [u32],
    /// `VERBS_NAME_MATCH` prefixes.
    pub names: &'static [&'static str],
    /// Vendors of its `VERBS_PCI_MATCH` entries.
    pub pci_vendors: &'static [u16],
    /// `VERBS_MODALIAS_MATCH` patterns.
    pub modalias: &'static [&'static str],
}

const fn p(
    config_name: &'static str,
    ops_name: &'static str,
    driver_ids: &'static [u32],
    pci_vendors: &'static [u16],
) -> KnownProvider {
    KnownProvider {
        config_name,
        ops_name,
        driver_ids,
        names: &[],
        pci_vendors,
        modalias: &[],
    }
}

const BROADCOM: u16 = 0x14e4;
const CHELSIO: u16 = 0x1425;
const AMAZON: u16 = 0x1d0f;
const ALIBABA: u16 = 0x1ded;
const INTEL: u16 = 0x8086;
const HUAWEI: u16 = 0x19e5;
const PATHSCALE: u16 = 0x1fc1;
const QLOGIC: u16 = 0x1077;
const MELLANOX: u16 = 0x15b3;
const TOPSPIN: u16 = 0x1867;
const EMULEX: u16 = 0x10df;
const VMWARE: u16 = 0x15ad;

/// Every provider rdma-core v34 … v65 ships, by configured name.
pub const KNOWN: &[KnownProvider] = &[
    p(
        "bnxt_re",
        "bnxt_re",
        &[id::RDMA_DRIVER_BNXT_RE as u32],
        &[BROADCOM],
    ),
    p(
        "cxgb4",
        "cxgb4",
        &[id::RDMA_DRIVER_CXGB4 as u32],
        &[CHELSIO],
    ),
    p("efa", "efa", &[id::RDMA_DRIVER_EFA as u32], &[AMAZON]),
    p(
        "erdma",
        "erdma",
        &[id::RDMA_DRIVER_ERDMA as u32],
        &[ALIBABA],
    ),
    p(
        "hfi1verbs",
        "hfi1verbs",
        &[id::RDMA_DRIVER_HFI1 as u32],
        &[INTEL],
    ),
    KnownProvider {
        modalias: &[
            "acpi*:HISI00D1:*",
            "of:N*T*Chisilicon,hns-roce-v1C*",
            "of:N*T*Chisilicon,hns-roce-v1",
        ],
        ..p("hns", "hns", &[], &[HUAWEI])
    },
    p("i40iw", "i40iw", &[id::RDMA_DRIVER_I40IW as u32], &[INTEL]),
    p("ionic", "ionic", &[id::RDMA_DRIVER_IONIC as u32], &[]),
    p(
        "ipathverbs",
        "ipathverbs",
        &[id::RDMA_DRIVER_QIB as u32],
        &[PATHSCALE, QLOGIC],
    ),
    p("irdma", "irdma", &[id::RDMA_DRIVER_I40IW as u32], &[INTEL]),
    p("mana", "mana", &[id::RDMA_DRIVER_MANA as u32], &[]),
    KnownProvider {
        modalias: &["vmbus:3daf2e8ca732094bab99bd1f1c86b501"],
        ..p("mlx4", "mlx4", &[id::RDMA_DRIVER_MLX4 as u32], &[MELLANOX])
    },
    p("mlx5", "mlx5", &[id::RDMA_DRIVER_MLX5 as u32], &[MELLANOX]),
    p("mthca", "mthca", &[], &[MELLANOX, TOPSPIN]),
    p(
        "ocrdma",
        "ocrdma",
        &[id::RDMA_DRIVER_OCRDMA as u32],
        &[EMULEX],
    ),
    p("qedr", "qedr", &[id::RDMA_DRIVER_QEDR as u32], &[QLOGIC]),
    KnownProvider {
        names: &["rxe"],
        ..p("rxe", "rxe", &[id::RDMA_DRIVER_RXE as u32], &[])
    },
    p("siw", "siw", &[id::RDMA_DRIVER_SIW as u32], &[]),
    p(
        "vmw_pvrdma",
        "pvrdma",
        &[id::RDMA_DRIVER_VMW_PVRDMA as u32],
        &[VMWARE],
    ),
];

/// The kernel uverbs ABI range each provider accepts (`match_min_abi_version` to
/// `match_max_abi_version` of its `verbs_device_ops`, 64-bit builds; the same at v56.1, v57,
/// v61, v64 and v65), by configured name: what `ibverbs-doctor` judges a device's `abi_version` by
/// without loading the provider. `i32::MAX` stands for rdma-core's `INT_MAX` (no upper bound).
/// None for a name not listed (i40iw, last shipped in v34).
pub fn kernel_abi_range(config_name: &str) -> Option<(u32, u32)> {
    const ANY: u32 = i32::MAX as u32;
    Some(match config_name {
        "bnxt_re" | "efa" | "ionic" | "mana" | "mlx5" | "siw" => (1, 1),
        "cxgb4" | "hfi1verbs" | "hns" | "ipathverbs" => (0, ANY),
        "erdma" | "mthca" => (0, 1),
        "irdma" => (0, 5),
        "mlx4" => (2, 4),
        "ocrdma" => (2, 2),
        "qedr" => (8, 8),
        "rxe" => (1, 2),
        "vmw_pvrdma" => (3, 3),
        _ => return None,
    })
}

/// Bit i set: a registration in this process contradicted `KNOWN[i]` (see [`audit`]).
static CONTRADICTED: AtomicU32 = AtomicU32::new(0);
const _: () = assert!(KNOWN.len() <= 32);

/// Tell helgrind that `CONTRADICTED` is an atomic
/// ([`sys::sync::atomic_static`](crate::sys::sync::atomic_static)).
pub fn atomics_for_helgrind() {
    crate::sys::sync::atomic_static(&CONTRADICTED);
}

fn trusted(i: usize) -> Option<&'static KnownProvider> {
    (CONTRADICTED.load(Ordering::Relaxed) & (1 << i) == 0).then(|| &KNOWN[i])
}

/// The entry for a configured name (exact bytes; a path or anything else unknown gives None),
/// unless this process has seen it contradicted.
pub fn by_config_name(name: &[u8]) -> Option<&'static KnownProvider> {
    trusted(
        KNOWN
            .iter()
            .position(|k| k.config_name.as_bytes() == name)?,
    )
}

/// A registration that does not fit the entry for its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contradiction {
    pub config_name: &'static str,
    pub reason: String,
}

/// Check a provider registration against the table: the entry for `loaded_as` (the configured
/// name being loaded, if any) and the entry for the provider's own name. On a contradiction the
/// entry is not used again in this process (its name is then loaded in order, as rdma-core
/// does) and the caller logs the reason.
pub fn audit(loaded_as: Option<&[u8]>, m: &ProviderMatch) -> Option<Contradiction> {
    let by_config =
        loaded_as.and_then(|n| KNOWN.iter().position(|k| k.config_name.as_bytes() == n));
    let by_ops = KNOWN.iter().position(|k| k.ops_name == m.name);
    let i = by_config.or(by_ops)?;
    let k = &KNOWN[i];
    let reason = if k.ops_name != m.name {
        Some(format!(
            "it registered provider {:?}, not {:?}",
            m.name, k.ops_name
        ))
    } else {
        k.uncovered(m)
    }?;
    CONTRADICTED.fetch_or(1 << i, Ordering::Relaxed);
    Some(Contradiction {
        config_name: k.config_name,
        reason,
    })
}

/// The configured names whose provider claims kernel driver id `id` (the table from
/// `enum rdma_driver_id` to providers; empty for an id no rdma-core provider claims).
pub fn claimants(driver_id: u32) -> impl Iterator<Item = &'static KnownProvider> {
    KNOWN.iter().filter(move |k| k.may_claim_id(driver_id))
}

/// `enum rdma_driver_id`'s name for a value without its `RDMA_DRIVER_` prefix ("RXE"), for messages.
pub fn driver_id_name(driver_id: u32) -> Option<&'static str> {
    const NAMES: [&str; 22] = [
        "UNKNOWN",
        "MLX5",
        "MLX4",
        "CXGB3",
        "CXGB4",
        "MTHCA",
        "BNXT_RE",
        "OCRDMA",
        "NES",
        "IRDMA",
        "VMW_PVRDMA",
        "QEDR",
        "HNS",
        "USNIC",
        "RXE",
        "HFI1",
        "QIB",
        "EFA",
        "SIW",
        "ERDMA",
        "MANA",
        "IONIC",
    ];
    NAMES.get(driver_id as usize).copied()
}

impl KnownProvider {
    /// Whether its table may hold `VERBS_DRIVER_ID(driver_id)`.
    pub fn may_claim_id(&self, driver_id: u32) -> bool {
        self.driver_ids.contains(&driver_id)
    }

    /// Whether its table may match `dev` at any point of a walk (by driver id, by name, or by
    /// modalias whether or not the modalias has been read yet). False means: whatever release
    /// is installed, `try_driver` on its provider sets the device's current match to none, marks
    /// the modalias read, and fails, with no provider code called and nothing printed.
    pub fn may_match(&self, dev: &Device) -> bool {
        if dev.known_driver_id().is_some_and(|d| self.may_claim_id(d)) {
            return true;
        }
        let envelope = ProviderMatch {
            name: String::new(),
            min_abi: 0,
            max_abi: 0,
            table: Some(self.names.iter().map(|n| MatchKind::name(n)).collect()),
            has_match_device: false,
        };
        if match_name(&envelope, dev).is_some() {
            return true;
        }
        // Before a failed read no modalias entry matches; after it, entries see "".
        let modalias = dev.modalias().unwrap_or(b"");
        self.modalias
            .iter()
            .any(|m| MatchKind::Modalias(m.as_bytes().to_vec()).matches_modalias(modalias))
            || self
                .pci_vendors
                .iter()
                .any(|v| modalias.starts_with(vendor_prefix(*v).as_bytes()))
    }
}

impl KnownProvider {
    /// Whether it may match `dev` only through a PCI entry of a vendor it shares (its table's
    /// device ids, which this table does not keep, decide): [`KnownProvider::may_match`] holds,
    /// but not by driver id, name or modalias pattern.
    pub fn by_vendor_only(&self, dev: &Device) -> bool {
        if dev.known_driver_id().is_some_and(|d| self.may_claim_id(d)) {
            return false;
        }
        let envelope = ProviderMatch {
            name: String::new(),
            min_abi: 0,
            max_abi: 0,
            table: Some(self.names.iter().map(|n| MatchKind::name(n)).collect()),
            has_match_device: false,
        };
        let modalias = dev.modalias().unwrap_or(b"");
        match_name(&envelope, dev).is_none()
            && !self
                .modalias
                .iter()
                .any(|m| MatchKind::Modalias(m.as_bytes().to_vec()).matches_modalias(modalias))
            && self.may_match(dev)
    }

    /// What in `m` this entry does not cover, if anything.
    pub fn uncovered(&self, m: &ProviderMatch) -> Option<String> {
        if m.has_match_device {
            return Some("it has a match_device callback".into());
        }
        let Some(table) = &m.table else {
            return Some("it has no match table".into());
        };
        let name_patterns: Vec<MatchKind> = self.names.iter().map(|n| MatchKind::name(n)).collect();
        table.iter().find_map(|e| {
            let covered = match e {
                MatchKind::DriverId(d) => u32::try_from(*d).is_ok_and(|d| self.may_claim_id(d)),
                MatchKind::Pci { vendor, .. } => self.pci_vendors.contains(vendor),
                MatchKind::Modalias(p) => {
                    self.modalias.iter().any(|m| m.as_bytes() == p.as_slice())
                        || name_patterns.contains(e)
                }
                MatchKind::Other(_) => true,
            };
            (!covered).then(|| format!("its table has {e:?}"))
        })
    }
}

/// The fixed start of every PCI pattern rdma-core builds for `vendor` (`pci:v%08Xd%08Xsv*`).
fn vendor_prefix(vendor: u16) -> String {
    format!("pci:v{vendor:08X}d")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        for (i, k) in KNOWN.iter().enumerate() {
            assert!(
                KNOWN[..i].iter().all(|o| o.config_name != k.config_name),
                "{}",
                k.config_name
            );
        }
    }

    #[test]
    fn pci_prefix_is_the_patterns_literal_start() {
        let full = MatchKind::pci_pattern(0x15b3, 0x1017);
        assert!(full.starts_with(&vendor_prefix(0x15b3)));
        assert_eq!(vendor_prefix(0x15ad), "pci:v000015ADd");
    }
}
