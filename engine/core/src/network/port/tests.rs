//! The port view's own answers against the traits' defaults, and the pool.

use super::*;

fn packet(id: u64) -> NetPacket {
    NetPacket {
        route: crate::network::routing::RouteState::default(),
        flow: crate::traffic::NO_FLOW,
        id,
        created: SimTime::ZERO,
        tail: SimTime::ZERO,
        bytes: 64,
        credits: 1,
        source: 0,
        destination: 1,
        sl: 0,
        lane: 0,
        priority: 0,
    }
}

/// The pieces of a port view: `queues_n` queues on four lanes, per-lane (5 credits each) or
/// shared credits (16, at least 1 and at most 8 a lane) with `taken` credits taken per
/// lane, and `packets` (queue, credits) queued in order.
#[derive(Clone)]
struct Rig {
    queues: Vec<LinkedQueue>,
    nonempty: u64,
    credits: LaneCredits,
    lane_of_queue: Vec<u16>,
    pool: PacketPool,
}

fn rig(queues_n: usize, shared: bool, taken: &[u32], packets: Vec<(usize, u32)>) -> Rig {
    let lanes = 4;
    let mut credits = if shared {
        LaneCredits::shared(lanes, 16, 1, 8)
    } else {
        LaneCredits::per_lane(lanes, 5)
    };
    for (lane, t) in taken.iter().enumerate() {
        let _ = credits.consume(lane, *t);
    }
    let lane_of_queue: Vec<u16> = (0..queues_n).map(|q| (q % lanes) as u16).collect();
    let mut pool = PacketPool::default();
    let mut queues = vec![LinkedQueue::EMPTY; queues_n];
    for (i, (q, c)) in packets.into_iter().enumerate() {
        let h = pool.insert(NetPacket {
            credits: c,
            ..packet(i as u64)
        });
        queues[q % queues_n].push_back(h, &mut pool.links);
    }
    Rig {
        queues,
        nonempty: 0,
        credits,
        lane_of_queue,
        pool,
    }
}

impl Rig {
    /// The port's own view of the rig, `routing_lanes` queues per SL.
    fn view(&mut self, routing_lanes: usize) -> PortQueues<'_> {
        self.nonempty = queued_sls(&self.queues, routing_lanes);
        PortQueues {
            queues: &mut self.queues,
            nonempty: &mut self.nonempty,
            credits: &mut self.credits,
            lane_of_queue: &self.lane_of_queue,
            routing_lanes,
            pool: &self.pool,
            taken: None,
        }
    }
}

/// The SLs with a packet in any of their `routing_lanes` queues, as a mask (what the
/// port's `nonempty` must be).
fn queued_sls(queues: &[LinkedQueue], routing_lanes: usize) -> u64 {
    queues
        .chunks(routing_lanes)
        .enumerate()
        .filter(|(_, lanes)| lanes.iter().any(|q| !q.is_empty()))
        .fold(0, |m, (sl, _)| m | 1 << sl)
}

/// A port view that answers by the traits' defaults: `is_active` (and so
/// `active_mask`) as "head fits free credits", and, over a mutable borrow, `send_head`
/// as `head`, `take_credits`, `pop`.
struct ByDefault<P>(P);

impl<'b, P: std::ops::Deref<Target = PortQueues<'b>>> PortView for ByDefault<P> {
    fn class_count(&self) -> usize {
        self.0.class_count()
    }
    fn head(&self, class: usize) -> Option<Head> {
        self.0.head(class)
    }
    fn free_credits(&self, class: usize) -> u32 {
        self.0.free_credits(class)
    }
}

impl<'b, P: std::ops::DerefMut<Target = PortQueues<'b>>> SendPort for ByDefault<P> {
    type Item = (usize, u32);
    fn take_credits(&mut self, class: usize, credits: u32) -> bool {
        self.0.take_credits(class, credits)
    }
    fn pop(&mut self, class: usize) -> Option<(usize, u32)> {
        self.0.pop(class)
    }
}

