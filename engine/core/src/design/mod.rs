//! Designing arbitration tables: service lists from weights, and the requirements-to-table
//! method of `shared/spec/20-table-design.md` (placement by distance, the decoupling
//! methodology, weight apportionment), the evaluation of any table against the requirements
//! with the worst-case wait bound of each class, and the OpenSM `qos_*` option format. See
//! `docs/table-design.md` and `docs/opensm.md`.

pub mod apportion;
pub mod bound;
pub mod decoupling;
mod designed;
mod designer;
mod equivalents;
pub mod ets;
mod evaluate;
pub mod fabric;
mod mapping;
mod mapping_context;
pub mod omnipath;
mod omnipath_mapping;
pub mod opafm;
pub mod opensm;
mod placement;
mod requirements;
mod service_lists;
mod technology;

pub use designed::{ClassDesign, Design, TechnologyMapping};
pub use designer::design;
pub use equivalents::{DesignEntry, EquivalentClass, Equivalents, equivalents};
pub use evaluate::{ClassEvaluation, Evaluation, Violation, evaluate};
pub use fabric::{FabricOptions, HighEntry};
pub use mapping::mappings;
pub use placement::{max_cyclic_distance, place};
pub use requirements::{
    ClassRequirement, DEFAULT_LINK_RATE_GBPS, MULTIMEDIA_VECTOR, Requirements, Technology, credits,
    parse_requirements, tenths, validate_requirements,
};
pub use service_lists::{ServiceListKind, service_list};
