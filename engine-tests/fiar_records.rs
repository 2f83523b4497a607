//! Five-in-a-row records: move lists, PSQ and SGF read and written, and bad records
//! refused with the line and the problem.

use tengen::core::error::Point;
use tengen::core::{Color, RuleError};
use tengen::games::fiar::record::Record;
use tengen::games::fiar::{Board, Move, Outcome, Variant};

fn line_of(e: RuleError) -> usize {
    match e {
        RuleError::Record { line, .. } => line,
        other => panic!("not a record error: {other}"),
    }
}

#[test]
fn move_lists_in_both_forms() {
    let a = Record::parse_moves("h8 i9\nj10", 15, 15).unwrap();
    let b = Record::parse_moves("7,7 8,8 9,9", 15, 15).unwrap();
    assert_eq!(a.moves, b.moves);
    assert_eq!(a.moves[0], Move::Place(Point::new(7, 7)));
    assert_eq!(a.to_move_list(), "h8 i9 j10");
    let board = a.replay(Variant::Freestyle).unwrap();
    assert_eq!(board.stone(Point::new(9, 9)), Some(Color::Black));
    // Columns past z on a 32-wide board.
    let r = Record::parse_moves("af32 aa1", 32, 32).unwrap();
    assert_eq!(r.moves[0], Move::Place(Point::new(31, 31)));
    assert_eq!(r.to_move_list(), "af32 aa1");
}

#[test]
fn bad_move_lists_name_the_line() {
    assert_eq!(
        line_of(Record::parse_moves("h8 i9\nj10 zz", 15, 15).unwrap_err()),
        2
    );
    assert_eq!(
        line_of(Record::parse_moves("h8\n\nq1", 15, 15).unwrap_err()),
        3
    );
    // Legal as text, illegal as play: the replay names the line and the move number.
    let r = Record::parse_moves("h8 i9\nh8", 15, 15).unwrap();
    let e = r.replay(Variant::Freestyle).unwrap_err();
    assert!(
        e.to_string().contains("line 2") && e.to_string().contains("move 3"),
        "{e}"
    );
}

#[test]
fn psq_round_trip_and_trailer() {
    let text = "Piskvorky 20x20, 11:11, 0\n10,10,0\n11,11,1200\n12,10,300\n-1\npbrain-a.exe\n";
    let r = Record::read_psq(text).unwrap();
    assert_eq!((r.width, r.height), (20, 20));
    assert_eq!(r.moves.len(), 3);
    assert_eq!(r.moves[0], Move::Place(Point::new(9, 9)));
    let out = r.to_psq().unwrap();
    let again = Record::read_psq(&out).unwrap();
    assert_eq!(again.moves, r.moves);
    assert_eq!(Record::read(text, 15, 15).unwrap().moves, r.moves);
}

#[test]
fn bad_psq_names_the_line() {
    assert_eq!(
        line_of(Record::read_psq("Gomoku 15x15\n8,8,0\n").unwrap_err()),
        1
    );
    assert_eq!(
        line_of(Record::read_psq("Piskvorky 15x15, 1:1, 0\n8,8,0\n8,x,0\n").unwrap_err()),
        3
    );
    assert_eq!(
        line_of(Record::read_psq("Piskvorky 15x15, 1:1, 0\n8,8,0\n16,1,0\n").unwrap_err()),
        3
    );
    assert_eq!(
        line_of(Record::read_psq("Piskvorky 99x15, 1:1, 0\n").unwrap_err()),
        1
    );
    assert_eq!(line_of(Record::read_psq("").unwrap_err()), 1);
}

#[test]
fn sgf_round_trip_with_setup_variant_and_pass() {
    let mut b = Board::new(Variant::Renju);
    for m in ["h8", "i9", "g9"] {
        b.play(Move::Place(
            tengen::games::fiar::record::parse_point(m, 15, 15).unwrap(),
        ))
        .unwrap();
    }
    b.play(Move::Pass).unwrap();
    let rec = Record::of_board(&b);
    let text = rec.to_sgf();
    assert!(text.starts_with("(;GM[4]FF[4]"), "{text}");
    assert!(
        text.contains("RU[renju]") && text.contains(";B[hh]") && text.contains(";W[]"),
        "{text}"
    );
    let back = Record::read_sgf(&text).unwrap();
    assert_eq!(
        (back.width, back.height, back.variant),
        (15, 15, Some(Variant::Renju))
    );
    assert_eq!(back.moves, rec.moves);
    let replayed = back.replay(back.variant.unwrap()).unwrap();
    assert_eq!(replayed.key(), b.key());

    // Set-up stones and a rectangular board.
    let text = "(;GM[4]SZ[20:15]AB[aa][bb]AW[cc]\n;W[dd];B[ee])";
    let r = Record::read_sgf(text).unwrap();
    assert_eq!((r.width, r.height), (20, 15));
    assert_eq!(r.setup.len(), 3);
    let board = r.replay(Variant::Freestyle).unwrap();
    assert_eq!(board.stone(Point::new(3, 3)), Some(Color::White));
    assert_eq!(board.outcome(), Outcome::Ongoing);
    let again = Record::read_sgf(&Record::of_board(&board).to_sgf()).unwrap();
    assert_eq!(again.setup, r.setup);
    assert_eq!(again.moves, r.moves);
}

