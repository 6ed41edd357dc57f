//! The allocation rounds limited to the inputs that can move (the header's input, then a
//! round's losers) grant exactly what rounds over every input until one grants nothing
//! grant: the same random traffic through both gives the same output queue entries,
//! input releases and timers, at the same times, in the same order.

use std::collections::{BTreeMap, VecDeque};

use super::*;
use crate::network::lanes::CreditPolicyConfig;
use crate::network::lanes::credits::SharedCreditsConfig;
use crate::network::switch::test_rig::{Rig, setup};
use crate::time::SimTime;

const PORTS: u32 = 8;
const LANES: u16 = 3;

/// What the switch did, in order: (time, output, queue, packet) entering output queues,
/// (time, input, lane, credits) released, and the timers it set.
type Log = (
    Vec<(SimTime, u32, u16, u32)>,
    Vec<(SimTime, u32, u16, u32)>,
    Vec<(SimTime, u64)>,
);

/// Drives a switch with `packets` (input, lane, output, bytes, gap in ns), each sent when
/// its input lane has room upstream, output space freed a packet-dependent time after
/// the packet entered its queue.
fn drive(exhaustive: bool, shared: bool, packets: &[(u32, u16, u32, u32, u64)]) -> Log {
    let policy = if shared {
        CreditPolicyConfig::Shared(SharedCreditsConfig {
            min_bytes: 1024,
            max_bytes: 4096,
        })
    } else {
        CreditPolicyConfig::PerLane
    };
    // Small output buffers, so heads wait for room as well as for busy outputs.
    let config = InfinibandConfig {
        input_buffer_bytes: 3 * 2048,
        output_buffer_bytes: 3 * 1024,
        ..InfinibandConfig::default()
    };
    let mut rig = Rig::with(Infiniband::new(&config, setup(PORTS, LANES, policy)).unwrap());
    rig.sw.exhaustive = exhaustive;
    let mut upstream: Vec<_> = (0..PORTS)
        .map(|_| super::super::stages::port_buffer(&policy, LANES, 96))
        .collect();
    let mut pending: VecDeque<_> = packets.iter().copied().collect();
    let mut frees: BTreeMap<(SimTime, u32), (u32, u16, u32)> = BTreeMap::new();
    let (mut seen, mut released, mut timers) = (0, Vec::new(), Vec::new());
    for _ in 0..200_000 {
        if let Some(&(input, lane, output, bytes, gap)) = pending.front() {
            if upstream[input as usize].consume(usize::from(lane), bytes.div_ceil(64)) {
                pending.pop_front();
                rig.header(input, lane, output, bytes, rig.now);
                let t = rig.now.plus_ps(gap * 1000);
                rig.run_until(t);
            }
        }
        for &(at, output, queue, p) in &rig.enqueued[seen..] {
            let credits = rig.pool.get(p).credits;
            frees.insert(
                (at.plus_ps(u64::from(p % 5) * 7000 + 1), p),
                (output, queue, credits),
            );
        }
        seen = rig.enqueued.len();
        for r in rig.released.drain(..) {
            upstream[r.1 as usize].give_back(usize::from(r.2), r.3);
            released.push(r);
        }
        timers.extend(rig.timers.iter().map(|(&(at, _), t)| (at, t.0)));
        if pending.is_empty() && rig.timers.is_empty() && frees.is_empty() {
            break;
        }
        let next_timer = rig.timers.first_key_value().map(|(k, _)| k.0);
        match (frees.first_key_value().map(|(k, _)| k.0), next_timer) {
            (Some(f), t) if t.is_none_or(|t| f <= t) => {
                let ((at, _), (output, queue, credits)) = frees.pop_first().unwrap();
                rig.now = rig.now.max(at);
                rig.call(|sw, cx| sw.on_output_freed(cx, output, queue, credits));
            }
            (_, Some(t)) => rig.run_until(t),
            _ => {}
        }
    }
    (rig.enqueued, released, timers)
}

proptest::proptest! {
    #[test]
    fn limited_rounds_grant_as_rounds_over_every_input(
        shared in proptest::bool::ANY,
        packets in proptest::collection::vec(
            (0..PORTS, 0..LANES, 0..PORTS, 1u32..=1024, 0u64..40),
            1..200,
        ),
    ) {
        let limited = drive(false, shared, &packets);
        proptest::prop_assert_eq!(limited.0.len(), packets.len(), "every packet comes out");
        proptest::prop_assert_eq!(limited, drive(true, shared, &packets));
    }
}
