//! Element queues of HILQ: one FIFO per slot, a fixed basic block of
//! [`BASIC`] elements in the slot itself and an overflow extension of blocks of
//! [`BLOCK`] elements taken from a free list (and given back as they empty).
//!
//! Positions count from the last time the queue was empty: `0..BASIC` are in the basic
//! block, the rest in overflow blocks in order. A queue that empties starts again at 0.

use crate::np::contract::MemoryAccesses;

/// Elements in a slot's basic block.
pub const BASIC: usize = 4;
/// Elements per overflow block.
pub const BLOCK: usize = 8;

const NIL: u32 = u32::MAX;

/// One queued element: the stream and the window values (x', y') when it was queued.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Token {
    /// The stream.
    pub stream: u32,
    /// x' when queued.
    pub xc: u32,
    /// y' when queued.
    pub yc: u32,
}

#[derive(Clone, Copy, Debug)]
struct SlotQueue {
    /// Position of the first element.
    start: u32,
    /// Elements queued.
    len: u32,
    basic: [Token; BASIC],
    /// The overflow block holding position `start` (or the first overflow position).
    first: u32,
    /// The last overflow block.
    last: u32,
}

impl Default for SlotQueue {
    fn default() -> Self {
        SlotQueue {
            start: 0,
            len: 0,
            basic: [Token::default(); BASIC],
            first: NIL,
            last: NIL,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Block {
    items: [Token; BLOCK],
    next: u32,
}

/// Every slot's element queue and the pool of overflow blocks.
#[derive(Clone, Debug)]
pub struct ElementQueues {
    slots: Vec<SlotQueue>,
    blocks: Vec<Block>,
    free: u32,
    blocks_in_use: usize,
}

impl ElementQueues {
    /// `slots` empty queues.
    pub fn new(slots: usize) -> ElementQueues {
        ElementQueues {
            slots: vec![SlotQueue::default(); slots],
            blocks: Vec::new(),
            free: NIL,
            blocks_in_use: 0,
        }
    }

    /// Elements in a slot.
    pub fn len(&self, slot: usize) -> usize {
        self.slots[slot].len as usize
    }

    /// Overflow blocks taken from the free list.
    pub fn blocks_in_use(&self) -> usize {
        self.blocks_in_use
    }

    fn alloc(&mut self, mem: &mut MemoryAccesses) -> u32 {
        // Read the free-list head (and its link).
        mem.sram += 1;
        self.blocks_in_use += 1;
        if self.free == NIL {
            self.blocks.push(Block {
                items: [Token::default(); BLOCK],
                next: NIL,
            });
            return (self.blocks.len() - 1) as u32;
        }
        let b = self.free;
        self.free = self.blocks[b as usize].next;
        self.blocks[b as usize].next = NIL;
        b
    }

    fn release(&mut self, b: u32, mem: &mut MemoryAccesses) {
        // Link the block into the free list.
        mem.sram += 1;
        self.blocks_in_use -= 1;
        self.blocks[b as usize].next = self.free;
        self.free = b;
    }

    /// Appends `token` to `slot`'s queue (slot head/count read and written, element written).
    pub fn push(&mut self, slot: usize, token: Token, mem: &mut MemoryAccesses) {
        mem.sram += 3;
        let q = self.slots[slot];
        let pos = (q.start + q.len) as usize;
        if pos < BASIC {
            self.slots[slot].basic[pos] = token;
        } else {
            let offset = (pos - BASIC) % BLOCK;
            if offset == 0 || q.last == NIL {
                let b = self.alloc(mem);
                let q = &mut self.slots[slot];
                if q.last == NIL {
                    q.first = b;
                } else {
                    let last = q.last;
                    self.blocks[last as usize].next = b;
                    mem.sram += 1;
                }
                self.slots[slot].last = b;
            }
            let last = self.slots[slot].last as usize;
            self.blocks[last].items[offset] = token;
        }
        self.slots[slot].len += 1;
    }

    /// Takes the first element of `slot`'s queue (slot read and written, element read).
    pub fn pop(&mut self, slot: usize, mem: &mut MemoryAccesses) -> Option<Token> {
        let q = self.slots[slot];
        mem.sram += 1;
        if q.len == 0 {
            return None;
        }
        mem.sram += 2;
        let pos = q.start as usize;
        let token = if pos < BASIC {
            q.basic[pos]
        } else {
            let offset = (pos - BASIC) % BLOCK;
            let t = self.blocks[q.first as usize].items[offset];
            if offset == BLOCK - 1 || q.len == 1 {
                // The first overflow block is used up: back to the free list.
                let next = self.blocks[q.first as usize].next;
                self.release(q.first, mem);
                let q = &mut self.slots[slot];
                q.first = next;
                if next == NIL {
                    q.last = NIL;
                }
            }
            t
        };
        let q = &mut self.slots[slot];
        q.len -= 1;
        q.start += 1;
        if q.len == 0 {
            q.start = 0;
        }
        Some(token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::VecDeque;

    proptest! {
        /// Each slot behaves as a FIFO, blocks go back to the free list, and none leak.
        #[test]
        fn slots_are_fifos(ops in proptest::collection::vec((0usize..3, any::<bool>()), 1..400)) {
            let mut q = ElementQueues::new(3);
            let mut model: Vec<VecDeque<u32>> = vec![VecDeque::new(); 3];
            let mut mem = MemoryAccesses::default();
            for (i, (slot, push)) in ops.into_iter().enumerate() {
                if push {
                    let t = Token { stream: i as u32, xc: 0, yc: 1 };
                    q.push(slot, t, &mut mem);
                    model[slot].push_back(i as u32);
                } else {
                    prop_assert_eq!(q.pop(slot, &mut mem).map(|t| t.stream), model[slot].pop_front());
                }
                prop_assert_eq!(q.len(slot), model[slot].len());
                let needed: usize = model.iter().map(|m| m.len().saturating_sub(BASIC)).sum();
                let most: usize = model.iter().map(|m| m.len().div_ceil(BLOCK) + 1).sum();
                // Never fewer blocks than the overflow needs, at most one partial block more
                // per slot than its elements fill.
                prop_assert!(q.blocks_in_use() * BLOCK >= needed);
                prop_assert!(q.blocks_in_use() <= most);
            }
            for (slot, m) in model.iter_mut().enumerate() {
                while let Some(want) = m.pop_front() {
                    prop_assert_eq!(q.pop(slot, &mut mem).map(|t| t.stream), Some(want));
                }
            }
            prop_assert_eq!(q.blocks_in_use(), 0);
        }
    }
}
