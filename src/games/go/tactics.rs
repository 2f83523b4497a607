//! Tactical reading on the board: whether a chain in atari can run, or dies in a ladder.
//! The tree search asks it for its priors (a ladder escape is a wasted move, a working
//! ladder atari is as good as a capture) — playouts are too fast a loop for reading.

use super::board::{Board, Cell, PASS, Vertex};
use crate::core::Color;

/// Positions a ladder read may visit before it gives up and calls the chain escaped.
const BUDGET: u32 = 80;

/// Whether the chain through `chain` — in atari, its owner to move — is lost: it cannot
/// capture a neighbour to gain liberties, and running out at its liberty only leads to
/// ataris that end in its capture (a ladder, or a net that one read line settles).
pub fn ladder_captured(b: &Board, chain: Vertex) -> bool {
    let mut budget = BUDGET;
    captured(b, chain, &mut budget)
}

fn captured(b: &Board, chain: Vertex, budget: &mut u32) -> bool {
    let Some(lib) = b.atari_liberty(chain) else {
        return false;
    };
    let Some(defender) = b.cell(chain).color() else {
        return false;
    };
    let attacker = Cell::of(defender.opposite());
    // A neighbour in atari can be taken for liberties: counted as an escape.
    let mut s = chain;
    loop {
        for n in Board::neighbours(s) {
            if b.cell(n) == attacker && b.atari_liberty(n).is_some() {
                return false;
            }
        }
        s = b.next_stone(s);
        if s == chain {
            break;
        }
    }
    if b.check(lib, defender, false).is_err() {
        return true;
    }
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let mut run = b.clone();
    run.play_as(lib, defender);
    let mut libs = [PASS; 3];
    match run.liberties(chain, &mut libs) {
        0 | 1 => true,
        2 => libs[..2].iter().any(|&a| {
            run.check(a, defender.opposite(), false).is_ok() && {
                let mut chase = run.clone();
                chase.play_as(a, defender.opposite());
                captured(&chase, chain, budget)
            }
        }),
        _ => false,
    }
}

/// Whether `c` playing `v` puts a neighbouring chain of the opponent's into atari that
/// then dies in a ladder (`v` must be legal for `c`).
pub fn ladder_atari(b: &Board, v: Vertex, c: Color) -> bool {
    let them = Cell::of(c.opposite());
    let mut libs = [PASS; 3];
    let targets = Board::neighbours(v).into_iter().filter(|&n| {
        b.cell(n) == them && b.pseudo_liberties(n) <= 8 && b.liberties(n, &mut libs) == 2
    });
    let mut after: Option<Board> = None;
    for n in targets {
        let after = after.get_or_insert_with(|| {
            let mut a = b.clone();
            a.play_as(v, c);
            a
        });
        if after.cell(n) == them && ladder_captured(after, n) {
            return true;
        }
    }
    false
}

/// Whether the side to move playing `v` runs one of its chains in atari out into a
/// ladder that captures it anyway (reading counts a capture of a neighbour as an
/// escape): a move that only feeds the ladder stones.
pub fn futile_escape(b: &Board, v: Vertex) -> bool {
    let me = Cell::of(b.to_move());
    Board::neighbours(v)
        .into_iter()
        .any(|n| b.cell(n) == me && b.atari_liberty(n) == Some(v) && ladder_captured(b, n))
}

