//! Search sanity on five-in-a-row: wins every threat puzzle (five in one, four-three,
//! renju win by forcing a foul, published VCF problems), never plays a forbidden point,
//! always blocks a four it can block.

mod common;

use std::sync::atomic::AtomicBool;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use tengen::core::Color;
use tengen::core::error::Point;
use tengen::core::tt::Table;
use tengen::games::fiar::record::parse_point;
use tengen::games::fiar::{Board, Move, Outcome, Pattern, Variant};
use tengen::search::ab::threat::{Vcf, Vct};
use tengen::search::ab::{SearchResult, search};
use tengen::search::{Limits, Score, Silent};

fn board(v: Variant, rows: &[&str]) -> Board {
    Board::from_diagram(v, &rows.join("\n")).unwrap()
}

fn think(b: &Board, nodes: u64) -> SearchResult {
    let limits = Limits {
        nodes: Some(nodes),
        ..Default::default()
    };
    search(
        b,
        &limits,
        1,
        &Table::new(1 << 20),
        &AtomicBool::new(false),
        &Silent,
    )
    .expect("a legal move")
}

fn pt(name: &str) -> Point {
    parse_point(name, 15, 15).unwrap()
}

/// Plays a VCF line and checks it: every attacker move is a four (or five), every
/// defender move answers it, and the attacker wins at the end or leaves an unstoppable four.
fn check_vcf(b: &Board, line: &[Point]) {
    let mut b = b.clone();
    let attacker = b.to_move();
    for (i, &p) in line.iter().enumerate() {
        if i % 2 == 0 {
            let pats = b.patterns(p, attacker);
            assert!(
                pats.iter().any(|&t| t >= Pattern::Block4),
                "attacker move {p} is not a four"
            );
        }
        b.play(Move::Place(p))
            .unwrap_or_else(|e| panic!("{p} in the line: {e}"));
    }
    let won = matches!(b.outcome(), Outcome::Win { winner, .. } if winner == attacker);
    let defender_stuck = b.to_move() != attacker
        && b.points()
            .filter(|&q| b.is_empty(q) && b.patterns(q, attacker).contains(&Pattern::Five))
            .any(|q| {
                b.foul(q, b.to_move()).is_some()
                    || b.points()
                        .filter(|&r| {
                            b.is_empty(r) && b.patterns(r, attacker).contains(&Pattern::Five)
                        })
                        .count()
                        >= 2
            });
    assert!(
        won || defender_stuck,
        "the line {line:?} does not win:\n{b}"
    );
}

#[test]
fn five_in_one() {
    let b = board(
        Variant::Freestyle,
        &[
            "...............",
            ".XXXX..........",
            "...............",
            "..O.O.O.O......",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
        ],
    );
    let r = think(&b, 10_000);
    assert!(
        r.best == Move::Place(pt("a2")) || r.best == Move::Place(pt("f2")),
        "{:?}",
        r.best
    );
    assert_eq!(r.score, Score::Win(1));
}

#[test]
fn four_three_wins() {
    // Row 8 c8 d8 e8 and column f5 f6 f7, both open, meet at f8: a four across and a
    // four down (or a four and an open four, whichever the search finds first).
    let b = board(
        Variant::Freestyle,
        &[
            "...............",
            "...............",
            "...............",
            "...............",
            ".....X.........",
            ".....X.........",
            ".....X.........",
            "..XXX..........",
            "...............",
            "...............",
            "O.O.O.O.O.O....",
            "...............",
            "...............",
            "...............",
            "...............",
        ],
    );
    let r = think(&b, 50_000);
    assert!(matches!(r.score, Score::Win(_)), "{:?}", r.score);
    check_vcf(
        &b,
        r.threat_line.as_deref().expect("a winning line by fours"),
    );
}

#[test]
fn renju_white_wins_by_forcing_black_onto_a_foul() {
    // White j9 k9 l9, black m9: i9 makes a four whose only completion, h9, is black's
    // double-three (h7 h8 down, f7 g8 on the diagonal).
    let b = board(
        Variant::Renju,
        &[
            "O..............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            ".....X.X.......",
            "......XX.......",
            ".........OOOX..",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
        ],
    );
    assert_eq!(b.to_move(), Color::White);
    assert!(b.foul(pt("h9"), Color::Black).is_some());
    let r = think(&b, 50_000);
    assert_eq!(r.best, Move::Place(pt("i9")));
    assert!(matches!(r.score, Score::Win(_)), "{:?}", r.score);
    // Freestyle: the same four is simply blocked.
    let f = board(Variant::Freestyle, &b.diagram().lines().collect::<Vec<_>>());
    let mut f2 = f.clone();
    let mut line = Vec::new();
    assert!(!Vcf::new().solve(&mut f2, 10, 100_000, &mut line));
}

