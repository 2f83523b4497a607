//! `tengen analysis`: a JSON-lines analysis engine on stdin/stdout, modelled on KataGo's
//! analysis engine. One query a line; one final answer for every position a query asks
//! for (its `id` and `turnNumber`); a bad query answers `{"id", "error", "field"}` and the
//! engine keeps serving. Several positions are analysed at once, one search thread each.
//! The schema is in `protocols/analysis/README.md`.

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::game::{Game, Refusal, refuse, refuse_query};
use super::model::{Position, Search};
use super::{Budget, Progress};
use crate::core::Color;
use crate::games::fiar::Variant;
use crate::games::fiar::record::parse_point;

/// The longest a position may be searched.
const MAX_TIME_S: f64 = 3600.0;
use super::{MAX_DEPTH, MAX_NODES, MAX_VISITS};

/// Fields a query may carry; any other is answered with a warning.
const FIELDS: &[&str] = &[
    "id",
    "action",
    "terminateId",
    "turnNumbers",
    "game",
    "variant",
    "rules",
    "size",
    "boardXSize",
    "boardYSize",
    "komi",
    "moves",
    "initialStones",
    "initialPosition",
    "analyzeTurns",
    "maxTime",
    "maxNodes",
    "maxVisits",
    "maxDepth",
    "multiPV",
    "includeOwnership",
    "reportDuringSearchEvery",
];

/// A query's id as the answers carry it: a string, or a number written as one.
pub(crate) fn id_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// One position to analyse: a query's turn.
struct Job {
    id: String,
    turn: usize,
    game: Arc<Game>,
    budget: Budget,
    /// `reportDuringSearchEvery`.
    every: Option<Duration>,
    stop: Arc<AtomicBool>,
}

/// A final answer.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Answer<'a> {
    id: &'a str,
    turn_number: usize,
    is_during_search: bool,
    #[serde(flatten)]
    search: Option<Search>,
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<Position>,
}

/// The colour a `B`/`W`/`black`/`white` string names.
fn color(v: &Value, field: &'static str) -> Result<Color, Refusal> {
    match v.as_str().map(str::to_ascii_lowercase).as_deref() {
        Some("b" | "black") => Ok(Color::Black),
        Some("w" | "white") => Ok(Color::White),
        _ => Err(refuse(field, format!("{v}: a colour is \"B\" or \"W\""))),
    }
}

/// A `["B", "h8"]` pair, or `None` when `v` does not have that shape.
fn colour_pair(v: &Value, field: &'static str) -> Option<Result<(Color, String), Refusal>> {
    let pair = v.as_array().filter(|p| p.len() == 2)?;
    let point = pair[1].as_str()?;
    Some(color(&pair[0], field).map(|c| (c, point.to_string())))
}

/// A move list: `["h8", "i9"]` or KataGo's `[["B", "h8"], ["W", "i9"]]`; colours, where
/// given, must alternate from black (the side to move after the set-up).
fn move_list(v: Option<&Value>) -> Result<Vec<(Option<Color>, String)>, Refusal> {
    let Some(v) = v else {
        return Ok(Vec::new());
    };
    let list = v
        .as_array()
        .ok_or_else(|| refuse("moves", "a list of moves"))?;
    list.iter()
        .enumerate()
        .map(|(i, m)| match (m, colour_pair(m, "moves")) {
            (Value::String(s), _) => Ok((None, s.clone())),
            (_, Some(pair)) => pair.map(|(c, p)| (Some(c), p)),
            (_, None) => Err(refuse(
                "moves",
                format!("move {}: {m} is neither \"h8\" nor [\"B\", \"h8\"]", i + 1),
            )),
        })
        .collect()
}

