//! Every reader of user input — SGF (five-in-a-row and Go), Piskvork PSQ, move lists,
//! board diagrams, Gana position text and move text — fed arbitrary bytes and random
//! mutations of real records: it returns a value or an error, never panics, and a
//! record's error names its line. Seeded, so a failure replays.

use std::panic::{AssertUnwindSafe, catch_unwind};

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use tengen::analysis::{self as analyse, Input};
use tengen::games::fiar::Variant;
use tengen::games::fiar::record::Record;
use tengen::games::go::Rules;

const CASES: usize = 20_000;

/// Real records of every kind, to mutate.
fn corpus() -> Vec<String> {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/engine-tests/data");
    let mut texts: Vec<String> = ["go/nakade.sgf", "go/capture.sgf", "go/seki.sgf"]
        .iter()
        .chain(&["go/finished.sgf", "records/renju-33.psq"])
        .map(|f| std::fs::read_to_string(format!("{data}/{f}")).unwrap())
        .collect();
    let rec = Record::read(&texts[4], 15, 15).unwrap();
    texts.push(rec.to_sgf());
    texts.push(rec.to_move_list());
    texts.push("h8 i9 h9 pass 7,7 j10\nk11\n".into());
    let board = rec.replay(Variant::Renju).unwrap();
    texts.push(board.to_string());
    texts.push(
        tengen::games::gana::Board::start()
            .to_text()
            .expect("the start"),
    );
    texts.push(
        ".,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,bbb,.,.,.,.,./\
         .,.,.,.,.,.,.,./.,.,wW,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,B b 7"
            .into(),
    );
    texts
}

/// Bytes of the characters records are made of, and any others.
fn random_text(rng: &mut SmallRng) -> Vec<u8> {
    const ALPHABET: &[u8] = b"();[]\\:,./ \n\r\t0123456789abcdefghstABGMWSZKRUXO.*+-Piskvorky";
    let n = rng.random_range(0..400);
    (0..n)
        .map(|_| {
            if rng.random_range(0..8) == 0 {
                rng.random::<u8>()
            } else {
                ALPHABET[rng.random_range(0..ALPHABET.len())]
            }
        })
        .collect()
}

fn mutate(rng: &mut SmallRng, text: &str) -> Vec<u8> {
    let mut b = text.as_bytes().to_vec();
    for _ in 0..rng.random_range(1..4) {
        if b.is_empty() {
            break;
        }
        let at = rng.random_range(0..b.len());
        match rng.random_range(0..7) {
            0 => b[at] = rng.random(),
            1 => {
                b.remove(at);
            }
            2 => b.insert(at, b"()[];\\:,\n9x"[rng.random_range(0..11)]),
            3 => b.truncate(at),
            4 => {
                let end = (at + rng.random_range(1..40)).min(b.len());
                let chunk = b[at..end].to_vec();
                let to = rng.random_range(0..=b.len());
                b.splice(to..to, chunk);
            }
            5 => {
                b.splice(at..at, b"999999999999999999999".iter().copied());
            }
            _ => {
                b.splice(at..at, "é漢\u{feff}".bytes());
            }
        }
    }
    b
}

/// Runs `f`; a panic fails the test with the input that caused it.
fn no_panic<T>(what: &str, input: &str, f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f))
        .unwrap_or_else(|_| panic!("{what} panicked on input {input:?}"))
}

/// Asserts that a record reader's error names a line.
fn names_line(what: &str, input: &str, err: &str) {
    assert!(
        err.contains("line "),
        "{what}: the error '{err}' names no line; input {input:?}"
    );
}

