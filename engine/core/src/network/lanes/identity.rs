//! The identity map: SL `s` uses lane `s` (every class its own virtual channel), as the
//! CIOQ networks of the reference studies do.

use super::LaneMap;

/// Lane = SL.
#[derive(Clone, Copy, Debug)]
pub struct Identity {
    sls: u16,
}

impl Identity {
    /// The identity map for `sls` SLs.
    pub fn new(sls: u16) -> Identity {
        Identity { sls }
    }
}

impl LaneMap for Identity {
    fn kind(&self) -> &'static str {
        "identity"
    }

    fn lanes(&self) -> u16 {
        self.sls.max(1)
    }

    fn lane(&self, sl: u16) -> u16 {
        sl
    }
}
