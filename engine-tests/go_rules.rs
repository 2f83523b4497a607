//! Go rules on board diagrams: captures, suicide, simple ko, superko (positional and
//! situational), a triple ko, seki, area and territory results with dead stones,
//! handicap, and random games that keep the incremental state exact.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use tengen::core::Color;
use tengen::games::go::{
    Board, Cell, Game, GoError, Illegal, PASS, Rules, Vertex, fixed_handicap, parse_vertex,
    result_text, vertex_name,
};

fn game(rules: Rules, rows: &[&str]) -> Game {
    let b = Board::from_diagram(&rows.join("\n")).unwrap();
    let mut g = Game::new(b.size(), rules).unwrap();
    let stones: Vec<(Vertex, Color)> = b
        .vertices()
        .filter_map(|v| b.cell(v).color().map(|c| (v, c)))
        .collect();
    g.set_up(&stones, Color::Black).unwrap();
    g
}

fn v(g: &Game, name: &str) -> Vertex {
    parse_vertex(g.size(), name).unwrap()
}

fn play(g: &mut Game, c: Color, name: &str) -> Result<(), GoError> {
    let mv = v(g, name);
    let r = g.play(c, mv);
    g.board().verify().unwrap();
    r
}

#[test]
fn vertices_read_and_print_as_gtp_writes_them() {
    assert_eq!(parse_vertex(19, "D4").unwrap(), Board::vertex_of(3, 15));
    assert_eq!(parse_vertex(19, "t19").unwrap(), Board::vertex_of(18, 0));
    assert_eq!(parse_vertex(25, "Z25").unwrap(), Board::vertex_of(24, 0));
    assert_eq!(parse_vertex(9, "PASS").unwrap(), PASS);
    for bad in ["I5", "A0", "A10", "K1", "", "5A", "A-1"] {
        assert!(parse_vertex(9, bad).is_err(), "{bad}");
    }
    assert_eq!(vertex_name(19, Board::vertex_of(8, 9)), "J10");
    assert_eq!(vertex_name(9, PASS), "pass");
}

#[test]
fn capture_removes_the_chain_and_counts_prisoners() {
    let mut g = game(
        Rules::CHINESE,
        &[
            ". X O . .", //
            "X O O X .",
            ". X X . .",
            ". . . . .",
            ". . . . .",
        ],
    );
    // White's chain C5-C4-B4 has one liberty left, D5.
    assert_eq!(g.board().atari_liberty(v(&g, "C5")), Some(v(&g, "D5")));
    play(&mut g, Color::Black, "D5").unwrap();
    for p in ["C5", "B4", "C4"] {
        assert_eq!(g.board().cell(v(&g, p)), Cell::Empty, "{p}");
    }
    assert_eq!(g.board().captured_by(Color::Black), 3);
    assert_eq!(g.board().prisoners(Color::White), 3);
}

#[test]
fn suicide_is_illegal_unless_the_rules_allow_it() {
    let rows = [
        "O . X . .", //
        "X X . . .",
        ". . . . .",
        ". . . . .",
        ". . . . .",
    ];
    for rules in Rules::ALL {
        let mut g = game(rules, &rows);
        g.play(Color::Black, PASS).unwrap();
        let r = play(&mut g, Color::White, "B5");
        if rules.suicide {
            // The two white stones go at once, as prisoners of black.
            assert_eq!(r, Ok(()), "{rules}");
            assert_eq!(g.board().cell(v(&g, "A5")), Cell::Empty);
            assert_eq!(g.board().prisoners(Color::White), 2);
        } else {
            assert_eq!(r, Err(GoError::Illegal(Illegal::Suicide)), "{rules}");
        }
    }
    // A single stone's suicide recreates the position: superko forbids it even where
    // suicide is allowed.
    let mut one = game(Rules::TROMP_TAYLOR, &[". X", "X ."]);
    one.play(Color::Black, PASS).unwrap();
    assert_eq!(play(&mut one, Color::White, "A2"), Err(GoError::Superko));
}

