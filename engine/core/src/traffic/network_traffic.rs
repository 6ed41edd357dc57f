//! The traffic of a whole network: one generator per end point and class, with admission
//! control of the connection classes.
//!
//! [`NetworkTraffic::build`] is the single entry point a network model needs:
//! 1. a [`DestinationSetup`] per class;
//! 2. a [`ConnectionPlan`] per end point for every connection class (destinations drawn);
//! 3. admission: all plans of all classes are asked in rounds ([`admit_round_robin`]:
//!    request 0 of every (class, end point) in class then end-point order, then request 1,
//!    ...); the caller's `admit(endpoint, class, destination, rate_bps)` typically routes
//!    the connection and calls `AdmissionTable::try_admit` on its path;
//! 4. a [`ClassGenerator`] per (end point, class) with traffic.
//!
//! The network then pulls packets per generator in time order (`next_packet`).

use crate::rng::RngStreams;
use crate::time::BitRate;

use super::class_generator::ClassGenerator;
use super::config::ClassTrafficConfig;
use super::connections::{ConnectionPlan, admit_round_robin};
use super::destinations::DestinationSetup;
use super::generators::ClassSetup;

/// Admission outcome of one connection class.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClassAdmission {
    /// Connections requested over all end points.
    pub requested: u64,
    /// Connections admitted.
    pub admitted: u64,
    /// Rate admitted over all end points, in b/s.
    pub admitted_bps: u64,
}

impl ClassAdmission {
    /// Connections refused.
    pub fn refused(&self) -> u64 {
        self.requested - self.admitted
    }
}

/// Every generator of a network.
#[derive(Clone, Debug)]
pub struct NetworkTraffic {
    /// `generators[endpoint][class]`, None for a silent class or no admitted connection.
    pub generators: Vec<Vec<Option<ClassGenerator>>>,
    /// Per class, the admission outcome (None for burst classes).
    pub admission: Vec<Option<ClassAdmission>>,
}

impl NetworkTraffic {
    /// Builds the generators of `endpoints` end points (each with a link of `link`) for
    /// `classes` (class index = position). `admit(endpoint, class, destination, rate_bps)`
    /// decides each connection; pass `|_, _, _, _| true` for no admission control.
    /// Errors name the class (validation reports the same problems with field paths).
    pub fn build(
        classes: &[ClassTrafficConfig],
        endpoints: u32,
        link: BitRate,
        rng: &RngStreams,
        admit: impl FnMut(u32, u32, u32, u64) -> bool,
    ) -> Result<NetworkTraffic, String> {
        let mut setups = Vec::with_capacity(classes.len());
        for (c, cfg) in classes.iter().enumerate() {
            let setup = DestinationSetup::new(&cfg.destinations, c as u32, endpoints, rng)
                .map_err(|e| format!("class {c}: {e}"))?;
            setups.push(setup);
        }
        let mut plans = Vec::new();
        for (c, cfg) in classes.iter().enumerate() {
            if !cfg.generator.is_connections() || cfg.load.is_nan() || cfg.load <= 0.0 {
                continue;
            }
            let rate_bps = cfg
                .generator
                .mean_connection_rate()
                .and_then(|r| r.ok_or_else(|| "bursts are not connections".to_string()))
                .map_err(|m| format!("class {c}: {m}"))?;
            for e in 0..endpoints {
                let plan =
                    ConnectionPlan::new(e, c as u32, (cfg.load, rate_bps), link, &setups[c], rng)
                        .map_err(|m| format!("class {c}: {m}"))?;
                plans.push(plan);
            }
        }
        admit_round_robin(&mut plans, admit);

        let mut admission: Vec<Option<ClassAdmission>> = classes
            .iter()
            .map(|cfg| {
                (cfg.generator.is_connections() && cfg.load > 0.0).then(ClassAdmission::default)
            })
            .collect();
        for plan in &plans {
            if let Some(Some(a)) = admission.get_mut(plan.class as usize) {
                a.requested += plan.requests.len() as u64;
                a.admitted += plan.admitted() as u64;
                a.admitted_bps += plan.offered_bps();
            }
        }
        let mut generators: Vec<Vec<Option<ClassGenerator>>> = (0..endpoints)
            .map(|_| (0..classes.len()).map(|_| None).collect())
            .collect();
        for (c, cfg) in classes.iter().enumerate() {
            let class = ClassSetup {
                class: c as u32,
                load: cfg.load,
                endpoints,
                link,
                destinations: &setups[c],
                plans: plans.iter().filter(|p| p.class as usize == c).collect(),
                rng,
            };
            let built = cfg
                .generator
                .spec()
                .build(&class)
                .map_err(|m| format!("class {c}: {m}"))?;
            for (e, g) in built.into_iter().enumerate() {
                if let Some(slot) = generators.get_mut(e) {
                    slot[c] = g;
                }
            }
        }
        Ok(NetworkTraffic {
            generators,
            admission,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::traffic::config::DestinationConfig;
    use crate::traffic::generators::{GeneratorConfig, VideoTraceConfig};

    /// Defect 5 of issue 16: an uploaded trace was copied once per connection (and parsed
    /// once per end point). Every stream of a class now shares one copy of its frames.
    #[test]
    fn every_stream_of_a_trace_class_shares_one_copy() {
        let trace: String = (1..=5000).map(|i| format!("{}\n", 100 + i % 900)).collect();
        let class = ClassTrafficConfig {
            load: 0.2,
            generator: GeneratorConfig::VideoTrace(VideoTraceConfig {
                trace,
                frame_interval_us: 40_000,
                rate_bps: Some(1_000_000),
                mtu_bytes: 2048,
            }),
            destinations: DestinationConfig::Uniform,
        };
        let link = BitRate::from_gbps(2.0).unwrap();
        let t = NetworkTraffic::build(&[class], 8, link, &RngStreams::new(1), |_, _, _, _| true)
            .unwrap();
        let mut buffers = std::collections::BTreeSet::new();
        let mut streams = 0;
        for g in t.generators.iter().flatten().flatten() {
            if let ClassGenerator::Connections(c) = g {
                for b in c.trace_buffers() {
                    streams += 1;
                    buffers.insert(b as usize);
                }
            }
        }
        // 0.2 x 2 Gb/s / 1 Mb/s = 400 streams per end point.
        assert_eq!(streams, 8 * 400);
        assert_eq!(buffers.len(), 1, "{} copies of the trace", buffers.len());
    }
}
