//! Designing arbitration tables: service lists from weights (and, later, the full
//! requirements-to-table method of `shared/spec/20-table-design.md`).

pub mod opensm;
mod service_lists;

pub use service_lists::{ServiceListKind, service_list};
