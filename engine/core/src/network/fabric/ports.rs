//! The fabric's output ports: generation into the interfaces, sending on a link, the
//! link freeing, and credits going back upstream.

use super::messages::split;
use super::{Event, NetworkSim};
use crate::network::credits_for;
use crate::network::port::{LinkEnd, NetPacket};
use crate::network::routing::Router;
use crate::network::switch::AnySwitch;
use crate::network::switch::SwitchModel;
use crate::network::topology::{NodeKind, Topology};
use crate::time::SimTime;
use crate::traffic::{Generated, NO_FLOW};

impl NetworkSim {
    pub(super) fn generate(&mut self, now: SimTime, host: u32, class: u16) {
        let c = usize::from(class);
        let interface = &mut self.interfaces[host as usize];
        let Some(next) = interface.next[c] else {
            return;
        };
        if let Some(at) = interface.pull(c) {
            // Generators yield packets in time order; never schedule into the past.
            let at = at.max(now);
            if at <= self.window.end {
                self.events.schedule(at, Event::Generate { host, class });
            }
        }
        // The message is split into packets by the class's MTU (one packet without one).
        let first = self.next_id;
        let mut packets = 0;
        for bytes in split(next.bytes, self.messages.mtu(c)) {
            self.inject_packet(now, host, class, bytes, next);
            packets += 1;
        }
        self.messages.on_generated(c, first, packets);
        self.admit(now, host, c);
        self.try_send(now, host);
    }

    /// Puts one packet of `bytes` of the message `next` of `class` into `host`'s
    /// application queue.
    fn inject_packet(&mut self, now: SimTime, host: u32, class: u16, bytes: u32, next: Generated) {
        let c = usize::from(class);
        let packet = NetPacket {
            id: self.next_id,
            created: now,
            tail: now,
            bytes,
            credits: credits_for(bytes),
            source: host,
            destination: next.destination,
            sl: class,
            lane: 0,
            priority: self.priorities[c],
            flow: next.flow,
            route: match self.interfaces[host as usize].routes[c].get(next.flow as usize) {
                // A connection's packets follow its route.
                Some(&route) if next.flow != NO_FLOW => {
                    self.routing
                        .pin(&self.topology, host, next.destination, route as usize)
                }
                _ => self.routing.on_inject(
                    &self.topology,
                    host,
                    next.destination,
                    &mut self.route_rng,
                ),
            },
        };
        if let Some(auditor) = self.auditor.as_mut() {
            auditor.on_generated(&packet);
        }
        self.next_id += 1;
        self.counters[c].on_generated(now, bytes, &self.window);
        if let Some(f) = self.flits.as_mut() {
            if self.window.contains(now) {
                f.generated[c] += f.of(bytes);
            }
        }
        self.interfaces[host as usize].application[c].push_back(packet);
    }

    /// Moves application-queue packets of `class` at `host` into its injection buffer.
    pub(super) fn admit(&mut self, now: SimTime, host: u32, class: usize) {
        let port = host as usize; // an end point's only port has the end point's index
        let queue = usize::from(self.lanes.queue(class as u16, 0));
        let moved = self.interfaces[host as usize].admit(
            now,
            class,
            queue,
            &mut self.ports[port],
            &mut self.pool,
        );
        if moved > 0
            && let Some(auditor) = self.auditor.as_mut()
        {
            auditor.fills.add_output(host, class, moved);
        }
    }

    /// If output port `port`'s link is free, sends the packet its scheduler chooses.
    pub(super) fn try_send(&mut self, now: SimTime, port: u32) {
        let out = &mut self.ports[port as usize];
        if out.busy {
            return;
        }
        let Some((queue, h)) = out.send(now, &self.pool, &mut self.send_audit) else {
            return;
        };
        out.busy = true;
        let lane = out.lane_of_queue(queue);
        let (from_end_point, link) = (out.from_end_point, out.link);
        self.packet_hops += 1;
        // Only the fields the send needs (the packet is larger than a cache line's half).
        let packet = self.pool.get(h);
        let (bytes, credits, sl, tail, source, destination) = (
            packet.bytes,
            packet.credits,
            packet.sl,
            packet.tail,
            packet.source,
            packet.destination,
        );
        let done = (now + self.link.transmission_time(u64::from(bytes))).max(tail);
        // What the packet frees in this port's buffer: an interface's injection buffer
        // is per class, a switch output buffer per lane (the lane it leaves on).
        let slot = if from_end_point { sl } else { lane };
        self.events.schedule(
            done,
            Event::LinkDone {
                port,
                slot,
                credits: credits as u16,
            },
        );
        let (peer, to_switch) = match link {
            LinkEnd::Unconnected => return,
            LinkEnd::Switch { port, .. } => (port, true),
            LinkEnd::EndPoint { port, .. } => (port, false),
        };
        // The downstream buffer holds the packet, on its lane, from its header's
        // departure on.
        if let Some(auditor) = self.auditor.as_mut() {
            auditor.fills.add_input(peer, lane, credits, to_switch);
        }
        let moved = self.pool.get_mut(h);
        moved.tail = done + self.latency;
        moved.lane = lane;
        match link {
            LinkEnd::Switch { header_delay, .. } => self.events.schedule(
                now + self.latency + header_delay,
                Event::HeaderCrossed {
                    port: peer,
                    packet: h,
                    destination,
                },
            ),
            LinkEnd::EndPoint { host, .. } => self.events.schedule(
                done + self.latency,
                Event::Deliver {
                    host,
                    packet: h,
                    source,
                    sl,
                },
            ),
            LinkEnd::Unconnected => {}
        }
    }

