//! The fabric's side of the switch contract ([`crate::network::switch`]): routing a
//! header, calling the switch, and carrying out what it asks.

use super::{Event, NetworkSim};
use crate::network::routing::Router;
use crate::network::switch::{
    AnySwitch, Header, SwitchAction, SwitchContext, SwitchModel, SwitchTimer,
};
use crate::time::SimTime;

impl NetworkSim {
    /// A header has crossed input `port` of a switch: route it (output port and routing
    /// lane, so its output queue) and hand it over.
    pub(super) fn header_crossed(&mut self, now: SimTime, port: u32, h: u32) {
        let (node, input) = self.topology.port_owner(port);
        let s = self.topology.switch_of(node);
        let packet = self.pool.get_mut(h);
        let hop = self.routing.next_hop(
            &self.topology,
            node,
            input,
            packet.destination,
            &mut packet.route,
            &mut self.route_rng,
        );
        let header = Header {
            input,
            in_lane: packet.lane,
            output: hop.port,
            queue: self.lanes.queue(packet.sl, hop.lane),
            packet: h,
        };
        self.with_switch(now, s, |sw, cx| sw.on_header(cx, header));
    }

    /// A switch's own timer is due.
    pub(super) fn switch_timer(&mut self, now: SimTime, s: u32, timer: SwitchTimer) {
        self.with_switch(now, s, |sw, cx| sw.on_timer(cx, timer));
    }

    /// Calls switch `s`, then carries out its actions in order.
    pub(super) fn with_switch(
        &mut self,
        now: SimTime,
        s: u32,
        call: impl FnOnce(&mut AnySwitch, &mut SwitchContext),
    ) {
        // The actions stay in `self.actions` (borrowed beside the pool and the switch),
        // read back by index: taking the vector out and putting it back cost more per
        // call than the actions themselves. Carrying them out never calls a switch, so
        // nothing else touches the vector meanwhile.
        self.actions.clear();
        let mut cx = SwitchContext {
            now,
            pool: &mut self.pool,
            actions: &mut self.actions,
        };
        call(&mut self.switches[s as usize], &mut cx);
        let base = self.topology.switch_node(s);
        for i in 0..self.actions.len() {
            match self.actions[i] {
                SwitchAction::Wake { at, timer } => {
                    self.events.schedule(at, Event::Switch { switch: s, timer });
                }
                SwitchAction::Enqueue {
                    output,
                    queue,
                    packet,
                } => {
                    let Some(out_port) = self.topology.global_port(base, output) else {
                        continue;
                    };
                    self.enqueue_output(now, out_port, usize::from(queue), packet);
                }
                SwitchAction::ReleaseInput {
                    input,
                    lane,
                    credits,
                } => {
                    if let Some(in_port) = self.topology.global_port(base, input) {
                        self.input_left(now, in_port, lane, credits as u16);
                    }
                }
            }
        }
    }

    /// A packet's header is in the output buffer of global port `port`: queue it on
    /// `queue` and try to send.
    fn enqueue_output(&mut self, now: SimTime, port: u32, queue: usize, h: u32) {
        if let Some(auditor) = self.auditor.as_mut() {
            let credits = self.pool.get(h).credits;
            let lane = usize::from(self.ports[port as usize].lane_of_queue(queue));
            auditor.fills.add_output(port, lane, credits);
        }
        self.ports[port as usize].enqueue(now, queue, h, &mut self.pool);
        self.try_send(now, port);
    }
}
