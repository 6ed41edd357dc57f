//! HILQ, the hierarchically indexed linear queue (`shared/spec/40-network-processors.md`):
//! constant-time insert and select for DWCS, exact to 1 ms of deadline.
//!
//! - Level 0: a circular array of [`SEGMENTS`] segments, one per millisecond of deadline:
//!   a packet due in absolute millisecond `m` goes to segment `m mod 100`; deadlines 100 ms
//!   or more ahead would alias into a wrong segment and are refused ([`TooFar`]).
//! - Each segment has [`SLOTS`] slots: 50 window-constraint values (x'/y' rounded to the
//!   nearest of 0, 0.02, ..., 0.98) times 20 numerators; `slot = LOOKUP(x'/y') + x'`, and
//!   lower slots are served first (precedence rules 2 and 4; rule 3 collapses: every
//!   x' = 0 stream of a segment shares slot 0, in FIFO order).
//! - A slot holds an element queue ([`queue`]); a two-level bitmap per segment (one
//!   32-bit word, then 32 words = 1024 bits) finds the first non-empty slot in two reads
//!   with find-first-set.
//! - The scan serves the current segment, looks ahead into later ones when it is empty,
//!   and goes back when a packet lands before its scan position; when time passes a
//!   segment boundary, what is left in the passed segments is handed to the collector
//!   ([`sched`]).
//!
//! Memory (the cost model): the level-1 words and the LOOKUP table are in scratchpad, the
//! level-2 words, slot heads/counts and element blocks in SRAM.

pub mod queue;
pub mod sched;

pub use sched::DwcsHilq;

use crate::np::contract::MemoryAccesses;
use crate::time::PS_PER_US;
use queue::{ElementQueues, Token};

/// Segments (milliseconds of look-ahead).
pub const SEGMENTS: usize = 100;
/// HILQ looks [`SEGMENTS`] ms ahead: request periods must stay below this, in
/// microseconds (validation's one rule about the horizon, `DwcsHilq::check_period`).
pub const HILQ_HORIZON_US: f64 = (SEGMENTS as u64 * SEGMENT_PS / PS_PER_US) as f64;
/// One segment, in picoseconds (1 ms).
pub const SEGMENT_PS: u64 = 1_000_000_000;
/// Window-constraint values (0, 0.02, ..., 0.98).
pub const CONSTRAINTS: u32 = 50;
/// Numerator values x' = 0 ..= 19.
pub const NUMERATORS: u32 = 20;
/// Slots per segment.
pub const SLOTS: usize = (CONSTRAINTS * NUMERATORS) as usize;
/// Level-2 bitmap words per segment (32 x 32 = 1024 bits >= 1000 slots).
const L2_WORDS: usize = 32;
/// Largest y' the LOOKUP table holds; above it the index is computed.
const TABLE_Y: u32 = 64;

/// The constraint index of x'/y': the nearest of 0, 0.02, ..., 0.98 (halves round up;
/// 0.99 and above, including 1, go to 0.98, the last value). Integer arithmetic only.
pub fn constraint_index(x: u32, y: u32) -> u32 {
    if y == 0 {
        return 0;
    }
    let (x, y) = (u64::from(x), u64::from(y));
    // round(50 x / y) = floor((100 x + y) / (2 y)).
    ((100 * x + y) / (2 * y)).min(u64::from(CONSTRAINTS - 1)) as u32
}

/// The LOOKUP table: `LOOKUP(x'/y') = 20 * constraint_index` for x' < 20 and y' < 64,
/// computed for larger y' (y' grows past its original value after violations).
#[derive(Clone, Debug)]
pub struct Lookup {
    table: Vec<u16>,
}

impl Default for Lookup {
    fn default() -> Self {
        let mut table = Vec::with_capacity((NUMERATORS * TABLE_Y) as usize);
        for x in 0..NUMERATORS {
            for y in 0..TABLE_Y {
                table.push((constraint_index(x, y) * NUMERATORS) as u16);
            }
        }
        Lookup { table }
    }
}

impl Lookup {
    /// The slot of a stream with current window x'/y' (x' above 19 counts as 19).
    pub fn slot(&self, x: u32, y: u32, mem: &mut MemoryAccesses) -> usize {
        let x = x.min(NUMERATORS - 1);
        let base = if y < TABLE_Y {
            mem.scratchpad += 1;
            u32::from(self.table[(x * TABLE_Y + y) as usize])
        } else {
            constraint_index(x, y) * NUMERATORS
        };
        (base + x) as usize
    }
}

/// A deadline 100 ms or more ahead of the current segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooFar {
    /// How far ahead, in whole milliseconds.
    pub ahead_ms: u64,
}

impl std::fmt::Display for TooFar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a deadline {} ms ahead: HILQ looks only {SEGMENTS} ms ahead (one segment per ms), so it would land in the segment of {} ms and be served out of order",
            self.ahead_ms,
            self.ahead_ms % SEGMENTS as u64
        )
    }
}

/// The segments, their bitmaps and element queues, and the scan position.
#[derive(Clone, Debug)]
pub struct Index {
    l1: [u32; SEGMENTS],
    l2: Vec<[u32; L2_WORDS]>,
    queues: ElementQueues,
    tokens: usize,
    /// Absolute millisecond of the current segment.
    now_ms: u64,
    /// Absolute millisecond where the scan continues (>= `now_ms`).
    scan_ms: u64,
    /// Segments whose level-1 word the scan read.
    segments_scanned: u64,
}

impl Default for Index {
    fn default() -> Self {
        Index {
            l1: [0; SEGMENTS],
            l2: vec![[0; L2_WORDS]; SEGMENTS],
            queues: ElementQueues::new(SEGMENTS * SLOTS),
            tokens: 0,
            now_ms: 0,
            scan_ms: 0,
            segments_scanned: 0,
        }
    }
}

