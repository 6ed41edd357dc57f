//! Configuration of network traffic: per class, how packets are generated at each end
//! point and where they go, plus the admission control of connections.
//!
//! These types follow the scenario format (`deny_unknown_fields`, `kind`-tagged enums that
//! keep the error path, a doc comment per field) so they can be embedded in a network
//! scenario. The rules are in [`super::config_rules`], which checks every rule at once and
//! names the field of each problem, like `scenario::validate`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::generators::GeneratorConfig;

pub use super::destination_config::*;
pub use super::limits::*;

/// The traffic one class offers from every end point of a network.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct ClassTrafficConfig {
    /// Offered load of each end point as a fraction of its link rate (0 = silent). For
    /// connection classes the load sets the number of connections (see `connections`).
    pub load: f64,
    /// How packets are generated.
    pub generator: GeneratorConfig,
    /// Where packets (bursts, connections) go.
    pub destinations: DestinationConfig,
}

/// Admission control of connection classes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct AdmissionConfig {
    /// Most of any link that all connection classes together may reserve (0 to 1; e.g.
    /// 0.7; 1 = no cap beyond the per-class reservations).
    pub qos_cap: f64,
    /// Fraction of every link each class may reserve, one per class in class order (0 to
    /// 1; ignored for classes without connections).
    pub reserved: Vec<f64>,
}