fn stone_list(v: Option<&Value>) -> Result<Vec<(Color, String)>, Refusal> {
    let Some(v) = v else {
        return Ok(Vec::new());
    };
    let list = v
        .as_array()
        .ok_or_else(|| refuse("initialStones", "a list of [\"B\", \"h8\"] pairs"))?;
    list.iter()
        .map(|s| {
            colour_pair(s, "initialStones").unwrap_or_else(|| {
                Err(refuse(
                    "initialStones",
                    format!("{s} is not a [\"B\", \"h8\"] pair"),
                ))
            })
        })
        .collect()
}

fn positive(q: &Map<String, Value>, field: &'static str, max: f64) -> Result<Option<f64>, Refusal> {
    match q.get(field) {
        None => Ok(None),
        Some(v) => match v.as_f64() {
            Some(x) if x > 0.0 && x <= max => Ok(Some(x)),
            _ => Err(refuse(
                field,
                format!("{v}: a number above 0, at most {max}"),
            )),
        },
    }
}

fn count(q: &Map<String, Value>, field: &'static str, max: u64) -> Result<Option<u64>, Refusal> {
    match q.get(field) {
        None => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) if n >= 1 && n <= max => Ok(Some(n)),
            _ => Err(refuse(
                field,
                format!("{v}: a whole number from 1 to {max}"),
            )),
        },
    }
}

/// Checks a move list's colours: each must be the side to move at its turn, which
/// alternates from `first`.
fn plain_moves(moves: Vec<(Option<Color>, String)>, first: Color) -> Result<Vec<String>, Refusal> {
    let mut side = first;
    let mut out = Vec::new();
    for (i, (c, m)) in moves.into_iter().enumerate() {
        if let Some(c) = c
            && c != side
        {
            return Err(refuse(
                "moves",
                format!("move {} ({m}): {c} to play, but it is {side}'s turn", i + 1),
            ));
        }
        out.push(m);
        side = side.opposite();
    }
    Ok(out)
}

/// What a query asks: the set-up, the turns, the budget and how often to report.
type Asked = (Game, Vec<usize>, Budget, Option<Duration>);

