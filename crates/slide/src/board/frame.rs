//! Canonical frames: any goal becomes a canonical one by a symmetry of the grid and a renaming of the tiles.
//!
//! Solving board `B` towards goal `G` is solving `σ(B)` towards `σ(G)` for any symmetry `σ` of the grid (a flip, a
//! 180° turn, or a transposition) and any renaming of the tiles that keeps the blank. A [`Frame`] picks the symmetry
//! that puts the goal's blank on the largest possible cell of a shape with `rows <= cols`, then renames the tiles so
//! that the goal reads `1 2 3 …` in reading order around the blank. Tables and pattern databases are built only for
//! such canonical goals; the default goal (blank last) on a shape with `rows <= cols` is its own canonical form.

use crate::board::{Board, Shape, Tile};

/// The map from a user's frame (shape and goal) to the canonical one, and back.
#[derive(Debug, Clone)]
pub struct Frame {
    shape: Shape,
    blank_goal: usize,
    cell_map: Vec<u32>,
    to_canon: Vec<Tile>,
    from_canon: Vec<Tile>,
    identity: bool,
}

/// Image of cell `(r, c)` of `shape` under transform `t` (bit 2: transpose; bit 0: flip rows; bit 1: flip columns).
fn transform(shape: Shape, t: u8, cell: usize) -> (Shape, usize) {
    let (mut r, mut c) = shape.coords(cell);
    let mut s = shape;
    if t & 4 != 0 {
        std::mem::swap(&mut r, &mut c);
        s = s.transposed();
    }
    if t & 1 != 0 {
        r = s.rows() - 1 - r;
    }
    if t & 2 != 0 {
        c = s.cols() - 1 - c;
    }
    (s, r * s.cols() + c)
}

impl Frame {
    /// The canonical frame of `goal`.
    ///
    /// ```
    /// use slide::{Board, engine::frame::Frame};
    /// let s = "2x3".parse().unwrap();
    /// assert!(Frame::new(&Board::goal(s)).is_identity());
    /// let f = Frame::new(&Board::goal_blank_first(s));
    /// assert_eq!(f.blank_goal(), 5); // turned by 180°
    /// assert_eq!(f.board(&Board::goal_blank_first(s)), Board::goal(s));
    /// ```
    pub fn new(goal: &Board) -> Frame {
        let shape = goal.shape();
        let n = shape.cells();
        let mut best: Option<(u8, usize)> = None;
        for t in 0..8u8 {
            let (s, img) = transform(shape, t, goal.blank());
            if s.rows() > s.cols() {
                continue;
            }
            if best.is_none_or(|(_, b)| img > b) {
                best = Some((t, img));
            }
        }
        let (t, blank_goal) = best.expect("one of the eight transforms gives rows <= cols");
        let canon_shape = transform(shape, t, 0).0;
        let cell_map: Vec<u32> = (0..n).map(|c| transform(shape, t, c).1 as u32).collect();
        // Canonical goal: tiles 1.. in reading order, skipping the blank's cell.
        let mut to_canon = vec![0 as Tile; n];
        for (cell, &tile) in goal.tiles().iter().enumerate() {
            let cc = cell_map[cell] as usize;
            to_canon[tile as usize] = if tile == 0 {
                0
            } else if cc < blank_goal {
                cc as Tile + 1
            } else {
                cc as Tile
            };
        }
        let mut from_canon = vec![0 as Tile; n];
        for (t, &c) in to_canon.iter().enumerate() {
            from_canon[c as usize] = t as Tile;
        }
        let identity = t == 0 && to_canon.iter().enumerate().all(|(i, &c)| i as Tile == c);
        Frame {
            shape: canon_shape,
            blank_goal,
            cell_map,
            to_canon,
            from_canon,
            identity,
        }
    }

    /// The canonical shape (`rows <= cols`).
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The blank's cell in the canonical goal.
    pub fn blank_goal(&self) -> usize {
        self.blank_goal
    }

    /// True when the canonical frame is the user's own.
    pub fn is_identity(&self) -> bool {
        self.identity
    }

    /// The canonical image of a board of the user's shape.
    pub fn board(&self, b: &Board) -> Board {
        let mut tiles = vec![0 as Tile; b.tiles().len()];
        for (cell, &t) in b.tiles().iter().enumerate() {
            tiles[self.cell_map[cell] as usize] = self.to_canon[t as usize];
        }
        Board::new(self.shape, tiles).expect("a frame maps a board to a board")
    }

    /// For each canonical tile, its canonical cell (boards of at most 256 cells).
    pub fn positions(&self, b: &Board, out: &mut [u8]) {
        for (cell, &t) in b.tiles().iter().enumerate() {
            out[self.to_canon[t as usize] as usize] = self.cell_map[cell] as u8;
        }
    }

    /// The user's board of a canonical state given as canonical tile → canonical cell.
    pub fn unmap(&self, user_shape: Shape, canonical_pos: &[u8]) -> Board {
        let mut inverse = vec![0usize; self.cell_map.len()];
        for (user, &canon) in self.cell_map.iter().enumerate() {
            inverse[canon as usize] = user;
        }
        let mut tiles = vec![0 as Tile; self.cell_map.len()];
        for (ct, &cc) in canonical_pos.iter().enumerate() {
            tiles[inverse[cc as usize]] = self.from_canon[ct];
        }
        Board::new(user_shape, tiles).expect("a frame maps a state to a board")
    }

    /// The canonical cell of a user's cell.
    #[inline]
    pub fn cell(&self, user_cell: usize) -> usize {
        self.cell_map[user_cell] as usize
    }

    /// The user's name of a canonical tile.
    #[inline]
    pub fn tile(&self, canonical: Tile) -> Tile {
        self.from_canon[canonical as usize]
    }
}

/// The canonical goal of `shape` with the blank on `blank`: tiles `1..` in reading order around it.
pub fn canonical_goal(shape: Shape, blank: usize) -> Board {
    let n = shape.cells();
    let tiles = (0..n)
        .map(|c| {
            if c == blank {
                0
            } else if c < blank {
                c as Tile + 1
            } else {
                c as Tile
            }
        })
        .collect();
    Board::new(shape, tiles).expect("canonical goal is a board")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_map_goals_to_canonical_goals() {
        for (r, c) in [(2, 3), (3, 2), (3, 3), (4, 3), (1, 5), (5, 1), (4, 4)] {
            let shape = Shape::new(r, c).unwrap();
            let n = shape.cells();
            for blank in 0..n {
                // a goal with the blank on `blank` and tiles in a scrambled order
                let mut tiles: Vec<Tile> = (1..n as Tile).rev().collect();
                tiles.insert(blank, 0);
                let goal = Board::new(shape, tiles).unwrap();
                let f = Frame::new(&goal);
                assert!(f.shape().rows() <= f.shape().cols());
                assert_eq!(f.board(&goal), canonical_goal(f.shape(), f.blank_goal()));
                for t in 0..n as Tile {
                    assert_eq!(f.tile(f.to_canon[t as usize]), t);
                }
            }
        }
    }

    #[test]
    fn corner_goals_share_the_blank_last_table() {
        let shape = Shape::new(3, 4).unwrap();
        for blank in [0, 3, 8, 11] {
            let mut tiles: Vec<Tile> = (1..12).collect();
            tiles.insert(blank, 0);
            let f = Frame::new(&Board::new(shape, tiles).unwrap());
            assert_eq!(f.blank_goal(), 11);
        }
    }
}
