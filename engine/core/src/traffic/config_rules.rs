//! The rules of network traffic configuration ([`super::config`]): [`validate_class_traffic`]
//! and [`validate_admission`] check every rule at once and name the field of each problem,
//! like `scenario::validate`.

use crate::error::FieldError;
use crate::time::BitRate;

use super::config::*;
use super::generators::GeneratorConfig;
pub use super::size_rules::validate_size;

/// What the validation of traffic needs to know about the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrafficContext {
    /// Number of end points.
    pub endpoints: u32,
    /// Data rate of an end point's link (loads are fractions of it).
    pub link: BitRate,
}

/// Checks every rule of one class's traffic; problems are appended with paths below
/// `path` (e.g. `model.classes[2].traffic`).
pub fn validate_class_traffic(
    path: &str,
    cfg: &ClassTrafficConfig,
    ctx: &TrafficContext,
    errors: &mut Vec<FieldError>,
) {
    let load_ok = cfg.load.is_finite() && (0.0..=MAX_LOAD).contains(&cfg.load);
    if !load_ok {
        errors.push(FieldError::new(
            format!("{path}.load"),
            format!(
                "must be a fraction of the link rate between 0 and {MAX_LOAD} (got {})",
                cfg.load
            ),
        ));
    }
    validate_generator(&format!("{path}.generator"), &cfg.generator, errors);
    if load_ok {
        if let Some(rate) = cfg.generator.connection_rate() {
            let count = super::connections::connection_count(cfg.load, ctx.link, rate);
            if count > MAX_CONNECTIONS {
                errors.push(FieldError::new(
                    format!("{path}.load"),
                    format!(
                        "would open {count} connections per end point (load x link rate / connection rate), more than {MAX_CONNECTIONS}"
                    ),
                ));
            }
        }
    }
    validate_destinations(
        &format!("{path}.destinations"),
        &cfg.destinations,
        ctx.endpoints,
        errors,
    );
}

/// Checks a generator's parameters (each generator's own rules, `traffic/generators/`).
pub fn validate_generator(path: &str, g: &GeneratorConfig, errors: &mut Vec<FieldError>) {
    g.validate(path, errors);
}

/// Checks a destination model against the number of end points.
pub fn validate_destinations(
    path: &str,
    d: &DestinationConfig,
    endpoints: u32,
    errors: &mut Vec<FieldError>,
) {
    if !(2..=MAX_ENDPOINTS).contains(&endpoints) {
        errors.push(FieldError::new(
            path,
            format!(
                "needs between 2 and {MAX_ENDPOINTS} end points, so that every end point has another to send to (the network has {endpoints})"
            ),
        ));
        return;
    }
    match d {
        DestinationConfig::Uniform => {}
        DestinationConfig::Zipf(z) => {
            if !(z.exponent.is_finite() && (0.0..=MAX_ZIPF_EXPONENT).contains(&z.exponent)) {
                errors.push(FieldError::new(
                    format!("{path}.exponent"),
                    format!(
                        "must be between 0 and {MAX_ZIPF_EXPONENT} (got {})",
                        z.exponent
                    ),
                ));
            }
        }
        DestinationConfig::HotSpot(h) => {
            if h.endpoint >= endpoints {
                errors.push(FieldError::new(
                    format!("{path}.endpoint"),
                    format!(
                        "{} is not an end point; this network has end points 0 to {}",
                        h.endpoint,
                        endpoints - 1
                    ),
                ));
            }
            if !(h.fraction.is_finite() && (0.0..=1.0).contains(&h.fraction)) {
                errors.push(FieldError::new(
                    format!("{path}.fraction"),
                    format!("must be between 0 and 1 (got {})", h.fraction),
                ));
            }
        }
        DestinationConfig::Permutation(p) => match p.pattern {
            PermutationPattern::BitComplement | PermutationPattern::BitReversal
                if !endpoints.is_power_of_two() =>
            {
                errors.push(FieldError::new(
                    format!("{path}.pattern"),
                    format!(
                        "bit permutations need a power-of-two number of end points (the network has {endpoints}); use random_derangement"
                    ),
                ));
            }
            _ => {}
        },
    }
}

