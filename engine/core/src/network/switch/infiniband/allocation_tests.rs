//! The allocation rounds limited to the inputs that can move (the header's input, then a
//! round's losers) grant exactly what rounds over every input until one grants nothing
//! grant: the same random traffic through both gives the same output queue entries,
//! input releases and timers, at the same times, in the same order.

use super::*;
use crate::network::switch::test_rig::{
    Rig, TrafficLog, limited_as_exhaustive, policy, random_packets, setup,
};

const PORTS: u32 = 8;
const LANES: u16 = 3;

/// Random traffic (see [`Rig::random_traffic`]) through an InfiniBand-like switch with
/// small output buffers (heads wait for room as well as for busy outputs).
fn drive(exhaustive: bool, shared: bool, packets: &[(u32, u16, u32, u32, u64)]) -> TrafficLog {
    let policy = policy(shared);
    let config = InfinibandConfig {
        input_buffer_bytes: 3 * 2048,
        output_buffer_bytes: 3 * 1024,
        ..InfinibandConfig::default()
    };
    let mut rig = Rig::with(Infiniband::new(&config, setup(PORTS, LANES, policy)).unwrap());
    rig.sw.exhaustive = exhaustive;
    rig.random_traffic(&policy, LANES, packets)
}

proptest::proptest! {
    #[test]
    fn limited_rounds_grant_as_rounds_over_every_input(
        shared in proptest::bool::ANY,
        packets in random_packets(PORTS, LANES),
    ) {
        limited_as_exhaustive(|exhaustive| drive(exhaustive, shared, &packets), packets.len())?;
    }
}
