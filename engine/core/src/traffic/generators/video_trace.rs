//! Video streams replaying an uploaded frame-size trace (`docs/traffic-formats.md`),
//! through admission control at their mean rate: the video model of `video.rs` with the
//! frames of the trace, parsed once per class and shared by every stream.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::FieldError;
use crate::time::BitRate;
use crate::traffic::class_generator::ClassGenerator;
use crate::traffic::connections::ConnectionProcess;
use crate::traffic::frame_trace::FrameTrace;
use crate::traffic::limits::{MAX_RATE_BPS, MIN_RATE_BPS};

use super::rules::{check_frame_interval, check_mtu, check_rate, problem, rate_in_range};
use super::video::{VideoStream, mean_packet_bytes, streams_work};
use super::{ClassSetup, GeneratorSpec, GeneratorWork};

/// Video streams replaying an uploaded frame-size trace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct VideoTraceConfig {
    /// The trace text: one frame size in bytes per line (see docs/traffic-formats.md).
    pub trace: String,
    /// Time between frames in microseconds (40000 = 25 frames per second).
    pub frame_interval_us: u32,
    /// Scales every frame so a stream's mean rate is this many bits per second; absent:
    /// frames are replayed at their traced sizes (the trace's own mean rate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub rate_bps: Option<u64>,
    /// Largest packet a frame is split into, in bytes (the last packet is smaller).
    pub mtu_bytes: u32,
}

impl GeneratorSpec for VideoTraceConfig {
    fn validate(&self, path: &str, errors: &mut Vec<FieldError>) {
        check_frame_interval(path, self.frame_interval_us, errors);
        check_mtu(path, self.mtu_bytes, errors);
        if let Some(r) = self.rate_bps {
            check_rate(path, r, errors);
        }
        match FrameTrace::parse(&self.trace) {
            Err(e) => problem(errors, path, "trace", e.to_string()),
            Ok(trace) => {
                let r = trace.mean_rate_bps(self.frame_interval_us);
                if self.rate_bps.is_none() && !rate_in_range(r) {
                    problem(
                        errors,
                        path,
                        "trace",
                        format!(
                            "replays at a mean rate of {r} bits per second at this frame interval, outside {MIN_RATE_BPS} to {MAX_RATE_BPS}"
                        ),
                    );
                }
            }
        }
    }

    fn connections() -> bool {
        true
    }

    fn connection_rate(&self) -> Result<Option<u64>, String> {
        match self.rate_bps {
            Some(r) => Ok(Some(r)),
            None => Ok(Some(
                FrameTrace::parse(&self.trace)
                    .map_err(|e| e.to_string())?
                    .mean_rate_bps(self.frame_interval_us),
            )),
        }
    }

    fn max_packet_bytes(&self) -> u32 {
        self.mtu_bytes
    }

    fn mean_packet_bytes(&self) -> f64 {
        let rate = self
            .connection_rate()
            .ok()
            .flatten()
            .filter(|&r| rate_in_range(r));
        mean_packet_bytes(rate, self.frame_interval_us, self.mtu_bytes)
    }

    fn work(&self, load: f64, link: BitRate) -> GeneratorWork {
        let rate = self.connection_rate();
        streams_work(load, link, rate, self.frame_interval_us, self.mtu_bytes)
    }

    fn build(&self, class: &ClassSetup<'_>) -> Result<Vec<Option<ClassGenerator>>, String> {
        // One parsed copy of the trace, shared by every stream of the class.
        let trace = FrameTrace::parse(&self.trace).map_err(|e| e.to_string())?;
        class.connections(|phases, _sizes| {
            Ok(Box::new(VideoStream::trace(
                &trace,
                self.frame_interval_us,
                self.rate_bps,
                self.mtu_bytes,
                phases,
            )) as Box<dyn ConnectionProcess>)
        })
    }
}