/// Checks the admission configuration of a network with `classes` classes.
pub fn validate_admission(
    path: &str,
    a: &AdmissionConfig,
    classes: usize,
    errors: &mut Vec<FieldError>,
) {
    if !(a.qos_cap.is_finite() && (0.0..=1.0).contains(&a.qos_cap)) {
        errors.push(FieldError::new(
            format!("{path}.qos_cap"),
            format!(
                "must be a fraction of the link between 0 and 1 (got {})",
                a.qos_cap
            ),
        ));
    }
    if a.reserved.len() != classes {
        errors.push(FieldError::new(
            format!("{path}.reserved"),
            format!(
                "must hold one fraction per class: {classes} (got {})",
                a.reserved.len()
            ),
        ));
    }
    for (i, &f) in a.reserved.iter().enumerate() {
        if !(f.is_finite() && (0.0..=1.0).contains(&f)) {
            errors.push(FieldError::new(
                format!("{path}.reserved[{i}]"),
                format!("must be a fraction of the link between 0 and 1 (got {f})"),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::traffic::generators::{CbrConfig, VideoConfig, VideoTraceConfig};

    fn ctx() -> TrafficContext {
        TrafficContext {
            endpoints: 64,
            link: BitRate::from_gbps(2.0).unwrap(),
        }
    }

    fn check(cfg: &ClassTrafficConfig) -> Vec<FieldError> {
        let mut e = Vec::new();
        validate_class_traffic("t", cfg, &ctx(), &mut e);
        e
    }

    fn parse(json: &str) -> Result<ClassTrafficConfig, String> {
        serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_str(json)).map_err(
            |e| {
                let (p, m) =
                    crate::scenario::tagged::locate(&e.path().to_string(), &e.inner().to_string());
                format!("{p}: {m}")
            },
        )
    }

    #[test]
    fn round_trips_and_reads_tagged_kinds() {
        let json = r#"{"load":0.1,"generator":{"kind":"bursts","packets":60,
            "size":{"kind":"pareto","min_bytes":64,"max_bytes":2048,"shape":1.2}},
            "destinations":{"kind":"zipf","exponent":1.0,"ranking":"random"}}"#;
        let c = parse(json).unwrap();
        assert!(check(&c).is_empty());
        let back: ClassTrafficConfig =
            serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(back, c);
    }

    #[test]
    fn errors_keep_the_path_through_tagged_enums() {
        let json = r#"{"load":0.1,"generator":{"kind":"cbr","rate_bps":64000,"packet_bytez":160},
            "destinations":{"kind":"uniform"}}"#;
        let e = parse(json).unwrap_err();
        assert!(
            e.starts_with("generator.packet_bytez: is not a known field"),
            "{e}"
        );
        let json =
            r#"{"load":0.1,"generator":{"kind":"poisson"},"destinations":{"kind":"uniform"}}"#;
        let e = parse(json).unwrap_err();
        assert!(e.contains("generator.kind") && e.contains("bursts, cbr, video, video_trace"));
    }

    #[test]
    fn each_rule_names_its_field() {
        let bad = ClassTrafficConfig {
            load: -1.0,
            generator: GeneratorConfig::Video(VideoConfig {
                rate_bps: 0,
                frame_interval_us: 0,
                gop: "IBX".into(),
                i_ratio: 10.0,
                p_ratio: -1.0, // P is not in the GOP, so its ratio is not checked
                b_ratio: 0.0,
                variation: 9.0,
                mtu_bytes: 10,
            }),
            destinations: DestinationConfig::HotSpot(HotSpotConfig {
                endpoint: 64,
                fraction: 1.5,
            }),
        };
        let paths: Vec<String> = check(&bad).into_iter().map(|e| e.path).collect();
        assert_eq!(
            paths,
            [
                "t.load",
                "t.generator.rate_bps",
                "t.generator.frame_interval_us",
                "t.generator.mtu_bytes",
                "t.generator.gop",
                "t.generator.b_ratio",
                "t.generator.variation",
                "t.destinations.endpoint",
                "t.destinations.fraction",
            ]
        );
    }

    #[test]
    fn too_many_connections_and_bit_patterns_are_refused() {
        let mut c = ClassTrafficConfig {
            load: 1.0,
            generator: GeneratorConfig::Cbr(CbrConfig {
                max_packet_bytes: None,
                rate_bps: 1000,
                packet_bytes: 64,
            }),
            destinations: DestinationConfig::Permutation(PermutationConfig {
                pattern: PermutationPattern::BitReversal,
            }),
        };
        // 2 Gb/s / 1 kb/s = 2 000 000 connections.
        let e = check(&c);
        assert_eq!(e.len(), 1);
        assert!(e[0].path == "t.load" && e[0].message.contains("2000000 connections"));
        c.load = 0.01;
        let mut e = Vec::new();
        validate_class_traffic(
            "t",
            &c,
            &TrafficContext {
                endpoints: 48,
                ..ctx()
            },
            &mut e,
        );
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].path, "t.destinations.pattern");
    }

    #[test]
    fn bad_traces_are_reported_at_the_trace_field() {
        let c = ClassTrafficConfig {
            load: 0.1,
            generator: GeneratorConfig::VideoTrace(VideoTraceConfig {
                trace: "1000\nabc\n".into(),
                frame_interval_us: 40_000,
                rate_bps: None,
                mtu_bytes: 2048,
            }),
            destinations: DestinationConfig::Uniform,
        };
        let e = check(&c);
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].path, "t.generator.trace");
        assert!(e[0].message.starts_with("line 2:"), "{}", e[0].message);
    }

    #[test]
    fn admission_rules() {
        let mut e = Vec::new();
        validate_admission(
            "a",
            &AdmissionConfig {
                qos_cap: 1.2,
                reserved: vec![0.5, -0.1],
            },
            3,
            &mut e,
        );
        let paths: Vec<&str> = e.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, ["a.qos_cap", "a.reserved", "a.reserved[1]"]);
    }
}