#[test]
fn bad_sgf_names_the_line() {
    assert_eq!(
        line_of(Record::read_sgf("(;GM[1]SZ[19];B[aa])").unwrap_err()),
        1
    );
    assert_eq!(
        line_of(Record::read_sgf("(;GM[4]\nSZ[40]\n;B[aa])").unwrap_err()),
        2
    );
    assert_eq!(
        line_of(Record::read_sgf("(;GM[4]SZ[15]\n;B[hh]\n;W[zz])").unwrap_err()),
        3
    );
    assert_eq!(
        line_of(Record::read_sgf("(;GM[4]SZ[15]\n;B[hh]\n;W[ii]").unwrap_err()),
        3
    );
    let e = Record::read_sgf("(;GM[4]SZ[15]\n;B[hh]\n;W[hh])")
        .unwrap()
        .replay(Variant::Freestyle)
        .unwrap_err();
    assert_eq!(line_of(e), 3);
}

/// Mutated records of every form: reading and replaying them returns `Ok` or an error,
/// never panics.
#[test]
fn mutated_records_never_panic() {
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};
    let seeds = [
        "(;GM[4]FF[4]SZ[15]RU[renju]AB[aa]AW[bb]\n;B[hh];W[ii];B[]\n;W[jj](;B[kk])(;B[ll]))",
        "Piskvorky 20x20, 11:11, 0\n10,10,0\n11,11,1200\n12,10,300\n-1\n",
        "h8 i9 j10 pass 7,7 af32\nk11",
        "(;GM[4]SZ[20:15];B[aa];W[\\]])",
    ];
    let alphabet = b"();[]\\:,0123456789abhzAZ GMSZBWRU\n-x";
    let mut rng = StdRng::seed_from_u64(99);
    for _ in 0..20_000 {
        let mut bytes = seeds[rng.random_range(0..seeds.len())].as_bytes().to_vec();
        for _ in 0..rng.random_range(1..6) {
            let i = rng.random_range(0..bytes.len());
            match rng.random_range(0..3) {
                0 => bytes[i] = alphabet[rng.random_range(0..alphabet.len())],
                1 => {
                    bytes.remove(i);
                    if bytes.is_empty() {
                        bytes.push(b'(');
                    }
                }
                _ => bytes.insert(i, alphabet[rng.random_range(0..alphabet.len())]),
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(r) = Record::read(&text, 15, 15) {
            for v in [Variant::Renju, Variant::Pente, Variant::GoBang] {
                let _ = r.replay(v);
            }
            let _ = r.to_sgf();
            let _ = r.to_psq();
        }
    }
}

#[test]
fn sgf_collection_reads_every_game() {
    // As c-gomoku-cli writes a match: one game tree after another.
    let text = "(;FF[4]GM[4]SZ[20]RE[B+1];B[li];W[hk];B[kh])\n\n\
                (;FF[4]GM[4]SZ[15];B[hh];W[ii])\n";
    let games = Record::read_sgf_collection(text).unwrap();
    assert_eq!(games.len(), 2);
    let first = games[0].replay(Variant::Freestyle).unwrap();
    assert_eq!((first.width(), first.moves().count()), (20, 3));
    assert_eq!(first.stone(Point::new(11, 8)), Some(Color::Black));
    let second = games[1].replay(Variant::Freestyle).unwrap();
    assert_eq!((second.width(), second.moves().count()), (15, 2));
    assert_eq!(second.stone(Point::new(8, 8)), Some(Color::White));
    // One bad game is an error, not a silent skip.
    assert!(Record::read_sgf_collection("(;GM[4];B[hh])(;GM[1];B[aa])").is_err());
}