impl Index {
    /// Elements queued.
    pub fn len(&self) -> usize {
        self.tokens
    }

    /// True when nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.tokens == 0
    }

    /// The current segment's absolute millisecond.
    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    /// Where the scan continues (absolute millisecond).
    pub fn scan_ms(&self) -> u64 {
        self.scan_ms
    }

    /// Level-1 words read by scans (look-ahead sweeps over segments).
    pub fn segments_scanned(&self) -> u64 {
        self.segments_scanned
    }

    /// Overflow blocks in use.
    pub fn blocks_in_use(&self) -> usize {
        self.queues.blocks_in_use()
    }

    /// Queues `token` in `slot` of the segment of absolute millisecond `ms` (a past
    /// millisecond counts as the current one).
    pub fn insert(
        &mut self,
        ms: u64,
        slot: usize,
        token: Token,
        mem: &mut MemoryAccesses,
    ) -> Result<(), TooFar> {
        let ms = ms.max(self.now_ms);
        let ahead_ms = ms - self.now_ms;
        if ahead_ms >= SEGMENTS as u64 {
            return Err(TooFar { ahead_ms });
        }
        let seg = (ms % SEGMENTS as u64) as usize;
        let at = seg * SLOTS + slot;
        self.queues.push(at, token, mem);
        self.tokens += 1;
        if self.queues.len(at) == 1 {
            // Set the slot's bit (level-2 word read and written) and its word's bit.
            mem.sram += 2;
            mem.scratchpad += 2;
            self.l2[seg][slot / 32] |= 1 << (slot % 32);
            self.l1[seg] |= 1 << (slot / 32);
        }
        if ms < self.scan_ms {
            self.scan_ms = ms;
        }
        Ok(())
    }

    /// The first non-empty slot of segment `seg`: two reads and two find-first-sets.
    fn first_slot(&self, seg: usize, mem: &mut MemoryAccesses) -> Option<usize> {
        mem.scratchpad += 1;
        let w1 = self.l1[seg];
        if w1 == 0 {
            return None;
        }
        let word = w1.trailing_zeros() as usize;
        mem.sram += 1;
        let w2 = self.l2[seg][word];
        Some(word * 32 + w2.trailing_zeros() as usize)
    }

    /// Takes the first element of `slot` in `seg`, clearing bits that empty.
    fn take(&mut self, seg: usize, slot: usize, mem: &mut MemoryAccesses) -> Option<Token> {
        let at = seg * SLOTS + slot;
        let token = self.queues.pop(at, mem)?;
        self.tokens -= 1;
        if self.queues.len(at) == 0 {
            mem.sram += 1;
            self.l2[seg][slot / 32] &= !(1 << (slot % 32));
            if self.l2[seg][slot / 32] == 0 {
                mem.scratchpad += 1;
                self.l1[seg] &= !(1 << (slot / 32));
            }
        }
        Some(token)
    }

    /// The element that goes first: the lowest slot of the earliest non-empty segment from
    /// the scan position on (looking ahead up to 99 segments). Returns its millisecond,
    /// slot and token.
    pub fn pop_first(&mut self, mem: &mut MemoryAccesses) -> Option<(u64, usize, Token)> {
        if self.tokens == 0 {
            self.scan_ms = self.now_ms;
            return None;
        }
        let end = self.now_ms + SEGMENTS as u64;
        let mut ms = self.scan_ms.max(self.now_ms);
        while ms < end {
            let seg = (ms % SEGMENTS as u64) as usize;
            self.segments_scanned += 1;
            if let Some(slot) = self.first_slot(seg, mem) {
                self.scan_ms = ms;
                let token = self.take(seg, slot, mem)?;
                return Some((ms, slot, token));
            }
            ms += 1;
        }
        None
    }

    /// Moves the current segment to absolute millisecond `ms`, handing every element left
    /// in the passed segments to `collect` (segment by segment, slot order, FIFO).
    pub fn advance_to(
        &mut self,
        ms: u64,
        mem: &mut MemoryAccesses,
        mut collect: impl FnMut(u64, Token),
    ) {
        if ms <= self.now_ms {
            return;
        }
        let last = ms.min(self.now_ms + SEGMENTS as u64);
        for passed in self.now_ms..last {
            let seg = (passed % SEGMENTS as u64) as usize;
            while let Some(slot) = self.first_slot(seg, mem) {
                match self.take(seg, slot, mem) {
                    Some(token) => collect(passed, token),
                    None => break,
                }
            }
        }
        self.now_ms = ms;
        self.scan_ms = self.scan_ms.max(ms);
    }

    /// Checks the bitmaps against the queues (tests and audits).
    pub fn check(&self) -> Result<(), String> {
        let mut total = 0;
        for seg in 0..SEGMENTS {
            for word in 0..L2_WORDS {
                let w2 = self.l2[seg][word];
                if ((self.l1[seg] >> word) & 1 == 1) != (w2 != 0) {
                    return Err(format!("segment {seg}: level-1 bit {word} disagrees"));
                }
                for bit in 0..32 {
                    let slot = word * 32 + bit;
                    let len = if slot < SLOTS {
                        self.queues.len(seg * SLOTS + slot)
                    } else {
                        0
                    };
                    total += len;
                    if ((w2 >> bit) & 1 == 1) != (len > 0) {
                        return Err(format!("segment {seg} slot {slot}: bit disagrees"));
                    }
                }
            }
        }
        if total != self.tokens {
            return Err(format!("{total} queued, {} counted", self.tokens));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
