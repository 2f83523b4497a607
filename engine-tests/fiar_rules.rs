//! Five-in-a-row rules on ASCII diagrams, variant by variant: wins and non-wins,
//! captures, opening restrictions, the shared centre, stone supply, counting, passes
//! and every kind of bad move.
//!
//! Diagrams: one row a line, row 1 (`y = 0`) first, column `a` first; `X` black,
//! `O` white, `*` the shared centre stone. Black moves when both have as many stones.

mod common;

use tengen::core::error::Point;
use tengen::core::{Color, RuleError};
use tengen::games::fiar::record::parse_point;
use tengen::games::fiar::{Board, DrawReason, Foul, Move, Outcome, Pattern, Variant, WinReason};

fn board(v: Variant, rows: &[&str]) -> Board {
    Board::from_diagram(v, &rows.join("\n")).unwrap()
}

fn pt(b: &Board, name: &str) -> Point {
    parse_point(name, b.width(), b.height()).unwrap()
}

fn play(b: &mut Board, name: &str) -> Result<Outcome, RuleError> {
    let mv = if name == "pass" {
        Move::Pass
    } else {
        Move::Place(pt(b, name))
    };
    b.play(mv)
}

fn five(b: &Board, winner: Color, from: &str, to: &str) -> Outcome {
    Outcome::Win {
        winner,
        reason: WinReason::Five {
            from: pt(b, from),
            to: pt(b, to),
        },
    }
}

fn ongoing(b: &Board) {
    assert_eq!(b.outcome(), Outcome::Ongoing, "\n{b}");
}

// ----- wins and non-wins -----------------------------------------------------------------

#[test]
fn freestyle_five_and_overline_win() {
    let rows = [
        "XXXX.....", // a1..d1, e1 makes five
        ".........",
        "XX.XXX...", // c3 makes six
        ".........",
        "OOOO.....",
        "OO.......",
        "O.O.O....",
        ".........",
        ".........",
    ];
    let mut b = board(Variant::Freestyle, &rows);
    assert_eq!(b.to_move(), Color::Black);
    assert_eq!(
        play(&mut b, "e1").unwrap(),
        five(&b, Color::Black, "a1", "e1")
    );
    let mut b = board(Variant::Freestyle, &rows);
    assert_eq!(
        play(&mut b, "c3").unwrap(),
        five(&b, Color::Black, "a3", "f3")
    );
}

#[test]
fn standard_wins_only_with_exactly_five() {
    let rows = [
        "XX.XXX...",
        ".........",
        "OO.OOO...",
        "O........",
        "X........",
        ".........",
        "........O",
        "XXXX.....",
        "OOO......",
    ];
    let mut b = board(Variant::Standard, &rows);
    assert_eq!(b.to_move(), Color::Black);
    assert_eq!(
        play(&mut b, "c1").unwrap(),
        Outcome::Ongoing,
        "six is just stones"
    );
    assert_eq!(
        play(&mut b, "c3").unwrap(),
        Outcome::Ongoing,
        "for white too"
    );
    assert_eq!(
        play(&mut b, "e8").unwrap(),
        five(&b, Color::Black, "a8", "e8")
    );
}

#[test]
fn caro_five_closed_at_both_ends_does_not_win() {
    let rows = [
        ".OXXXX.O.", // g1 makes a five closed by O at both ends
        ".........",
        "XXXX.O...", // e3: the edge closes one end, O the other: wins
        ".........",
        "OO.O.O.O.",
        ".........",
        "OXXXX.X.O", // f7 makes the overline b7..g7, closed by a7
        ".........",
        "OOO......",
    ];
    let mut b = board(Variant::Caro, &rows);
    assert_eq!(b.to_move(), Color::Black);
    assert_eq!(play(&mut b, "g1").unwrap(), Outcome::Ongoing);
    b.undo().unwrap();
    assert_eq!(
        play(&mut b, "e3").unwrap(),
        five(&b, Color::Black, "a3", "e3")
    );
    // An overline wins in caro even when closed; it never wins in caro-exact.
    let mut b = board(Variant::Caro, &rows);
    assert_eq!(
        play(&mut b, "f7").unwrap(),
        five(&b, Color::Black, "b7", "g7")
    );
    let mut b = board(Variant::CaroExact, &rows);
    assert_eq!(play(&mut b, "f7").unwrap(), Outcome::Ongoing);
    assert_eq!(play(&mut b, "i9").unwrap(), Outcome::Ongoing);
    assert_eq!(
        play(&mut b, "e3").unwrap(),
        five(&b, Color::Black, "a3", "e3")
    );
}

