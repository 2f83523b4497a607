//! Renju forbidden points on the public suite (`data/forbidden-public.txt`): the engine's
//! list must equal the expected one exactly, and must not change under the board's
//! eight symmetries.

use tengen::core::Color;
use tengen::core::error::Point;
use tengen::games::fiar::{Board, Variant};

struct Case {
    title: String,
    line: usize,
    rows: Vec<String>,
    expected: Vec<String>,
    /// `(point, kind)` from the `# kinds:` comment, where the block has one.
    kinds: Vec<(String, String)>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/forbidden-public.txt");
    let mut out = Vec::new();
    let mut title = String::new();
    let mut start = 0;
    let mut rows = Vec::new();
    let mut size = 0;
    let mut kinds = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(list) = line.strip_prefix("# kinds: ") {
            for item in list.split(", ") {
                let (p, k) = item.split_once(' ').unwrap();
                kinds.push((p.to_string(), k.to_string()));
            }
        }
        if line.starts_with('#') {
            if title.is_empty() {
                title = line.to_string();
                start = i + 1;
            }
        } else if let Some(n) = line.strip_prefix("size ") {
            size = n.parse().unwrap();
        } else if line == "tomove black" {
            assert_eq!(rows.len(), size, "block at line {start}");
        } else if let Some(list) = line.strip_prefix("forbidden ") {
            let expected = if list == "-" {
                vec![]
            } else {
                list.split(' ').map(String::from).collect()
            };
            out.push(Case {
                title: std::mem::take(&mut title),
                line: start,
                rows: std::mem::take(&mut rows),
                expected,
                kinds: std::mem::take(&mut kinds),
            });
        } else if !line.is_empty() {
            rows.push(line.to_string());
        }
    }
    out
}

fn board(rows: &[String]) -> Board {
    Board::from_diagram(Variant::Renju, &rows.join("\n")).unwrap()
}

#[test]
fn every_public_case_matches_exactly() {
    let cases = cases();
    assert_eq!(cases.len(), 113);
    assert_eq!(cases.iter().map(|c| c.expected.len()).sum::<usize>(), 141);
    let mut failures = Vec::new();
    for case in &cases {
        let got: Vec<String> = board(&case.rows)
            .forbidden_points(Color::Black)
            .iter()
            .map(|(p, _)| p.to_string())
            .collect();
        if got != case.expected {
            failures.push(format!(
                "line {} {}: expected {:?}, got {:?}",
                case.line, case.title, case.expected, got
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn reasons_match_the_independent_checker() {
    let mut compared = 0;
    for case in cases() {
        let got = board(&case.rows).forbidden_points(Color::Black);
        for (p, kind) in &case.kinds {
            if kind == "?" {
                continue;
            }
            let found = got.iter().find(|(q, _)| q.to_string() == *p);
            assert_eq!(
                found.map(|f| f.1.name()),
                Some(kind.as_str()),
                "{p} in the case at line {}",
                case.line
            );
            compared += 1;
        }
    }
    assert!(compared >= 130, "only {compared} kinds compared");
}

#[test]
fn white_has_no_forbidden_points() {
    for case in cases() {
        assert!(board(&case.rows).forbidden_points(Color::White).is_empty());
    }
}

/// The eight symmetries of a square board of side `n`.
fn transform(p: (usize, usize), n: usize, t: usize) -> (usize, usize) {
    let (x, y) = p;
    let (x, y) = if t & 4 != 0 { (y, x) } else { (x, y) };
    let x = if t & 1 != 0 { n - 1 - x } else { x };
    let y = if t & 2 != 0 { n - 1 - y } else { y };
    (x, y)
}

#[test]
fn forbidden_sets_map_onto_themselves_under_symmetry() {
    for case in cases() {
        let n = case.rows.len();
        let base = board(&case.rows).forbidden_points(Color::Black);
        for t in 1..8 {
            let mut grid = vec![vec!['.'; n]; n];
            for (y, row) in case.rows.iter().enumerate() {
                for (x, ch) in row.chars().enumerate() {
                    let (tx, ty) = transform((x, y), n, t);
                    grid[ty][tx] = ch;
                }
            }
            let rows: Vec<String> = grid.into_iter().map(|r| r.into_iter().collect()).collect();
            let mut got = board(&rows).forbidden_points(Color::Black);
            let mut want: Vec<_> = base
                .iter()
                .map(|&(p, f)| {
                    let (x, y) = transform((p.x as usize, p.y as usize), n, t);
                    (Point::new(x as u8, y as u8), f)
                })
                .collect();
            got.sort_by_key(|e| e.0);
            want.sort_by_key(|e| e.0);
            assert_eq!(got, want, "symmetry {t} of the case at line {}", case.line);
        }
    }
}
