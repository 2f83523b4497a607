//! The SVG pictures, rasterised as a viewer would (resvg) and checked pixel by pixel:
//! a black stone's point is dark, a white one's light, an empty point board-coloured,
//! the forbidden marks, the last move and the winning row where the analysis puts them,
//! for five-in-a-row, Go and Gana; and the review's evaluation graph.

use std::sync::atomic::AtomicBool;

use resvg::{tiny_skia, usvg};
use tengen::analysis::game::Game;
use tengen::analysis::model::Analysis;
use tengen::analysis::svg::{self, Layout, Style};
use tengen::analysis::{Budget, review};

struct Picture {
    pixmap: tiny_skia::Pixmap,
    layout: Layout,
}

impl Picture {
    fn of(a: &Analysis, style: &Style) -> Picture {
        let text = svg::position(a, style);
        Picture {
            pixmap: rasterise(&text),
            layout: Layout::of(a),
        }
    }

    /// The colour at point `name`, `dx`, `dy` cells from its centre.
    fn at(&self, a: &Analysis, name: &str, dx: f32, dy: f32) -> (u8, u8, u8) {
        let (x, y) = svg::locate(a, name).unwrap_or_else(|| panic!("{name} is on the board"));
        let (cx, cy) = self.layout.center(x, y);
        let c = self.layout.cell;
        let p = self
            .pixmap
            .pixel((cx + dx * c) as u32, (cy + dy * c) as u32)
            .unwrap();
        (p.red(), p.green(), p.blue())
    }
}

