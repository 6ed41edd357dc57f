//! The Omni-Path-like switch's stages against hand-worked cases, driven through the
//! switch contract by the shared rig: the idle crossing times of an MPort-local and a
//! central path, local traffic never touching the central buffers, the central
//! crossbar's 3 flits per cycle, both central links of an MPort working at once, the SC
//! (and so the VL) chosen at routing, and the output scheduler by SL checking only that
//! SL's VLs.

use super::*;
use crate::network::lanes::{CreditPolicyConfig, LaneCredits};
use crate::network::port::{NetPacket, OutputPort, PacketPool};
use crate::network::send::SendAudit;
use crate::network::switch::test_rig::{self, Rig, setup};
use crate::schedulers::{DTable, TableEntry};
use crate::time::BitRate;
use crate::time::SimTime;

/// One cycle at 100 Gb/s: 64 B = 5.12 ns.
const CYCLE: u64 = 5_120;

fn reference(ports: u32, lanes: u16) -> Rig<Omnipath> {
    Rig::with(
        Omnipath::new(
            &OmnipathSwitchConfig::default(),
            setup(ports, lanes, CreditPolicyConfig::PerLane),
        )
        .unwrap(),
    )
}

fn at(cycles: u64) -> SimTime {
    SimTime(cycles * CYCLE)
}

/// A 64 B packet (one flit, its tail in at once) through an idle 8-port switch: handed
/// over after the 4 cycles of input buffer, routing, VL and switch allocation (the
/// fabric's header delay), it is in the output queue of a port of its own MPort 2
/// cycles later (local crossbar, output buffer), of a port of the other MPort 6 cycles
/// later (local crossbar, central buffer, central VL and switch allocation, central
/// crossbar, output buffer). Only the second uses a central buffer; every buffer is
/// empty again at the end.
#[test]
fn an_idle_switch_takes_the_documented_cycles_local_and_central() {
    let mut rig = reference(8, 1);
    assert_eq!(rig.sw.header_delay(), Duration(4 * CYCLE));
    let local = rig.header(0, 0, 3, 64, SimTime::ZERO);
    rig.run_until(at(100));
    assert_eq!(rig.enqueued, vec![(at(2), 3, 0, local)]);
    assert_eq!(rig.sw.central_in_use(0, 0) + rig.sw.central_in_use(1, 0), 0);

    let mut rig = reference(8, 1);
    let central = rig.header(0, 0, 5, 64, SimTime::ZERO);
    assert_eq!(
        rig.sw.central_in_use(0, 0),
        1,
        "reserved at the local grant"
    );
    rig.run_until(at(4));
    assert_eq!(rig.sw.central_in_use(0, 0), 1);
    assert!(rig.enqueued.is_empty());
    rig.run_until(at(100));
    assert_eq!(rig.enqueued, vec![(at(6), 5, 0, central)]);
    assert_eq!(rig.sw.central_in_use(0, 0), 0);
    assert_eq!(rig.sw.input_in_use(0, 0), 0);
    assert_eq!(rig.sw.queued(), 0);
    assert_eq!(rig.sw.input_overflows(), 0);
}

/// The central crossbar moves 3 flits per cycle: two 2048 B packets (their tails in)
/// from ports 0 and 1 of MPort 0 to port 4 of MPort 1. They cross the local crossbar at
/// once, one on each central link; the first crosses the central crossbar from cycle
/// 4, the second as soon as the output is free, one 2048 B transfer at 300 Gb/s later.
#[test]
fn central_crossbar_moves_three_flits_per_cycle_and_both_links_work_at_once() {
    let mut rig = reference(8, 1);
    let a = rig.header(0, 0, 4, 2048, SimTime::ZERO);
    let b = rig.header(1, 0, 4, 2048, SimTime::ZERO);
    assert_eq!(
        (rig.sw.central_in_use(0, 0), rig.sw.central_in_use(1, 0)),
        (32, 32),
        "one packet on each central link"
    );
    rig.run_until(at(1000));
    let xfer = BitRate::from_gbps(300.0).unwrap().transmission_time(2048);
    assert_eq!(rig.order(), vec![a, b]);
    let (t0, t1) = (rig.enqueued[0].0, rig.enqueued[1].0);
    assert_eq!(t0, at(6));
    // The second is granted when the first's transfer ends (cycle 4 + 32/3), and is
    // in its output queue 2 cycles later.
    assert_eq!(t1, at(4) + xfer + Duration(2 * CYCLE));
    // The local transfers both ended one 300 Gb/s transfer after cycle 0.
    let released: Vec<_> = rig.released.iter().map(|r| (r.0, r.1)).collect();
    assert_eq!(
        released,
        vec![(SimTime::ZERO + xfer, 0), (SimTime::ZERO + xfer, 1)]
    );
}