/// If the side to move playing `v` puts its chain there into atari without capturing,
/// the stones that chain would have (the playouts' and the priors' self-atari test).
pub fn self_atari_stones(b: &Board, v: Vertex) -> Option<u16> {
    let c = b.to_move();
    let own = Cell::of(c);
    // Most points have two empty neighbours: no walk needed.
    if b.empty_neighbours(v) >= 2 {
        return None;
    }
    let mut libs = [PASS; 2];
    let mut n_libs = 0;
    let mut stones = 1;
    let mut joined = [PASS; 4];
    let mut n_joined = 0;
    let add = |l: Vertex, libs: &mut [Vertex; 2], n: &mut usize| {
        if l != v && !libs[..*n].contains(&l) {
            if *n == 2 {
                return true;
            }
            libs[*n] = l;
            *n += 1;
        }
        false
    };
    for n in Board::neighbours(v) {
        match b.cell(n) {
            Cell::Empty => {
                if add(n, &mut libs, &mut n_libs) {
                    return None;
                }
            }
            Cell::Wall => {}
            cell if cell == own => {
                // Three liberties or more for sure: v takes one, two are left.
                if b.pseudo_liberties(n) > 8 {
                    return None;
                }
                let h = b.chain(n);
                if !joined[..n_joined].contains(&h) {
                    joined[n_joined] = h;
                    n_joined += 1;
                    stones += b.chain_stones(n);
                }
                // A chain in atari brings its one liberty (often `v` itself) without
                // a walk.
                if let Some(l) = b.atari_liberty(n) {
                    if add(l, &mut libs, &mut n_libs) {
                        return None;
                    }
                    continue;
                }
                let mut ls = [PASS; 3];
                let k = b.liberties(n, &mut ls);
                for &l in &ls[..k] {
                    if add(l, &mut libs, &mut n_libs) {
                        return None;
                    }
                }
            }
            _ => {
                if b.atari_liberty(n) == Some(v) {
                    return None; // captures
                }
            }
        }
    }
    (n_libs < 2).then_some(stones)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(d: &str) -> Board {
        Board::from_diagram(d).unwrap()
    }

    /// White d3 in atari, running out at e3 into a ladder towards the upper right
    /// (GNU Go's `ladder_attack` agrees on both boards); a white stone at g7 breaks it.
    const LADDER: &str = ". . . . . . . . .
                          . . . . . . . . .
                          . . . . . . . . .
                          . . . . . . . . .
                          . . . . . . . . .
                          . . . X . . . . .
                          . . X O . . . . .
                          . . . X X . . . .
                          . . . . . . . . .";

    fn with_breaker(d: &str) -> String {
        let mut rows: Vec<String> = d.lines().map(|l| l.trim().to_string()).collect();
        rows[2] = ". . . . . . O . .".into();
        rows.join("\n")
    }

    #[test]
    fn a_ladder_on_an_open_board_works_and_a_breaker_stops_it() {
        let mut b = board(LADDER);
        b.set_to_move(Color::White);
        let w = b.vertex(3, 6).unwrap();
        assert_eq!(b.atari_liberty(w), b.vertex(4, 6));
        assert!(ladder_captured(&b, w));
        let mut b = board(&with_breaker(LADDER));
        b.set_to_move(Color::White);
        assert!(!ladder_captured(&b, w));
    }

    #[test]
    fn the_longest_ladder_reads_in_a_search_thread() {
        // The same shape in the lower left corner of 25x25: the ladder runs the whole
        // diagonal, two boards a level deep. In a thread with the default 2 MB stack it
        // overflowed (found by the fuzzer through final_score on 25x25): search threads
        // get `SEARCH_STACK_BYTES`.
        let mut rows = vec![vec!['.'; 25]; 25];
        for (x, y, c) in [
            (3, 19, 'X'),
            (2, 20, 'X'),
            (3, 20, 'O'),
            (3, 21, 'X'),
            (4, 21, 'X'),
        ] {
            rows[y][x] = c;
        }
        let text: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
        let mut b = board(&text.join("\n"));
        b.set_to_move(Color::White);
        let w = b.vertex(3, 20).unwrap();
        assert_eq!(b.atari_liberty(w), b.vertex(4, 20));
        let read = std::thread::scope(|s| {
            crate::search::spawn_search(s, || ladder_captured(&b, w))
                .expect("a thread")
                .join()
                .unwrap()
        });
        assert!(read, "the ladder works to the edge");
    }

    #[test]
    fn a_chain_that_can_capture_a_neighbour_escapes() {
        let mut b = board(
            ". . . . .
             . . . . .
             . X O X .
             . O X . .
             . . O . .",
        );
        b.set_to_move(Color::White);
        // White's c3 (at (2,2)) is in atari at c4; black's c2 stone (2,3) is in atari too.
        let w = b.vertex(2, 2).unwrap();
        assert!(b.atari_liberty(w).is_some());
        assert!(!ladder_captured(&b, w));
    }

    #[test]
    fn an_atari_that_starts_a_working_ladder_is_seen() {
        // Without black d2: both ataris (d2 and e3) work; with the breaker only e3,
        // which drives white down to the lower edge.
        let open = LADDER.replace(". . . X X . . . .", ". . . . X . . . .");
        let b = board(&open);
        let (d2, e3) = (b.vertex(3, 7).unwrap(), b.vertex(4, 6).unwrap());
        assert!(ladder_atari(&b, d2, Color::Black));
        assert!(ladder_atari(&b, e3, Color::Black));
        let b = board(&with_breaker(&open));
        assert!(!ladder_atari(&b, d2, Color::Black));
        assert!(ladder_atari(&b, e3, Color::Black));
        // A move next to nothing in atari is no ladder.
        assert!(!ladder_atari(&b, b.vertex(0, 0).unwrap(), Color::Black));
    }
}
