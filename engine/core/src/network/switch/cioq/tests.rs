use super::*;
use crate::network::port::NetPacket;
use crate::network::switch::test_rig::packet;

fn add(pool: &mut PacketPool, credits: u32, class: u16) -> u32 {
    pool.insert(NetPacket {
        sl: class,
        lane: class,
        ..packet(pool.len() as u64, credits * 64)
    })
}

fn identity(classes: u16) -> Arc<[u16]> {
    (0..classes).collect()
}

#[test]
fn rotation_wraps() {
    let v: Vec<u32> = rotated_bits(0b1011_0101, 3).collect();
    assert_eq!(v, vec![4, 5, 7, 0, 2]);
    let v: Vec<u32> = rotated_bits(1 << 63 | 1, 63).collect();
    assert_eq!(v, vec![63, 0]);
}

/// Inputs competing for one output are granted in round-robin order, one transfer
/// per output at a time.
#[test]
fn outputs_grant_inputs_round_robin() {
    let mut pool = PacketPool::default();
    let mut sw = CioqSwitch::new(4, identity(1), 1, 100);
    for input in [0, 1, 3] {
        for _ in 0..2 {
            let h = add(&mut pool, 1, 0);
            sw.enqueue(input, 2, 0, h, &pool);
        }
    }
    let mut order = Vec::new();
    while let Some(g) = sw.grant() {
        assert!(sw.grant().is_none(), "output 2 granted twice at once");
        order.push(g.input);
        sw.transfer_done(g.input, g.output);
    }
    assert_eq!(order, vec![0, 1, 3, 0, 1, 3]);
}

/// One transfer per input: an input with packets for two outputs feeds one at a time,
/// while another input may feed the other output.
#[test]
fn one_transfer_per_input() {
    let mut pool = PacketPool::default();
    let mut sw = CioqSwitch::new(4, identity(1), 1, 100);
    let a = add(&mut pool, 1, 0);
    let b = add(&mut pool, 1, 0);
    let c = add(&mut pool, 1, 0);
    sw.enqueue(0, 1, 0, a, &pool);
    sw.enqueue(0, 2, 0, b, &pool);
    sw.enqueue(3, 2, 0, c, &pool);
    let g1 = sw.grant().unwrap();
    let g2 = sw.grant().unwrap();
    assert!(sw.grant().is_none());
    assert_eq!((g1.input, g1.output), (0, 1));
    assert_eq!((g2.input, g2.output), (3, 2));
    sw.transfer_done(0, 1);
    sw.transfer_done(3, 2);
    let g3 = sw.grant().unwrap();
    assert_eq!((g3.input, g3.output, g3.packet), (0, 2, b));
}

/// A packet moves only if the output buffer of its class has room for all of it; the
/// other class is served meanwhile, and room freed later lets the first one go.
#[test]
fn output_buffer_room_is_required() {
    let mut pool = PacketPool::default();
    let mut sw = CioqSwitch::new(2, identity(2), 2, 4);
    let big = add(&mut pool, 3, 0);
    let small = add(&mut pool, 1, 1);
    let first = add(&mut pool, 2, 0);
    sw.enqueue(0, 1, 0, first, &pool);
    let g = sw.grant().unwrap();
    assert_eq!(g.packet, first);
    sw.transfer_done(0, 1);
    assert_eq!(sw.output_room(1, 0), (2, 4));
    sw.enqueue(0, 1, 0, big, &pool);
    sw.enqueue(0, 1, 1, small, &pool);
    let g = sw.grant().unwrap();
    assert_eq!(g.packet, small, "class 0 does not fit, class 1 goes");
    sw.transfer_done(0, 1);
    assert!(sw.grant().is_none());
    sw.output_freed(1, 0, 2);
    assert_eq!(sw.grant().map(|g| g.packet), Some(big));
    assert_eq!(sw.queued(), 0);
}

