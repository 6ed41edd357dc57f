//! The InfiniBand-like switch's stages against hand-worked cases, driven through the
//! switch contract by a small event loop: the idle crossing time, VL allocation round
//! robin, a blocked VL not blocking the others, switch allocation among inputs, the
//! shared buffers' minimum and maximum, and buffer space never negative nor above its
//! size under random traffic.

use std::collections::BTreeMap;

use super::*;
use crate::network::lanes::CreditPolicyConfig;
use crate::network::lanes::credits::SharedCreditsConfig;
use crate::network::switch::test_rig::{Rig, setup};
use crate::scenario::StageCycles;
use crate::time::SimTime;

/// One cycle at 100 Gb/s: 64 B = 5.12 ns.
const CYCLE: u64 = 5_120;

impl Rig<Infiniband> {
    fn new(config: &InfinibandConfig, setup: SwitchSetup) -> Rig<Infiniband> {
        Rig::with(Infiniband::new(config, setup).unwrap())
    }

    fn reference(ports: u32, lanes: u16) -> Rig<Infiniband> {
        Rig::new(
            &InfinibandConfig::default(),
            setup(ports, lanes, CreditPolicyConfig::PerLane),
        )
    }
}

/// A packet through an idle switch: the header requests the crossbar after input
/// buffering, routing, VL and switch allocation (4 cycles: the fabric's header delay)
/// and is in its output queue after crossbar and output buffering (2 more cycles): 6
/// cycles = 30.72 ns at 100 Gb/s. Its 2048 B cross at the link rate (32 cycles), but
/// not before its tail has arrived.
#[test]
fn an_idle_switch_takes_the_documented_cycles() {
    let mut rig = Rig::reference(4, 2);
    assert_eq!(rig.sw.header_delay(), Duration(4 * CYCLE));
    let tail = SimTime(40 * CYCLE);
    let p = rig.header(0, 1, 3, 2048, tail);
    rig.run_until(SimTime(100 * CYCLE));
    assert_eq!(rig.enqueued, vec![(SimTime(2 * CYCLE), 3, 1, p)]);
    // The transfer ends when the tail has arrived (40 cycles, later than 32); the tail
    // reaches the output buffer 2 cycles later; the input space goes back then.
    assert_eq!(rig.released, vec![(tail, 0, 1, 32)]);
    assert_eq!(rig.pool.get(p).tail, SimTime(42 * CYCLE));
    assert_eq!(rig.sw.queued(), 0);
    // Other stage latencies: the crossing time is their sum.
    let slow = InfinibandConfig {
        cycles: StageCycles {
            input_buffer: 2,
            routing: 3,
            vl_allocation: 1,
            switch_allocation: 2,
            crossbar: 4,
            output_buffer: 0,
        },
        ..InfinibandConfig::default()
    };
    let mut rig = Rig::new(&slow, setup(2, 1, CreditPolicyConfig::PerLane));
    assert_eq!(rig.sw.header_delay(), Duration(8 * CYCLE));
    rig.header(0, 0, 1, 64, SimTime::ZERO);
    rig.run_until(SimTime(100 * CYCLE));
    assert_eq!(rig.enqueued[0].0, SimTime(4 * CYCLE));
}

/// Input 0 holds two packets on each of VLs 0, 1 and 2, all for output 1, while its
/// first transfer (VL 0) runs: VL allocation then serves the VLs in turn, 1, 2, 0, 1, 2.
#[test]
fn vl_allocation_is_round_robin_among_routed_vls() {
    let mut rig = Rig::reference(2, 3);
    let first = rig.header(0, 0, 1, 64, SimTime::ZERO);
    let mut expect = vec![first];
    let mut by_lane = [Vec::new(), Vec::new(), Vec::new()];
    for k in 0..5u16 {
        let lane = [1, 2, 0, 1, 2][usize::from(k)];
        by_lane[usize::from(lane)].push(rig.header(0, lane, 1, 64, SimTime::ZERO));
    }
    for lane in [1, 2, 0, 1, 2] {
        expect.push(by_lane[lane].remove(0));
    }
    rig.run_until(SimTime(100 * CYCLE));
    assert_eq!(rig.order(), expect);
    // One transfer at a time per input: one cycle each (64 B at the link rate).
    let times: Vec<u64> = rig.enqueued.iter().map(|e| e.0.as_ps() / CYCLE).collect();
    assert_eq!(times, vec![2, 3, 4, 5, 6, 7]);
}

