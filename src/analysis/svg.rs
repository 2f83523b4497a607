//! Pictures of analyses as SVG: any five-in-a-row board (5–32, rectangles too), Go 2–25
//! and Gana's 8×8 with its stacks and kings — coordinates as the text output names
//! them, stones with optional move numbers, the last move, renju's forbidden points,
//! the winning row, the top candidate moves with rank and score, Go's ownership — and a
//! review's evaluation graph. Drawn from the analysis model alone, so a picture shows
//! exactly what the JSON says.

use std::fmt::Write as _;

use super::model::{Analysis, MoveInfo};
use super::review::Review;
use crate::core::Color;

/// The board's colour (a light wood); empty points are drawn in it.
pub const BOARD: &str = "#dcb35c";
pub const BLACK: &str = "#111111";
pub const WHITE: &str = "#f4f4f4";
/// Forbidden points, the last move and the winning row.
pub const MARK: &str = "#d62020";

/// What to draw beyond the position itself.
#[derive(Clone, Debug)]
pub struct Style {
    /// Number the stones in the order they were played.
    pub numbers: bool,
    /// Label this many of the search's best moves.
    pub candidates: usize,
}

impl Default for Style {
    fn default() -> Style {
        Style {
            numbers: false,
            candidates: 5,
        }
    }
}

/// Where things go: points on a grid (five-in-a-row, Go) or squares (Gana), a margin
/// for the coordinates all round.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub width: usize,
    pub height: usize,
    /// Pixels from one point (or square) to the next.
    pub cell: f32,
    pub margin: f32,
    /// Gana's squares rather than a grid's points.
    pub squares: bool,
}

impl Layout {
    pub fn of(a: &Analysis) -> Layout {
        let p = &a.position;
        Layout {
            width: p.width,
            height: p.height,
            cell: if p.width.max(p.height) > 19 {
                24.0
            } else {
                30.0
            },
            margin: if p.width.max(p.height) > 19 {
                26.0
            } else {
                34.0
            },
            squares: a.game == "gana",
        }
    }

    /// The picture's size in pixels.
    pub fn size(&self) -> (f32, f32) {
        let span = |n: usize| {
            if self.squares {
                n as f32 * self.cell
            } else {
                (n as f32 - 1.0) * self.cell
            }
        };
        (
            span(self.width) + 2.0 * self.margin,
            span(self.height) + 2.0 * self.margin,
        )
    }

    /// The centre of point (or square) `x`, `y`, counted from the top left.
    pub fn center(&self, x: usize, y: usize) -> (f32, f32) {
        let half = if self.squares { self.cell / 2.0 } else { 0.0 };
        (
            self.margin + half + x as f32 * self.cell,
            self.margin + half + y as f32 * self.cell,
        )
    }
}

/// A point's place on the picture, from its name in the game's notation.
pub fn locate(a: &Analysis, name: &str) -> Option<(usize, usize)> {
    let p = &a.position;
    match a.game {
        "go" => {
            let v = crate::games::go::parse_vertex(p.width, name).ok()?;
            (v != crate::games::go::PASS).then(|| crate::games::go::Board::xy(v))
        }
        "gana" => {
            let sq = crate::games::gana::board::parse_square(name.get(..2)?)?;
            Some(((sq % 8) as usize, 7 - (sq / 8) as usize))
        }
        _ => {
            let pt = crate::games::fiar::record::parse_point(name, p.width, p.height).ok()?;
            Some((pt.x as usize, pt.y as usize))
        }
    }
}

fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The column and row labels, as the text output writes them.
fn labels(a: &Analysis) -> (Vec<String>, Vec<String>) {
    let p = &a.position;
    match a.game {
        "go" => {
            let cols = (0..p.width)
                .map(|x| {
                    let name = crate::games::go::vertex_name(
                        p.width,
                        crate::games::go::Board::vertex_of(x, 0),
                    );
                    name.trim_end_matches(|c: char| c.is_ascii_digit())
                        .to_string()
                })
                .collect();
            let rows = (0..p.height).map(|y| (p.height - y).to_string()).collect();
            (cols, rows)
        }
        "gana" => (
            (0..8).map(|f| ((b'a' + f) as char).to_string()).collect(),
            (0..8).map(|r| (8 - r).to_string()).collect(),
        ),
        _ => (
            (0..p.width)
                .map(|x| crate::core::error::Point::column_name(x as u8))
                .collect(),
            (0..p.height).map(|y| (y + 1).to_string()).collect(),
        ),
    }
}