#[test]
fn renju_black_six_is_forbidden_and_white_overline_wins() {
    let rows = [
        "...............",
        ".XXX.XX........", // e2 would make six for black
        "...............",
        ".OOO.OO........", // e4 makes six for white
        "...............",
        ".XXXX..........", // f6 makes five for black
        "...............",
        "...............",
        "..O............",
        "...............",
        "...............",
        "...............",
        "O.O.O..........",
        "...............",
        "...............",
    ];
    let mut b = board(Variant::Renju, &rows);
    assert_eq!(b.to_move(), Color::Black);
    assert_eq!(b.foul(pt(&b, "e2"), Color::Black), Some(Foul::Overline));
    assert_eq!(
        play(&mut b, "e2").unwrap_err(),
        RuleError::Forbidden {
            point: pt(&b, "e2"),
            color: Color::Black,
            reason: "overline"
        }
    );
    ongoing(&b);
    play(&mut b, "n15").unwrap();
    assert_eq!(
        play(&mut b, "e4").unwrap(),
        five(&b, Color::White, "b4", "g4")
    );
    let mut b = board(Variant::Renju, &rows);
    assert_eq!(
        play(&mut b, "f6").unwrap(),
        five(&b, Color::Black, "b6", "f6")
    );
}

#[test]
fn renju_five_beats_any_foul() {
    // f6 makes the five b6..f6 and, down column f, the six f2..f7: the five wins.
    let mut rows = [
        "...............",
        ".....X.........",
        ".....X.........",
        ".....X.........",
        ".....X.........",
        ".XXXX..........",
        ".....X.........",
        "...............",
        "...............",
        "O.O.O.O.O......",
        "...............",
        "...............",
        "...............",
        "...............",
        "O.O.O.O........",
    ];
    let mut b = board(Variant::Renju, &rows);
    assert_eq!(b.foul(pt(&b, "f6"), Color::Black), None);
    assert_eq!(
        play(&mut b, "f6").unwrap(),
        five(&b, Color::Black, "b6", "f6")
    );
    // Without the row's four, the same point is an overline.
    rows[5] = "..XXX..........";
    let b = board(Variant::Renju, &rows);
    assert_eq!(b.foul(pt(&b, "f6"), Color::Black), Some(Foul::Overline));
}

#[test]
fn renju_double_three_and_double_four() {
    let rows = common::DOUBLE_THREE;
    let mut b = board(Variant::Renju, &rows);
    assert_eq!(b.to_move(), Color::Black);
    assert_eq!(b.foul(pt(&b, "h9"), Color::Black), Some(Foul::DoubleThree));
    assert!(
        b.forbidden_points(Color::Black)
            .contains(&(pt(&b, "h9"), Foul::DoubleThree))
    );
    assert_eq!(
        play(&mut b, "h9").unwrap_err(),
        RuleError::Forbidden {
            point: pt(&b, "h9"),
            color: Color::Black,
            reason: "double-three"
        }
    );
    // White has no forbidden points: after a black move elsewhere, white takes h9.
    play(&mut b, "a8").unwrap();
    play(&mut b, "h9").unwrap();
    // Under freestyle the same point is an ordinary move.
    let b = board(Variant::Freestyle, &rows);
    assert_eq!(b.foul(pt(&b, "h9"), Color::Black), None);

    // Two fours in one line: c8 e8 f8 [g8] i8 makes X.XXX.X.
    let rows = [
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "..X.XX..X......",
        "...............",
        "...............",
        "...............",
        "...............",
        "O.O.O.O........",
        "...............",
        "...............",
    ];
    let b = board(Variant::Renju, &rows);
    assert_eq!(b.foul(pt(&b, "g8"), Color::Black), Some(Foul::DoubleFour));
    assert_eq!(
        b.foul(pt(&b, "d8"), Color::Black),
        None,
        "d8 makes one four, c8..f8 + i8 is apart"
    );
}

