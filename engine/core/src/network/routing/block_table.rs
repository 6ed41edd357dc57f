//! A table of bytes by (row, column), kept as shared blocks: each row is cut into blocks
//! of [`BLOCK`] columns, each distinct block is stored once, and a row is its blocks'
//! numbers. Routing tables are like this: the up*/down* table of a MIN (a row per
//! switch, a column per destination) repeats a handful of patterns (the up ports picked
//! by a digit of the destination, the down ports of a subtree), so at 1 024 end points
//! its 1.3 MB of bytes become 88 KB, which stays in a core's cache where the
//! full table missed on nearly every hop. A lookup is two reads instead of one.

use std::collections::HashMap;

/// Columns per block.
pub const BLOCK: usize = 64;

/// A `rows` x `columns` table of bytes, its blocks shared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockTable {
    /// Columns per row.
    columns: usize,
    /// Blocks per row: `columns / BLOCK`, rounded up.
    blocks_per_row: usize,
    /// `block_of[row * blocks_per_row + column / BLOCK]`: where the block starts in
    /// `blocks`.
    block_of: Vec<u32>,
    /// The distinct blocks, [`BLOCK`] bytes each (a row's last block padded with zeros).
    blocks: Vec<u8>,
}

impl BlockTable {
    /// The table whose row `r` is `cells[r * columns..(r + 1) * columns]`.
    pub fn new(cells: &[u8], columns: usize) -> BlockTable {
        let columns = columns.max(1);
        let blocks_per_row = columns.div_ceil(BLOCK);
        let rows = cells.len() / columns;
        let mut block_of = Vec::with_capacity(rows * blocks_per_row);
        let mut blocks = Vec::new();
        let mut seen: HashMap<[u8; BLOCK], u32> = HashMap::new();
        for row in cells.chunks_exact(columns) {
            for part in row.chunks(BLOCK) {
                let mut block = [0u8; BLOCK];
                block[..part.len()].copy_from_slice(part);
                let start = *seen.entry(block).or_insert_with(|| {
                    let start = blocks.len() as u32;
                    blocks.extend_from_slice(&block);
                    start
                });
                block_of.push(start);
            }
        }
        BlockTable {
            columns,
            blocks_per_row,
            block_of,
            blocks,
        }
    }

    /// The byte at (`row`, `column`); 0 outside the table.
    #[inline]
    pub fn get(&self, row: usize, column: usize) -> u8 {
        if column >= self.columns {
            return 0;
        }
        let Some(&start) = self
            .block_of
            .get(row * self.blocks_per_row + column / BLOCK)
        else {
            return 0;
        };
        self.blocks
            .get(start as usize + column % BLOCK)
            .copied()
            .unwrap_or(0)
    }

    /// Bytes the table holds (its block numbers and blocks).
    pub fn bytes(&self) -> usize {
        self.block_of.len() * std::mem::size_of::<u32>() + self.blocks.len()
    }
}

#[cfg(test)]
mod tests {
    use super::{BLOCK, BlockTable};
    use proptest::prelude::*;

    proptest! {
        /// Every cell reads back as the plain table has it, whatever the shape (rows
        /// shorter, equal to and longer than a block, not a multiple of it), and outside
        /// the table the answer is 0.
        #[test]
        fn reads_back_every_cell(
            columns in 1usize..200,
            rows in 0usize..20,
            // Few distinct values, so that blocks repeat and are shared.
            seed in prop::collection::vec(0u8..3, 1..400),
        ) {
            let cells: Vec<u8> = (0..rows * columns).map(|i| seed[i % seed.len()]).collect();
            let t = BlockTable::new(&cells, columns);
            for r in 0..rows {
                for c in 0..columns {
                    prop_assert_eq!(t.get(r, c), cells[r * columns + c], "row {} column {}", r, c);
                }
            }
            prop_assert_eq!(t.get(rows, 0), 0);
            if rows > 0 {
                prop_assert_eq!(t.get(0, columns), 0);
            }
        }
    }

    #[test]
    fn repeated_blocks_are_stored_once() {
        // Four rows of two blocks, the same two patterns over and over.
        let columns = 2 * BLOCK;
        let row: Vec<u8> = (0..columns).map(|c| (c / BLOCK) as u8 + 1).collect();
        let cells = row.repeat(4);
        let t = BlockTable::new(&cells, columns);
        assert_eq!(t.blocks.len(), 2 * BLOCK);
        assert_eq!(t.bytes(), 8 * 4 + 2 * BLOCK);
        assert_eq!(t.get(3, BLOCK), 2);
    }
}
