//! Traffic: sources that generate packets of some size at some times.

mod source;

pub use source::Source;
