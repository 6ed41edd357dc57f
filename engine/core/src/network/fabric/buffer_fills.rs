//! An audited run's own count of what every buffer holds, from what was sent and freed,
//! independently of the credit counters: a buffer holding more than its size is a
//! breach of flow control ([`super::Audit::buffer_overflows`]).

/// Per global port, the fill of its input-side buffer (a switch input buffer or an
/// interface's reception buffer) per lane, and of its output-side buffer (a switch
/// output buffer per lane, an interface's injection buffer per class), with their sizes.
pub(super) struct BufferFills {
    /// Slots per port in both tables: the larger of the lanes and the classes.
    width: usize,
    /// Lanes of a port: the slots a shared input buffer's total is over.
    port_lanes: usize,
    /// Credits of every switch input port's buffer, for the audit of a shared buffer.
    shared_total: Option<u32>,
    /// Most credits one lane may hold in each port's input-side buffer.
    input_capacity: Vec<u32>,
    /// Output-side buffer size in credits per slot, per port.
    output_capacity: Vec<u32>,
    input: Vec<u32>,
    output: Vec<u32>,
    /// Most credits ever held by any input-side and output-side buffer, as a fraction of
    /// its size.
    peak: [PeakFill; 2],
    overflows: u64,
}

/// The buffer sizes of one global port.
pub(super) struct BufferSizes {
    /// Most credits one lane may hold in the input-side buffer.
    pub(super) input: u32,
    /// Credits per slot of the output-side buffer.
    pub(super) output: u32,
}

impl BufferFills {
    /// Empty buffers of the given sizes, one entry per global port; `width` slots per
    /// port, of which the first `port_lanes` are lanes; `shared_total`, the credits of a
    /// switch input port's shared buffer.
    pub(super) fn new(
        sizes: &[BufferSizes],
        width: usize,
        port_lanes: usize,
        shared_total: Option<u32>,
    ) -> BufferFills {
        BufferFills {
            width,
            port_lanes,
            shared_total,
            input_capacity: sizes.iter().map(|s| s.input).collect(),
            output_capacity: sizes.iter().map(|s| s.output).collect(),
            input: vec![0; sizes.len() * width],
            output: vec![0; sizes.len() * width],
            peak: [PeakFill::default(); 2],
            overflows: 0,
        }
    }

    /// `credits` arrive in slot `slot` of `port`'s output-side buffer.
    #[inline]
    pub(super) fn add_output(&mut self, port: u32, slot: usize, credits: u32) {
        let fill = &mut self.output[port as usize * self.width + slot];
        *fill += credits;
        let fill = *fill;
        self.note(1, fill, self.output_capacity[port as usize]);
    }

    /// `credits` leave slot `slot` of `port`'s output-side buffer.
    #[inline]
    pub(super) fn remove_output(&mut self, port: u32, slot: usize, credits: u32) {
        let fill = &mut self.output[port as usize * self.width + slot];
        *fill = fill.saturating_sub(credits);
    }

    /// `credits` of `lane` arrive in `port`'s input-side buffer (a switch's when
    /// `to_switch`): counted against the lane's limit and, for a switch's shared
    /// buffer, the port's total.
    #[inline]
    pub(super) fn add_input(&mut self, port: u32, lane: u16, credits: u32, to_switch: bool) {
        let first = port as usize * self.width;
        let fill = &mut self.input[first + usize::from(lane)];
        *fill += credits;
        let fill = *fill;
        self.note(0, fill, self.input_capacity[port as usize]);
        let Some(port_total) = self.shared_total else {
            return;
        };
        if to_switch {
            let total: u32 = self.input[first..first + self.port_lanes].iter().sum();
            if total > port_total {
                self.overflows += 1;
            }
        }
    }

    /// `credits` of `lane` leave `port`'s input-side buffer.
    #[inline]
    pub(super) fn remove_input(&mut self, port: u32, lane: u16, credits: u32) {
        let fill = &mut self.input[port as usize * self.width + usize::from(lane)];
        *fill = fill.saturating_sub(credits);
    }

    /// What `port`'s input-side buffer holds of `lane`.
    #[cfg(test)]
    pub(super) fn input(&self, port: u32, lane: u16) -> u32 {
        self.input[port as usize * self.width + usize::from(lane)]
    }

    /// Fills above a buffer's size (or a shared buffer's total) so far.
    pub(super) fn overflows(&self) -> u64 {
        self.overflows
    }