/// Output buffers of one 2048 B packet per VL: VL 0's second packet waits for room at
/// output 1, and VL 1's packet behind it in time goes first (a blocked VL never blocks
/// the others at the same input).
#[test]
fn a_vl_without_output_room_does_not_block_the_others() {
    let config = InfinibandConfig {
        output_buffer_bytes: 2 * 2048,
        ..InfinibandConfig::default()
    };
    let mut rig = Rig::new(&config, setup(2, 2, CreditPolicyConfig::PerLane));
    let a = rig.header(0, 0, 1, 2048, SimTime::ZERO);
    let b = rig.header(0, 0, 1, 2048, SimTime::ZERO);
    let c = rig.header(0, 1, 1, 2048, SimTime::ZERO);
    rig.run_until(SimTime(200 * CYCLE));
    assert_eq!(rig.order(), vec![a, c], "b waits for room on VL 0");
    assert_eq!(rig.sw.output_in_use(1, 0), 32);
    // The link sends a: its space is free, b crosses.
    rig.call(|sw, cx| sw.on_output_freed(cx, 1, 0, 32));
    rig.run_until(SimTime(400 * CYCLE));
    assert_eq!(rig.order(), vec![a, c, b]);
}

/// Inputs 0, 1 and 2 each hold two packets for output 3: switch allocation grants
/// them in turn, one transfer at a time into the output.
#[test]
fn switch_allocation_is_round_robin_among_inputs() {
    let mut rig = Rig::reference(4, 1);
    let mut per_input = vec![Vec::new(); 3];
    for _ in 0..2 {
        for (input, list) in per_input.iter_mut().enumerate() {
            list.push(rig.header(input as u32, 0, 3, 128, SimTime::ZERO));
        }
    }
    rig.run_until(SimTime(100 * CYCLE));
    let expect: Vec<u32> = (0..2)
        .flat_map(|k| per_input.iter().map(move |l| l[k]))
        .collect();
    assert_eq!(rig.order(), expect);
}

/// A shared input buffer of 12 credits, 3 VLs, 2 reserved each, at most 7 per VL
/// (the credit policy's worked example): headers that fit are taken without overflow;
/// VL 0 cannot go above its maximum, and VL 2 keeps its minimum once the shared part
/// is used up.
#[test]
fn shared_input_buffer_respects_minimum_and_maximum() {
    let shared = CreditPolicyConfig::Shared(SharedCreditsConfig {
        min_bytes: 128,
        max_bytes: 448,
    });
    let config = InfinibandConfig {
        input_buffer_bytes: 12 * 64,
        output_buffer_bytes: 12 * 64,
        ..InfinibandConfig::default()
    };
    let mut rig = Rig::new(&config, setup(2, 3, shared));
    assert_eq!(rig.sw.input_port_credits(3), 12);
    // Output 1 busy: nothing leaves the input buffer while it fills.
    rig.sw.sa.grant(1, 1);
    for _ in 0..7 {
        rig.header(0, 0, 1, 64, SimTime::ZERO);
    }
    assert_eq!(
        (rig.sw.input_in_use(0, 0), rig.sw.input_overflows()),
        (7, 0)
    );
    rig.header(0, 0, 1, 64, SimTime::ZERO);
    assert_eq!(
        rig.sw.input_overflows(),
        1,
        "an eighth credit breaks the maximum"
    );
    // VL 1 takes its 2 reserved credits and the shared part's last one (12 - 3 x 2 =
    // 6 shared, 5 of them held by VL 0).
    for _ in 0..3 {
        rig.header(0, 1, 1, 64, SimTime::ZERO);
    }
    assert_eq!(
        (rig.sw.input_in_use(0, 1), rig.sw.input_overflows()),
        (3, 1)
    );
    rig.header(0, 1, 1, 64, SimTime::ZERO);
    assert_eq!(rig.sw.input_overflows(), 2, "the shared part is used up");
    // VL 2's 2 reserved credits are still there, not a third.
    for _ in 0..2 {
        rig.header(0, 2, 1, 64, SimTime::ZERO);
    }
    assert_eq!(
        (rig.sw.input_in_use(0, 2), rig.sw.input_overflows()),
        (2, 2)
    );
    rig.header(0, 2, 1, 64, SimTime::ZERO);
    assert_eq!(
        rig.sw.input_overflows(),
        3,
        "a third credit on VL 2 does not fit"
    );
}

