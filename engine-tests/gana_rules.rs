//! Gana rules: the eight worked examples of `../shared/rules/gana.md`, a test for each
//! of its decisions, move and position text, perft from the start, and random games
//! that keep the key exact, never overfill a square, never add men, and always end.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use tengen::core::Color;
use tengen::games::gana::board::{parse_square, square_name};
use tengen::games::gana::{Board, DrawReason, Illegal, Move, MoveError, Outcome};

/// A position from (square, men) pairs; every other square empty.
fn pos(squares: &[(&str, &str)], side: char) -> Board {
    let mut grid = vec![vec![".".to_string(); 8]; 8];
    for (sq, men) in squares {
        let s = parse_square(sq).unwrap();
        grid[7 - (s / 8) as usize][(s % 8) as usize] = men.to_string();
    }
    let ranks: Vec<String> = grid.iter().map(|r| r.join(",")).collect();
    Board::from_text(&format!("{} {side} 0", ranks.join("/"))).unwrap()
}

fn play(b: &mut Board, text: &str) -> Outcome {
    let m = b.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    b.play(m).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn men(b: &Board, sq: &str) -> String {
    let s = parse_square(sq).unwrap();
    let mut t = String::new();
    t.extend(std::iter::repeat_n('w', b.plain(Color::White, s) as usize));
    if b.king(Color::White) == Some(s) {
        t.push('W');
    }
    t.extend(std::iter::repeat_n('b', b.plain(Color::Black, s) as usize));
    if b.king(Color::Black) == Some(s) {
        t.push('B');
    }
    t
}

#[test]
fn example_1_king_last_in_a_group_captures_where_it_rests() {
    let mut b = pos(&[("c5", "wW"), ("c7", "bb"), ("a1", "w"), ("h8", "B")], 'w');
    play(&mut b, "c5n");
    assert_eq!(men(&b, "c6"), "w");
    assert_eq!(men(&b, "c7"), "W");
    assert_eq!(b.no_capture(), 0);
    // The king first instead: it shares c6, the man ends 1 against 2 on c7 and takes nothing.
    let mut b = pos(&[("c5", "wW"), ("c7", "bb"), ("a1", "w"), ("h8", "B")], 'w');
    play(&mut b, "c5n1");
    assert_eq!(men(&b, "c6"), "W");
    assert_eq!(men(&b, "c7"), "wbb");
}

#[test]
fn example_2_the_last_man_takes_one_against_one() {
    let mut b = pos(
        &[("e7", "wwww"), ("e3", "b"), ("a1", "W"), ("h8", "B")],
        'w',
    );
    play(&mut b, "e7s");
    for sq in ["e6", "e5", "e4", "e3"] {
        assert_eq!(men(&b, sq), "w", "{sq}");
    }
}

#[test]
fn example_3_men_pile_up_at_the_edge_and_take_two_against_two() {
    let mut b = pos(
        &[("e7", "wwww"), ("h7", "bb"), ("a1", "W"), ("a8", "B")],
        'w',
    );
    play(&mut b, "e7e");
    assert_eq!(men(&b, "f7"), "w");
    assert_eq!(men(&b, "g7"), "w");
    assert_eq!(men(&b, "h7"), "ww");
}

#[test]
fn example_4_only_the_last_square_captures() {
    let mut b = pos(
        &[
            ("b3", "www"),
            ("d3", "b"),
            ("e3", "b"),
            ("a1", "W"),
            ("h8", "B"),
        ],
        'w',
    );
    play(&mut b, "b3e");
    assert_eq!(men(&b, "c3"), "w");
    assert_eq!(men(&b, "d3"), "wb");
    assert_eq!(men(&b, "e3"), "w");
}

#[test]
fn example_5_enemy_men_on_the_origin_stay() {
    let mut b = pos(
        &[("d6", "wwwb"), ("d3", "b"), ("a1", "W"), ("h8", "B")],
        'w',
    );
    play(&mut b, "d6s");
    assert_eq!(men(&b, "d6"), "b");
    assert_eq!(men(&b, "d3"), "w");
}

#[test]
fn example_6_a_king_capture_on_the_way_wins_and_the_move_goes_on() {
    let mut b = pos(&[("g5", "ww"), ("f5", "B"), ("a1", "W")], 'w');
    assert_eq!(play(&mut b, "g5w"), Outcome::Win(Color::White));
    assert_eq!(men(&b, "f5"), "w");
    assert_eq!(men(&b, "e5"), "w");
    assert_eq!(b.to_text(), None, "a won game has no position text");
    // Black to move instead: the king steps onto g5 and takes both men.
    let mut b = pos(&[("g5", "ww"), ("f5", "B"), ("a1", "W"), ("a8", "b")], 'b');
    play(&mut b, "f5e");
    assert_eq!(men(&b, "g5"), "B");
}

#[test]
fn example_7_a_full_square_stops_the_group() {
    let mut b = pos(
        &[("c7", "bbb"), ("e7", "wwww"), ("a1", "W"), ("h8", "B")],
        'b',
    );
    play(&mut b, "c7e");
    assert_eq!(men(&b, "d7"), "bbb");
    assert_eq!(men(&b, "e7"), "wwww");
}

#[test]
fn example_8_a_king_is_captured_whoever_stands_with_it() {
    let mut b = pos(&[("c7", "bbb"), ("c5", "wW"), ("h8", "B")], 'b');
    assert_eq!(play(&mut b, "c7s"), Outcome::Win(Color::Black));
    assert_eq!(men(&b, "c6"), "b");
    assert_eq!(men(&b, "c5"), "wb");
    assert_eq!(men(&b, "c4"), "b");
}

#[test]
fn decision_a_full_square_is_entered_only_to_capture() {
    let b = pos(&[("d4", "wW"), ("d5", "bbbb"), ("h8", "B")], 'w');
    // The king alone, last, onto enemy men: it enters and takes them all.
    let mut k = b.clone();
    play(&mut k, "Kd4n");
    assert_eq!(men(&k, "d5"), "W");
    assert_eq!(men(&k, "d4"), "w");
    // A plain man first, or the king first but not last: the first square is closed.
    for text in ["d4n", "d4n1"] {
        let m = b.parse_move(text).unwrap();
        assert_eq!(b.clone().play(m), Err(Illegal::Blocked), "{text}");
    }
}

#[test]
fn decision_capacity_is_tested_once_on_the_last_square() {
    // Three men east from a1: one enters b1 (3 there), c1 is full, two pile on b1: five.
    let b = pos(
        &[
            ("a1", "www"),
            ("b1", "ww"),
            ("c1", "wwww"),
            ("e1", "W"),
            ("h8", "B"),
        ],
        'w',
    );
    let m = b.parse_move("a1e").unwrap();
    assert_eq!(b.clone().play(m), Err(Illegal::OverCapacity));
    // Two men piling to four are fine.
    let b = pos(
        &[
            ("a1", "ww"),
            ("b1", "w"),
            ("c1", "wwww"),
            ("e1", "W"),
            ("h8", "B"),
        ],
        'w',
    );
    let mut after = b.clone();
    play(&mut after, "a1e");
    assert_eq!(men(&after, "b1"), "www");
}

#[test]
fn decision_the_kings_place_makes_different_moves() {
    let b = pos(&[("c5", "wwW"), ("a8", "b"), ("h8", "B")], 'w');
    let mut moves = Vec::new();
    b.legal_moves(&mut moves);
    let north: Vec<String> = moves
        .iter()
        .filter(|m| m.from == parse_square("c5").unwrap() && m.dir == tengen::games::gana::Dir::N)
        .map(|&m| b.move_text(m))
        .collect();
    assert_eq!(north, ["c5n", "c5n1", "c5n2", "Kc5n"]);
    // `c5n3` is `c5n` (the king last); a digit above the group is a syntax error.
    assert_eq!(b.parse_move("c5n3").unwrap(), b.parse_move("c5n").unwrap());
    assert_eq!(b.parse_move("c5n4"), Err(MoveError::Syntax));
    assert_eq!(b.parse_move("a1n1"), Err(MoveError::Syntax));
    assert_eq!(b.parse_move("Kc5n1"), Err(MoveError::Syntax));
    assert_eq!(b.parse_move("c5x"), Err(MoveError::Syntax));
    // `c5-c8` could be c5n, c5n1 or c5n2 (every order ends on c8); only the king alone
    // ends on c6; nothing ends on c7.
    assert_eq!(b.parse_move("c5-c8"), Err(MoveError::Ambiguous));
    assert_eq!(
        b.parse_move("c5-c6").unwrap(),
        b.parse_move("Kc5n").unwrap()
    );
    assert_eq!(b.parse_move("c5-c7"), Err(MoveError::NoMatch));
    // Found by the fuzzer: a character of several bytes was cut in two (a panic).
    for text in ["\u{feff}", "\u{feff}c5n", "é5n", "c5né", "K漢n"] {
        assert_eq!(b.parse_move(text), Err(MoveError::Syntax), "{text}");
    }
}

#[test]
fn decision_stalemate_is_judged_after_the_move_that_makes_it() {
    // Black has only its king on a8; white's c7n puts a man where it answers b8.
    let mut b = pos(&[("a8", "B"), ("c7", "w"), ("a6", "w"), ("h1", "W")], 'w');
    assert_eq!(b.outcome(), Outcome::Ongoing);
    assert_eq!(play(&mut b, "c7n"), Outcome::Draw(DrawReason::Stalemate));
    let mut moves = Vec::new();
    b.legal_moves(&mut moves);
    assert!(moves.is_empty(), "a finished game has no legal moves");
}

#[test]
fn only_kings_left_and_the_no_capture_count_draw() {
    let mut b = pos(&[("a1", "W"), ("c3", "w"), ("c4", "B")], 'b');
    // The king takes the last man: only kings remain.
    assert_eq!(play(&mut b, "c4s"), Outcome::Draw(DrawReason::OnlyKings));
    let t = "B,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./w,.,.,.,.,.,.,./.,.,.,.,.,.,.,W w 99";
    let mut b = Board::from_text(t).unwrap();
    assert_eq!(
        play(&mut b, "h1w"),
        Outcome::Draw(DrawReason::NoCaptureLimit)
    );
}

#[test]
fn position_text_reads_and_writes_the_start() {
    let start = "b,b,b,b,B,b,b,b/b,b,b,b,b,b,b,b/.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./w,w,w,w,w,w,w,w/w,w,w,w,W,w,w,w w 0";
    let b = Board::from_text(start).unwrap();
    assert!(b == Board::start());
    assert_eq!(b.to_text().unwrap(), start);
    // Read in any order; written white men, white king, black men, black king.
    let b = pos(&[("d4", "bWwb"), ("h8", "B")], 'b');
    assert_eq!(men(&b, "d4"), "wWbb");
    for bad in [
        "",
        "x w 0",
        &start.replace(" w 0", " x 0"),
        &start.replace(" w 0", " w 100"),
        &start.replace("W", "w"),
        &start.replace(
            ".,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.",
            "wwwww,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.",
        ),
        &start.replace("b,b,b,b,B", "b,b,b,b,bB"),
    ] {
        assert!(Board::from_text(bad).is_err(), "{bad}");
    }
}

#[test]
fn moves_print_and_read_back() {
    assert_eq!(square_name(parse_square("e1").unwrap()), "e1");
    let b = Board::start();
    let mut moves = Vec::new();
    b.legal_moves(&mut moves);
    for &m in &moves {
        assert_eq!(b.parse_move(&b.move_text(m)).unwrap(), m);
        assert_eq!(b.parse_move(&b.move_text(m).to_uppercase()).unwrap(), m);
    }
    assert_eq!(b.parse_move("e1n").unwrap(), b.parse_move("Ke1n").unwrap());
}

#[test]
fn perft_from_the_start() {
    let b = Board::start();
    assert_eq!(b.perft(1), 52);
    assert_eq!(b.perft(2), 2_704);
    // Computed by this engine and pinned.
    assert_eq!(b.perft(3), PERFT_3);
}

const PERFT_3: u64 = 134_992;

#[test]
fn random_games_keep_the_invariants_and_end() {
    let mut rng = StdRng::seed_from_u64(5);
    let mut moves = Vec::new();
    for _ in 0..40 {
        let mut b = Board::start();
        let mut plies = 0;
        while b.outcome() == Outcome::Ongoing {
            b.legal_moves(&mut moves);
            assert!(!moves.is_empty(), "an ongoing game has a move");
            let before = [b.total(Color::White), b.total(Color::Black)];
            let m = moves[rng.random_range(0..moves.len())];
            b.play(m).unwrap();
            plies += 1;
            assert_eq!(b.key(), b.computed_key());
            assert!(b.total(Color::White) <= before[0] && b.total(Color::Black) <= before[1]);
            if !matches!(b.outcome(), Outcome::Win(_)) {
                for sq in 0..64 {
                    assert!(b.count(sq) <= 4, "{}:\n{b}", square_name(sq));
                }
            }
            if b.outcome() == Outcome::Ongoing {
                let text = b.to_text().unwrap();
                assert!(Board::from_text(&text).unwrap() == b, "{text}");
            }
            assert!(plies < 3_300, "30 captures of 100 plies at most");
        }
    }
}

/// Plays `m` on `b` and asserts `holds` after every reply (and that there is one).
fn after_every_reply(b: &Board, m: Move, holds: impl Fn(&Board) -> bool) {
    let mut after = b.clone();
    after.play(m).unwrap();
    let mut replies = Vec::new();
    after.legal_moves(&mut replies);
    assert!(!replies.is_empty());
    for r in replies {
        let mut then = after.clone();
        then.play(r).unwrap();
        assert!(holds(&then), "after {}", after.move_text(r));
    }
}

#[test]
fn a_net_around_the_king_is_found_and_holds_against_every_reply() {
    // White's king in the corner a1, a white man far away on h8. Black's two men on a4
    // sow south to a3 and a2: the king on a1 is attacked, a2 and b1 too (c1's man).
    let t = ".,.,.,B,.,.,.,w/.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./\
             bb,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./W,.,b,.,.,.,.,. b 0";
    let b = Board::from_text(t).unwrap();
    assert!(!b.can_capture_king(), "no capture at once");
    let m = b.winning_move().expect("a net");
    after_every_reply(&b, m, |then| then.can_capture_king());
    // Without the man on c1 the king escapes to b1: no net.
    let open = t.replace("W,.,b,", "W,.,.,");
    assert_eq!(Board::from_text(&open).unwrap().winning_move(), None);
    // A king that can be taken at once is taken.
    let near = t
        .replace("bb,.,.,", ".,.,.,")
        .replace("/.,.,.,.,.,.,.,./W", "/bb,.,.,.,.,.,.,./W");
    let b = Board::from_text(&near).unwrap();
    assert!(b.can_capture_king());
    let mut won = b.clone();
    won.play(b.winning_move().unwrap()).unwrap();
    assert_eq!(won.outcome(), Outcome::Win(Color::Black));
}

#[test]
fn a_win_two_moves_deep_is_found_and_every_reply_allows_a_net() {
    // From a game against the greedy player: Black has no net now, but a move after
    // which whatever White replies, Black has one.
    let t = ".,b,.,.,.,.,bbbb,./.,.,.,.,.,.,.,./.,b,.,b,.,.,.,./.,.,b,.,.,.,.,B/\
             .,.,.,W,.,.,.,./b,.,w,.,.,b,.,./.,w,.,.,.,.,.,./.,.,w,w,.,w,.,. b 39";
    let b = Board::from_text(t).unwrap();
    let mut budget = u64::MAX;
    assert_eq!(b.forced_win(2, &mut budget), None, "no net at once");
    let m = b.forced_win(3, &mut budget).expect("a win in two moves");
    after_every_reply(&b, m, |then| then.winning_move().is_some());
    // A budget too small to read it all claims nothing.
    assert_eq!(b.forced_win(3, &mut 500), None);
}

#[test]
fn undo_restores_the_exact_position_through_random_games() {
    let mut rng = StdRng::seed_from_u64(21);
    let mut engine = tengen::engine::GanaEngine::new();
    let mut moves = Vec::new();
    for _ in 0..20 {
        engine.clear();
        let mut history = vec![engine.board().clone()];
        while engine.board().outcome() == Outcome::Ongoing {
            let b = engine.board().clone();
            b.legal_moves(&mut moves);
            let text = b.move_text(moves[rng.random_range(0..moves.len())]);
            engine.play(b.to_move(), &text).unwrap();
            assert_eq!(engine.board().key(), engine.board().computed_key());
            if rng.random_range(0..4) == 0 {
                assert!(engine.undo());
                assert!(*engine.board() == b, "undo of {text} did not restore");
                engine.play(b.to_move(), &text).unwrap();
            }
            history.push(engine.board().clone());
        }
        // Unwind the whole game: every position comes back in turn.
        history.pop();
        while let Some(before) = history.pop() {
            assert!(engine.undo());
            assert!(*engine.board() == before);
        }
        assert!(!engine.undo(), "nothing left to undo at the start");
    }
}