#[test]
fn renjuportal_puzzle_2990_white_vcf_in_five() {
    // https://renjuportal.com/puzzle/2990/ as quintet's solver test has it (quintet writes
    // black as `o`; rows flipped, which changes nothing): white wins by fours in five
    // moves and not in four.
    let b = board(
        Variant::Renju,
        &[
            "...............",
            "...........O...",
            "..........X....",
            ".........O.OX..",
            "........O...X..",
            ".......OOX.O...",
            "......XOXX..X..",
            ".....OXX.......",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
        ],
    );
    assert_eq!(b.to_move(), Color::White);
    let mut line = Vec::new();
    assert!(
        !Vcf::new().solve(&mut b.clone(), 4, 1_000_000, &mut line),
        "no VCF in four: {line:?}"
    );
    assert!(Vcf::new().solve(&mut b.clone(), 5, 1_000_000, &mut line));
    assert_eq!(line.len(), 9, "{line:?}");
    // quintet's solution starts L13: row 13 of 15 from the bottom is our row 3.
    assert_eq!(line[0], pt("l3"));
    check_vcf(&b, &line);
    let r = think(&b, 100_000);
    // Nine plies of fours; the last leaves two fives to make, so the five comes two later.
    let mut end = b.clone();
    for &p in &line {
        end.play(Move::Place(p)).unwrap();
    }
    let ends_in_five = end.outcome() != Outcome::Ongoing;
    assert_eq!(r.score, Score::Win(if ends_in_five { 9 } else { 11 }));
}

/// "Shadows and fog" (Tama Hoshiduki), quintet's long VCF test: a win by more than
/// thirty fours in a row.
#[test]
fn shadows_and_fog_long_vcf() {
    let b = Board::from_diagram(Variant::Renju, &common::suite_position("test_vcf_long")).unwrap();
    let mut line = Vec::new();
    let found = Vcf::new().solve(&mut b.clone(), 225, 5_000_000, &mut line);
    assert!(found, "no VCF found");
    assert!(line.len() > 60, "{}", line.len());
    check_vcf(&b, &line);
    // The search's own root solver finds it too.
    let r = think(&b, 1_000);
    assert!(matches!(r.score, Score::Win(_)), "{:?}", r.score);
}

/// Random renju middle games where black is to move: the search never chooses a
/// forbidden point, even when the strongest-looking point is one.
#[test]
fn never_plays_a_forbidden_point() {
    let mut rng = StdRng::seed_from_u64(5);
    let mut fouls_seen = 0;
    for _ in 0..40 {
        let mut b = Board::new(Variant::Renju);
        b.play(Move::Place(pt("h8"))).unwrap();
        while b.stone_count() < 24 && b.outcome() == Outcome::Ongoing {
            let near: Vec<Point> = b
                .points()
                .filter(|&p| b.is_empty(p) && b.has_stone_near(p, 2))
                .collect();
            let p = near[rng.random_range(0..near.len())];
            if b.play(Move::Place(p)).is_err() {
                continue;
            }
        }
        if b.outcome() != Outcome::Ongoing || b.to_move() != Color::Black {
            continue;
        }
        fouls_seen += b.forbidden_points(Color::Black).len();
        let r = think(&b, 3_000);
        if let Move::Place(p) = r.best {
            assert_eq!(b.foul(p, Color::Black), None, "played forbidden {p}\n{b}");
        }
    }
    // The double-three position of the rules tests: h9 would be black's best shape.
    let t = board(Variant::Renju, &common::DOUBLE_THREE);
    assert_ne!(think(&t, 20_000).best, Move::Place(pt("h9")));
    assert!(
        fouls_seen > 0,
        "the random positions had no forbidden points to avoid"
    );
}