    /// The highest fill any (input-side, output-side) buffer reached, as a fraction of
    /// its size.
    pub(super) fn peak(&self) -> (f64, f64) {
        (self.peak[0].ratio(), self.peak[1].ratio())
    }

    /// Counts a fill above `capacity` and keeps the highest fill ratio of `side`.
    #[inline]
    fn note(&mut self, side: usize, fill: u32, capacity: u32) {
        if fill > capacity {
            self.overflows += 1;
        }
        self.peak[side].note(fill, capacity);
    }
}

/// The highest fill ratio seen, kept as the (fill, size) that gave it, so that noting a
/// fill costs two integer products instead of a division. The ratio it reports is the
/// division of that pair: rounding is monotone, so it is exactly the largest of the
/// rounded ratios of every fill noted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PeakFill {
    fill: u32,
    /// At least 1 (a buffer of size 0 counts as size 1).
    capacity: u32,
}

impl Default for PeakFill {
    fn default() -> PeakFill {
        PeakFill {
            fill: 0,
            capacity: 1,
        }
    }
}

impl PeakFill {
    /// Notes a buffer holding `fill` credits of its `capacity`.
    #[inline]
    fn note(&mut self, fill: u32, capacity: u32) {
        let capacity = capacity.max(1);
        if u64::from(fill) * u64::from(self.capacity) > u64::from(self.fill) * u64::from(capacity) {
            *self = PeakFill { fill, capacity };
        }
    }

    /// The highest fill noted, as a fraction of its buffer's size.
    fn ratio(self) -> f64 {
        f64::from(self.fill) / f64::from(self.capacity)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The peak kept as a pair reports exactly the largest of the ratios computed one by
        /// one in floating point (as the audit did before).
        #[test]
        fn peak_fill_is_the_largest_ratio(
            fills in proptest::collection::vec((0u32..=u32::MAX, 0u32..=u32::MAX), 0..40),
            small in proptest::collection::vec((0u32..50, 0u32..50), 0..40),
        ) {
            for list in [&fills, &small] {
                let mut peak = PeakFill::default();
                let mut by_division = 0.0f64;
                for &(fill, capacity) in list.iter() {
                    peak.note(fill, capacity);
                    let ratio = f64::from(fill) / f64::from(capacity.max(1));
                    if ratio > by_division {
                        by_division = ratio;
                    }
                    prop_assert_eq!(peak.ratio().to_bits(), by_division.to_bits());
                }
            }
        }
    }

    /// Two ports of two lanes: 4 credits per lane in, 6 per slot out, 6 in all when the
    /// input buffer is shared.
    fn two_ports(shared_total: Option<u32>) -> BufferFills {
        let sizes = [
            BufferSizes {
                input: 4,
                output: 6,
            },
            BufferSizes {
                input: 4,
                output: 6,
            },
        ];
        BufferFills::new(&sizes, 2, 2, shared_total)
    }

    #[test]
    fn a_fill_over_a_lanes_limit_is_counted_once_per_arrival() {
        let mut f = two_ports(None);
        f.add_input(1, 1, 4, true);
        assert_eq!((f.overflows(), f.input(1, 1), f.input(0, 1)), (0, 4, 0));
        f.add_input(1, 1, 1, true);
        assert_eq!(f.overflows(), 1);
        f.remove_input(1, 1, 5);
        f.add_input(1, 1, 4, true);
        assert_eq!(f.overflows(), 1, "freed credits make room again");
        f.add_output(0, 1, 7);
        assert_eq!(f.overflows(), 2);
        f.remove_output(0, 1, 7);
        f.add_output(0, 1, 6);
        assert_eq!(f.overflows(), 2);
        assert_eq!(f.peak(), (5.0 / 4.0, 7.0 / 6.0));
    }

    #[test]
    fn a_shared_buffer_counts_the_ports_total_at_a_switch_only() {
        let mut f = two_ports(Some(6));
        f.add_input(0, 0, 4, true);
        f.add_input(0, 1, 2, true);
        assert_eq!(f.overflows(), 0);
        f.add_input(0, 1, 1, true);
        assert_eq!(f.overflows(), 1, "7 credits in a 6-credit port");
        f.add_input(1, 0, 4, false);
        f.add_input(1, 1, 3, false);
        assert_eq!(
            f.overflows(),
            1,
            "an interface's reception buffer is not shared"
        );
    }
}