// ----- captures ---------------------------------------------------------------------------

#[test]
fn pente_captures_a_pair_and_undo_restores_it() {
    let rows = [
        "XOO......",
        ".........",
        ".........",
        ".........",
        ".........",
    ];
    let mut b = board(Variant::Pente, &rows);
    assert_eq!(b.to_move(), Color::Black);
    let key = b.key();
    assert_eq!(play(&mut b, "d1").unwrap(), Outcome::Ongoing);
    assert!(b.is_empty(pt(&b, "b1")) && b.is_empty(pt(&b, "c1")));
    assert_eq!(b.captured(Color::Black), 2);
    b.verify().unwrap();
    b.undo().unwrap();
    assert_eq!(b.stone(pt(&b, "b1")), Some(Color::White));
    assert_eq!(b.captured(Color::Black), 0);
    assert_eq!(b.key(), key);
}

#[test]
fn moving_into_x_o_gap_x_is_safe() {
    // Black's X O _ X: white plays the gap and is not captured.
    let rows = [
        "XO.X.....",
        ".........",
        ".........",
        ".........",
        ".........",
    ];
    let mut b = board(Variant::Pente, &rows);
    assert_eq!(b.to_move(), Color::White);
    play(&mut b, "c1").unwrap();
    assert_eq!(b.stone(pt(&b, "b1")), Some(Color::White));
    assert_eq!(b.stone(pt(&b, "c1")), Some(Color::White));
    assert_eq!(b.captured(Color::Black), 0);
}

#[test]
fn one_move_captures_in_several_directions() {
    let rows = [
        "X..X..X..",
        ".O.O.O...",
        "..OOO....",
        "XOO.OOX..", // d4 brackets pairs left, right, up, both upper diagonals
        "...O.....",
        "...O.....",
        "...X.....",
        ".........",
        ".........",
    ];
    let mut b = board(Variant::Pente, &rows);
    // 6 X, 12 O: make it black's turn by adding nothing — from_diagram gives black when
    // black has no more stones than white.
    assert_eq!(b.to_move(), Color::Black);
    play(&mut b, "d4").unwrap();
    assert_eq!(b.captured(Color::Black), 12, "\n{b}");
    for p in [
        "b4", "c4", "e4", "f4", "d3", "d2", "c3", "b2", "e3", "f2", "d5", "d6",
    ] {
        assert!(b.is_empty(pt(&b, p)), "{p}\n{b}");
    }
    b.verify().unwrap();
    b.undo().unwrap();
    assert_eq!(b.diagram(), rows.join("\n") + "\n");
    b.verify().unwrap();
}

#[test]
fn a_capture_breaks_a_five_to_be() {
    let rows = [
        ".........",
        ".........",
        ".........",
        "...X.....",
        ".OOOO....", // white's four b5..e5
        "...O.....",
        ".........",
        "...X.X...",
        "X.....X..",
    ];
    let mut b = board(Variant::Pente, &rows);
    assert_eq!(b.to_move(), Color::Black);
    assert_eq!(b.pattern(pt(&b, "f5"), Color::White, 0), Pattern::Five);
    // d7 brackets d6 d5 against d4: d5 is part of white's four.
    play(&mut b, "d7").unwrap();
    assert!(b.is_empty(pt(&b, "d5")) && b.is_empty(pt(&b, "d6")));
    assert_eq!(b.captured(Color::Black), 2);
    assert_eq!(
        play(&mut b, "f5").unwrap(),
        Outcome::Ongoing,
        "the four is broken"
    );
}

#[test]
fn keryo_captures_three_and_pente_only_pairs() {
    let rows = [
        "XOOO.....",
        ".........",
        ".........",
        ".........",
        ".........",
    ];
    let mut b = board(Variant::KeryoPente, &rows);
    play(&mut b, "e1").unwrap();
    assert_eq!(b.captured(Color::Black), 3);
    assert!(b.is_empty(pt(&b, "b1")) && b.is_empty(pt(&b, "d1")));
    let mut b = board(Variant::Pente, &rows);
    play(&mut b, "e1").unwrap();
    assert_eq!(b.captured(Color::Black), 0);
    assert_eq!(b.stone(pt(&b, "b1")), Some(Color::White));
}