/// Plays `games` random games per variant (each stone next to one already down, up to
/// `max_stones`) and hands every position to `visit` until it answers true (that game
/// has what the test looks for and stops).
fn random_positions(
    seed: u64,
    games: usize,
    max_stones: usize,
    mut visit: impl FnMut(Variant, &Board) -> bool,
) {
    let mut rng = StdRng::seed_from_u64(seed);
    for v in [
        Variant::Freestyle,
        Variant::Standard,
        Variant::Renju,
        Variant::Caro,
    ] {
        for _ in 0..games {
            let mut b = Board::new(v);
            let _ = b.play(Move::Place(b.centre()));
            while b.outcome() == Outcome::Ongoing && b.stone_count() < max_stones {
                if visit(v, &b) {
                    break;
                }
                let near: Vec<Point> = b
                    .points()
                    .filter(|&p| b.is_empty(p) && b.has_stone_near(p, 1))
                    .collect();
                let _ = b.play(Move::Place(near[rng.random_range(0..near.len())]));
            }
        }
    }
}

/// Random positions where the opponent has a four and the side to move has no five:
/// the search blocks it.
#[test]
fn always_blocks_a_four() {
    let mut checked = 0;
    random_positions(11, 200, 40, |v, b| {
        let me = b.to_move();
        let opp = me.opposite();
        let empties: Vec<Point> = b.points().filter(|&p| b.is_empty(p)).collect();
        let my_five = empties
            .iter()
            .any(|&p| b.patterns(p, me).contains(&Pattern::Five));
        let blocks: Vec<Point> = empties
            .iter()
            .copied()
            .filter(|&p| b.patterns(p, opp).contains(&Pattern::Five))
            .collect();
        if !my_five && blocks.len() == 1 && b.check(Move::Place(blocks[0])).is_ok() {
            let r = think(b, 2_000);
            assert_eq!(r.best, Move::Place(blocks[0]), "{v}: must block\n{b}");
            checked += 1;
            return true;
        }
        false
    });
    assert!(
        checked >= 50,
        "only {checked} positions with a four to block"
    );
}

/// Checks, on random positions of every variant with fours that `threatened` picks,
/// that each legal move the move generator leaves out loses to a win by fours, over at
/// least 100 positions and 1,000 moves left out.
fn left_out_moves_lose(seed: u64, games: usize, threatened: impl Fn(&Board) -> bool) {
    use tengen::search::ab::movegen::{Generated, generate};
    let (mut positions, mut left_out) = (0, 0);
    random_positions(seed, games, 50, |v, b| {
        if !threatened(b) {
            return false;
        }
        let (mut cands, mut list) = (Vec::new(), Vec::new());
        assert!(matches!(
            generate(b, &mut cands, &mut list),
            Generated::Moves { .. }
        ));
        let kept: Vec<Point> = list.iter().map(|m| m.0).collect();
        for &p in &cands {
            if kept.contains(&p) || b.check(Move::Place(p)).is_err() {
                continue;
            }
            let mut after = b.clone();
            after.play(Move::Place(p)).unwrap();
            let mut line = Vec::new();
            assert!(
                Vcf::new().solve(&mut after, 8, 200_000, &mut line),
                "{v}: {p} was left out but does not lose to fours\n{b}"
            );
            left_out += 1;
        }
        positions += 1;
        true
    });
    assert!(
        positions >= 100 && left_out >= 1000,
        "only {positions} positions, {left_out} moves left out"
    );
}

/// Whether the side to move's opponent has a point (legal for it) with this threat.
fn opponent_threatens(b: &Board, t: tengen::search::ab::eval::Threat) -> bool {
    use tengen::search::ab::eval::threat;
    let opp = b.to_move().opposite();
    b.points()
        .any(|p| b.is_empty(p) && threat(b.patterns(p, opp)) == t && b.foul(p, opp).is_none())
}

/// Against a four-three to come, the search looks only at the moves that may stop it and
/// at its own fours: every move left out must lose to a win by fours, in every variant
/// with fours (renju's false threes included, where a three is no threat to white).
#[test]
fn moves_left_out_against_a_four_three_lose() {
    use tengen::search::ab::eval::{Threat, threat};
    left_out_moves_lose(23, 500, |b| {
        let opp = b.to_move().opposite();
        let quiet = !b.has_five_point(opp)
            && !b.has_four_point(b.to_move())
            && b.points()
                .all(|p| !b.is_empty(p) || threat(b.patterns(p, opp)) < Threat::OpenFour);
        quiet && opponent_threatens(b, Threat::FourThree)
    });
}

/// Against an open three (a point where the other side makes a straight four), the
/// search looks only at the points of that three's line and at its own fours: every
/// move left out, unrelated fours of the other side's included, must lose to a win by
/// fours, in every variant with fours.
#[test]
fn moves_left_out_against_an_open_three_lose() {
    use tengen::search::ab::eval::Threat;
    left_out_moves_lose(29, 600, |b| {
        let opp = b.to_move().opposite();
        !b.has_five_point(opp)
            && !b.has_five_point(b.to_move())
            && opponent_threatens(b, Threat::OpenFour)
    });
}