#[test]
fn a_move_without_liberties_that_captures_is_no_suicide() {
    let mut g = game(
        Rules::CHINESE,
        &[
            ". O X . .", //
            "O X . . .",
            "X . . . .",
            ". . . . .",
            ". . . . .",
        ],
    );
    // A5 has no empty neighbour, but it takes the white stones B5 and A4.
    play(&mut g, Color::Black, "A5").unwrap();
    assert_eq!(g.board().captured_by(Color::Black), 2);
}

/// A ko: white's B4 stone can be taken on C4, and black's stone there then retaken.
const KO: [&str; 5] = [
    ". X O . .", //
    "X O . O .",
    ". X O . .",
    ". . . . .",
    ". . . . .",
];

#[test]
fn simple_ko_forbids_only_the_immediate_retake() {
    for rules in Rules::ALL {
        let mut g = game(rules, &KO);
        play(&mut g, Color::Black, "C4").unwrap();
        assert_eq!(g.board().ko(), Some(v(&g, "B4")), "{rules}");
        assert_eq!(
            play(&mut g, Color::White, "B4"),
            Err(GoError::Illegal(Illegal::Ko)),
            "{rules}"
        );
        // A ko threat and its answer, then the retake is legal.
        play(&mut g, Color::White, "E1").unwrap();
        play(&mut g, Color::Black, "D1").unwrap();
        play(&mut g, Color::White, "B4").unwrap();
        assert_eq!(g.board().cell(v(&g, "C4")), Cell::Empty, "{rules}");
    }
}

/// Three kos, the first and third white's stone to take, the second black's.
const TRIPLE_KO: [&str; 9] = [
    ". X O . . . O X .",
    "X O . O . O X . X",
    ". X O . . . O X .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". X O . . . . . .",
    "X O . O . . . . .",
    ". X O . . . . . .",
    ". . . . . . . . .",
];

#[test]
fn a_triple_ko_cycle_is_cut_by_superko_but_not_by_simple_ko() {
    let cycle = [
        (Color::Black, "C8"),
        (Color::White, "H8"),
        (Color::Black, "C3"),
        (Color::White, "B8"),
        (Color::Black, "G8"),
    ];
    for rules in Rules::ALL {
        let mut g = game(rules, &TRIPLE_KO);
        for (c, p) in cycle {
            play(&mut g, c, p).unwrap_or_else(|e| panic!("{rules} {p}: {e}"));
        }
        // The sixth capture would bring back the starting position, black to move.
        let r = play(&mut g, Color::White, "B3");
        if rules == Rules::JAPANESE {
            assert_eq!(r, Ok(()), "{rules}");
            assert_eq!(g.board().key(), game(rules, &TRIPLE_KO).board().key());
        } else {
            assert_eq!(r, Err(GoError::Superko), "{rules}");
        }
    }
}

#[test]
fn positional_superko_looks_at_stones_situational_also_at_the_mover() {
    let start = game(Rules::CHINESE, &KO);
    // The starting stones with white to move: positionally a repetition, situationally
    // not (the start had black to move).
    let mut same_stones = start.board().clone();
    same_stones.set_to_move(Color::White);
    assert!(start.repeats(&same_stones));
    let mut situational = start.clone();
    situational.set_rules(Rules::AGA);
    assert!(!situational.repeats(&same_stones));
    same_stones.set_to_move(Color::Black);
    assert!(situational.repeats(&same_stones));
    let mut simple = start.clone();
    simple.set_rules(Rules::JAPANESE);
    assert!(!simple.repeats(&same_stones));
}

/// A seki: each inner chain has one eye (B7, F7) and shares D7 with the other.
const SEKI: [&str; 7] = [
    "X . X . O . O", //
    "X X X X O O O",
    "O O O O X X X",
    ". . . O X . .",
    ". . . O X . .",
    ". . . O X . .",
    ". . . O X . .",
];