fn stone(s: &mut String, (cx, cy): (f32, f32), r: f32, color: Color) {
    let (fill, stroke) = match color {
        Color::Black => (BLACK, BLACK),
        Color::White => (WHITE, "#333333"),
    };
    let _ = writeln!(
        s,
        r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="{fill}" stroke="{stroke}" stroke-width="1"/>"#
    );
}

fn text(s: &mut String, (x, y): (f32, f32), size: f32, fill: &str, t: &str) {
    let _ = writeln!(
        s,
        r#"<text x="{x:.1}" y="{y:.1}" font-size="{size:.1}" fill="{fill}" text-anchor="middle" dominant-baseline="central" font-family="sans-serif">{}</text>"#,
        esc(t)
    );
}

/// A candidate's label: its rank and its score (evaluation, mate, or win rate).
fn candidate_label(m: &MoveInfo) -> String {
    match (&m.score, m.winrate) {
        (Some(sc), _) => sc.to_string(),
        (None, Some(w)) => format!("{:.0}", w * 100.0),
        _ => String::new(),
    }
}

/// The picture of an analysed position.
pub fn position(a: &Analysis, style: &Style) -> String {
    let l = Layout::of(a);
    let (w, h) = l.size();
    let p = &a.position;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}">"#
    );
    let _ = writeln!(
        s,
        r#"<rect x="0" y="0" width="{w:.0}" height="{h:.0}" fill="{BOARD}"/>"#
    );
    let (cols, rows) = labels(a);
    let font = l.cell * 0.42;
    for (x, c) in cols.iter().enumerate() {
        let (cx, _) = l.center(x, 0);
        text(&mut s, (cx, l.margin * 0.45), font, "#333333", c);
        text(&mut s, (cx, h - l.margin * 0.45), font, "#333333", c);
    }
    for (y, r) in rows.iter().enumerate() {
        let (_, cy) = l.center(0, y);
        text(&mut s, (l.margin * 0.45, cy), font, "#333333", r);
        text(&mut s, (w - l.margin * 0.45, cy), font, "#333333", r);
    }
    if l.squares {
        gana_board(&mut s, a, &l);
    } else {
        grid(&mut s, a, &l);
    }
    if let Some(own) = a.search.as_ref().and_then(|x| x.ownership.as_ref()) {
        ownership(&mut s, own, &l);
    }
    let radius = l.cell * 0.46;
    if let Some(stones) = &p.stones {
        // Move numbers: the last time each point was played.
        let mut number = std::collections::HashMap::new();
        for (i, m) in p.moves.iter().enumerate() {
            number.insert(m.as_str(), i + 1);
        }
        for (color, list) in [(Color::Black, &stones.black), (Color::White, &stones.white)] {
            for name in list {
                let Some((x, y)) = locate(a, name) else {
                    continue;
                };
                let c = l.center(x, y);
                stone(&mut s, c, radius, color);
                if style.numbers
                    && let Some(n) = number.get(name.as_str())
                {
                    let ink = if color == Color::Black { WHITE } else { BLACK };
                    let size = if *n >= 100 { font * 0.8 } else { font };
                    text(&mut s, c, size, ink, &n.to_string());
                }
            }
        }
    }
    if let Some((x, y)) = p.moves.last().and_then(|m| locate(a, m)) {
        let (cx, cy) = l.center(x, y);
        if l.squares {
            // Gana: the square the last move left, framed (its text names no other).
            let half = l.cell / 2.0 - 2.0;
            let _ = writeln!(
                s,
                r#"<rect class="last" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="none" stroke="{MARK}" stroke-width="3"/>"#,
                cx - half,
                cy - half,
                2.0 * half,
                2.0 * half
            );
        } else {
            let _ = writeln!(
                s,
                r#"<circle class="last" cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="none" stroke="{MARK}" stroke-width="2"/>"#,
                radius * 0.55
            );
        }
    }
    for f in &p.forbidden {
        if let Some((x, y)) = locate(a, &f.point) {
            let (cx, cy) = l.center(x, y);
            let d = l.cell * 0.22;
            let _ = writeln!(
                s,
                r#"<path class="forbidden" d="M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}" stroke="{MARK}" stroke-width="3"/>"#,
                cx - d,
                cy - d,
                cx + d,
                cy + d,
                cx - d,
                cy + d,
                cx + d,
                cy - d
            );
        }
    }
    if let Some([from, to]) = &p.result.row
        && let (Some(a0), Some(a1)) = (locate(a, from), locate(a, to))
    {
        let (x0, y0) = l.center(a0.0, a0.1);
        let (x1, y1) = l.center(a1.0, a1.1);
        let _ = writeln!(
            s,
            r#"<line class="row" x1="{x0:.1}" y1="{y0:.1}" x2="{x1:.1}" y2="{y1:.1}" stroke="{MARK}" stroke-width="4" stroke-linecap="round" opacity="0.8"/>"#
        );
    }
    if let Some(search) = &a.search {
        for m in search.move_infos.iter().take(style.candidates) {
            let Some((x, y)) = locate(a, &m.mv) else {
                continue;
            };
            let (cx, cy) = l.center(x, y);
            let fill = if m.order == 0 { "#1f6fd1" } else { "#2e9e4f" };
            let r = radius * 0.9;
            let _ = writeln!(
                s,
                r#"<circle class="candidate" cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="{fill}" opacity="0.75"/>"#
            );
            text(
                &mut s,
                (cx, cy - r * 0.38),
                font * 0.75,
                "#ffffff",
                &(m.order + 1).to_string(),
            );
            text(
                &mut s,
                (cx, cy + r * 0.38),
                font * 0.6,
                "#ffffff",
                &candidate_label(m),
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

fn grid(s: &mut String, a: &Analysis, l: &Layout) {
    let (x0, y0) = l.center(0, 0);
    let (x1, y1) = l.center(l.width - 1, l.height - 1);
    for x in 0..l.width {
        let (cx, _) = l.center(x, 0);
        let _ = writeln!(
            s,
            r##"<line x1="{cx:.1}" y1="{y0:.1}" x2="{cx:.1}" y2="{y1:.1}" stroke="#3a2a10" stroke-width="1"/>"##
        );
    }
    for y in 0..l.height {
        let (_, cy) = l.center(0, y);
        let _ = writeln!(
            s,
            r##"<line x1="{x0:.1}" y1="{cy:.1}" x2="{x1:.1}" y2="{cy:.1}" stroke="#3a2a10" stroke-width="1"/>"##
        );
    }
    // Star points: Go's usual ones; five-in-a-row's centre and the four at a quarter.
    let stars: Vec<(usize, usize)> = if a.game == "go" {
        let n = l.width;
        let edge = if n >= 13 { 3 } else { 2 };
        let mut v = Vec::new();
        if n >= 7 {
            let lines = if n >= 13 && n % 2 == 1 {
                vec![edge, n / 2, n - 1 - edge]
            } else {
                vec![edge, n - 1 - edge]
            };
            for &x in &lines {
                for &y in &lines {
                    v.push((x, y));
                }
            }
        }
        v
    } else if l.width >= 9 && l.height >= 9 {
        let (w, h) = (l.width, l.height);
        vec![
            (w / 2, h / 2),
            (3, 3),
            (w - 4, 3),
            (3, h - 4),
            (w - 4, h - 4),
        ]
    } else {
        Vec::new()
    };
    for (x, y) in stars {
        let (cx, cy) = l.center(x, y);
        let _ = writeln!(
            s,
            r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="#3a2a10"/>"##,
            l.cell * 0.1
        );
    }
}

/// Go's expected owners: a square on each point, black or white, as strong as sure.
fn ownership(s: &mut String, own: &[f32], l: &Layout) {
    for (i, &o) in own.iter().enumerate() {
        if o.abs() < 0.15 {
            continue;
        }
        let (cx, cy) = l.center(i % l.width, i / l.width);
        let side = l.cell * 0.5;
        let fill = if o > 0.0 { BLACK } else { WHITE };
        let _ = writeln!(
            s,
            r#"<rect class="owner" x="{:.1}" y="{:.1}" width="{side:.1}" height="{side:.1}" fill="{fill}" opacity="{:.2}"/>"#,
            cx - side / 2.0,
            cy - side / 2.0,
            o.abs().min(1.0) * 0.6
        );
    }
}

/// Gana's squares and stacks: a disc for each colour on a square, its count written
/// on it, a king ringed in gold.
fn gana_board(s: &mut String, a: &Analysis, l: &Layout) {
    for y in 0..8 {
        for x in 0..8 {
            let (cx, cy) = l.center(x, y);
            let dark = (x + y) % 2 == 1;
            let fill = if dark { "#b58863" } else { "#f0d9b5" };
            let half = l.cell / 2.0;
            let _ = writeln!(
                s,
                r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{fill}"/>"#,
                cx - half,
                cy - half,
                l.cell,
                l.cell
            );
        }
    }
    let Some(board) = a
        .position
        .text
        .as_deref()
        .and_then(|t| crate::games::gana::Board::from_text(t).ok())
    else {
        return;
    };
    for sq in 0..64u8 {
        let (x, y) = ((sq % 8) as usize, 7 - (sq / 8) as usize);
        let (cx, cy) = l.center(x, y);
        let here: Vec<(Color, u8)> = Color::BOTH
            .iter()
            .map(|&c| (c, board.men_of(c, sq)))
            .filter(|&(_, n)| n > 0)
            .collect();
        let both = here.len() == 2;
        for (k, &(c, n)) in here.iter().enumerate() {
            let shift = if both {
                (k as f32 - 0.5) * l.cell * 0.3
            } else {
                0.0
            };
            let at = (cx + shift, cy + shift);
            let r = l.cell * if both { 0.3 } else { 0.38 };
            stone(s, at, r, c);
            if board.king(c) == Some(sq) {
                let _ = writeln!(
                    s,
                    r##"<circle class="king" cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="#e0a000" stroke-width="3"/>"##,
                    at.0,
                    at.1,
                    r + 1.5
                );
            }
            if n > 1 {
                let ink = if c == Color::Black { WHITE } else { BLACK };
                text(s, at, l.cell * 0.38, ink, &n.to_string());
            }
        }
    }
}

/// A review's evaluation graph: black's chance of winning after each move, the even
/// line, and the inaccuracies, mistakes and blunders marked on it.
pub fn graph(r: &Review) -> String {
    let (w, h) = (640.0f32, 240.0f32);
    let (left, right, top, bottom) = (44.0f32, 12.0f32, 12.0f32, 28.0f32);
    let n = r.black_winrates.len().max(2) - 1;
    let x_of = |i: usize| left + (w - left - right) * i as f32 / n as f32;
    let y_of = |v: f32| top + (h - top - bottom) * (1.0 - v.clamp(0.0, 1.0));
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}">"#
    );
    let _ = writeln!(
        s,
        r##"<rect x="0" y="0" width="{w:.0}" height="{h:.0}" fill="#ffffff"/>"##
    );
    for (v, label) in [(0.0, "0%"), (0.5, "50%"), (1.0, "100%")] {
        let y = y_of(v);
        let _ = writeln!(
            s,
            r##"<line x1="{left:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#bbbbbb" stroke-width="1"/>"##,
            w - right
        );
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{y:.1}" font-size="11" text-anchor="end" dominant-baseline="central" font-family="sans-serif" fill="#333333">{label}</text>"##,
            left - 4.0
        );
    }
    let step = if n > 150 {
        50
    } else if n > 40 {
        10
    } else {
        5
    };
    for i in (0..=n).step_by(step) {
        let x = x_of(i);
        let _ = writeln!(
            s,
            r##"<text x="{x:.1}" y="{:.1}" font-size="11" text-anchor="middle" font-family="sans-serif" fill="#333333">{i}</text>"##,
            h - 8.0
        );
    }
    // Black's side shaded under the curve.
    let mut area = format!("M{:.1} {:.1}", x_of(0), y_of(0.0));
    let mut line = String::new();
    for (i, &v) in r.black_winrates.iter().enumerate() {
        let _ = write!(area, " L{:.1} {:.1}", x_of(i), y_of(v));
        let _ = write!(
            line,
            "{}{:.1} {:.1}",
            if i == 0 { "M" } else { " L" },
            x_of(i),
            y_of(v)
        );
    }
    let _ = write!(area, " L{:.1} {:.1} Z", x_of(n), y_of(0.0));
    let _ = writeln!(
        s,
        r##"<path class="black-area" d="{area}" fill="#222222" opacity="0.15"/>"##
    );
    let _ = writeln!(
        s,
        r##"<path class="winrate" d="{line}" fill="none" stroke="#1f6fd1" stroke-width="2"/>"##
    );
    for m in &r.moves {
        let color = match m.judgement {
            "blunder" => MARK,
            "mistake" => "#e07b00",
            "inaccuracy" => "#d8c000",
            _ => continue,
        };
        let v = r.black_winrates.get(m.number).copied().unwrap_or(0.5);
        let _ = writeln!(
            s,
            r#"<circle class="{}" cx="{:.1}" cy="{:.1}" r="4" fill="{color}"><title>{}. {} {}: -{:.1}%</title></circle>"#,
            m.judgement,
            x_of(m.number),
            y_of(v),
            m.number,
            m.color,
            esc(&m.mv),
            m.loss * 100.0
        );
    }
    s.push_str("</svg>\n");
    s
}
