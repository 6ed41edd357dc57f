//! The limits every scenario keeps and the small rules several validators share (a leaf:
//! `validate` and `network` both use it; it uses neither).

use super::SizeConfig;
pub(crate) use crate::problems::{ClassRef, Problems};

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
/// Largest offered load per class (fraction of the link).
pub const MAX_LOAD: f64 = 4.0;
/// Largest downstream buffer per class, in bytes (1 GiB).
pub const MAX_BUFFER_BYTES: u32 = 1 << 30;
/// Shortest mean on or off period of an on/off source, in microseconds (1 ps).
pub const MIN_PERIOD_US: f64 = 1.0e-6;

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