fn five_pairs_to_take(v: Variant) -> Board {
    let mut rows = vec![
        "XOO.XOO.XOO.XOO....".to_string(),
        ".".repeat(19),
        "XOO................".to_string(),
    ];
    rows.extend((3..18).map(|_| ".".repeat(19)));
    rows.push("O.O.O.O.O.O.O.O.O.O".to_string());
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    board(v, &refs)
}

#[test]
fn pente_wins_by_five_captured_pairs() {
    let mut b = five_pairs_to_take(Variant::Pente);
    for (bm, wm) in [("d1", "b10"), ("h1", "d10"), ("l1", "f10"), ("p1", "h10")] {
        assert_eq!(play(&mut b, bm).unwrap(), Outcome::Ongoing);
        play(&mut b, wm).unwrap();
    }
    assert_eq!(b.captured(Color::Black), 8);
    assert_eq!(
        play(&mut b, "d3").unwrap(),
        Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Captures(10)
        }
    );
}

#[test]
fn ni_nuki_captures_never_win_by_count() {
    let mut b = five_pairs_to_take(Variant::NiNuki);
    for (bm, wm) in [
        ("d1", "b10"),
        ("h1", "d10"),
        ("l1", "f10"),
        ("p1", "h10"),
        ("d3", "j10"),
    ] {
        play(&mut b, bm).unwrap();
        play(&mut b, wm).unwrap();
    }
    assert_eq!(b.captured(Color::Black), 10);
    ongoing(&b);
}

// ----- openings -----------------------------------------------------------------------

#[test]
fn gomoku_pro_and_pente_opening_restrictions() {
    for v in [Variant::GomokuPro, Variant::Pente, Variant::KeryoPente] {
        let mut b = Board::new(v);
        assert!(
            matches!(play(&mut b, "a1"), Err(RuleError::Restricted { .. })),
            "{v}"
        );
        play(&mut b, "h8").unwrap();
        play(&mut b, "i9").unwrap();
        // Black's second stone: not within the central 5x5 (f6..j10).
        for inside in ["j10", "f6", "h10", "g7"] {
            assert!(
                matches!(play(&mut b, inside), Err(RuleError::Restricted { .. })),
                "{v} {inside}"
            );
        }
        play(&mut b, "k8").unwrap(); // three columns right of the centre
        play(&mut b, "h9").unwrap(); // white is free
        play(&mut b, "g7").unwrap(); // black's later stones are free
    }
    // Freestyle has no restriction.
    let mut b = Board::new(Variant::Freestyle);
    play(&mut b, "a1").unwrap();
    // Renju: the first stone on the centre, nothing more.
    let mut b = Board::new(Variant::Renju);
    assert!(play(&mut b, "h9").is_err());
    play(&mut b, "h8").unwrap();
    play(&mut b, "h9").unwrap();
    play(&mut b, "i9").unwrap();
}

#[test]
fn shared_centre_stone_counts_for_whoever_is_moving() {
    let mut b = Board::new(Variant::GomokuSharedCentre);
    for m in ["h8", "e8", "i9", "f8", "j10", "g8", "k11"] {
        assert_eq!(play(&mut b, m).unwrap(), Outcome::Ongoing);
    }
    assert!(b.is_shared(pt(&b, "h8")));
    // White: e8 f8 g8 + the shared h8 is a four; d8 makes five through it.
    let mut w = b.clone();
    assert_eq!(
        play(&mut w, "d8").unwrap(),
        five(&w, Color::White, "d8", "h8")
    );
    let mut w = b.clone();
    assert_eq!(
        play(&mut w, "i8").unwrap(),
        five(&w, Color::White, "e8", "i8")
    );
    // Black: i9 j10 k11 + the same shared stone; l12 makes five h8..l12.
    play(&mut b, "a15").unwrap();
    assert_eq!(
        play(&mut b, "l12").unwrap(),
        five(&b, Color::Black, "h8", "l12")
    );
    b.verify().unwrap();
}

