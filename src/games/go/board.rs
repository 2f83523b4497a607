//! The Go board: stones on a padded array, chains as circular lists with incrementally
//! kept pseudo-liberties, captures, suicide, the simple-ko point and an incremental
//! Zobrist key. Copied whole for every playout, so it holds no history: repetition
//! (superko) is judged by [`super::Game`], which keeps the keys of earlier positions.

use std::fmt;

use crate::core::zobrist::key_table;
use crate::core::{Color, Key};

/// The largest side GTP allows.
pub const MAX_SIZE: usize = 25;
/// Cells per row: the board plus a wall on each side, the same for every size so that
/// neighbour offsets are constants.
pub const STRIDE: usize = MAX_SIZE + 2;
/// Cells in the padded array.
pub const CELLS: usize = STRIDE * STRIDE;

/// A point or a pass, as an index into the padded array. Cell 0 is a corner of the wall,
/// never a point of the board, so it stands for a pass.
pub type Vertex = u16;
pub const PASS: Vertex = 0;

const DIRS: [isize; 4] = [-(STRIDE as isize), -1, 1, STRIDE as isize];
/// The eight cells around a point in [`super::pattern::Code`] order; the list reads the
/// same backwards negated, so `v` sits at index `7 - i` around `v + AROUND[i]`.
const AROUND: [isize; 8] = [
    -(STRIDE as isize) - 1,
    -(STRIDE as isize),
    -(STRIDE as isize) + 1,
    -1,
    1,
    STRIDE as isize - 1,
    STRIDE as isize,
    STRIDE as isize + 1,
];
const DIAGONALS: [isize; 4] = [
    -(STRIDE as isize) - 1,
    -(STRIDE as isize) + 1,
    STRIDE as isize - 1,
    STRIDE as isize + 1,
];

/// What a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Cell {
    Empty = 0,
    Black = 1,
    White = 2,
    Wall = 3,
}

impl Cell {
    #[inline]
    pub fn of(c: Color) -> Cell {
        match c {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }

    #[inline]
    pub fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }
}

/// Why a move may not be played on this board (repetition is judged by the game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    OffBoard,
    Occupied,
    Suicide,
    /// Retakes a ko at once.
    Ko,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Illegal::OffBoard => "off the board",
            Illegal::Occupied => "occupied",
            Illegal::Suicide => "suicide",
            Illegal::Ko => "ko",
        })
    }
}

static STONE_KEYS: [Key; 2 * CELLS] = key_table::<{ 2 * CELLS }>(0x60_b0a2d);

#[inline]
fn stone_key(c: Color, v: usize) -> Key {
    STONE_KEYS[c.index() * CELLS + v]
}

/// A position without history. Chains are circular lists through `next`, named by their
/// head cell; a chain's pseudo-liberties (one per stone-and-empty-neighbour pair) are
/// counted with their sum and sum of squares, which tells at once whether all of them are
/// one point (the chain is in atari) and which.
#[derive(Clone)]
pub struct Board {
    size: usize,
    cells: [Cell; CELLS],
    /// Per point, its eight neighbours' cells as a 3x3 shape code, kept as stones come
    /// and go (the playout policy asks for several shapes a move).
    code3: [u16; CELLS],
    head: [u16; CELLS],
    next: [u16; CELLS],
    /// Per chain head.
    libs: [u16; CELLS],
    lib_sum: [u32; CELLS],
    lib_sq: [u64; CELLS],
    stones: [u16; CELLS],
    /// Empty points, in no order, and where each sits in the list.
    empties: Vec<u16>,
    empty_at: [u16; CELLS],
    to_move: Color,
    ko: Vertex,
    key: Key,
    captures: [u32; 2],
    on_board: [u16; 2],
    /// Consecutive passes that ended the move list so far.
    passes: u8,
    last: Vertex,
    /// The move before `last` (PASS at the start): the learned prior's second distance.
    last2: Vertex,
    moves: u32,
}

