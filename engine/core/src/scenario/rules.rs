//! The limits every scenario keeps and the small rules several validators share (a leaf:
//! `validate` and `network` both use it; it uses neither).

use super::SizeConfig;
use crate::error::FieldError;
use crate::time::BitRate;

/// Largest seed that survives a round trip through JavaScript numbers.
pub const MAX_SEED: u64 = (1 << 53) - 1;
/// Longest simulated run, in microseconds (1000 s).
pub const MAX_DURATION_US: u64 = 1_000_000_000;
/// Most packets a run may be expected to generate.
pub const MAX_EXPECTED_PACKETS: f64 = 2.0e8;
/// Most classes per port (tables of specific technologies limit it further: 32 VCs in
/// Advanced Switching, 15 data VLs in InfiniBand).
pub const MAX_CLASSES: usize = 64;
/// Most packets per burst of a bursty source.
pub const MAX_BURST_PACKETS: u32 = 100_000;
/// Largest DRR quantum, in bytes.
pub const MAX_QUANTUM_BYTES: u32 = 1 << 24;
/// Longest EDF relative deadline, in nanoseconds (1000 s).
pub const MAX_DEADLINE_NS: u64 = 1_000_000_000_000;
/// Most entries in an arbitration table.
pub const MAX_TABLE_ENTRIES: usize = 4096;
/// Largest offered load per class (fraction of the link).
pub const MAX_LOAD: f64 = 4.0;
/// Largest downstream buffer per class, in bytes (1 GiB).
pub const MAX_BUFFER_BYTES: u32 = 1 << 30;
/// Shortest mean on or off period of an on/off source, in microseconds (1 ps).
pub const MIN_PERIOD_US: f64 = 1.0e-6;

/// Collects problems with their paths.
#[derive(Default)]
pub(super) struct Problems(pub(super) Vec<FieldError>);

/// What the scheduler rules need to know of a class (link-lab and network classes alike).
pub(super) struct ClassRef<'a> {
    /// The class's name.
    pub name: &'a str,
    /// The class's offered load.
    pub load: f64,
    /// The class's largest packet, in bytes.
    pub max_bytes: u32,
}

impl Problems {
    /// Number of problems so far.
    pub(super) fn len(&self) -> usize {
        self.0.len()
    }

    /// Appends problems found by another module's checks.
    pub(super) fn extend(&mut self, errors: Vec<FieldError>) {
        self.0.extend(errors);
    }

    pub(super) fn add(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.0.push(FieldError::new(path, message));
    }

    pub(super) fn rate(&mut self, path: &str, gbps: f64) -> Option<BitRate> {
        let rate = BitRate::from_gbps(gbps);
        if rate.is_none() {
            self.add(
                path,
                format!("must be a rate in Gb/s above 0 and at most 1000000 (got {gbps})"),
            );
        }
        rate
    }
}

/// A class name at `at`: not blank, at most 40 characters, unlike every `earlier` name.
pub(super) fn validate_class_name<'a>(
    at: &str,
    name: &str,
    mut earlier: impl Iterator<Item = &'a str>,
    p: &mut Problems,
) {
    if name.trim().is_empty() {
        p.add(format!("{at}.name"), "must not be empty");
    } else if name.chars().count() > 40 {
        p.add(format!("{at}.name"), "must be at most 40 characters");
    } else if earlier.any(|e| e == name) {
        p.add(
            format!("{at}.name"),
            format!("\"{name}\" is used by an earlier class; names must be unique"),
        );
    }
}

pub(super) fn validate_size(size: &SizeConfig, at: &str, p: &mut Problems) -> bool {
    let before = p.0.len();
    crate::traffic::config_rules::validate_size(at, size, &mut p.0);
    p.0.len() == before
}