/// Every reader on one text; how many of the record readers accepted it.
fn read_all(text: &str, rng: &mut SmallRng) -> usize {
    let mut accepted = 0;
    match no_panic("sgf::parse", text, || tengen::core::sgf::parse(text)) {
        Ok(_) => accepted += 1,
        Err(e) => names_line("sgf::parse", text, &e.to_string()),
    }
    if let Err(e) = no_panic("Record::read", text, || Record::read(text, 15, 15)) {
        names_line("Record::read", text, &e.to_string());
    }
    if let Err(e) = no_panic("read_psq", text, || Record::read_psq(text)) {
        names_line("read_psq", text, &e.to_string());
    }
    // The whole five-in-a-row path of `tengen analyse FILE`, in a random variant.
    let variant = Variant::ALL[rng.random_range(0..Variant::ALL.len())];
    let input = Input {
        variant: Some(variant),
        size: None,
        file: Some(text),
        moves: None,
    };
    match no_panic("analyse::position", text, || analyse::position(&input)) {
        Ok(_) => accepted += 1,
        Err(e) => names_line("analyse::position", text, &e.to_string()),
    }
    let _ = no_panic("fiar Board::from_diagram", text, || {
        tengen::games::fiar::Board::from_diagram(variant, text)
    });
    // Go: `tengen analyse` on an SGF, up to a random move, and the GTP loadsgf path.
    let move_number = rng.random_bool(0.5).then(|| rng.random_range(0..30));
    match no_panic("go record::load", text, || {
        tengen::games::go::record::load(text, move_number, Rules::default())
    }) {
        Ok(_) => accepted += 1,
        Err(e) => names_line("go record::load", text, &e.to_string()),
    }
    let _ = no_panic("go Board::from_diagram", text, || {
        tengen::games::go::Board::from_diagram(text)
    });
    // Gana: position text as `tengen analyse --game gana FILE` reads it, and moves.
    match no_panic("analyse::gana_position", text, || {
        analyse::gana_position(Some(text), None).map(|_| ())
    }) {
        Ok(_) => accepted += 1,
        Err(e) => names_line("analyse::gana_position", text, &e),
    }
    let start = tengen::games::gana::Board::start();
    for word in text.split_whitespace().take(20) {
        let _ = no_panic("gana parse_move", word, || start.parse_move(word));
        let _ = no_panic("go parse_vertex", word, || {
            tengen::games::go::parse_vertex(19, word)
        });
        let _ = no_panic("fiar parse_move", word, || {
            tengen::games::fiar::record::parse_move(word, 15, 15)
        });
    }
    accepted
}

#[test]
fn readers_never_panic_on_random_bytes() {
    let mut rng = SmallRng::seed_from_u64(12);
    for _ in 0..CASES {
        let bytes = random_text(&mut rng);
        read_all(&String::from_utf8_lossy(&bytes), &mut rng);
    }
}

#[test]
fn readers_never_panic_on_mutated_records() {
    let mut rng = SmallRng::seed_from_u64(13);
    let corpus = corpus();
    // The unmutated records read without error where they are of the reader's kind.
    assert!(Record::read_psq(&corpus[4]).is_ok());
    assert!(tengen::games::go::record::load(&corpus[0], None, Rules::default()).is_ok());
    let mut accepted = 0;
    for i in 0..CASES {
        let bytes = mutate(&mut rng, &corpus[i % corpus.len()]);
        accepted += read_all(&String::from_utf8_lossy(&bytes), &mut rng);
    }
    // The mutations stay close enough to records that many still read: the readers'
    // deeper paths (replay, setup, captures) are reached, not only their first check.
    assert!(accepted > CASES / 5, "only {accepted} accepted");
}

#[test]
fn deeply_nested_and_huge_records_are_refused_not_overflowed() {
    let mut rng = SmallRng::seed_from_u64(14);
    let deep = format!("(;GM[1]{}", "(;B[aa]".repeat(100_000));
    let huge = format!("(;GM[1]SZ[19]{})", ";B[aa];W[bb]".repeat(20_000));
    let long_line = format!("Piskvorky 15x15, 11:11, 0\n{}", "8".repeat(1 << 20));
    for text in [deep, huge, long_line] {
        read_all(&text, &mut rng);
    }
}
