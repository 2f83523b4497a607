//! Finds threat puzzles in five-in-a-row game records, for the search tests
//! (`engine-tests/data/puzzles/`):
//!
//! - **defence**: the side not to move has a win by fours (VCF), and only a few of the
//!   mover's moves stop it; each move is proven to save or to lose by an exhaustive VCF
//!   search (a four of the mover's only delays: its forced block is played and the
//!   question asked again);
//! - **vct**: the mover has no win by fours but a win by threes and fours (VCT) of
//!   `--vct-depth` attacker moves or more, found by the threat search with a large budget;
//!   **vct-deep**: the same, of `--deep-vct-depth` attacker moves or more;
//! - **defence-vct**: the side not to move has no win by fours but one by threats, and
//!   only a few of the mover's moves leave it none (every other move is proven lost by
//!   the VCT found after it) and after which Tengen's search (`--answer-check-nodes`) does not
//!   find the attacker winning all the same.
//!
//! `cargo run --release --example threat_puzzles -- --out DIR games.sgf results.jsonl …`
//! reads SGF (GM[4], several games a file) and Tengen tournament results (JSON lines with
//! `moves`), and writes `defence-WxH.txt` and `vct-WxH.txt`: one puzzle a line,
//! `moves | answers` (the saving moves; for VCT the first move of the line found).
//! A defence position that Tengen's search (`--check-nodes`) finds lost all the same (a
//! longer threat sequence wins through every saving move) is left out: any move is as
//! good there.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use std::sync::atomic::AtomicBool;

use clap::Parser;
use tengen::core::Color;
use tengen::core::error::Point;
use tengen::core::tt::Table;
use tengen::games::fiar::record::Record;
use tengen::games::fiar::{Board, Move, Outcome, Variant};
use tengen::search::ab::eval::playable;
use tengen::search::ab::movegen::candidates;
use tengen::search::ab::search;
use tengen::search::ab::threat::{Vcf, Vct};
use tengen::search::{Limits, Score, Silent};
use tengen::tournament::results;

#[derive(Parser)]
struct Args {
    /// Where to write the puzzle files.
    #[arg(long)]
    out: PathBuf,
    /// Most saving moves a defence puzzle may have.
    #[arg(long, default_value_t = 3)]
    max_answers: usize,
    /// Fewest attacker moves of a VCT puzzle's win.
    #[arg(long, default_value_t = 3)]
    vct_depth: u32,
    /// Fewest attacker moves of a deep VCT puzzle's win.
    #[arg(long, default_value_t = 5)]
    deep_vct_depth: u32,
    /// Nodes of the search that leaves out positions lost whatever the defence.
    #[arg(long, default_value_t = 200_000)]
    check_nodes: u64,
    /// Nodes of the search that drops a VCT defence's answer after which the attacker
    /// still wins (longer sequences than the threat search's bound).
    #[arg(long, default_value_t = 2_000_000)]
    answer_check_nodes: u64,
    /// Records: SGF files and tournament results.
    files: Vec<PathBuf>,
}

/// Positions one VCF proof may look at: large, so that "no win" is a proof.
const VCF_BUDGET: u64 = 2_000_000;