impl Board {
    /// An empty board; `size` must be 2..=25.
    pub fn new(size: usize) -> Option<Board> {
        if !(2..=MAX_SIZE).contains(&size) {
            return None;
        }
        let mut b = Board {
            size,
            cells: [Cell::Wall; CELLS],
            code3: [0; CELLS],
            head: [0; CELLS],
            next: [0; CELLS],
            libs: [0; CELLS],
            lib_sum: [0; CELLS],
            lib_sq: [0; CELLS],
            stones: [0; CELLS],
            empties: Vec::with_capacity(size * size),
            empty_at: [0; CELLS],
            to_move: Color::Black,
            ko: PASS,
            key: Key(0),
            captures: [0; 2],
            on_board: [0; 2],
            passes: 0,
            last: PASS,
            last2: PASS,
            moves: 0,
        };
        for y in 0..size {
            for x in 0..size {
                let v = Board::vertex_of(x, y);
                b.cells[v as usize] = Cell::Empty;
                b.empty_at[v as usize] = b.empties.len() as u16;
                b.empties.push(v);
            }
        }
        for y in 0..size {
            for x in 0..size {
                let v = Board::vertex_of(x, y);
                b.code3[v as usize] = b.shape_code(v);
            }
        }
        Some(b)
    }

    #[inline]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The vertex of column `x` and row `y`, both from 0 at the top left.
    #[inline]
    pub const fn vertex_of(x: usize, y: usize) -> Vertex {
        ((y + 1) * STRIDE + x + 1) as Vertex
    }

    /// Column and row of a vertex (not a pass).
    #[inline]
    pub fn xy(v: Vertex) -> (usize, usize) {
        (v as usize % STRIDE - 1, v as usize / STRIDE - 1)
    }

    /// The vertex at (x, y) if it is on this board.
    pub fn vertex(&self, x: usize, y: usize) -> Option<Vertex> {
        (x < self.size && y < self.size).then(|| Board::vertex_of(x, y))
    }

