//! Credit-based, lossless link-level flow control (one credit = 64 bytes).

/// Bytes per flow-control credit.
pub const CREDIT_BYTES: u32 = 64;

/// Credits a packet of `bytes` occupies: `ceil(bytes / 64)`.
pub fn credits_for(bytes: u32) -> u32 {
    bytes.div_ceil(CREDIT_BYTES)
}

/// The sender's view of one downstream buffer: how many credits are free.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CreditCounter {
    capacity: u32,
    free: u32,
}

impl CreditCounter {
    /// A counter for a buffer of `capacity` credits, all free.
    pub fn new(capacity: u32) -> CreditCounter {
        CreditCounter {
            capacity,
            free: capacity,
        }
    }

    /// Free credits now.
    pub fn free(&self) -> u32 {
        self.free
    }

    /// Buffer size in credits.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// Whether a packet of `credits` fits now.
    pub fn fits(&self, credits: u32) -> bool {
        credits <= self.free
    }

    /// Takes `credits` for a packet being sent. Returns false (and changes nothing) if they
    /// are not all free: the caller must only send packets that fit.
    pub fn consume(&mut self, credits: u32) -> bool {
        if credits > self.free {
            return false;
        }
        self.free -= credits;
        true
    }

    /// Returns `credits` freed downstream; never exceeds the capacity.
    pub fn give_back(&mut self, credits: u32) {
        self.free = (self.free + credits).min(self.capacity);
    }

    /// Credits in use (the downstream buffer occupancy as the sender sees it).
    pub fn in_use(&self) -> u32 {
        self.capacity - self.free
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credits_round_up() {
        assert_eq!(credits_for(1), 1);
        assert_eq!(credits_for(64), 1);
        assert_eq!(credits_for(65), 2);
        assert_eq!(credits_for(2048), 32);
        assert_eq!(credits_for(192), 3);
    }

    #[test]
    fn counter_never_goes_negative_or_over() {
        let mut c = CreditCounter::new(4);
        assert!(c.consume(3));
        assert_eq!(c.in_use(), 3);
        assert!(!c.consume(2));
        assert_eq!(c.free(), 1);
        c.give_back(10);
        assert_eq!(c.free(), 4);
        assert_eq!(c.in_use(), 0);
    }
}
