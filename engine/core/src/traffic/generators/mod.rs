//! Network traffic generators: how a class generates packets at each end point.
//!
//! Each generator lives in its own module, its configuration implementing
//! [`GeneratorSpec`] (validation, packet sizes, the work estimate, building), and is
//! registered with one line below; `registry.rs` turns the lines into the scenario's
//! [`GeneratorConfig`] and its dispatch. Rules several generators share are in `rules`.

mod registry;
mod rules;
mod spec;

pub(crate) use spec::GeneratorSpec;
pub use spec::{ClassSetup, GeneratorWork};

use crate::error::FieldError;
use crate::scenario::tagged::tagged_enum;
use crate::time::BitRate;

// The generators' modules: plain `mod` lines, each with its one line in the registry
// below (cargo-mutants finds files only through `mod` items, so the macro cannot declare
// them).
pub mod bursts;
pub mod cbr;
pub mod video;
pub mod video_trace;

// The registry: one line per generator (see `registry.rs` and `docs/architecture.md`).
registry::generator_registry! {
    /// Bursts of `packets` packets to one destination (drawn per burst), Poisson gaps
    /// between bursts (Bursts60, Bursts4, one-packet bursts).
    "bursts" => Bursts(bursts::BurstsConfig),
    /// Constant-bit-rate connections, each to its own destination, through admission
    /// control.
    "cbr" => Cbr(cbr::CbrConfig),
    /// Synthetic MPEG-4 video streams (I/P/B frames), each to its own destination,
    /// through admission control at their mean rate.
    "video" => Video(video::VideoConfig),
    /// Video streams replaying an uploaded frame-size trace, through admission control
    /// at their mean rate.
    "video_trace" => VideoTrace(video_trace::VideoTraceConfig),
}

impl GeneratorConfig {
    /// Checks the generator's parameters; problems get paths below `path`.
    pub fn validate(&self, path: &str, errors: &mut Vec<FieldError>) {
        self.spec().validate(path, errors);
    }

    /// The mean rate of one connection in b/s (None for a generator without connections;
    /// an error for an invalid trace).
    pub fn mean_connection_rate(&self) -> Result<Option<u64>, String> {
        self.spec().connection_rate()
    }

    /// The mean rate of one connection of a valid connection generator (None for
    /// bursts, an invalid trace or a rate outside the accepted range).
    pub fn connection_rate(&self) -> Option<u64> {
        self.mean_connection_rate()
            .ok()
            .flatten()
            .filter(|&r| rules::rate_in_range(r))
    }

    /// The largest packet the generator can make, in bytes (buffers and scheduler
    /// entries must hold it): the size bound of bursts, the CBR packet, the video MTU.
    pub fn max_packet_bytes(&self) -> u32 {
        self.spec().max_packet_bytes()
    }

    /// An estimate of the mean packet size in bytes, to bound the work of a run: the mean
    /// of the burst size distribution, the CBR packet, or for video a mean-size frame
    /// (mean rate x frame interval) split into MTU packets. At least 1.
    pub fn mean_packet_bytes(&self) -> f64 {
        let mean = self.spec().mean_packet_bytes();
        if mean.is_finite() { mean.max(1.0) } else { 1.0 }
    }

    /// The packets one end point offering `load` of `link` generates, for the work
    /// estimate of a run.
    pub fn work(&self, load: f64, link: BitRate) -> GeneratorWork {
        self.spec().work(load, link)
    }
}