#[test]
fn narabe_black_loses_on_its_35th_stone_without_a_five() {
    // XXOO blocks shifted by two each row, 34 stones each, no line of three.
    let rows: Vec<String> = (0..15)
        .map(|y| {
            (0..15)
                .map(|x| {
                    let skip = y == 0 && x < 2;
                    if y < 5 && x < 14 && !skip {
                        if (x + 2 * y) % 4 < 2 { 'X' } else { 'O' }
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut b = board(Variant::GomokuNarabe, &refs);
    assert_eq!(b.placed(Color::Black), 34);
    assert_eq!(b.to_move(), Color::Black);
    assert_eq!(b.stones_left(Color::Black), Some(1));
    ongoing(&b);
    assert_eq!(
        play(&mut b, "h12").unwrap(),
        Outcome::Win {
            winner: Color::White,
            reason: WinReason::OutOfStones
        }
    );
    b.undo().unwrap();
    // Black's last stone may still win by a five.
    let mut rows2 = rows.clone();
    rows2[10] = "XXXX...........".to_string();
    rows2[12] = "OOOO...........".to_string();
    rows2[0] = rows2[0].replacen('X', ".", 4);
    rows2[0] = rows2[0].replacen('O', ".", 4);
    let refs: Vec<&str> = rows2.iter().map(String::as_str).collect();
    let mut b = board(Variant::GomokuNarabe, &refs);
    assert_eq!(b.stones_left(Color::Black), Some(1));
    assert_eq!(
        play(&mut b, "e11").unwrap(),
        five(&b, Color::Black, "a11", "e11")
    );
}

#[test]
fn narabe_double_three_binds_both_colours() {
    let rows = [
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        ".......O.......",
        ".......O.......",
        ".....OO........",
        "...............",
        "..X............",
        "...............",
        "....X..........",
        "...............",
        "X.....X.X......",
    ];
    let b = board(Variant::GomokuNarabe, &rows);
    assert_eq!(b.to_move(), Color::White);
    assert_eq!(b.foul(pt(&b, "h9"), Color::White), Some(Foul::DoubleThree));
    let b = board(Variant::Freestyle, &rows);
    assert_eq!(b.foul(pt(&b, "h9"), Color::White), None);
}

// ----- counting games ----------------------------------------------------------------------

#[test]
fn go_bang_plays_on_after_a_five_and_counts_rows() {
    let rows = [
        "XXXX...", ".......", "OOOO...", ".......", ".......", ".......", ".......",
    ];
    let mut b = board(Variant::GoBang, &rows);
    assert_eq!(play(&mut b, "e1").unwrap(), Outcome::Ongoing);
    assert_eq!(b.rows(Color::Black), 1);
    for p in ["a1", "b1", "c1", "d1", "e1"] {
        assert!(b.is_spent(pt(&b, p)), "{p}");
    }
    // A spent stone ends lines like an opponent stone: f1 next to the spent row makes no row.
    play(&mut b, "e3").unwrap();
    assert_eq!(b.rows(Color::White), 1);
    play(&mut b, "f1").unwrap();
    assert_eq!(b.rows(Color::Black), 1);
    b.verify().unwrap();
    // Undo un-spends.
    b.undo().unwrap();
    b.undo().unwrap();
    b.undo().unwrap();
    assert!(!b.is_spent(pt(&b, "a1")));
    assert_eq!(b.rows(Color::Black), 0);
    b.verify().unwrap();
}

fn fill(b: &mut Board, moves: &[&str]) -> Outcome {
    let mut last = Outcome::Ongoing;
    for m in moves {
        assert_eq!(last, Outcome::Ongoing, "the game ended before {m}\n{b}");
        last = play(b, m).unwrap();
    }
    last
}

#[test]
fn go_bang_count_decides_at_the_end() {
    // 5x5: black scores a1..e1, white a2..e2, then the board fills with no more rows.
    let rows = ["XXXX.", "OOO.O", ".....", ".....", "....."];
    let mut b = board(Variant::GoBang, &rows);
    let rest = [
        "a3", "b3", "c3", "d3", "e3", "a4", "b4", "c4", "d4", "e4", "a5", "b5", "c5", "d5", "e5",
    ];
    let mut moves = vec!["e1", "d2"];
    moves.extend(rest);
    assert_eq!(
        fill(&mut b, &moves),
        Outcome::Draw(DrawReason::EqualCount(1)),
        "\n{b}"
    );
    assert_eq!(b.stone_count(), 25);

    // The same, but white never completes its row: black wins 1-0 on count.
    let mut b = board(Variant::GoBang, &rows);
    let moves = [
        "e1", "a3", "d2", "b3", "c3", "d3", "e3", "a4", "b4", "c4", "d4", "e4", "a5", "b5", "c5",
        "d5", "e5",
    ];
    assert_eq!(
        fill(&mut b, &moves),
        Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Count { black: 1, white: 0 }
        },
        "\n{b}"
    );
}

// ----- passes -------------------------------------------------------------------------------

#[test]
fn renju_passes_and_the_double_pass_draw() {
    let mut b = Board::new(Variant::Renju);
    play(&mut b, "h8").unwrap();
    assert_eq!(play(&mut b, "pass").unwrap(), Outcome::Ongoing);
    play(&mut b, "i9").unwrap();
    play(&mut b, "pass").unwrap();
    assert_eq!(
        play(&mut b, "pass").unwrap(),
        Outcome::Draw(DrawReason::DoublePass)
    );
    assert_eq!(play(&mut b, "a1").unwrap_err(), RuleError::GameOver);
    b.undo().unwrap();
    ongoing(&b);
    b.verify().unwrap();
    let mut f = Board::new(Variant::Freestyle);
    assert_eq!(play(&mut f, "pass").unwrap_err(), RuleError::PassNotAllowed);
}

// ----- bad moves -------------------------------------------------------------------------

#[test]
fn bad_moves_are_errors_that_name_the_problem() {
    let mut b = Board::new(Variant::Freestyle);
    play(&mut b, "h8").unwrap();
    assert_eq!(
        play(&mut b, "h8").unwrap_err(),
        RuleError::Occupied(pt(&b, "h8"))
    );
    assert!(matches!(
        b.play(Move::Place(Point::new(15, 3))),
        Err(RuleError::OffBoard { x: 15, y: 3 })
    ));
    assert!(matches!(
        parse_point("z99", 15, 15),
        Err(RuleError::OffBoard { .. })
    ));
    assert!(matches!(
        parse_point("h", 15, 15),
        Err(RuleError::BadCoordinate(_))
    ));
    assert!(matches!(
        parse_point("8h", 15, 15),
        Err(RuleError::BadCoordinate(_))
    ));
    assert!(matches!(
        parse_point("-1,3", 15, 15),
        Err(RuleError::OffBoard { x: -1, y: 3 })
    ));
    assert!(matches!(
        Board::with_size(Variant::Freestyle, 4, 15),
        Err(RuleError::BadSize { .. })
    ));
    assert!(matches!(
        Board::with_size(Variant::Freestyle, 33, 33),
        Err(RuleError::BadSize { .. })
    ));
    assert!(Board::with_size(Variant::Freestyle, 32, 5).is_ok());
    let e = play(&mut b, "h8").unwrap_err().to_string();
    assert!(e.contains("h8") && e.contains("occupied"), "{e}");
    let mut r = Board::new(Variant::Renju);
    assert!(
        play(&mut r, "a1")
            .unwrap_err()
            .to_string()
            .contains("centre")
    );
    assert_eq!(
        Board::new(Variant::Freestyle).undo().unwrap_err(),
        RuleError::NothingToUndo
    );
}

#[test]
fn out_of_stones_in_ni_nuki() {
    let b = Board::new(Variant::NiNuki);
    assert_eq!(b.stones_left(Color::Black), Some(180));
    assert_eq!(
        Board::new(Variant::Freestyle).stones_left(Color::Black),
        None
    );
}

// ----- the other foul rules and the referee ----------------------------------------------

/// g8 makes black a four-four (d8 e8 f8 g8 across, g4 g5 g6 _ g8 down) and c11 an
/// overline (a11..f11).
const FOUR_FOUR: [&str; 15] = [
    "...............",
    "...............",
    "...............",
    "......X........", // g4
    "......X........", // g5
    "......X........", // g6
    "...............",
    "...XXX.........", // d8 e8 f8
    "...............",
    "...............",
    "XX.XXX.........", // c11 makes six: a11..f11
    "...............",
    "O.O.O.O.O.O.O..",
    "...............",
    "O.O.O.O........",
];

#[test]
fn old_renju_forbids_only_double_three() {
    let b = board(Variant::OldRenju, &common::DOUBLE_THREE[..]);
    assert_eq!(b.foul(pt(&b, "h9"), Color::Black), Some(Foul::DoubleThree));
    let mut b = board(Variant::OldRenju, &FOUR_FOUR[..]);
    assert_eq!(b.to_move(), Color::Black);
    assert_eq!(
        b.foul(pt(&b, "g8"), Color::Black),
        None,
        "4-4 is allowed in old renju"
    );
    assert_eq!(
        b.foul(pt(&b, "c11"), Color::Black),
        None,
        "an overline is allowed and wins"
    );
    assert_eq!(
        play(&mut b, "c11").unwrap(),
        five(&b, Color::Black, "a11", "f11")
    );
    let b = board(Variant::Renju, &FOUR_FOUR[..]);
    assert_eq!(b.foul(pt(&b, "g8"), Color::Black), Some(Foul::DoubleFour));
    assert_eq!(b.foul(pt(&b, "c11"), Color::Black), Some(Foul::Overline));
}

#[test]
fn anti_renju_forbids_a_straight_four() {
    let rows = [
        "...............",
        "...............",
        "..XXX..........", // b3 or f3 makes a straight four
        "...............",
        "OXXX...........", // e5 makes a closed four: allowed
        "...............",
        ".XXXX..........", // f7 or a7 makes five: allowed
        "...............",
        "...............",
        "O.O.O.O.O.O.O.O",
        "...............",
        "...............",
        "O..............",
        "...............",
        "...............",
    ];
    let mut b = board(Variant::AntiRenju, &rows);
    assert_eq!(b.to_move(), Color::Black);
    assert_eq!(b.foul(pt(&b, "f3"), Color::Black), Some(Foul::StraightFour));
    assert_eq!(b.foul(pt(&b, "b3"), Color::Black), Some(Foul::StraightFour));
    assert_eq!(b.foul(pt(&b, "e5"), Color::Black), None);
    assert_eq!(b.foul(pt(&b, "f3"), Color::White), None, "white is free");
    assert_eq!(
        play(&mut b, "f7").unwrap(),
        five(&b, Color::Black, "b7", "f7")
    );
}

#[test]
fn a_referee_rules_a_forbidden_move_a_loss() {
    let mut b = board(Variant::Renju, &common::DOUBLE_THREE[..]);
    let key = b.key();
    let verdict = b.referee(Move::Place(pt(&b, "h9"))).unwrap();
    assert_eq!(
        verdict,
        Outcome::Win {
            winner: Color::White,
            reason: WinReason::Foul {
                point: pt(&b, "h9"),
                foul: Foul::DoubleThree
            }
        }
    );
    assert!(
        b.is_empty(pt(&b, "h9")),
        "the forbidden stone is not placed"
    );
    assert_eq!(
        verdict.to_string(),
        "white wins: black played h9, a double-three"
    );
    assert_eq!(b.moves().count(), 0);
    assert_eq!(
        b.referee(Move::Place(pt(&b, "a8"))).unwrap_err(),
        RuleError::GameOver
    );
    b.undo().unwrap();
    ongoing(&b);
    assert_eq!(b.key(), key);
    assert_eq!(b.to_move(), Color::Black);
    // Other illegal moves stay errors; legal ones are played.
    assert_eq!(
        b.referee(Move::Place(pt(&b, "h7"))).unwrap_err(),
        RuleError::Occupied(pt(&b, "h7"))
    );
    assert_eq!(
        b.referee(Move::Place(pt(&b, "a8"))).unwrap(),
        Outcome::Ongoing
    );
}