#[test]
fn seki_whoever_fills_the_shared_liberty_is_captured_and_area_leaves_it_neutral() {
    let g = game(Rules::CHINESE, &SEKI);
    for (c, own_eye) in [(Color::Black, "B7"), (Color::White, "F7")] {
        let mut t = g.clone();
        if t.to_move() != c {
            t.play(t.to_move(), PASS).unwrap();
        }
        // Filling D7 leaves the filler's chain one liberty, its own eye...
        play(&mut t, c, "D7").unwrap();
        assert!(t.board().atari_liberty(v(&t, "D7")).is_some(), "{c}");
        // ...where the opponent takes the whole chain.
        play(&mut t, c.opposite(), own_eye).unwrap();
        assert_eq!(
            t.board().cell(v(&t, "D7")),
            Cell::Empty,
            "{c}'s chain is gone"
        );
    }
    // Neither may play in the other's eye: suicide.
    assert_eq!(
        g.check(Color::White, v(&g, "B7")),
        Err(GoError::Illegal(Illegal::Suicide))
    );
    let mut g = g;
    g.set_komi(0.5);
    // Black: 6 + 1 eye + 7 outer stones + 8 points; white: 5 + 1 + 8 + 12; D7 neutral.
    assert_eq!(g.score(&[]), 22.0 - 26.0 - 0.5);
}

#[test]
fn area_and_territory_results_with_dead_stones() {
    let rows = [
        ". X O O .", //
        "O X O O .",
        ". X O O .",
        ". X O O .",
        ". X O O X",
    ];
    let mut g = game(Rules::CHINESE, &rows);
    g.set_komi(0.5);
    let mut dead = vec![false; tengen::games::go::board::CELLS];
    dead[v(&g, "A4") as usize] = true;
    dead[v(&g, "E1") as usize] = true;
    // Area: black the two left columns (10), white the three right ones (15).
    assert_eq!(g.score(&dead), 10.0 - 15.0 - 0.5);
    assert_eq!(result_text(g.score(&dead)), "W+5.5");
    // Territory: black 5 points + 1 dead white stone; white 5 points + 1 dead black.
    g.set_rules(Rules::JAPANESE);
    assert_eq!(g.score(&dead), 6.0 - 6.0 - 0.5);
    // Prisoners taken during the game count under territory scoring only.
    let mut t = game(Rules::JAPANESE, &rows);
    t.set_komi(0.0);
    play(&mut t, Color::Black, "A5").unwrap();
    play(&mut t, Color::White, "E2").unwrap();
    play(&mut t, Color::Black, "A3").unwrap(); // takes A4
    assert_eq!(t.board().captured_by(Color::Black), 1);
    let mut dead = vec![false; tengen::games::go::board::CELLS];
    dead[v(&t, "E1") as usize] = true;
    // Black: A4, A2, A1 and 1 prisoner; white: E5, E4, E3, E1 (where the dead black
    // stone stood) and that stone.
    assert_eq!(t.score(&dead), (3.0 + 1.0) - (4.0 + 1.0));
    assert_eq!(result_text(0.0), "0");
}

#[test]
fn handicap_points_and_compensation() {
    let names = |n: usize, size: usize| -> Vec<String> {
        fixed_handicap(size, n)
            .unwrap()
            .into_iter()
            .map(|v| vertex_name(size, v))
            .collect()
    };
    assert_eq!(names(2, 19), ["D4", "Q16"]);
    assert_eq!(names(3, 9), ["C3", "G7", "G3"]);
    assert_eq!(names(5, 19), ["D4", "Q16", "Q4", "D16", "K10"]);
    assert_eq!(
        names(9, 19),
        ["D4", "Q16", "Q4", "D16", "D10", "Q10", "K16", "K4", "K10"]
    );
    assert!(fixed_handicap(19, 1).is_err());
    assert!(fixed_handicap(19, 10).is_err());
    assert!(fixed_handicap(8, 5).is_err());
    assert!(fixed_handicap(6, 2).is_err());

    let mut g = Game::new(9, Rules::CHINESE).unwrap();
    g.set_handicap(&fixed_handicap(9, 3).unwrap()).unwrap();
    assert_eq!(g.to_move(), Color::White);
    assert_eq!(
        g.set_handicap(&fixed_handicap(9, 2).unwrap()),
        Err(GoError::BoardNotEmpty)
    );
    g.set_komi(0.5);
    // Empty board but three stones: black owns everything, white gets 3 for them.
    assert_eq!(g.score(&[]), 81.0 - 0.5 - 3.0);
    g.set_rules(Rules::AGA);
    assert_eq!(g.score(&[]), 81.0 - 0.5 - 2.0);
}