proptest::proptest! {
    /// The port's own `is_active` answers as the trait's default, with one or several
    /// routing lanes, per-lane or shared credits, and packets of several sizes.
    #[test]
    fn is_active_is_the_default(
        routing_lanes in 1usize..4,
        shared in proptest::bool::ANY,
        taken in proptest::collection::vec(0u32..6, 4),
        packets in proptest::collection::vec((0usize..8, 1u32..6), 0..12),
    ) {
        let mut rig = rig(2 * routing_lanes, shared, &taken, packets);
        let view = rig.view(routing_lanes);
        for class in 0..2 {
            proptest::prop_assert_eq!(view.is_active(class), ByDefault(&view).is_active(class));
        }
        proptest::prop_assert_eq!(view.active_mask(), ByDefault(&view).active_mask());
    }
}

proptest::proptest! {
    /// The port's own `send_head` (one queue lookup) sends as the default does, and
    /// leaves the same queues and credits, over a sequence of sends of any classes.
    #[test]
    fn send_head_is_the_default(
        routing_lanes in 1usize..4,
        shared in proptest::bool::ANY,
        taken in proptest::collection::vec(0u32..6, 4),
        packets in proptest::collection::vec((0usize..12, 1u32..6), 0..16),
        sends in proptest::collection::vec(0usize..3, 1..10),
    ) {
        let mut rig = rig(3 * routing_lanes, shared, &taken, packets);
        let mut copy = rig.clone();
        let mut mine = rig.view(routing_lanes);
        let mut by_default = copy.view(routing_lanes);
        for class in sends {
            let a = mine.send_head(class);
            let b = ByDefault(&mut by_default).send_head(class);
            proptest::prop_assert_eq!(a, b);
            // The SLs with packets are kept as the queues empty, and the active ones
            // are found among them as the default finds them among all.
            proptest::prop_assert_eq!(*mine.nonempty, queued_sls(mine.queues, routing_lanes));
            proptest::prop_assert_eq!(mine.active_mask(), ByDefault(&mine).active_mask());
        }
        proptest::prop_assert_eq!(&*mine.queues, &*by_default.queues);
        proptest::prop_assert_eq!(&*mine.credits, &*by_default.credits);
    }
}

#[test]
fn pool_reuses_freed_slots() {
    let mut pool = PacketPool::default();
    let a = pool.insert(packet(1));
    let b = pool.insert(packet(2));
    assert_eq!(pool.len(), 2);
    pool.remove(a);
    let c = pool.insert(packet(3));
    assert_eq!(c, a);
    assert_eq!(pool.get(c).id, 3);
    assert_eq!(pool.get(b).id, 2);
    assert_eq!(pool.len(), 2);
}

#[test]
fn pool_prefetch_takes_any_handle_and_changes_nothing() {
    let mut pool = PacketPool::default();
    let a = pool.insert(packet(1));
    for h in [a, a + 1, u32::MAX] {
        pool.prefetch(h);
    }
    assert_eq!((pool.len(), pool.get(a).id), (1, 1));
}

#[test]
fn a_port_holds_one_queue_itself_and_several_apart() {
    for n in 0..4 {
        let mut set = QueueSet::new(n);
        let mut links = PacketLinks::default();
        links.cover(8);
        assert_eq!(set.as_mut_slice().len(), n);
        assert_eq!(matches!(set, QueueSet::One(_)), n == 1);
        if n > 0 {
            set.as_mut_slice()[n - 1].push_back(7, &mut links);
            assert_eq!(set.as_mut_slice()[n - 1].front(), Some(7));
        }
    }
}

/// A packet fills one cache line exactly (its alignment), so the pool's packets never
/// straddle two.
#[test]
fn a_packet_is_one_cache_line() {
    assert_eq!(std::mem::size_of::<NetPacket>(), 64);
    assert_eq!(std::mem::align_of::<NetPacket>(), 64);
}