fn main() {
    let args = Args::parse();
    let mut games: Vec<(usize, Vec<Point>)> = Vec::new();
    for f in &args.files {
        games.extend(read_games(f));
    }
    eprintln!("{} games", games.len());
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (size, moves) in &games {
        let mut board = Board::with_size(Variant::Freestyle, *size, *size).expect("size");
        for (i, &p) in moves.iter().enumerate() {
            if board.outcome() != Outcome::Ongoing {
                break;
            }
            if i >= 3 {
                let list = moves[..i]
                    .iter()
                    .map(|p| format!("{},{}", p.x, p.y))
                    .collect::<Vec<_>>()
                    .join(" ");
                let mut put = |kind: &str, answers: &[Point]| {
                    let a = answers.iter().map(|p| format!("{},{}", p.x, p.y));
                    let line = format!("{list} | {}", a.collect::<Vec<_>>().join(" "));
                    out.entry(format!("{kind}-{size}x{size}.txt"))
                        .or_default()
                        .push(line);
                };
                if let Some(answers) = defence(&board, args.max_answers)
                    && !lost(&board, args.check_nodes)
                {
                    put("defence", &answers);
                }
                // The threat search bounds its depth: an answer after which Tengen's
                // search still finds the attacker winning (a longer sequence) saves
                // nothing, and a position with no answer left is lost anyway.
                if let Some(mut answers) = vct_defence(&board, args.max_answers) {
                    answers.retain(|&a| {
                        let mut after = board.clone();
                        after.play(Move::Place(a)).is_ok() && !won(&after, args.answer_check_nodes)
                    });
                    if !answers.is_empty() {
                        put("defence-vct", &answers);
                    }
                }
                let found = match vct(&board, args.deep_vct_depth) {
                    Some(first) => Some(("vct-deep", first)),
                    None => vct(&board, args.vct_depth).map(|first| ("vct", first)),
                };
                if let Some((kind, first)) = found {
                    put(kind, &[first]);
                }
            }
            if board.play(Move::Place(p)).is_err() {
                break;
            }
        }
    }
    std::fs::create_dir_all(&args.out).expect("output folder");
    for (name, lines) in out {
        eprintln!("{name}: {} puzzles", lines.len());
        let mut f = std::fs::File::create(args.out.join(&name)).expect("writable");
        for l in lines {
            writeln!(f, "{l}").expect("write");
        }
    }
}