/// Against an open three, a four the other side could make elsewhere (a closed three's)
/// is no defence, and neither is a stone beyond either end of a plain open three (the
/// straight four at the other end still comes): the moves are the two points that make
/// its straight four, nothing else.
#[test]
fn an_open_three_is_answered_on_its_own_line() {
    use tengen::search::ab::movegen::{Generated, generate};
    let rows = [
        "...............",
        "O...........O.O",
        "............X..",
        "............X..",
        "............X..",
        "...............",
        "...............",
        "...............",
        ".....XXX.......",
        "...............",
        "...............",
        "...............",
        "...............",
        "O..............",
        "..............O",
    ];
    for v in [Variant::Freestyle, Variant::Standard, Variant::Renju] {
        let b = board(v, &rows);
        assert_eq!(b.to_move(), Color::White);
        let (mut cands, mut list) = (Vec::new(), Vec::new());
        assert!(matches!(
            generate(&b, &mut cands, &mut list),
            Generated::Moves {
                defending: true,
                ..
            }
        ));
        let mut kept: Vec<Point> = list.iter().map(|m| m.0).collect();
        kept.sort_by_key(|p| p.x);
        let three_row = Point::new(5, 8);
        assert!(b.stone(three_row).is_some(), "{b}");
        let expected: Vec<Point> = [4, 8].map(|x| Point::new(x, three_row.y)).to_vec();
        assert_eq!(kept, expected, "{v}\n{b}");
    }
}

/// No four anywhere, but h9 makes two open threes (freestyle): a win by threats that the
/// VCT finds and the VCF cannot.
#[test]
fn double_three_is_a_vct_win_in_freestyle_only() {
    let rows = common::DOUBLE_THREE;
    let b = board(Variant::Freestyle, &rows);
    let mut line = Vec::new();
    assert!(!Vcf::new().solve(&mut b.clone(), 20, 100_000, &mut line));
    assert!(
        Vct::new().solve(&mut b.clone(), 2, 100_000, &mut line),
        "no VCT"
    );
    assert_eq!(line[0], pt("h9"));
    let r = think(&b, 10_000);
    assert_eq!(r.best, Move::Place(pt("h9")));
    assert!(matches!(r.score, Score::Win(_)), "{:?}", r.score);
    // In renju the same point is a forbidden double-three: no win by threats there.
    let r = board(Variant::Renju, &rows);
    assert!(
        !Vct::new().solve(&mut r.clone(), 2, 100_000, &mut line),
        "{line:?}"
    );
}

/// The tuner fits weights to [`eval::features`]; that is sound only while the evaluation
/// is exactly those features times the weights (before its clamp).
#[test]
fn evaluation_is_its_features_times_the_weights() {
    use tengen::search::ab::eval::{WEIGHTS, evaluate, features};
    use tengen::search::ab::movegen::candidates;
    let mut rng = StdRng::seed_from_u64(7);
    let mut cands = Vec::new();
    let mut checked = 0;
    for variant in [Variant::Freestyle, Variant::Renju, Variant::Standard] {
        for _ in 0..20 {
            let mut b = Board::with_size(variant, 15, 15).unwrap();
            for _ in 0..rng.random_range(1..40) {
                candidates(&b, &mut cands);
                let p = cands[rng.random_range(0..cands.len())];
                if !matches!(b.play(Move::Place(p)), Ok(Outcome::Ongoing)) {
                    break;
                }
                candidates(&b, &mut cands);
                let expect = WEIGHTS.score(&features(&b, &cands)).clamp(-20_000, 20_000);
                assert_eq!(evaluate(&b, &cands) as i64, expect, "{b}");
                checked += 1;
            }
        }
    }
    assert!(checked > 300, "{checked}");
}

