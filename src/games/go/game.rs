//! A game of Go: the board with its history under a rule set — superko from the keys of
//! every earlier position, undo by replay, handicap, the end by two passes, and the score.

use std::fmt;

use super::board::{Board, Cell, Illegal, PASS, Vertex};
use super::rules::{KoRule, Rules, Scoring};
use crate::core::{Color, Key};

/// Why a game command was refused; the texts are GNU Go's GTP wording where it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoError {
    Illegal(Illegal),
    /// Would repeat an earlier position (superko).
    Superko,
    BadSize(usize),
    BadVertex(String),
    BoardNotEmpty,
    CannotUndo,
    BadHandicap(String),
    /// A game record that cannot be read or replayed.
    Record(String),
}

impl fmt::Display for GoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoError::Illegal(why) => write!(f, "illegal move: {why}"),
            GoError::Superko => f.write_str("illegal move: superko"),
            GoError::BadSize(_) => f.write_str("unacceptable size"),
            GoError::BadVertex(v) => write!(f, "invalid coordinate '{v}'"),
            GoError::BoardNotEmpty => f.write_str("board not empty"),
            GoError::CannotUndo => f.write_str("cannot undo"),
            GoError::BadHandicap(why) => write!(f, "invalid handicap: {why}"),
            GoError::Record(why) => write!(f, "cannot load file: {why}"),
        }
    }
}

impl std::error::Error for GoError {}

/// Column letters of GTP and most GUIs: A to Z without I.
const COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// `D4`, `pass`: a vertex as GTP writes it (row 1 at the bottom).
pub fn vertex_name(size: usize, v: Vertex) -> String {
    if v == PASS {
        return "pass".into();
    }
    let (x, y) = Board::xy(v);
    format!("{}{}", COLUMNS[x] as char, size - y)
}

/// Parses a GTP vertex (`d4`, `D4`, `pass`) on a board of `size`.
pub fn parse_vertex(size: usize, text: &str) -> Result<Vertex, GoError> {
    let bad = || GoError::BadVertex(text.to_string());
    let t = text.trim();
    if t.eq_ignore_ascii_case("pass") {
        return Ok(PASS);
    }
    let mut chars = t.chars();
    let letter = chars.next().ok_or_else(bad)?.to_ascii_uppercase();
    let x = COLUMNS
        .iter()
        .position(|&c| c as char == letter)
        .ok_or_else(bad)?;
    let row: usize = chars.as_str().parse().map_err(|_| bad())?;
    if x >= size || row == 0 || row > size {
        return Err(bad());
    }
    Ok(Board::vertex_of(x, size - row))
}

/// GTP's fixed handicap points for `n` stones, or why there are none.
pub fn fixed_handicap(size: usize, n: usize) -> Result<Vec<Vertex>, GoError> {
    let max = if size >= 9 && size % 2 == 1 {
        9
    } else if size >= 7 {
        4
    } else {
        0
    };
    if n < 2 || n > max {
        return Err(GoError::BadHandicap(format!(
            "{n} stones on {size}x{size} (2 to {max})"
        )));
    }
    let e = if size >= 13 { 3 } else { 2 };
    let (lo, mid, hi) = (e, size / 2, size - 1 - e);
    let at = |x: usize, y: usize| Board::vertex_of(x, y);
    // Bottom left, top right, bottom right, top left; then the centre on odd counts,
    // the side middles from six stones on.
    let mut v = vec![at(lo, hi), at(hi, lo)];
    if n >= 3 {
        v.push(at(hi, hi));
    }
    if n >= 4 {
        v.push(at(lo, lo));
    }
    if n >= 6 {
        v.push(at(lo, mid));
        v.push(at(hi, mid));
    }
    if n >= 8 {
        v.push(at(mid, lo));
        v.push(at(mid, hi));
    }
    if n % 2 == 1 && n >= 5 {
        v.push(at(mid, mid));
    }
    Ok(v)
}