proptest::proptest! {
    /// Random packets at random inputs and VLs for random outputs, sent only when the
    /// input VL has room (as the sender's credits allow), output space freed a random
    /// time after each packet reached its queue: every packet comes out exactly once,
    /// once per output queue in FIFO order per (input, VL, output), no buffer's use
    /// ever exceeds its limit, and all space is back at the end.
    #[test]
    fn buffers_stay_within_their_limits(
        shared in proptest::bool::ANY,
        packets in proptest::collection::vec((0u32..4, 0u16..3, 0u32..4, 1u32..=1024, 0u64..50), 1..120),
    ) {
        let lanes = 3u16;
        let policy = if shared {
            CreditPolicyConfig::Shared(SharedCreditsConfig { min_bytes: 1024, max_bytes: 4096 })
        } else {
            CreditPolicyConfig::PerLane
        };
        let config = InfinibandConfig {
            input_buffer_bytes: 3 * 2048,
            output_buffer_bytes: 3 * 2048,
            ..InfinibandConfig::default()
        };
        let limit = if shared { 64 } else { 32 };
        let mut rig = Rig::new(&config, setup(4, lanes, policy));
        let mut upstream: Vec<_> = (0..4).map(|_| super::super::stages::port_buffer(&policy, lanes, 96)).collect();
        let mut sent = std::collections::HashMap::new();
        let mut pending: std::collections::VecDeque<_> = packets.into_iter().collect();
        let mut frees: BTreeMap<(SimTime, u32), (u32, u16, u32)> = BTreeMap::new();
        let mut seen = 0;
        let mut step = 0u64;
        loop {
            step += 1;
            proptest::prop_assert!(step < 100_000, "no progress");
            if let Some(&(input, lane, output, bytes, _)) = pending.front() {
                if upstream[input as usize].consume(usize::from(lane), bytes.div_ceil(64)) {
                    let (_, _, _, _, gap) = pending.pop_front().unwrap();
                    let p = rig.header(input, lane, output, bytes, rig.now);
                    sent.insert(p, (input, lane, output));
                    let t = rig.now.plus_ps(gap * 1000);
                    rig.run_until(t);
                }
            }
            // Everything enqueued frees its output space some time later.
            for &(at, output, queue, p) in &rig.enqueued[seen..] {
                let credits = rig.pool.get(p).credits;
                frees.insert((at.plus_ps(u64::from(p % 7) * 3000 + 1), p), (output, queue, credits));
            }
            seen = rig.enqueued.len();
            for (_, input, lane, credits) in rig.released.drain(..) {
                upstream[input as usize].give_back(usize::from(lane), credits);
            }
            for o in 0..4 {
                for l in 0..lanes {
                    proptest::prop_assert!(rig.sw.output_in_use(o, l) <= limit);
                    proptest::prop_assert!(rig.sw.input_in_use(o, l) <= limit);
                }
            }
            if pending.is_empty() && rig.timers.is_empty() && frees.is_empty() {
                break;
            }
            let next_timer = rig.timers.first_key_value().map(|(k, _)| k.0);
            let next_free = frees.first_key_value().map(|(k, _)| k.0);
            match (next_free, next_timer) {
                (Some(f), t) if t.is_none_or(|t| f <= t) => {
                    let ((at, _), (output, queue, credits)) = frees.pop_first().unwrap();
                    rig.now = rig.now.max(at);
                    rig.call(|sw, cx| sw.on_output_freed(cx, output, queue, credits));
                }
                (_, Some(t)) => rig.run_until(t),
                _ => {}
            }
        }
        proptest::prop_assert_eq!(rig.sw.input_overflows(), 0);
        proptest::prop_assert_eq!(rig.enqueued.len(), sent.len());
        let mut last: std::collections::HashMap<(u32, u16, u32), u32> = Default::default();
        for &(_, output, _, p) in &rig.enqueued {
            let key = sent[&p];
            proptest::prop_assert_eq!(key.2, output);
            if let Some(&before) = last.get(&key) {
                proptest::prop_assert!(before < p, "FIFO per (input, VL, output)");
            }
            last.insert(key, p);
        }
        for o in 0..4 {
            for l in 0..lanes {
                proptest::prop_assert_eq!(rig.sw.output_in_use(o, l), 0);
                proptest::prop_assert_eq!(rig.sw.input_in_use(o, l), 0);
            }
        }
        proptest::prop_assert_eq!(rig.sw.queued(), 0);
    }
}

/// SL2VL per output port: output 1 maps SL 0 to VL 2, output 0 keeps the lane map:
/// a packet of queue 0 takes space on VL 2 of output 1's buffer, and the switch tells
/// the fabric output 1's table.
#[test]
fn an_output_port_table_remaps_the_vl_in_the_output_buffer() {
    let config = InfinibandConfig {
        output_sl2vl: vec![crate::scenario::PortSl2Vl {
            ports: vec![1],
            sl2vl: vec![2, 0, 1],
        }],
        ..InfinibandConfig::default()
    };
    let mut rig = Rig::new(&config, setup(2, 3, CreditPolicyConfig::PerLane));
    assert_eq!(rig.sw.output_lanes(1).unwrap().to_vec(), vec![2, 0, 1]);
    assert_eq!(rig.sw.output_lanes(0).unwrap().to_vec(), vec![0, 1, 2]);
    rig.header(0, 0, 1, 640, SimTime::ZERO);
    rig.header(1, 0, 0, 128, SimTime::ZERO);
    assert_eq!(
        (rig.sw.output_in_use(1, 2), rig.sw.output_in_use(1, 0)),
        (10, 0)
    );
    assert_eq!(rig.sw.output_in_use(0, 0), 2);
}