/// The evaluation's shapes: a point's combinations of lines that its threat class does not
/// tell apart, and none where the threat already says it all.
#[test]
fn shapes_name_the_combinations_threats_miss() {
    use Pattern::*;
    use tengen::search::ab::eval::{Shape, shape};
    let cases = [
        ([Flex2, Flex2, Dead, Block1], Some(Shape::DoubleTwo)),
        ([Flex3, Flex2, Dead, Dead], Some(Shape::ThreePlus)),
        ([Flex3, Block3, Flex1, Dead], Some(Shape::ThreePlus)),
        ([Block3, Block3, Dead, Dead], Some(Shape::ClosedThreePlus)),
        ([Block3, Flex2, Flex2, Dead], Some(Shape::ClosedThreePlus)),
        ([Block4, Flex2, Dead, Dead], Some(Shape::FourPlus)),
        ([Block4, Block3, Dead, Dead], Some(Shape::FourPlus)),
        // One line only, or a threat class that already names the combination.
        ([Flex2, Block2, Flex1, Dead], None),
        ([Block3, Dead, Dead, Dead], None),
        ([Flex3, Flex3, Flex2, Dead], None),
        ([Block4, Flex3, Flex2, Dead], None),
        ([Flex4, Flex2, Dead, Dead], None),
        ([Block4, Block4, Flex2, Dead], None),
    ];
    for (pats, want) in cases {
        assert_eq!(shape(pats), want, "{pats:?}");
    }
}

/// The fitted corrections are looked up by a point's patterns whatever their directions:
/// each entry must be a combination as [`sorted`] writes it, and appear once, or it would
/// never apply (or apply twice).
#[test]
fn corrections_apply_whatever_the_directions() {
    use Pattern::*;
    use tengen::search::ab::eval::{CORRECTIONS, correction, sorted};
    let mut seen = std::collections::HashSet::new();
    for &(pats, mine, theirs) in CORRECTIONS {
        assert_eq!(sorted(pats), pats, "{pats:?} is not strongest first");
        assert!(seen.insert(pats), "{pats:?} twice");
        let turned = [pats[2], pats[0], pats[3], pats[1]];
        assert_eq!(correction(turned), (mine, theirs), "{turned:?}");
    }
    assert_eq!(
        sorted([Flex1, Five, Dead, Flex3]),
        [Five, Flex3, Flex1, Dead]
    );
}

/// Threat puzzles found in games against Rapfi by `bench/threat_puzzles.rs`, each line
/// `moves | answers` on a freestyle board of the file's size.
fn puzzles(name: &str) -> Vec<(Board, Vec<Point>)> {
    let path = format!(
        "{}/engine-tests/data/puzzles/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let size: usize = name
        .trim_end_matches(".txt")
        .rsplit('x')
        .next()
        .and_then(|s| s.parse().ok())
        .expect("the size in the name");
    let point = |t: &str| parse_point(t, size, size).unwrap();
    text.lines()
        .map(|l| {
            let (moves, answers) = l.split_once('|').expect("moves | answers");
            let mut b = Board::with_size(Variant::Freestyle, size, size).unwrap();
            for t in moves.split_whitespace() {
                b.play(Move::Place(point(t))).unwrap();
            }
            (b, answers.split_whitespace().map(point).collect())
        })
        .collect()
}

/// The puzzles whose answer the search misses at `nodes`, as text for the message.
fn missed(name: &str, nodes: u64) -> (usize, Vec<String>) {
    let all = puzzles(name);
    let misses = all
        .iter()
        .enumerate()
        .filter_map(|(i, (b, answers))| {
            let r = think(b, nodes);
            let ok = matches!(r.best, Move::Place(p) if answers.contains(&p));
            (!ok).then(|| format!("{name}:{} played {} ({:?})", i + 1, r.best, r.score))
        })
        .collect();
    (all.len(), misses)
}

#[test]
fn stops_every_win_by_fours() {
    for name in ["defence-15x15.txt", "defence-20x20.txt"] {
        let (n, misses) = missed(name, 80_000);
        assert!(
            misses.is_empty(),
            "{} of {n} missed:\n{}",
            misses.len(),
            misses.join("\n")
        );
    }
}

/// Asserts that the search finds the side to move of every puzzle of `name` winning
/// within `nodes` (any winning first move will do).
fn assert_wins(name: &str, nodes: u64) {
    for (i, (b, _)) in puzzles(name).iter().enumerate() {
        let r = think(b, nodes);
        assert!(
            matches!(r.score, Score::Win(_)),
            "{name}:{}: {:?} with {}\n{b}",
            i + 1,
            r.score,
            r.best
        );
    }
}

/// Wins by threats of five or more attacker moves (none shorter): beyond the root's
/// threat search, the alpha-beta search must find them.
#[test]
fn finds_deep_wins_by_threats() {
    for name in ["vct-deep-15x15.txt", "vct-deep-20x20.txt"] {
        assert_wins(name, 3_000_000);
    }
}

#[test]
fn finds_wins_by_threats() {
    for name in ["vct-15x15.txt", "vct-20x20.txt"] {
        assert_wins(name, 800_000);
    }
}
