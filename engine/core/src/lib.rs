//! # qoslab-core
//!
//! The simulation core of qoslab: a deterministic discrete-event engine for
//! Quality-of-Service scheduling in interconnects. It does no I/O and knows nothing of
//! WebAssembly; the CLI and the browser facade both drive it through [`Run`].
//!
//! Layout (one concept per module):
//! - [`time`]: integer simulated time and link rates;
//! - [`design`]: arbitration-table design (service lists);
//! - [`rng`]: seeded, independent random streams;
//! - [`kernel`]: the event queue with deterministic tie-breaking;
//! - [`cache_hint`]: prefetching memory about to be read (changes no result);
//! - [`scenario`]: the versioned scenario document, migrations and validation;
//! - [`traffic`]: packet sources;
//! - [`schedulers`]: output schedulers behind one trait;
//! - [`network`]: packets, flow control and the simulated systems (the link lab);
//! - [`np`]: the network-processor node and its DWCS schedulers (heap and HILQ);
//! - [`stats`]: counters and latency histograms;
//! - [`results`]: what a run reports;
//! - [`run`]: chunked execution of a scenario, within the run-time [`budget`];
//! - [`trace`]: decision traces of a scheduler;
//! - [`sweep`]: scenarios along an offered-load axis.

pub mod budget;
pub mod cache_hint;
pub mod design;
pub mod error;
pub mod kernel;
pub mod limits;
pub mod model;
pub mod network;
pub mod np;
pub(crate) mod problems;
pub mod results;
pub mod rng;
pub mod run;
pub mod scenario;
pub mod scheduler_weights;
pub mod schedulers;
pub mod starting_scheduler;
pub mod stats;
pub mod sweep;
pub mod text;
pub mod time;
pub mod trace;
pub mod traffic;
pub mod web_cases;

pub use error::{EngineError, FieldError};
pub use results::{ENGINE, RunResults};
pub use run::{Run, RunOptions};
pub use scenario::Scenario;