/// A game in progress.
#[derive(Clone)]
pub struct Game {
    rules: Rules,
    komi: f32,
    /// The position before the first move (setup and handicap stones).
    start: Board,
    board: Board,
    handicap: usize,
    moves: Vec<(Color, Vertex)>,
    /// Every position so far with the side to move in it, the start included.
    seen: Vec<(Key, Color)>,
}

impl Game {
    pub fn new(size: usize, rules: Rules) -> Result<Game, GoError> {
        let board = Board::new(size).ok_or(GoError::BadSize(size))?;
        Ok(Game {
            rules,
            komi: rules.komi,
            seen: vec![(board.key(), board.to_move())],
            start: board.clone(),
            board,
            handicap: 0,
            moves: Vec::new(),
        })
    }

    pub fn size(&self) -> usize {
        self.board.size()
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Changes the rules; komi follows only if it was the old rules' default.
    pub fn set_rules(&mut self, rules: Rules) {
        if self.komi == self.rules.komi {
            self.komi = rules.komi;
        }
        self.rules = rules;
    }

    pub fn komi(&self) -> f32 {
        self.komi
    }

    pub fn set_komi(&mut self, komi: f32) {
        self.komi = komi;
    }

    pub fn handicap(&self) -> usize {
        self.handicap
    }

    pub fn moves(&self) -> &[(Color, Vertex)] {
        &self.moves
    }

    /// The stones placed before the first move.
    pub fn setup(&self) -> Vec<(Vertex, Color)> {
        self.start
            .vertices()
            .filter_map(|v| self.start.cell(v).color().map(|c| (v, c)))
            .collect()
    }

    pub fn to_move(&self) -> Color {
        self.board.to_move()
    }

    /// Empties the board, keeping size, rules and komi.
    pub fn clear(&mut self) {
        let size = self.size();
        let (rules, komi) = (self.rules, self.komi);
        *self = Game::new(size, rules).expect("the size was valid");
        self.komi = komi;
    }

    /// Whether `c` may play `v` now.
    pub fn check(&self, c: Color, v: Vertex) -> Result<(), GoError> {
        self.board
            .check(v, c, self.rules.suicide)
            .map_err(GoError::Illegal)?;
        if v != PASS && self.rules.ko != KoRule::Simple {
            let mut after = self.board.clone();
            after.play_as(v, c);
            if self.repeats(&after) {
                return Err(GoError::Superko);
            }
        }
        Ok(())
    }

    /// Whether `after` (this game's position after one more stone) repeats an earlier
    /// position under the rules' superko. Simple ko is the board's business.
    pub fn repeats(&self, after: &Board) -> bool {
        match self.rules.ko {
            KoRule::Simple => false,
            KoRule::Positional => self.seen.iter().any(|&(k, _)| k == after.key()),
            KoRule::Situational => self.seen.contains(&(after.key(), after.to_move())),
        }
    }

    /// The stone arrangements a move by `mover` may not create under the rules'
    /// superko (empty under simple ko).
    pub fn forbidden_keys(&self, mover: Color) -> Vec<Key> {
        match self.rules.ko {
            KoRule::Simple => Vec::new(),
            KoRule::Positional => self.seen.iter().map(|&(k, _)| k).collect(),
            KoRule::Situational => self
                .seen
                .iter()
                .filter(|&&(_, to_move)| to_move == mover.opposite())
                .map(|&(k, _)| k)
                .collect(),
        }
    }

    pub fn play(&mut self, c: Color, v: Vertex) -> Result<(), GoError> {
        self.check(c, v)?;
        self.board.play_as(v, c);
        self.moves.push((c, v));
        self.seen.push((self.board.key(), self.board.to_move()));
        Ok(())
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Result<(), GoError> {
        if self.moves.pop().is_none() {
            return Err(GoError::CannotUndo);
        }
        self.rebuild();
        Ok(())
    }

    /// Plays the moves again from the start position: the board and the positions
    /// seen become exactly what the moves make them (after an undo, or after a bug
    /// left them half changed).
    pub fn rebuild(&mut self) {
        let mut b = self.start.clone();
        self.seen = vec![(b.key(), b.to_move())];
        for &(c, v) in &self.moves {
            b.play_as(v, c);
            self.seen.push((b.key(), b.to_move()));
        }
        self.board = b;
    }

    /// Puts handicap stones on an empty board; white moves next.
    pub fn set_handicap(&mut self, stones: &[Vertex]) -> Result<(), GoError> {
        if self.board.stone_count() > 0 || !self.moves.is_empty() {
            return Err(GoError::BoardNotEmpty);
        }
        let cells = self.size() * self.size();
        if stones.len() < 2 || stones.len() >= cells {
            return Err(GoError::BadHandicap(format!("{} stones", stones.len())));
        }
        let mut b = self.board.clone();
        for (i, &v) in stones.iter().enumerate() {
            if v == PASS || stones[..i].contains(&v) || b.cell(v) != Cell::Empty {
                return Err(GoError::BadHandicap(format!(
                    "{} repeated or not a point",
                    vertex_name(self.size(), v)
                )));
            }
            b.play_as(v, Color::Black);
        }
        b.set_to_move(Color::White);
        self.handicap = stones.len();
        self.start = b.clone();
        self.seen = vec![(b.key(), b.to_move())];
        self.board = b;
        Ok(())
    }

    /// Sets up stones (an SGF's AB/AW) before any move.
    pub fn set_up(&mut self, stones: &[(Vertex, Color)], to_move: Color) -> Result<(), GoError> {
        if !self.moves.is_empty() {
            return Err(GoError::BoardNotEmpty);
        }
        let mut b = self.board.clone();
        for &(v, c) in stones {
            b.check(v, c, false).map_err(GoError::Illegal)?;
            b.play_as(v, c);
        }
        b.set_to_move(to_move);
        self.start = b.clone();
        self.seen = vec![(b.key(), b.to_move())];
        self.board = b;
        Ok(())
    }

    /// Two passes in a row end the game.
    pub fn is_over(&self) -> bool {
        self.board.passes() >= 2
    }

    /// The result, black's points minus white's, with the stones marked in `dead` taken
    /// off first (indexed by vertex).
    pub fn score(&self, dead: &[bool]) -> f32 {
        score(&self.board, self.rules, self.komi, self.handicap, dead)
    }
}

/// Black's points minus white's on `board` under `rules`, `dead` stones removed first.
pub fn score(board: &Board, rules: Rules, komi: f32, handicap: usize, dead: &[bool]) -> f32 {
    let mut dead_of = [0u32; 2];
    // The living stones alone: placing them captures nothing, since each chain keeps
    // its liberties or gains the dead stones' points.
    let mut alive = Board::new(board.size()).expect("same size");
    for v in board.vertices() {
        if let Some(c) = board.cell(v).color() {
            if dead.get(v as usize).copied().unwrap_or(false) {
                dead_of[c.index()] += 1;
            } else {
                alive.play_as(v, c);
            }
        }
    }
    let owner = alive.area();
    let mut pts = [0f32; 2];
    for v in alive.vertices() {
        if let Some(c) = owner[v as usize] {
            let stone = alive.cell(v) != Cell::Empty;
            if rules.scoring == Scoring::Area || !stone {
                pts[c.index()] += 1.0;
            }
        }
    }
    if rules.scoring == Scoring::Territory {
        pts[0] += (board.captured_by(Color::Black) + dead_of[1]) as f32;
        pts[1] += (board.captured_by(Color::White) + dead_of[0]) as f32;
    }
    pts[1] += komi;
    if rules.scoring == Scoring::Area {
        pts[1] += rules.handicap_bonus(handicap);
    }
    pts[0] - pts[1]
}

/// `B+3.5`, `W+0.5`, `0`.
pub fn result_text(score: f32) -> String {
    if score > 0.0 {
        format!("B+{score}")
    } else if score < 0.0 {
        format!("W+{}", -score)
    } else {
        "0".into()
    }
}