/// Reads a query's position set-up, the turns it asks for, its budget and how often it
/// wants partial answers.
fn read_query(q: &Map<String, Value>) -> Result<Asked, Refusal> {
    let game = match q.get("game") {
        None => "gomoku",
        Some(Value::String(g)) if ["gomoku", "go", "gana"].contains(&g.as_str()) => g.as_str(),
        Some(g) => {
            return Err(refuse(
                "game",
                format!("{g}: \"gomoku\", \"go\" or \"gana\""),
            ));
        }
    };
    let text = |field: &'static str| -> Result<Option<&str>, Refusal> {
        match q.get(field) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(v) => Err(refuse(field, format!("{v}: a string"))),
        }
    };
    let size = |field: &'static str| -> Result<Option<usize>, Refusal> {
        match q.get(field) {
            None => Ok(None),
            Some(v) => v
                .as_u64()
                .map(|n| Some(n as usize))
                .ok_or_else(|| refuse(field, format!("{v}: a whole number"))),
        }
    };
    let side = size("size")?;
    let width = size("boardXSize")?.or(side);
    let height = size("boardYSize")?.or(side);
    let moves = move_list(q.get("moves"))?;
    let stones = stone_list(q.get("initialStones"))?;
    let game = match game {
        "gomoku" => {
            let variant: Variant = text("variant")?
                .unwrap_or("freestyle")
                .parse()
                .map_err(|e: crate::core::RuleError| refuse("variant", e.to_string()))?;
            let width = width.unwrap_or(variant.default_size());
            let height = height.unwrap_or(width);
            let mut placed = Vec::new();
            for (c, s) in &stones {
                let p = parse_point(s, width, height)
                    .map_err(|e| refuse("initialStones", format!("{s}: {e}")))?;
                placed.push((p, *c));
            }
            let mut e = crate::engine::FiarEngine::new(variant, width, height)
                .map_err(|e| refuse("size", e.to_string()))?;
            e.set_position(&placed)
                .map_err(|e| refuse("initialStones", e.to_string()))?;
            let start = e.board().clone();
            let first = start.to_move();
            Game::Gomoku {
                start: Box::new(start),
                moves: plain_moves(moves, first)?,
            }
        }
        "go" => {
            use crate::games::go::parse_vertex;
            if width != height {
                return Err(refuse("boardYSize", "Go boards are square here"));
            }
            let rules = text("rules")?
                .unwrap_or("chinese")
                .parse()
                .map_err(|e| refuse("rules", format!("{e}")))?;
            let size = width.unwrap_or(19);
            let mut start = crate::games::go::Game::new(size, rules)
                .map_err(|_| refuse("size", format!("{size}: Go boards are 2 to 25")))?;
            match q.get("komi") {
                None => {}
                Some(v) => match v.as_f64() {
                    Some(k) if k.abs() <= 1000.0 && (k * 2.0).fract() == 0.0 => {
                        start.set_komi(k as f32)
                    }
                    _ => return Err(refuse("komi", format!("{v}: a multiple of 0.5"))),
                },
            }
            if !stones.is_empty() {
                let mut placed = Vec::new();
                for (c, s) in &stones {
                    let v = parse_vertex(size, s)
                        .map_err(|e| refuse("initialStones", format!("{s}: {e}")))?;
                    placed.push((v, *c));
                }
                start
                    .set_up(&placed, Color::Black)
                    .map_err(|e| refuse("initialStones", e.to_string()))?;
            }
            Game::Go {
                start: Box::new(start),
                moves: plain_moves(moves, Color::Black)?,
            }
        }
        _ => {
            if !stones.is_empty() {
                return Err(refuse("initialStones", "Gana takes initialPosition"));
            }
            let start = match text("initialPosition")? {
                None => crate::games::gana::Board::start(),
                Some(t) => crate::games::gana::Board::from_text(t)
                    .map_err(|e| refuse("initialPosition", e))?,
            };
            Game::Gana {
                start: Box::new(start),
                moves: plain_moves(moves, Color::White)?,
            }
        }
    };
    let n = game.moves().len();
    let turns = match q.get("analyzeTurns") {
        None => vec![n],
        Some(v) => {
            let list = v
                .as_array()
                .filter(|l| !l.is_empty())
                .ok_or_else(|| refuse("analyzeTurns", "a list of turn numbers"))?;
            list.iter()
                .map(|t| {
                    t.as_u64()
                        .map(|t| t as usize)
                        .filter(|&t| t <= n)
                        .ok_or_else(|| refuse("analyzeTurns", format!("{t}: a turn from 0 to {n}")))
                })
                .collect::<Result<_, _>>()?
        }
    };
    let mcts = game.name() != "gomoku";
    if mcts && (q.contains_key("maxNodes") || q.contains_key("maxDepth")) {
        let f = if q.contains_key("maxNodes") {
            "maxNodes"
        } else {
            "maxDepth"
        };
        return Err(refuse(f, "for gomoku; Go and Gana take maxVisits"));
    }
    if !mcts && q.contains_key("maxVisits") {
        return Err(refuse(
            "maxVisits",
            "for Go and Gana; gomoku takes maxNodes",
        ));
    }
    let mut budget = Budget {
        time: positive(q, "maxTime", MAX_TIME_S)?.map(Duration::from_secs_f64),
        depth: count(q, "maxDepth", MAX_DEPTH as u64)?.map(|d| d as u32),
        nodes: if mcts {
            count(q, "maxVisits", MAX_VISITS)?
        } else {
            count(q, "maxNodes", MAX_NODES)?
        },
        threads: Some(1),
        multipv: count(q, "multiPV", 100)?.unwrap_or(0) as usize,
        ownership: match q.get("includeOwnership") {
            None => false,
            Some(Value::Bool(b)) if !*b || game.name() == "go" => *b,
            Some(Value::Bool(_)) => return Err(refuse("includeOwnership", "for Go only")),
            Some(v) => return Err(refuse("includeOwnership", format!("{v}: true or false"))),
        },
    };
    if !budget.searches() {
        // Without a budget a position gets a second.
        budget.time = Some(Duration::from_secs(1));
    }
    if !mcts && budget.multipv == 0 {
        budget.multipv = 1;
    }
    let every = positive(q, "reportDuringSearchEvery", MAX_TIME_S)?.map(Duration::from_secs_f64);
    Ok((game, turns, budget, every))
}