    /// A packet's tail has left the input-side buffer of `port`, where it held `lane`:
    /// update the audit and return its credits upstream.
    pub(super) fn input_left(&mut self, now: SimTime, port: u32, lane: u16, credits: u16) {
        if let Some(auditor) = self.auditor.as_mut() {
            auditor.fills.remove_input(port, lane, u32::from(credits));
        }
        let Some(upstream) = self.topology.peer(port) else {
            return;
        };
        if self.credit_delay.as_ps() == 0 {
            self.ports[upstream as usize]
                .credits
                .give_back(usize::from(lane), u32::from(credits));
            self.try_send(now, upstream);
        } else {
            self.events.schedule(
                now + self.credit_delay,
                Event::Credit {
                    port: upstream,
                    lane,
                    credits,
                },
            );
        }
    }

    /// Output port `port` has sent a packet's tail, freeing `credits` of `slot` (see
    /// [`Event::LinkDone`]).
    pub(super) fn link_done(&mut self, now: SimTime, port: u32, slot: u16, credits: u16) {
        self.ports[port as usize].busy = false;
        let c = usize::from(slot);
        if let Some(auditor) = self.auditor.as_mut() {
            auditor.fills.remove_output(port, c, u32::from(credits));
        }
        let (node, local) = self.topology.port_owner(port);
        match self.topology.kind(node) {
            NodeKind::EndPoint => {
                self.interfaces[node as usize].injection[c].give_back(u32::from(credits));
                self.admit(now, node, c);
            }
            NodeKind::Switch => {
                let s = self.topology.switch_of(node);
                self.with_switch(now, s, |sw, cx| {
                    sw.on_output_freed(cx, local, slot, u32::from(credits));
                });
            }
        }
        self.try_send(now, port);
    }
}

/// The facts of global port `port`'s link (see [`LinkEnd`]): whether an end point owns
/// it, and where it leads.
pub(super) fn link_of(topology: &Topology, switches: &[AnySwitch], port: u32) -> (bool, LinkEnd) {
    let from_end_point = topology.kind(topology.port_owner(port).0) == NodeKind::EndPoint;
    let Some(peer) = topology.peer(port) else {
        return (from_end_point, LinkEnd::Unconnected);
    };
    let (node, _) = topology.port_owner(peer);
    let link = match topology.kind(node) {
        NodeKind::Switch => {
            let switch = topology.switch_of(node);
            LinkEnd::Switch {
                port: peer,
                switch,
                header_delay: switches[switch as usize].header_delay(),
            }
        }
        NodeKind::EndPoint => LinkEnd::EndPoint {
            port: peer,
            host: node,
        },
    };
    (from_end_point, link)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Model, parse, validate};

    fn build(text: &str) -> NetworkSim {
        let s = parse(text).unwrap();
        validate(&s).unwrap();
        let Model::Network(net) = &s.model else {
            panic!("not a network")
        };
        NetworkSim::new(&s, net, true).unwrap()
    }

    /// Every port's link facts are what `try_send` looked up per send before they were
    /// kept in the port: the owner's kind, the peer, the peer's kind and switch, and the
    /// switch's header delay (MIN, tree, torus; end points and switches; every switch
    /// kind of the presets).
    #[test]
    fn link_facts_match_the_topology() {
        for text in [
            include_str!("../../../../cli/bench/min64-u64-L050.json"),
            include_str!("../../../../cli/bench/ib-tree64.json"),
            include_str!("../../../../../public/presets/r3-torus8x8-opa.json"),
            include_str!("../../../../../public/presets/r2-multimedia-dtable.json"),
        ] {
            let sim = build(text);
            let t = &sim.topology;
            let mut kinds = [0; 3];
            for g in 0..t.total_ports() {
                let port = &sim.ports[g as usize];
                let (owner, _) = t.port_owner(g);
                assert_eq!(port.from_end_point, t.kind(owner) == NodeKind::EndPoint);
                let expected = match t.peer(g) {
                    None => LinkEnd::Unconnected,
                    Some(peer) => {
                        let (node, _) = t.port_owner(peer);
                        match t.kind(node) {
                            NodeKind::Switch => {
                                let s = t.switch_of(node);
                                LinkEnd::Switch {
                                    port: peer,
                                    switch: s,
                                    header_delay: sim.switches[s as usize].header_delay(),
                                }
                            }
                            NodeKind::EndPoint => LinkEnd::EndPoint {
                                port: peer,
                                host: node,
                            },
                        }
                    }
                };
                assert_eq!(port.link, expected, "port {g}");
                kinds[match expected {
                    LinkEnd::Unconnected => 0,
                    LinkEnd::Switch { .. } => 1,
                    LinkEnd::EndPoint { .. } => 2,
                }] += 1;
            }
            // Both kinds of link end occur (the check is not vacuous).
            assert!(kinds[1] > 0 && kinds[2] > 0, "{kinds:?}");
        }
    }
}