proptest::proptest! {
    /// One pass of `grant_all` grants exactly what repeated `grant` calls grant, in
    /// the same order, and leaves the same state, on random switches (ports, queues,
    /// packet sizes, busy inputs and outputs, full output buffers).
    #[test]
    fn grant_all_is_repeated_grant(
        ports in 2u32..10,
        queues in 1u16..4,
        steps in proptest::collection::vec(
            (proptest::collection::vec((0u32..10, 0u32..10, 0u16..4, 1u32..4), 0..12),
             0u64..1024, 0u32..10, 0u32..5), 1..30),
    ) {
        let mut pool = PacketPool::default();
        let mut sw = CioqSwitch::new(ports, identity(queues), queues, 6);
        let mut busy: Vec<(u32, u32)> = Vec::new();
        for (arrivals, done_mask, freed_output, freed) in steps {
            for (i, o, q, credits) in arrivals {
                let h = add(&mut pool, credits, q % queues);
                sw.enqueue(i % ports, o % ports, q % queues, h, &pool);
            }
            // Some transfers end, some output buffer space frees.
            busy.retain(|&(i, o)| {
                let end = done_mask >> (i % 64) & 1 == 1;
                if end {
                    sw.transfer_done(i, o);
                }
                !end
            });
            let o = freed_output % ports;
            for lane in 0..queues {
                let (free, cap) = sw.output_room(o, lane);
                sw.output_freed(o, lane, freed.min(cap - free));
            }
            let mut one_by_one = sw.clone();
            let mut want = Vec::new();
            while let Some(g) = one_by_one.grant() {
                want.push(g);
            }
            let mut got = Vec::new();
            sw.grant_all(&mut got);
            proptest::prop_assert_eq!(&got, &want);
            proptest::prop_assert_eq!(format!("{sw:?}"), format!("{one_by_one:?}"));
            busy.extend(got.iter().map(|g| (g.input, g.output)));
        }
    }
}

proptest::proptest! {
    /// The incremental arbitration (`enqueue_and_grant`, `transfer_done_and_grant`,
    /// `output_freed_and_grant`) grants exactly what the change followed by a full
    /// `grant_all` pass grants, in the same order, leaving the same state, over random
    /// event sequences (headers, transfer ends, output buffer space freed) on random
    /// switches, each event arriving, as in the fabric, at a settled switch.
    #[test]
    fn incremental_arbitration_is_grant_all(
        ports in 2u32..10,
        queues in 1u16..5,
        lanes in 1u16..5,
        room in 2u32..8,
        events in proptest::collection::vec(
            (0u8..3, 0u32..10, 0u32..10, 0u16..4, 1u32..4), 1..200),
    ) {
        let mut pool = PacketPool::default();
        // Queues share lanes (queue q on lane q mod lanes) when lanes < queues, so an
        // output buffer lane's room frees for several queues at once.
        let lanes = lanes.min(queues);
        let lane_of_queue: Arc<[u16]> = (0..queues).map(|q| q % lanes).collect();
        let mut sw = CioqSwitch::new(ports, lane_of_queue.clone(), lanes, room);
        // Transfers under way, and packets in the output buffers: (output, lane, credits).
        let mut busy: Vec<(u32, u32)> = Vec::new();
        let mut held: Vec<(u32, u16, u32)> = Vec::new();
        let mut got = Vec::new();
        let mut want = Vec::new();
        for (kind, a, b, q, credits) in events {
            let mut full = sw.clone();
            got.clear();
            match kind {
                0 => {
                    let (i, o, q) = (a % ports, b % ports, q % queues);
                    let h = add(&mut pool, credits.min(room), q);
                    got.extend(sw.enqueue_and_grant(i, o, q, h, &pool));
                    full.enqueue(i, o, q, h, &pool);
                }
                1 if !busy.is_empty() => {
                    let (i, o) = busy.remove(a as usize % busy.len());
                    got.extend(sw.transfer_done_and_grant(i, o).into_iter().flatten());
                    full.transfer_done(i, o);
                }
                2 if !held.is_empty() => {
                    let (o, lane, c) = held.remove(a as usize % held.len());
                    got.extend(sw.output_freed_and_grant(o, lane, c));
                    full.output_freed(o, lane, c);
                }
                _ => continue,
            }
            full.grant_all(&mut want);
            proptest::prop_assert_eq!(&got, &want);
            proptest::prop_assert_eq!(format!("{sw:?}"), format!("{full:?}"));
            for g in &got {
                busy.push((g.input, g.output));
                held.push((g.output, lane_of_queue[usize::from(g.queue)], pool.get(g.packet).credits));
            }
        }
    }
}
