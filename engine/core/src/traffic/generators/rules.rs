//! Validation rules several generators share (rates, frame intervals, MTUs), each naming
//! the field it checks below the generator's path.

use crate::error::FieldError;
use crate::traffic::limits::{
    MAX_FRAME_INTERVAL_US, MAX_PACKET_BYTES, MAX_RATE_BPS, MIN_MTU_BYTES, MIN_RATE_BPS,
};

/// Appends the problem `message` at `path.field`.
pub(super) fn problem(errors: &mut Vec<FieldError>, path: &str, field: &str, message: String) {
    errors.push(FieldError::new(format!("{path}.{field}"), message));
}

/// Whether `rate` (b/s) is a connection rate the engine accepts.
pub(super) fn rate_in_range(rate: u64) -> bool {
    (MIN_RATE_BPS..=MAX_RATE_BPS).contains(&rate)
}

/// A connection rate (`rate_bps`) within the accepted range.
pub(super) fn check_rate(path: &str, rate: u64, errors: &mut Vec<FieldError>) {
    if !rate_in_range(rate) {
        problem(
            errors,
            path,
            "rate_bps",
            format!(
                "must be a rate between {MIN_RATE_BPS} and {MAX_RATE_BPS} bits per second (got {rate})"
            ),
        );
    }
}

/// A video frame interval (`frame_interval_us`) of 1 us to 10 s.
pub(super) fn check_frame_interval(path: &str, us: u32, errors: &mut Vec<FieldError>) {
    if !(1..=MAX_FRAME_INTERVAL_US).contains(&us) {
        problem(
            errors,
            path,
            "frame_interval_us",
            format!("must be between 1 and {MAX_FRAME_INTERVAL_US} microseconds (got {us})"),
        );
    }
}

/// The MTU (`mtu_bytes`) frames are split with.
pub(super) fn check_mtu(path: &str, bytes: u32, errors: &mut Vec<FieldError>) {
    if !(MIN_MTU_BYTES..=MAX_PACKET_BYTES).contains(&bytes) {
        problem(
            errors,
            path,
            "mtu_bytes",
            format!("must be between {MIN_MTU_BYTES} and {MAX_PACKET_BYTES} bytes (got {bytes})"),
        );
    }
}