/// Games as (board size, moves): an SGF file holds one game or a collection; a results
/// file of `tengen tournament` a game a line.
fn read_games(path: &Path) -> Vec<(usize, Vec<Point>)> {
    let name = path.display();
    let records = if path.extension().is_some_and(|e| e == "sgf") {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{name}: {e}"));
        Record::read_sgf_collection(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
    } else {
        let loaded = results::load(path).unwrap_or_else(|e| panic!("{e}"));
        let records = loaded
            .fiar_records()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        records.into_iter().map(|(_, r)| r).collect()
    };
    records
        .iter()
        .filter_map(|rec| {
            let board = rec.replay(Variant::Freestyle).ok()?;
            let moves = board
                .moves()
                .filter_map(|m| match m {
                    Move::Place(p) => Some(p),
                    Move::Pass => None,
                })
                .collect();
            Some((board.width(), moves))
        })
        .collect()
}

/// Whether Tengen's search finds the side to move lost.
fn lost(board: &Board, nodes: u64) -> bool {
    score(board, nodes).is_none_or(|s| matches!(s, Score::Loss(_)))
}

/// Whether Tengen's search finds the side to move winning.
fn won(board: &Board, nodes: u64) -> bool {
    board.outcome() == Outcome::Ongoing && matches!(score(board, nodes), Some(Score::Win(_)))
}

/// The score of Tengen's search of `board` at `nodes` (`None`: no move to search).
fn score(board: &Board, nodes: u64) -> Option<Score> {
    let limits = Limits {
        nodes: Some(nodes),
        ..Default::default()
    };
    search(
        board,
        &limits,
        1,
        &Table::new(1 << 24),
        &AtomicBool::new(false),
        &Silent,
    )
    .map(|r| r.score)
}

/// Whether the side to move on `board` wins by fours: `None` when the budget ran out.
fn has_vcf(board: &Board) -> Option<bool> {
    let mut vcf = Vcf::new();
    let won = vcf.solve(&mut board.clone(), 225, VCF_BUDGET, &mut Vec::new());
    (won || !vcf.aborted()).then_some(won)
}

/// The position with the other side to move (the mover passes).
fn passed(board: &Board) -> Board {
    let stones: Vec<(Point, Color)> = board
        .points()
        .filter_map(|p| board.stone(p).map(|c| (p, c)))
        .collect();
    Board::from_stones(
        board.variant(),
        board.width(),
        board.height(),
        &stones,
        board.to_move().opposite(),
    )
    .expect("the same stones")
}

/// Whether the defender, having just moved on `after` (the attacker to move), has
/// stopped every win by fours, and with `threats` every win by threats found too: `None`
/// if a VCF proof ran out of budget. A four of the defender's is answered by its block
/// and the defender moves again (`fours` more at most).
fn survives(after: &Board, fours: u32, threats: bool) -> Option<bool> {
    let att = after.to_move();
    let def = att.opposite();
    if after.has_five_point(att) {
        return Some(false);
    }
    let blocks: Vec<Point> = after.five_points(def).collect();
    match blocks.len() {
        0 => Some(!(has_vcf(after)? || threats && has_vct(after))),
        1 if fours > 0 => {
            let mut b = after.clone();
            b.play(Move::Place(blocks[0])).ok()?;
            if b.outcome() != Outcome::Ongoing {
                return Some(false);
            }
            saving_moves(&b, fours - 1, threats).map(|s| !s.is_empty())
        }
        1 => None,
        // Two fives to make: the defender wins first.
        _ => Some(true),
    }
}

/// The defender's (the side to move's) moves that stop the attacker's VCF (and with
/// `threats` its VCT).
fn saving_moves(board: &Board, fours: u32, threats: bool) -> Option<Vec<Point>> {
    let me = board.to_move();
    let mut cands = Vec::new();
    candidates(board, &mut cands);
    let mut saving = Vec::new();
    for &m in &cands {
        if !playable(board, m, me) {
            continue;
        }
        let mut b = board.clone();
        b.play(Move::Place(m)).ok()?;
        if b.outcome() != Outcome::Ongoing {
            saving.push(m);
            continue;
        }
        if survives(&b, fours, threats)? {
            saving.push(m);
        }
    }
    Some(saving)
}

/// A defence puzzle: the attacker (not to move) has a VCF, the mover none of its own and
/// no four to block, and between one and `max` moves save it (among 15 or more
/// candidates).
fn defence(board: &Board, max: usize) -> Option<Vec<Point>> {
    let me = board.to_move();
    let opp = me.opposite();
    if board.has_five_point(me) || board.has_five_point(opp) {
        return None;
    }
    if has_vcf(board)? || !has_vcf(&passed(board))? {
        return None;
    }
    let mut cands = Vec::new();
    candidates(board, &mut cands);
    if cands.len() < 15 {
        return None;
    }
    let saving = saving_moves(board, 3, false)?;
    (1..=max).contains(&saving.len()).then_some(saving)
}

/// A VCT puzzle: no VCF, but a win by threats needing `min_depth` attacker moves or more
/// (and no fewer).
fn vct(board: &Board, min_depth: u32) -> Option<Point> {
    let me = board.to_move();
    if board.has_five_point(me) || board.has_five_point(me.opposite()) || has_vcf(board)? {
        return None;
    }
    let mut line = Vec::new();
    let mut b = board.clone();
    if Vct::new().solve(&mut b, min_depth - 1, 200_000, &mut line) {
        return None;
    }
    Vct::new()
        .solve(&mut b, min_depth + 1, 400_000, &mut line)
        .then(|| line[0])
}

/// Attacker moves and positions a proof by threats may use in a VCT-defence puzzle.
const VCT_PROOF_DEPTH: u32 = 6;
const VCT_PROOF_BUDGET: u64 = 300_000;

/// Whether the side to move on `board` wins by threats (VCT): found, not proven absent.
fn has_vct(board: &Board) -> bool {
    Vct::new().solve(
        &mut board.clone(),
        VCT_PROOF_DEPTH,
        VCT_PROOF_BUDGET,
        &mut Vec::new(),
    )
}

/// A VCT-defence puzzle: the attacker (not to move) has no VCF but a VCT, the mover has
/// neither, and between one and `max` of 15 or more candidate moves leave the attacker
/// without both. Every other move is lost: a VCT was found after it.
fn vct_defence(board: &Board, max: usize) -> Option<Vec<Point>> {
    let me = board.to_move();
    if board.has_five_point(me) || board.has_five_point(me.opposite()) {
        return None;
    }
    let other = passed(board);
    if has_vcf(&other)? || !has_vct(&other) || has_vcf(board)? || has_vct(board) {
        return None;
    }
    let mut cands = Vec::new();
    candidates(board, &mut cands);
    if cands.len() < 15 {
        return None;
    }
    let saving = saving_moves(board, 3, true)?;
    (1..=max).contains(&saving.len()).then_some(saving)
}
