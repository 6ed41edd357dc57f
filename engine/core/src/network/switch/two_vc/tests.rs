//! The two-VC switch's arbitration, against hand-worked cases: priority at the
//! crossbar, VC 0 before VC 1, FIFO per input and VC, round robin among equals and for
//! the traditional designs, output room; and the output arbiter of the R4 presets.

use super::*;
use crate::network::lanes::LaneCredits;
use crate::network::port::{NetPacket, OutputPort};
use crate::network::send::SendAudit;
use crate::network::switch::test_rig::packet;
use crate::schedulers::StrictPriority;
use crate::time::SimTime;

fn add(pool: &mut PacketPool, credits: u32, priority: u8) -> u32 {
    pool.insert(NetPacket {
        priority,
        ..packet(pool.len() as u64, credits * 64)
    })
}

/// Eight classes on two VCs (the R4 class-to-VC map): classes 0-3 on VC 0, 4-7 on VC 1.
fn two_vcs() -> Arc<[u16]> {
    Arc::from([0u16, 0, 0, 0, 1, 1, 1, 1])
}

fn crossbar(ports: u32, arbitration: VcArbitration, room: u32) -> PriorityCrossbar {
    PriorityCrossbar::new(ports, two_vcs(), 2, 1, arbitration, room)
}

/// Queues packet `h` at `input` on `lane`, for queue `queue` of `output`.
fn put(sw: &mut PriorityCrossbar, input: u32, lane: u16, output: u32, queue: u16, h: u32) {
    sw.enqueue(Header {
        input,
        in_lane: lane,
        output,
        queue,
        packet: h,
    });
}

/// Grants one at a time (each transfer done before the next), returning the packets.
fn drain(sw: &mut PriorityCrossbar, pool: &PacketPool) -> Vec<u32> {
    let mut order = Vec::new();
    while let Some(g) = sw.grant(pool) {
        order.push(g.packet);
        sw.transfer_done(g.input, g.output);
    }
    order
}

/// Three inputs' heads of one VC compete for one output: the highest priority level
/// goes first, whatever the round-robin pointer says.
#[test]
fn crossbar_picks_the_highest_priority_head() {
    let mut pool = PacketPool::default();
    let mut sw = crossbar(4, VcArbitration::Priority, 100);
    let low = add(&mut pool, 1, 2);
    let high = add(&mut pool, 1, 6);
    let mid = add(&mut pool, 1, 4);
    put(&mut sw, 0, 0, 3, 0, low);
    put(&mut sw, 1, 0, 3, 1, high);
    put(&mut sw, 2, 0, 3, 2, mid);
    let g = sw.grant(&pool).unwrap();
    assert_eq!((g.input, g.packet), (1, high));
    assert!(sw.grant(&pool).is_none(), "one transfer per output");
    sw.transfer_done(g.input, g.output);
    assert_eq!(drain(&mut sw, &pool), vec![mid, low]);
    assert_eq!(sw.queued(), 0);
}

/// Equal priority levels go round robin from the input after the last grant.
#[test]
fn equal_priorities_go_round_robin() {
    let mut pool = PacketPool::default();
    let mut sw = crossbar(4, VcArbitration::Priority, 100);
    let mut inputs = std::collections::HashMap::new();
    for input in [0, 1, 3] {
        for _ in 0..2 {
            let h = add(&mut pool, 1, 5);
            inputs.insert(h, input);
            put(&mut sw, input, 0, 2, 0, h);
        }
    }
    let order: Vec<u32> = drain(&mut sw, &pool).iter().map(|h| inputs[h]).collect();
    assert_eq!(order, vec![0, 1, 3, 0, 1, 3]);
}

/// The QoS VC (VC 0) always wins over best effort: against a higher priority level on
/// VC 1 for the same output, and across outputs (an input whose VC 0 head could go is
/// not taken by its VC 1 head for another output visited first).
#[test]
fn the_qos_vc_always_wins() {
    let mut pool = PacketPool::default();
    let mut sw = crossbar(4, VcArbitration::Priority, 100);
    let best_effort = add(&mut pool, 1, 7);
    let qos = add(&mut pool, 1, 0);
    put(&mut sw, 0, 1, 2, 4, best_effort);
    put(&mut sw, 1, 0, 2, 0, qos);
    assert_eq!(drain(&mut sw, &pool), vec![qos, best_effort]);

    let mut sw = crossbar(4, VcArbitration::Priority, 100);
    let be_to_0 = add(&mut pool, 1, 7);
    let qos_to_1 = add(&mut pool, 1, 1);
    put(&mut sw, 0, 1, 0, 4, be_to_0);
    put(&mut sw, 0, 0, 1, 0, qos_to_1);
    let g = sw.grant(&pool).unwrap();
    assert_eq!((g.packet, g.output, g.in_lane), (qos_to_1, 1, 0));
    assert!(sw.grant(&pool).is_none(), "input 0 is busy");
    sw.transfer_done(0, 1);
    assert_eq!(sw.grant(&pool).map(|g| g.packet), Some(be_to_0));
}