/// What the readers and the workers share.
struct Shared {
    queue: Mutex<VecDeque<Job>>,
    ready: Condvar,
    /// Set once stdin has ended: workers leave when the queue is empty.
    closed: AtomicBool,
    /// The stop flags of the jobs running now, by query id.
    running: Mutex<Vec<(String, usize, Arc<AtomicBool>)>>,
    out: Mutex<Box<dyn Write + Send>>,
    /// Positions queued and answered, for a person watching on a terminal.
    meter: super::meter::Meter,
}

impl Shared {
    fn send(&self, v: &impl Serialize) {
        let line = serde_json::to_string(v).unwrap_or_else(|e| {
            json!({"error": format!("cannot write the answer: {e}")}).to_string()
        });
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        // A closed stdout ends the engine, as it ends the protocols.
        crate::protocol::io::send_line(&mut *out, &line);
    }

    fn error(&self, id: Option<&str>, r: &Refusal) {
        self.send(&json!({"id": id, "error": r.message, "field": r.field}));
    }
}

fn worker(shared: &Shared) {
    loop {
        let job = {
            let mut q = shared.queue.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(j) = q.pop_front() {
                    break j;
                }
                if shared.closed.load(Ordering::Acquire) {
                    return;
                }
                q = shared.ready.wait(q).unwrap_or_else(|e| e.into_inner());
            }
        };
        shared
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((job.id.clone(), job.turn, job.stop.clone()));
        let partial = |search: &Search| {
            shared.send(&Answer {
                id: &job.id,
                turn_number: job.turn,
                is_during_search: true,
                search: Some(search.clone()),
                position: None,
            })
        };
        let progress = job.every.map(|every| Progress {
            every,
            send: &partial,
        });
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            job.game
                .analyse(job.turn, &job.budget, &job.stop, progress.as_ref())
        }));
        shared
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|r| !Arc::ptr_eq(&r.2, &job.stop));
        match result {
            Ok(Ok(a)) => shared.send(&Answer {
                id: &job.id,
                turn_number: job.turn,
                is_during_search: false,
                search: a.search,
                position: Some(a.position),
            }),
            Ok(Err(r)) => shared.error(Some(&job.id), &r),
            Err(_) => shared.error(
                Some(&job.id),
                &refuse_query(format!("internal error analysing turn {}", job.turn)),
            ),
        }
        shared.meter.advance(1);
    }
}

/// Handles one input line: queues its positions, or terminates, or refuses it.
fn handle(shared: &Shared, line: &str) {
    let line = line.trim();
    if line.is_empty() {
        return;
    }
    let q = match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(q)) => q,
        Ok(_) => return shared.error(None, &refuse_query("a query is one JSON object a line")),
        Err(e) => return shared.error(None, &refuse_query(format!("malformed JSON: {e}"))),
    };
    let Some(id) = q.get("id").and_then(id_of) else {
        return shared.error(None, &refuse("id", "every query needs an \"id\""));
    };
    for k in q.keys() {
        if !FIELDS.contains(&k.as_str()) {
            shared.send(
                &json!({"id": id, "warning": format!("unknown field {k}, ignored"), "field": k}),
            );
        }
    }
    match q.get("action").map(|a| a.as_str()) {
        None => {}
        Some(Some("terminate")) => return terminate(shared, &id, &q),
        Some(Some("query_version")) => {
            return shared.send(&json!({"id": id, "action": "query_version",
                "version": env!("CARGO_PKG_VERSION"), "schema": super::model::SCHEMA}));
        }
        Some(_) => {
            let a = &q["action"];
            return shared.error(
                Some(&id),
                &refuse("action", format!("{a}: \"terminate\" or \"query_version\"")),
            );
        }
    }
    let (game, turns, budget, every) = match read_query(&q) {
        Ok(r) => r,
        Err(r) => return shared.error(Some(&id), &r),
    };
    // The whole move list is played once here, so that an illegal move is one error
    // for the query rather than one for each of its turns.
    let stop = Arc::new(AtomicBool::new(false));
    let last = turns.iter().copied().max().unwrap_or(0);
    if let Err(r) = game.analyse(last, &Budget::default(), &stop, None) {
        return shared.error(Some(&id), &r);
    }
    let game = Arc::new(game);
    let mut queue = shared.queue.lock().unwrap_or_else(|e| e.into_inner());
    shared.meter.add_total(turns.len() as u64);
    for turn in turns {
        queue.push_back(Job {
            id: id.clone(),
            turn,
            game: game.clone(),
            budget: budget.clone(),
            every,
            stop: stop.clone(),
        });
    }
    shared.ready.notify_all();
}

