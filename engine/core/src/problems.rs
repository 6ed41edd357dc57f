//! Collecting validation problems with their paths, and what the scheduler rules need to
//! know of a class. A leaf: the scenario validators and every scheduler's own rules use it;
//! it uses only the error type and the clock's rates.

use crate::error::FieldError;
use crate::time::BitRate;

/// Collects problems with their paths.
#[derive(Default)]
pub(crate) struct Problems(pub(crate) Vec<FieldError>);

/// What the scheduler rules need to know of a class (link-lab and network classes alike).
pub(crate) struct ClassRef<'a> {
    /// The class's name.
    pub name: &'a str,
    /// The class's offered load.
    pub load: f64,
    /// The class's largest packet, in bytes.
    pub max_bytes: u32,
}

impl Problems {
    /// Number of problems so far.
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// Appends problems found by another module's checks.
    pub(crate) fn extend(&mut self, errors: Vec<FieldError>) {
        self.0.extend(errors);
    }

    pub(crate) fn add(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.0.push(FieldError::new(path, message));
    }

    pub(crate) fn rate(&mut self, path: &str, gbps: f64) -> Option<BitRate> {
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