    /// Every point of the board, row by row.
    pub fn vertices(&self) -> impl Iterator<Item = Vertex> + '_ {
        (0..self.size).flat_map(move |y| (0..self.size).map(move |x| Board::vertex_of(x, y)))
    }

    #[inline]
    pub fn cell(&self, v: Vertex) -> Cell {
        self.cells[v as usize]
    }

    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    pub fn set_to_move(&mut self, c: Color) {
        self.to_move = c;
        self.ko = PASS;
    }

    /// Forgets the passes that ended the move list (to play a finished game on, as a
    /// judge does to tell dead stones from live ones).
    pub fn clear_passes(&mut self) {
        self.passes = 0;
    }

    /// The point the side to move may not play because it would retake a ko at once.
    #[inline]
    pub fn ko(&self) -> Option<Vertex> {
        (self.ko != PASS).then_some(self.ko)
    }

    /// The key of the stones alone (positional superko compares these).
    #[inline]
    pub fn key(&self) -> Key {
        self.key
    }

    /// Stones of `c` captured by the opponent so far.
    #[inline]
    pub fn prisoners(&self, c: Color) -> u32 {
        self.captures[c.opposite().index()]
    }

    /// Stones `c` has captured.
    #[inline]
    pub fn captured_by(&self, c: Color) -> u32 {
        self.captures[c.index()]
    }

    #[inline]
    pub fn passes(&self) -> u8 {
        self.passes
    }

    #[inline]
    pub fn last_move(&self) -> Vertex {
        self.last
    }

    /// The move played before the last one.
    #[inline]
    pub fn second_last_move(&self) -> Vertex {
        self.last2
    }

    #[inline]
    pub fn move_count(&self) -> u32 {
        self.moves
    }

    #[inline]
    pub fn empties(&self) -> &[u16] {
        &self.empties
    }

    pub fn stone_count(&self) -> usize {
        self.size * self.size - self.empties.len()
    }

    #[inline]
    pub fn neighbours(v: Vertex) -> [Vertex; 4] {
        DIRS.map(|d| (v as isize + d) as Vertex)
    }

    #[inline]
    pub fn diagonals(v: Vertex) -> [Vertex; 4] {
        DIAGONALS.map(|d| (v as isize + d) as Vertex)
    }

    /// The eight cells around `v` as a [`super::pattern::Code`].
    #[inline]
    pub fn code3(&self, v: Vertex) -> u16 {
        self.code3[v as usize]
    }

    /// How many of the four points next to `v` are empty, read from its shape code
    /// (the playouts' first question about a move: with two, it is no eye, no suicide
    /// and no self-atari).
    #[inline]
    pub fn empty_neighbours(&self, v: Vertex) -> u32 {
        // A cell is empty when both its bits are clear; fold each pair onto its low bit
        // and keep the four orthogonal positions (1, 3, 4 and 6 of the code).
        let c = self.code3[v as usize];
        let occupied = (c | c >> 1) & (1 << 2 | 1 << 6 | 1 << 8 | 1 << 12);
        4 - occupied.count_ones()
    }

    /// The shape code of `v` read from the cells (what `code3` keeps).
    fn shape_code(&self, v: Vertex) -> u16 {
        AROUND.iter().enumerate().fold(0, |code, (i, &d)| {
            code | (self.cells[(v as isize + d) as usize] as u16) << (2 * i)
        })
    }

    /// Puts `cell` on the point `v` and updates its neighbours' shape codes.
    #[inline]
    fn set_cell(&mut self, v: usize, cell: Cell) {
        let diff = (self.cells[v] as u16) ^ (cell as u16);
        self.cells[v] = cell;
        for (i, &d) in AROUND.iter().enumerate() {
            self.code3[(v as isize + d) as usize] ^= diff << (2 * (7 - i));
        }
    }

    /// The head of the chain through the stone on `v`.
    #[inline]
    pub fn chain(&self, v: Vertex) -> Vertex {
        self.head[v as usize]
    }

    /// Stones in the chain through `v`.
    #[inline]
    pub fn chain_stones(&self, v: Vertex) -> u16 {
        self.stones[self.head[v as usize] as usize]
    }

    /// The chain's only liberty, if it has exactly one.
    #[inline]
    pub fn atari_liberty(&self, v: Vertex) -> Option<Vertex> {
        let h = self.head[v as usize] as usize;
        let n = self.libs[h] as u64;
        let s = self.lib_sum[h] as u64;
        (n > 0 && s * s == n * self.lib_sq[h]).then(|| (s / n) as Vertex)
    }

    /// Whether the chain through `v` has no liberty left (only while a move resolves).
    #[inline]
    fn dead(&self, h: usize) -> bool {
        self.libs[h] == 0
    }

    /// Pseudo-liberties of the chain through `v` (a liberty counts once per stone next
    /// to it, so at most four times): more than `4 * n` of them means more than `n`
    /// distinct liberties, without a walk.
    #[inline]
    pub fn pseudo_liberties(&self, v: Vertex) -> u16 {
        self.libs[self.head[v as usize] as usize]
    }

    /// Fills `out` with distinct liberties of the chain through `v`, by walking it, and
    /// returns how many it found (at most `out.len()`: a cheap "at least n" test).
    pub fn liberties(&self, v: Vertex, out: &mut [Vertex]) -> usize {
        let mut n = 0;
        let mut s = v;
        loop {
            for x in Board::neighbours(s) {
                if self.cells[x as usize] == Cell::Empty && !out[..n].contains(&x) {
                    if n == out.len() {
                        return n;
                    }
                    out[n] = x;
                    n += 1;
                }
            }
            s = self.next[s as usize];
            if s == v {
                return n;
            }
        }
    }

    /// Exact liberty count of the chain through `v` (walks it).
    pub fn liberty_count(&self, v: Vertex) -> usize {
        let mut out = [PASS; CELLS / 2];
        self.liberties(v, &mut out)
    }

    /// The next stone of the chain through `v` (chains are circular lists).
    #[inline]
    pub fn next_stone(&self, v: Vertex) -> Vertex {
        self.next[v as usize]
    }

    /// Stones of `c` on the board.
    #[inline]
    pub fn stones_of(&self, c: Color) -> usize {
        self.on_board[c.index()] as usize
    }

    /// The stones of the chain through `v`.
    pub fn chain_members(&self, v: Vertex) -> Vec<Vertex> {
        let mut out = vec![v];
        let mut s = self.next[v as usize];
        while s != v {
            out.push(s);
            s = self.next[s as usize];
        }
        out
    }

    /// Whether `c` may play `v` here (ignoring repetition beyond simple ko).
    pub fn check(&self, v: Vertex, c: Color, suicide_allowed: bool) -> Result<(), Illegal> {
        if v == PASS {
            return Ok(());
        }
        match self.cells.get(v as usize) {
            Some(Cell::Empty) => {}
            Some(Cell::Black | Cell::White) => return Err(Illegal::Occupied),
            _ => return Err(Illegal::OffBoard),
        }
        if v == self.ko && c == self.to_move {
            return Err(Illegal::Ko);
        }
        if !suicide_allowed && self.is_suicide(v, c) {
            return Err(Illegal::Suicide);
        }
        Ok(())
    }

    /// Whether a stone of `c` on the empty `v` would have no liberty and capture nothing.
    pub fn is_suicide(&self, v: Vertex, c: Color) -> bool {
        let own = Cell::of(c);
        if self.empty_neighbours(v) > 0 {
            return false;
        }
        for n in Board::neighbours(v) {
            match self.cells[n as usize] {
                Cell::Empty => return false,
                Cell::Wall => {}
                cell => {
                    let in_atari_here = self.atari_liberty(n) == Some(v);
                    if (cell == own) != in_atari_here {
                        // Our chain with another liberty, or theirs captured by this move.
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Plays a move for the side to move, known to be legal ([`Board::check`]).
    pub fn play(&mut self, v: Vertex) {
        let c = self.to_move;
        self.play_as(v, c);
    }

    /// Plays `v` for `c` (setting up stones or a GTP `play` out of turn); then the
    /// opponent of `c` is to move.
    pub fn play_as(&mut self, v: Vertex, c: Color) {
        self.moves += 1;
        self.last2 = self.last;
        self.last = v;
        self.to_move = c.opposite();
        if v == PASS {
            self.passes = self.passes.saturating_add(1);
            self.ko = PASS;
            return;
        }
        self.passes = 0;
        let vi = v as usize;
        let own = Cell::of(c);
        self.remove_empty(v);
        self.set_cell(vi, own);
        self.on_board[c.index()] += 1;
        self.key ^= stone_key(c, vi);
        self.head[vi] = v;
        self.next[vi] = v;
        self.stones[vi] = 1;
        self.libs[vi] = 0;
        self.lib_sum[vi] = 0;
        self.lib_sq[vi] = 0;
        // Every neighbouring chain loses v as a liberty; the new stone gains its empty
        // neighbours.
        for n in Board::neighbours(v) {
            match self.cells[n as usize] {
                Cell::Empty => self.add_lib(vi, n),
                Cell::Wall => {}
                _ => {
                    let h = self.head[n as usize] as usize;
                    self.remove_lib(h, v);
                }
            }
        }
        let mut captured = 0u32;
        let mut last_captured = PASS;
        for n in Board::neighbours(v) {
            let cell = self.cells[n as usize];
            if cell == own {
                let (a, b) = (self.head[vi], self.head[n as usize]);
                if a != b {
                    self.merge(a, b);
                }
            } else if cell != Cell::Empty && cell != Cell::Wall {
                let h = self.head[n as usize] as usize;
                if self.dead(h) {
                    last_captured = n;
                    captured += self.remove_chain(n);
                }
            }
        }
        self.captures[c.index()] += captured;
        let h = self.head[vi] as usize;
        // A single stone that took a single stone and now sits in atari leaves a ko.
        self.ko = if captured == 1 && self.stones[h] == 1 && self.atari_liberty(v).is_some() {
            last_captured
        } else {
            PASS
        };
        if self.dead(h) {
            // Suicide, where the rules allow it.
            let n = self.remove_chain(v);
            self.captures[c.opposite().index()] += n;
        }
    }

    #[inline]
    fn add_lib(&mut self, h: usize, lib: Vertex) {
        let l = lib as u32;
        self.libs[h] += 1;
        self.lib_sum[h] += l;
        self.lib_sq[h] += (l * l) as u64;
    }

    #[inline]
    fn remove_lib(&mut self, h: usize, lib: Vertex) {
        let l = lib as u32;
        self.libs[h] -= 1;
        self.lib_sum[h] -= l;
        self.lib_sq[h] -= (l * l) as u64;
    }

    /// Joins chain `b` into chain `a` (the smaller into the larger).
    fn merge(&mut self, a: Vertex, b: Vertex) {
        let (big, small) = if self.stones[a as usize] >= self.stones[b as usize] {
            (a as usize, b as usize)
        } else {
            (b as usize, a as usize)
        };
        let mut s = small;
        loop {
            self.head[s] = big as u16;
            s = self.next[s] as usize;
            if s == small {
                break;
            }
        }
        self.next.swap(big, small);
        self.stones[big] += self.stones[small];
        self.libs[big] += self.libs[small];
        self.lib_sum[big] += self.lib_sum[small];
        self.lib_sq[big] += self.lib_sq[small];
    }

    /// Takes the chain through `v` off the board; its neighbours gain the liberties.
    fn remove_chain(&mut self, v: Vertex) -> u32 {
        let c = self.cells[v as usize].color().expect("a stone");
        let mut count = 0;
        let mut s = v;
        loop {
            let next = self.next[s as usize];
            self.set_cell(s as usize, Cell::Empty);
            self.on_board[c.index()] -= 1;
            self.key ^= stone_key(c, s as usize);
            self.add_empty(s);
            count += 1;
            s = next;
            if s == v {
                break;
            }
        }
        // Now every removed point is a liberty of each (other) chain next to it.
        let mut s = v;
        loop {
            for n in Board::neighbours(s) {
                let cell = self.cells[n as usize];
                if cell == Cell::Black || cell == Cell::White {
                    let h = self.head[n as usize] as usize;
                    self.add_lib(h, s);
                }
            }
            s = self.next[s as usize];
            if s == v {
                break;
            }
        }
        count
    }

    #[inline]
    fn remove_empty(&mut self, v: Vertex) {
        let i = self.empty_at[v as usize] as usize;
        let last = self.empties.pop().expect("v is empty");
        if last != v {
            self.empties[i] = last;
            self.empty_at[last as usize] = i as u16;
        }
    }

    #[inline]
    fn add_empty(&mut self, v: Vertex) {
        self.empty_at[v as usize] = self.empties.len() as u16;
        self.empties.push(v);
    }

    /// Whether `v` is an empty point surrounded by `c` as an eye is: every neighbour
    /// `c`'s or the edge, and not two (at the edge one) diagonals the opponent's.
    pub fn is_eye(&self, v: Vertex, c: Color) -> bool {
        let own = Cell::of(c);
        if Board::neighbours(v).iter().any(|&n| {
            !matches!(self.cells[n as usize], Cell::Wall) && self.cells[n as usize] != own
        }) {
            return false;
        }
        let enemy = Cell::of(c.opposite());
        let mut bad = 0;
        let mut edge = false;
        for d in Board::diagonals(v) {
            match self.cells[d as usize] {
                Cell::Wall => edge = true,
                x if x == enemy => bad += 1,
                _ => {}
            }
        }
        bad + (edge as u32) < 2
    }

    /// Area owner of every point: stones, and empty regions that reach only one colour.
    /// Indexed by vertex; `None` for neutral points and walls.
    pub fn area(&self) -> Vec<Option<Color>> {
        let mut owner = vec![None; CELLS];
        let mut seen = vec![false; CELLS];
        let mut stack = Vec::new();
        let mut region = Vec::new();
        for v in self.vertices() {
            match self.cells[v as usize] {
                Cell::Black => owner[v as usize] = Some(Color::Black),
                Cell::White => owner[v as usize] = Some(Color::White),
                Cell::Empty if !seen[v as usize] => {
                    let mut reaches = [false; 2];
                    region.clear();
                    stack.push(v);
                    seen[v as usize] = true;
                    while let Some(p) = stack.pop() {
                        region.push(p);
                        for n in Board::neighbours(p) {
                            match self.cells[n as usize] {
                                Cell::Empty if !seen[n as usize] => {
                                    seen[n as usize] = true;
                                    stack.push(n);
                                }
                                Cell::Black => reaches[0] = true,
                                Cell::White => reaches[1] = true,
                                _ => {}
                            }
                        }
                    }
                    let who = match reaches {
                        [true, false] => Some(Color::Black),
                        [false, true] => Some(Color::White),
                        _ => None,
                    };
                    for &p in &region {
                        owner[p as usize] = who;
                    }
                }
                _ => {}
            }
        }
        owner
    }

    /// A board from rows of `X` (black), `O` (white) and `.` or `+` (empty), top row
    /// first, spaces ignored; black to move. For tests and position text.
    pub fn from_diagram(text: &str) -> Result<Board, String> {
        let rows: Vec<Vec<char>> = text
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        let size = rows.len();
        let mut b = Board::new(size).ok_or(format!("{size} rows: not a board size"))?;
        for (y, row) in rows.iter().enumerate() {
            if row.len() != size {
                return Err(format!("row {}: {} points, not {size}", y + 1, row.len()));
            }
            for (x, &ch) in row.iter().enumerate() {
                let c = match ch {
                    'X' | 'x' | '#' => Color::Black,
                    'O' | 'o' => Color::White,
                    '.' | '+' => continue,
                    other => return Err(format!("row {}: '{other}' is not X, O or .", y + 1)),
                };
                let v = Board::vertex_of(x, y);
                if b.is_suicide(v, c) {
                    return Err(format!("row {}: a chain without liberties", y + 1));
                }
                b.play_as(v, c);
            }
        }
        b.set_to_move(Color::Black);
        b.moves = 0;
        b.last = PASS;
        b.captures = [0; 2];
        if b.stone_count()
            != rows
                .iter()
                .flatten()
                .filter(|c| !matches!(c, '.' | '+'))
                .count()
        {
            return Err("a chain without liberties".into());
        }
        Ok(b)
    }

    /// Recomputes chains, liberties and the key from the stones and compares (tests).
    pub fn verify(&self) -> Result<(), String> {
        let mut key = Key(0);
        for v in self.vertices() {
            let vi = v as usize;
            if self.code3[vi] != self.shape_code(v) {
                return Err(format!("{v}: shape code"));
            }
            let empty = Board::neighbours(v)
                .iter()
                .filter(|&&n| self.cells[n as usize] == Cell::Empty)
                .count();
            if self.empty_neighbours(v) as usize != empty {
                return Err(format!("{v}: empty neighbours"));
            }
            if let Some(c) = self.cells[vi].color() {
                key ^= stone_key(c, vi);
                let h = self.head[vi] as usize;
                if self.cells[h] != self.cells[vi] {
                    return Err(format!("{v}: head of another colour"));
                }
                let members = self.chain_members(v);
                if members.len() != self.stones[h] as usize {
                    return Err(format!("{v}: chain size"));
                }
                let (mut n, mut s, mut q) = (0u16, 0u32, 0u64);
                for &m in &members {
                    if self.head[m as usize] as usize != h {
                        return Err(format!("{m}: wrong head"));
                    }
                    for x in Board::neighbours(m) {
                        if self.cells[x as usize] == Cell::Empty {
                            n += 1;
                            s += x as u32;
                            q += (x as u64) * (x as u64);
                        }
                    }
                }
                if (n, s, q) != (self.libs[h], self.lib_sum[h], self.lib_sq[h]) {
                    return Err(format!("{v}: liberty counters"));
                }
                if n == 0 {
                    return Err(format!("{v}: chain without liberty"));
                }
            }
        }
        if key != self.key {
            return Err("key".into());
        }
        for c in Color::BOTH {
            let n = self
                .vertices()
                .filter(|&v| self.cells[v as usize] == Cell::of(c))
                .count();
            if n != self.on_board[c.index()] as usize {
                return Err(format!("{c} stone count"));
            }
        }
        let empties = self
            .vertices()
            .filter(|&v| self.cells[v as usize] == Cell::Empty)
            .count();
        if empties != self.empties.len() {
            return Err("empty list".into());
        }
        Ok(())
    }
}

/// The board as GTP's showboard and GNU Go draw it: column letters, row numbers from the
/// bottom, `X` black, `O` white, `.` empty (`+` on star points).
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
        let n = self.size;
        let letters: String = COLUMNS[..n]
            .iter()
            .map(|&c| format!(" {}", c as char))
            .collect();
        writeln!(f, "   {letters}")?;
        let e = if n >= 13 { 3 } else { 2 };
        let star = |i: usize| n >= 9 && (i == e || i == n - 1 - e || (n % 2 == 1 && i == n / 2));
        for y in 0..n {
            write!(f, "{:>2} ", n - y)?;
            for x in 0..n {
                let ch = match self.cells[Board::vertex_of(x, y) as usize] {
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    _ if star(x) && star(y) => '+',
                    _ => '.',
                };
                write!(f, " {ch}")?;
            }
            writeln!(f, " {:<2}", n - y)?;
        }
        write!(f, "   {letters}")
    }
}