/// `{"id", "action": "terminate", "terminateId", "turnNumbers"}`: the positions of that
/// query not started are dropped, those running stop and answer with what they found.
fn terminate(shared: &Shared, id: &str, q: &Map<String, Value>) {
    let target = match q.get("terminateId") {
        None => None,
        Some(v) => match id_of(v) {
            Some(t) => Some(t),
            None => {
                return shared.error(Some(id), &refuse("terminateId", format!("{v}: an id")));
            }
        },
    };
    let turns: Option<Vec<u64>> = match q.get("turnNumbers") {
        None => None,
        Some(v) => match v
            .as_array()
            .and_then(|l| l.iter().map(Value::as_u64).collect())
        {
            Some(t) => Some(t),
            None => {
                return shared.error(Some(id), &refuse("turnNumbers", "a list of turn numbers"));
            }
        },
    };
    let hit = |jid: &str, turn: usize| {
        target.as_deref().is_none_or(|t| t == jid)
            && turns.as_ref().is_none_or(|t| t.contains(&(turn as u64)))
    };
    shared
        .queue
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|j| {
            let keep = !hit(&j.id, j.turn);
            if !keep {
                shared.meter.advance(1);
            }
            keep
        });
    for (jid, turn, stop) in shared
        .running
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
    {
        if hit(jid, *turn) {
            stop.store(true, Ordering::Relaxed);
        }
    }
    shared.send(&json!({"id": id, "action": "terminate", "terminateId": target}));
}

/// Serves queries from `input` until it ends, with `workers` positions analysed at once;
/// answers go to `out`. Returns once every queued position is answered.
pub fn serve(
    input: impl BufRead,
    out: Box<dyn Write + Send>,
    workers: usize,
    meter: super::meter::Meter,
) {
    let shared = Shared {
        queue: Mutex::new(VecDeque::new()),
        ready: Condvar::new(),
        closed: AtomicBool::new(false),
        running: Mutex::new(Vec::new()),
        out: Mutex::new(out),
        meter,
    };
    std::thread::scope(|s| {
        // A search runs on its worker's own stack: the size the search threads get
        // (2 MB overflowed on deep searches).
        let handles: Vec<_> = (0..workers.max(1))
            .filter_map(|_| crate::search::spawn_search(s, || worker(&shared)))
            .collect();
        if handles.is_empty() {
            eprintln!("tengen: no analysis worker could start");
            return;
        }
        // Lines are read as bytes: one that is no UTF-8 is answered as malformed, not
        // taken for the end of the input.
        let mut input = input;
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => handle(&shared, &String::from_utf8_lossy(&buf)),
            }
        }
        shared.closed.store(true, Ordering::Release);
        {
            let _guard = shared.queue.lock();
            shared.ready.notify_all();
        }
        // Joined, not dropped (see `spawn_search`).
        for h in handles {
            let _ = h.join();
        }
    });
}
