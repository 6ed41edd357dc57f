//! The rules of a packet-size distribution (a leaf: the traffic configuration's rules, the
//! burst generator and the link lab's validation use them).

use crate::error::FieldError;
use crate::scenario::SizeConfig;
use crate::traffic::limits::MAX_PACKET_BYTES;

/// Checks a packet-size distribution (same rules as the link lab's).
pub fn validate_size(path: &str, size: &SizeConfig, errors: &mut Vec<FieldError>) {
    let mut check_bytes = |field: &str, bytes: u32| {
        if !(1..=MAX_PACKET_BYTES).contains(&bytes) {
            errors.push(FieldError::new(
                format!("{path}.{field}"),
                format!("must be between 1 and {MAX_PACKET_BYTES} bytes (got {bytes})"),
            ));
        }
    };
    let (min, max) = match size {
        SizeConfig::Fixed(f) => {
            check_bytes("bytes", f.bytes);
            (f.bytes, f.bytes)
        }
        SizeConfig::Uniform(u) => {
            check_bytes("min_bytes", u.min_bytes);
            check_bytes("max_bytes", u.max_bytes);
            (u.min_bytes, u.max_bytes)
        }
        SizeConfig::Pareto(d) => {
            check_bytes("min_bytes", d.min_bytes);
            check_bytes("max_bytes", d.max_bytes);
            if !(d.shape.is_finite() && d.shape > 0.0 && d.shape <= 100.0) {
                errors.push(FieldError::new(
                    format!("{path}.shape"),
                    format!(
                        "must be a tail index above 0 and at most 100 (got {})",
                        d.shape
                    ),
                ));
            }
            (d.min_bytes, d.max_bytes)
        }
    };
    if max < min {
        errors.push(FieldError::new(
            format!("{path}.max_bytes"),
            format!("must be at least min_bytes ({min}) (got {max})"),
        ));
    }
}