/// A FIFO per input and VC: a high-priority packet behind a low-priority head at the
/// same input waits for it (head-of-line blocking inside a VC is intended), while the
/// other input's head of middle priority beats that low head.
#[test]
fn per_input_fifo_is_kept_inside_a_vc() {
    let mut pool = PacketPool::default();
    let mut sw = crossbar(4, VcArbitration::Priority, 100);
    let first_low = add(&mut pool, 1, 1);
    let then_high = add(&mut pool, 1, 7);
    let other = add(&mut pool, 1, 4);
    put(&mut sw, 0, 0, 3, 3, first_low);
    put(&mut sw, 0, 0, 3, 0, then_high);
    put(&mut sw, 1, 0, 3, 1, other);
    assert_eq!(drain(&mut sw, &pool), vec![other, first_low, then_high]);

    // The head blocks its FIFO even for another output.
    let mut sw = crossbar(4, VcArbitration::Priority, 100);
    let to_busy = add(&mut pool, 1, 3);
    let to_free = add(&mut pool, 1, 3);
    let occupier = add(&mut pool, 1, 3);
    put(&mut sw, 1, 0, 2, 0, occupier);
    let g = sw.grant(&pool).unwrap();
    assert_eq!(g.packet, occupier);
    put(&mut sw, 0, 0, 2, 0, to_busy);
    put(&mut sw, 0, 0, 3, 0, to_free);
    assert!(sw.grant(&pool).is_none(), "output 2 busy blocks the FIFO");
    sw.transfer_done(1, 2);
    assert_eq!(drain(&mut sw, &pool), vec![to_busy, to_free]);
}

/// The traditional designs' round robin ignores priority levels.
#[test]
fn round_robin_arbitration_ignores_priority() {
    let mut pool = PacketPool::default();
    let mut sw = crossbar(4, VcArbitration::RoundRobin, 100);
    let a = add(&mut pool, 1, 0);
    let b = add(&mut pool, 1, 7);
    let c = add(&mut pool, 1, 3);
    put(&mut sw, 0, 0, 3, 0, a);
    put(&mut sw, 1, 0, 3, 0, b);
    put(&mut sw, 2, 0, 3, 0, c);
    assert_eq!(drain(&mut sw, &pool), vec![a, b, c]);
}

/// A head moves only if its output lane has room; a smaller head of lower priority
/// that fits goes meanwhile, and room freed later lets the first go.
#[test]
fn output_room_is_required() {
    let mut pool = PacketPool::default();
    let mut sw = crossbar(3, VcArbitration::Priority, 4);
    let big = add(&mut pool, 5, 7);
    let small = add(&mut pool, 2, 1);
    put(&mut sw, 0, 0, 2, 0, big);
    put(&mut sw, 1, 0, 2, 0, small);
    let g = sw.grant(&pool).unwrap();
    assert_eq!(g.packet, small);
    sw.transfer_done(g.input, g.output);
    assert!(sw.grant(&pool).is_none(), "5 credits do not fit in 2");
    sw.output_freed(2, 0, 2);
    sw.output_freed(2, 0, 1);
    assert!(sw.grant(&pool).is_none(), "nor in 4 of 4");
    let mut sw = crossbar(3, VcArbitration::Priority, 5);
    put(&mut sw, 0, 0, 2, 0, big);
    assert_eq!(sw.grant(&pool).map(|g| g.packet), Some(big));
}

/// With two routing lanes per VC, a VC's lanes compete in the same pass.
#[test]
fn routing_lanes_share_their_vc_pass() {
    let mut pool = PacketPool::default();
    // Classes 0 and 1 on VC 0 (lanes 0, 1), class 2 on VC 1 (lanes 2, 3).
    let table: Arc<[u16]> = Arc::from([0u16, 1, 0, 1, 2, 3]);
    let mut sw = PriorityCrossbar::new(4, table, 4, 2, VcArbitration::Priority, 100);
    let be = add(&mut pool, 1, 7);
    let qos_lane1 = add(&mut pool, 1, 2);
    let qos_lane0 = add(&mut pool, 1, 5);
    put(&mut sw, 0, 3, 1, 5, be);
    put(&mut sw, 1, 1, 1, 1, qos_lane1);
    put(&mut sw, 2, 0, 1, 0, qos_lane0);
    assert_eq!(drain(&mut sw, &pool), vec![qos_lane0, qos_lane1, be]);
}

/// The output arbiter of the R4 presets (strict priority ranking classes by VC, then
/// priority level: QoS classes 15..12, best effort 3..0) sends the QoS VC first and,
/// within a VC, the highest-priority head; a QoS head without credits lets best effort
/// go rather than idling the link.
#[test]
fn r4_output_arbiter_follows_vc_then_priority() {
    let mut pool = PacketPool::default();
    let ranks = [15, 14, 13, 12, 3, 2, 1, 0];
    let mut port = OutputPort::new(
        two_vcs(),
        1,
        LaneCredits::per_lane(2, 100),
        StrictPriority::new(&ranks).into(),
    );
    let mut audit = SendAudit::default();
    let now = SimTime::ZERO;
    let mut queued = Vec::new();
    for class in [6usize, 4, 3, 1] {
        let h = add(&mut pool, 1, 7 - class as u8);
        port.enqueue(now, class, h, &mut pool);
        queued.push((class, h));
    }
    let mut sent = Vec::new();
    while let Some((queue, _)) = port.send(now, &pool, &mut audit) {
        sent.push(queue);
    }
    assert_eq!(sent, vec![1, 3, 4, 6]);
    // VC 0 without credits: best effort goes.
    let mut port = OutputPort::new(
        two_vcs(),
        1,
        LaneCredits::per_lane(2, 100),
        StrictPriority::new(&ranks).into(),
    );
    assert!(port.credits.consume(0, 100));
    for (class, h) in queued {
        port.enqueue(now, class, h, &mut pool);
    }
    assert_eq!(port.send(now, &pool, &mut audit).map(|(q, _)| q), Some(4));
    assert_eq!(audit, SendAudit::default());
}