#[test]
fn undo_restores_the_position_and_the_end_is_two_passes() {
    let mut g = game(Rules::CHINESE, &KO);
    let before = g.board().key();
    play(&mut g, Color::Black, "C4").unwrap();
    g.undo().unwrap();
    assert_eq!(g.board().key(), before);
    assert_eq!(g.board().cell(v(&g, "B4")), Cell::White);
    assert_eq!(g.undo(), Err(GoError::CannotUndo));
    assert!(!g.is_over());
    g.play(Color::Black, PASS).unwrap();
    g.play(Color::White, PASS).unwrap();
    assert!(g.is_over());
}

#[test]
fn sizes_outside_2_to_25_are_refused() {
    assert_eq!(
        Game::new(1, Rules::CHINESE).err(),
        Some(GoError::BadSize(1))
    );
    assert_eq!(
        Game::new(26, Rules::CHINESE).err(),
        Some(GoError::BadSize(26))
    );
    let g = Game::new(2, Rules::CHINESE).unwrap();
    assert_eq!(g.board().empties().len(), 4);
}

/// Everything a position is: stones, key, side to move, ko, prisoners, passes, empty
/// points, last move.
type Snapshot = (
    String,
    u64,
    Color,
    Option<Vertex>,
    [u32; 2],
    u8,
    Vec<u16>,
    Vertex,
);

fn snapshot(b: &Board) -> Snapshot {
    let mut empties = b.empties().to_vec();
    empties.sort_unstable();
    (
        b.to_string(),
        b.key().0,
        b.to_move(),
        b.ko(),
        [b.captured_by(Color::Black), b.captured_by(Color::White)],
        b.passes(),
        empties,
        b.last_move(),
    )
}

#[test]
fn random_games_keep_chains_liberties_and_keys_exact() {
    // Every board size, every rule set in turn; undo must restore the exact position.
    let mut rng = StdRng::seed_from_u64(11);
    let sizes = (2..=25).chain([2, 3, 4, 5, 7, 9, 13, 19]);
    for (size, rules) in sizes.zip(Rules::ALL.into_iter().cycle()) {
        let mut g = Game::new(size, rules).unwrap();
        for _ in 0..(size * size * 3).min(400) {
            let c = g.to_move();
            let empties = g.board().empties().to_vec();
            let mut mv = PASS;
            for _ in 0..20 {
                let p = empties[rng
                    .random_range(0..empties.len().max(1))
                    .min(empties.len() - 1)];
                if g.check(c, p).is_ok() {
                    mv = p;
                    break;
                }
            }
            if rng.random_range(0..50) == 0 {
                mv = PASS;
            }
            let before = snapshot(g.board());
            g.play(c, mv).unwrap();
            g.board()
                .verify()
                .unwrap_or_else(|e| panic!("{e}\n{}", g.board()));
            if rng.random_range(0..10) == 0 {
                g.undo().unwrap();
                assert!(
                    snapshot(g.board()) == before,
                    "size {size}: undo did not restore\n{}",
                    g.board()
                );
                g.board().verify().unwrap();
                g.play(c, mv).unwrap();
            }
        }
    }
}