/// The SC is chosen at routing: a packet that came in on lane 0 and was routed onto
/// routing lane 1 of its SL (queue 1: a torus's dateline SC) waits in the central buffer
/// and the output buffer on that queue's lane, 1, not on its input lane.
#[test]
fn the_sc_and_its_vl_change_at_routing() {
    let mut s = setup(8, 2, CreditPolicyConfig::PerLane);
    s.routing_lanes = 2;
    s.lane_of_queue = vec![0, 1].into();
    let mut rig = Rig::with(Omnipath::new(&OmnipathSwitchConfig::default(), s).unwrap());
    let packet = rig.pool.insert(test_rig::packet(0, 128));
    let h = Header {
        input: 2,
        in_lane: 0,
        output: 6,
        queue: 1,
        packet,
    };
    rig.call(|sw, cx| sw.on_header(cx, h));
    assert_eq!(rig.sw.input_in_use(2, 0), 2);
    assert_eq!(
        (rig.sw.central_in_use(0, 0), rig.sw.central_in_use(0, 1)),
        (0, 2)
    );
    rig.run_until(at(6));
    assert_eq!(rig.sw.output_in_use(6, 1), 2);
    assert_eq!(rig.sw.output_in_use(6, 0), 0);
    assert_eq!(rig.enqueued, vec![(at(6), 6, 1, packet)]);
}

/// A head bound for another MPort waits in its input buffer while its output buffer
/// lane is full (the local crossbar reserves the output room before it sends into the
/// central buffer, which so never holds a packet that waits for downstream space), and
/// does not block a head of the same input on another VL bound for a port of its own
/// MPort (VL allocation offers only heads that can move).
#[test]
fn a_central_head_waits_for_output_room_and_local_traffic_passes() {
    let mut rig = reference(8, 2);
    // Port 4 (MPort 1) never frees its output buffer: fill its lane 0 (896 credits,
    // 28 packets of 2048 B) from port 2.
    for _ in 0..28 {
        rig.header(2, 0, 4, 2048, SimTime::ZERO);
        rig.run_until(rig.now + Duration(100 * CYCLE));
    }
    assert_eq!(rig.sw.output_in_use(4, 0), 896, "output lane 0 full");
    let waiting = rig.header(0, 0, 4, 2048, SimTime::ZERO);
    rig.run_until(rig.now + Duration(100 * CYCLE));
    assert_eq!(rig.sw.input_in_use(0, 0), 32, "waits at its input");
    assert_eq!(rig.sw.central_in_use(0, 0) + rig.sw.central_in_use(1, 0), 0);
    assert!(!rig.order().contains(&waiting));
    // VL 1 of input 0, to port 1 of MPort 0: passes.
    let local = rig.header(0, 1, 1, 2048, rig.now);
    rig.run_until(rig.now + Duration(100 * CYCLE));
    assert_eq!(rig.order().last(), Some(&local));
    // Room at port 4 again: the waiting head goes.
    rig.call(|sw, cx| sw.on_output_freed(cx, 4, 0, 32));
    rig.run_until(rig.now + Duration(100 * CYCLE));
    assert_eq!(rig.order().last(), Some(&waiting));
}

/// The output scheduler arbitrates by SL and checks only that SL's VLs: SL 0's VL has no
/// downstream credits, so although the DTable's first entry is SL 0's, SL 1 sends; and
/// an SL with two VLs (two routing lanes) sends from the one with credits.
#[test]
fn the_output_scheduler_checks_only_that_sls_vls() {
    let mut pool = PacketPool::default();
    let mut packet = |sl: u16, id: u64| {
        pool.insert(NetPacket {
            destination: 1,
            sl,
            ..test_rig::packet(id, 128)
        })
    };
    let (a, b, c) = (packet(0, 0), packet(1, 1), packet(0, 2));
    let table = [
        TableEntry {
            class: 0,
            weight: 32,
        },
        TableEntry {
            class: 1,
            weight: 32,
        },
    ];
    // Queues: SL 0 on lanes 0 (routing lane 0) and 1 (routing lane 1), SL 1 on 2 and 3.
    let mut credits = LaneCredits::per_lane(4, 8);
    assert!(credits.consume(0, 8), "SL 0's first VL has no credits left");
    let mut port = OutputPort::new(
        vec![0, 1, 2, 3].into(),
        2,
        credits,
        DTable::new(&table, 2).into(),
    );
    port.enqueue(SimTime::ZERO, 0, a, &mut pool);
    port.enqueue(SimTime::ZERO, 2, b, &mut pool);
    let mut audit = SendAudit::default();
    assert_eq!(port.send(SimTime::ZERO, &pool, &mut audit), Some((2, b)));
    // SL 0 again, now also on its second VL, which has credits: that one goes.
    port.enqueue(SimTime::ZERO, 1, c, &mut pool);
    assert_eq!(port.send(SimTime::ZERO, &pool, &mut audit), Some((1, c)));
    assert_eq!(port.send(SimTime::ZERO, &pool, &mut audit), None);
    assert_eq!(audit, SendAudit::default());
}
