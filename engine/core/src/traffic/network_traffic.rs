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

use super::bursts::BurstGenerator;
use super::config::{ClassTrafficConfig, GeneratorConfig};
use super::connections::{ConnectionGenerator, ConnectionPlan, admit_round_robin};
use super::destinations::DestinationSetup;
use super::generated::Generated;

/// The generator of one end point and class.
#[derive(Clone, Debug)]
pub enum ClassGenerator {
    /// Bursts (no connections).
    Bursts(BurstGenerator),
    /// Admitted connections.
    Connections(ConnectionGenerator),
}

impl ClassGenerator {
    /// The next packet in time order (None when the generator has nothing more).
    pub fn next_packet(&mut self) -> Option<Generated> {
        match self {
            ClassGenerator::Bursts(b) => b.next_packet(),
            ClassGenerator::Connections(c) => c.next_packet(),
        }
    }
}

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
            for e in 0..endpoints {
                let plan = ConnectionPlan::new(e, c as u32, cfg, link, &setups[c], rng)
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
        let mut generators: Vec<Vec<Option<ClassGenerator>>> = (0..endpoints)
            .map(|_| (0..classes.len()).map(|_| None).collect())
            .collect();
        for plan in &plans {
            let (e, c) = (plan.endpoint as usize, plan.class as usize);
            if let Some(Some(a)) = admission.get_mut(c) {
                a.requested += plan.requests.len() as u64;
                a.admitted += plan.admitted() as u64;
                a.admitted_bps += plan.offered_bps();
            }
            if plan.admitted() > 0 {
                let g = ConnectionGenerator::new(plan, &classes[c].generator, rng)
                    .map_err(|m| format!("class {c}: {m}"))?;
                generators[e][c] = Some(ClassGenerator::Connections(g));
            }
        }
        for (c, cfg) in classes.iter().enumerate() {
            if let GeneratorConfig::Bursts(b) = &cfg.generator {
                for e in 0..endpoints {
                    let model = setups[c].for_source(e, c as u32, rng);
                    generators[e as usize][c] =
                        BurstGenerator::new(c as u32, cfg.load, b, link, model, rng)
                            .map(ClassGenerator::Bursts);
                }
            }
        }
        Ok(NetworkTraffic {
            generators,
            admission,
        })
    }
}
