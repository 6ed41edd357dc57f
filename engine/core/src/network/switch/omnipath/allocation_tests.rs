//! Visiting only the local crossbars an event changed (the header's MPort, the MPort of a
//! finished local transfer or of a central link with room again; all of them when an
//! output has room again) grants exactly what visiting every MPort at every event grants:
//! the same random traffic through both gives the same output queue entries, input
//! releases and timers, at the same times, in the same order.

use super::*;
use crate::network::switch::test_rig::{
    Rig, TrafficLog, limited_as_exhaustive, policy, random_packets, setup,
};

/// Three MPorts, so most events leave two of them alone.
const PORTS: u32 = 12;
const LANES: u16 = 3;

/// Random traffic (see [`Rig::random_traffic`]) through an Omni-Path-like switch with
/// small output buffers and central links (heads wait for room as well as for busy
/// outputs and links).
fn drive(exhaustive: bool, shared: bool, packets: &[(u32, u16, u32, u32, u64)]) -> TrafficLog {
    let policy = policy(shared);
    let config = OmnipathSwitchConfig {
        input_buffer_bytes: 3 * 2048,
        output_buffer_bytes: 3 * 1024,
        central_buffer_bytes: 2 * 3 * 1024,
        ..OmnipathSwitchConfig::default()
    };
    let mut rig = Rig::with(Omnipath::new(&config, setup(PORTS, LANES, policy)).unwrap());
    rig.sw.exhaustive = exhaustive;
    rig.random_traffic(&policy, LANES, packets)
}

proptest::proptest! {
    #[test]
    fn visiting_the_changed_mports_grants_as_visiting_all(
        shared in proptest::bool::ANY,
        packets in random_packets(PORTS, LANES),
    ) {
        limited_as_exhaustive(|exhaustive| drive(exhaustive, shared, &packets), packets.len())?;
    }
}