fn rasterise(text: &str) -> tiny_skia::Pixmap {
    let tree = usvg::Tree::from_str(text, &usvg::Options::default()).expect("valid SVG");
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(
        &tree,
        tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    pixmap
}

fn dark(c: (u8, u8, u8)) -> bool {
    c.0 < 60 && c.1 < 60 && c.2 < 60
}

fn light(c: (u8, u8, u8)) -> bool {
    c.0 > 220 && c.1 > 220 && c.2 > 220
}

fn red(c: (u8, u8, u8)) -> bool {
    c.0 > 150 && c.1 < 110 && c.2 < 110
}

/// The board's own colour.
fn board(c: (u8, u8, u8)) -> bool {
    let (r, g, b) = (0xdc, 0xb3, 0x5c);
    c.0.abs_diff(r) < 8 && c.1.abs_diff(g) < 8 && c.2.abs_diff(b) < 8
}

fn analysed(record: &str, game: Option<&str>, budget: &Budget) -> Analysis {
    let hints = tengen::analysis::game::Hints {
        game: game.map(str::to_string),
        ..Default::default()
    };
    let g = Game::read(record, &hints).unwrap();
    g.analyse(g.moves().len(), budget, &AtomicBool::new(false), None)
        .unwrap()
}

/// Inside a stone but off the grid lines: a quarter cell off the centre both ways.
const OFF: f32 = 0.25;

#[test]
fn a_renju_position_shows_its_stones_last_move_and_forbidden_point() {
    // Black's h8 i8 and j9 j10 meet at j8: a double three, forbidden to black.
    let a = analysed(
        "(;GM[4]SZ[15]RU[renju];B[hh];W[aa];B[ih];W[ac];B[ji];W[ae];B[jj];W[ag])",
        None,
        &Budget::default(),
    );
    assert!(
        a.position.forbidden.iter().any(|f| f.point == "j8"),
        "{:?}",
        a.position.forbidden
    );
    let pic = Picture::of(&a, &Style::default());
    assert!(dark(pic.at(&a, "h8", OFF, OFF)), "a black stone is dark");
    assert!(light(pic.at(&a, "a1", OFF, OFF)), "a white stone is light");
    assert!(
        board(pic.at(&a, "c5", OFF, OFF)),
        "an empty point is the board's colour"
    );
    assert!(red(pic.at(&a, "j8", 0.1, 0.1)), "the forbidden cross");
    assert!(
        board(pic.at(&a, "k8", OFF, OFF)),
        "no cross where nothing is forbidden"
    );
    // The last move (white a7) is ringed, the one before (black j10) is not.
    assert!(red(pic.at(&a, "a7", 0.253, 0.0)), "the last move's ring");
    assert!(dark(pic.at(&a, "j10", 0.253, 0.0)));
}

#[test]
fn a_five_is_drawn_as_a_row_and_candidates_where_the_search_put_them() {
    let a = analysed("h8 a1 i8 a2 j8 a3 k8 a4 l8", None, &Budget::default());
    assert_eq!(
        a.position.result.row.as_ref().map(|r| r[0].as_str()),
        Some("h8")
    );
    let pic = Picture::of(&a, &Style::default());
    // Between two stones of the row, on the line joining them: the row's colour.
    assert!(
        red(pic.at(&a, "i8", 0.5, 0.0)),
        "{:?}",
        pic.at(&a, "i8", 0.5, 0.0)
    );
    assert!(!red(pic.at(&a, "a1", 0.5, 0.0)), "no row elsewhere");

    // A searched position: the best move is labelled in blue.
    let searched = analysed(
        "h8 a1 i8 a2 j8",
        None,
        &Budget {
            nodes: Some(20_000),
            threads: Some(1),
            multipv: 1,
            ..Budget::default()
        },
    );
    let best = searched.search.as_ref().unwrap().root_info.best.clone();
    let pic = Picture::of(&searched, &Style::default());
    let c = pic.at(&searched, &best, OFF, OFF);
    assert!(
        c.2 > c.0 + 60,
        "the best move {best} is marked in blue: {c:?}"
    );
    let none = Picture::of(
        &searched,
        &Style {
            candidates: 0,
            ..Style::default()
        },
    );
    assert!(
        board(none.at(&searched, &best, OFF, OFF)),
        "unless none are asked for"
    );
}

#[test]
fn any_board_size_and_shape_is_drawn_to_scale() {
    for (record, w, h) in [
        ("(;GM[4]SZ[5];B[cc])", 5, 5),
        ("(;GM[4]SZ[20:12];B[aa];W[tl])", 20, 12),
        ("(;GM[4]SZ[32];B[FF])", 32, 32),
        ("(;GM[1]SZ[2];B[aa];W[bb])", 2, 2),
        ("(;GM[1]SZ[25];B[aa];W[yy];B[mm])", 25, 25),
    ] {
        let a = analysed(record, None, &Budget::default());
        let l = Layout::of(&a);
        let pix = rasterise(&svg::position(&a, &Style::default()));
        let (pw, ph) = l.size();
        assert_eq!(
            (pix.width(), pix.height()),
            (pw as u32, ph as u32),
            "{record}"
        );
        assert_eq!((a.position.width, a.position.height), (w, h));
        let pic = Picture {
            pixmap: pix,
            layout: l,
        };
        for name in &a.position.stones.as_ref().unwrap().black {
            assert!(dark(pic.at(&a, name, OFF, OFF)), "{record}: {name}");
        }
        for name in &a.position.stones.as_ref().unwrap().white {
            assert!(light(pic.at(&a, name, OFF, OFF)), "{record}: {name}");
        }
    }
}

#[test]
fn a_go_position_with_numbers_and_ownership() {
    let a = analysed("(;GM[1]SZ[9];B[ee];W[cc];B[gc])", None, &Budget::default());
    let pic = Picture::of(
        &a,
        &Style {
            numbers: true,
            ..Style::default()
        },
    );
    assert!(dark(pic.at(&a, "E5", OFF, OFF)));
    assert!(light(pic.at(&a, "C7", OFF, OFF)));
    assert!(board(pic.at(&a, "A1", OFF, OFF)));
    assert!(
        svg::position(
            &a,
            &Style {
                numbers: true,
                ..Style::default()
            }
        )
        .contains(">3</text>")
    );

    let searched = analysed(
        "(;GM[1]SZ[9];B[ee];W[cc];B[gc])",
        None,
        &Budget {
            nodes: Some(2_000),
            threads: Some(1),
            ownership: true,
            ..Budget::default()
        },
    );
    let own = searched
        .search
        .as_ref()
        .unwrap()
        .ownership
        .as_ref()
        .unwrap();
    assert_eq!(own.len(), 81);
    // Where the search is sure black owns an empty point, the shade is dark.
    let pic = Picture::of(
        &searched,
        &Style {
            candidates: 0,
            ..Style::default()
        },
    );
    if let Some(i) = own.iter().position(|&o| o > 0.9) {
        let (x, y) = (i % 9, i / 9);
        let name = tengen::games::go::vertex_name(9, tengen::games::go::Board::vertex_of(x, y));
        let c = pic.at(&searched, &name, 0.1, 0.1);
        assert!(c.0 < 0xdc - 40, "{name} is shaded dark: {c:?}");
    }
}

#[test]
fn gana_shows_its_stacks_and_kings() {
    use tengen::core::Color;
    use tengen::games::gana::Board;
    let start = Board::start();
    let a = analysed(&start.to_text().unwrap(), Some("gana"), &Budget::default());
    let pic = Picture::of(&a, &Style::default());
    let name = |sq: u8| tengen::games::gana::board::square_name(sq);
    let mut checked = [false; 3];
    for sq in 0..64u8 {
        let c = pic.at(&a, &format!("{}n", name(sq)), 0.0, 0.3);
        let (b, w) = (
            start.men_of(Color::Black, sq),
            start.men_of(Color::White, sq),
        );
        if b > 0 && w == 0 {
            assert!(dark(c), "{}: black men {c:?}", name(sq));
            checked[0] = true;
        } else if w > 0 && b == 0 {
            assert!(light(c), "{}: white men {c:?}", name(sq));
            checked[1] = true;
        } else if b == 0 && w == 0 {
            assert!(!dark(c) && !light(c), "{}: empty square {c:?}", name(sq));
            checked[2] = true;
        }
    }
    assert_eq!(
        checked, [true; 3],
        "black, white and empty squares all seen"
    );
    // After a move, the square it left is framed.
    let mut b = start.clone();
    let mut legal = Vec::new();
    b.legal_moves(&mut legal);
    let mv = b.move_text(legal[0]);
    b.play(legal[0]).unwrap();
    let record = format!("{}\n{mv}\n", start.to_text().unwrap());
    let after = analysed(&record, Some("gana"), &Budget::default());
    let pic = Picture::of(&after, &Style::default());
    assert!(
        red(pic.at(&after, &mv, -0.45, 0.0)),
        "the frame of {mv}'s square"
    );
    let before = Picture::of(&a, &Style::default());
    let c = before.at(&a, &mv, -0.45, 0.0);
    assert!(!red(c), "no frame before any move: {mv} {c:?}");
    let text = svg::position(&a, &Style::default());
    let kings = Color::BOTH
        .iter()
        .filter(|&&c| start.king(c).is_some())
        .count();
    assert_eq!(text.matches("class=\"king\"").count(), kings);
}

#[test]
fn the_review_graph_follows_the_game() {
    let g = Game::read("h8 a1 i8 a2 j8 a3 k8 a4 l8", &Default::default()).unwrap();
    let budget = Budget {
        nodes: Some(3_000),
        threads: Some(1),
        multipv: 2,
        ..Budget::default()
    };
    let r = review::review(&g, &budget, &AtomicBool::new(false), None, &|_, _, _| {}).unwrap();
    let text = svg::graph(&r);
    let pix = rasterise(&text);
    assert_eq!((pix.width(), pix.height()), (640, 240));
    let marked = r
        .moves
        .iter()
        .filter(|m| matches!(m.judgement, "inaccuracy" | "mistake" | "blunder"))
        .count();
    let dots = ["inaccuracy", "mistake", "blunder"]
        .iter()
        .map(|c| text.matches(&format!("<circle class=\"{c}\"")).count())
        .sum::<usize>();
    assert_eq!(dots, marked);
    // The curve ends at black's win: top right is the line's blue.
    let p = pix.pixel(640 - 12 - 1, 12).unwrap();
    assert!(p.blue() > 150 && p.red() < 120, "{p:?}");
}

#[test]
fn the_command_line_writes_the_pictures_asked_for() {
    let dir = std::env::temp_dir().join(format!("tengen-pictures-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let pos = dir.join("pos.svg");
    run(&[
        "analyse",
        "--moves",
        "h8 i9 h9",
        "--nodes",
        "2000",
        "--svg",
        pos.to_str().unwrap(),
        "--numbers",
    ]);
    let text = std::fs::read_to_string(&pos).unwrap();
    assert!(text.contains(">3</text>"), "numbered stones");
    rasterise(&text);
    let game = dir.join("game.txt");
    std::fs::write(&game, "h8 i9 h9 i10").unwrap();
    let pic = dir.join("game.svg");
    run(&[
        "review",
        game.to_str().unwrap(),
        "--nodes",
        "2000",
        "--threads",
        "1",
        "--svg",
        pic.to_str().unwrap(),
    ]);
    rasterise(&std::fs::read_to_string(&pic).unwrap());
    rasterise(&std::fs::read_to_string(dir.join("game-graph.svg")).unwrap());
    assert!(
        dir.join("game-review.sgf").exists(),
        "the annotated record beside the game"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
