//! The protocol fuzzer's short CI run: 20,000 seeded random and malformed lines per
//! protocol mode (5,000 JSON queries for the analysis engine, whose lines search), driven through the real binary as a manager drives it. Every GTP
//! command must get exactly one reply with its id, the Gomocup brain must answer ABOUT
//! after every burst, stdout must hold only the protocol, nothing may panic, and
//! quit/END must end the process within a second. The million-line run is
//! `tengen fuzz --protocol P --lines 1000000` (README, Robustness).

use std::time::Duration;
use tengen::fuzz::{self, Config, Protocol};

fn run(protocol: Protocol, seed: u64, lines: u64) {
    let mut engine = vec![env!("CARGO_BIN_EXE_tengen").to_string()];
    engine.extend(protocol.engine_args());
    let dir = fuzz::default_dir(protocol, seed);
    let cfg = Config {
        protocol,
        engine,
        lines,
        seed,
        dir: dir.clone(),
        reply_timeout: Duration::from_secs(60),
        max_failures: 5,
    };
    let summary = fuzz::run(&cfg, |_| {});
    fuzz::tidy(&dir, &summary);
    assert!(summary.failures.is_empty(), "{summary}");
    assert!(summary.lines >= lines, "{summary}");
    // The run really talked to the engine: most lines drew a reply, and sessions were
    // ended by quit/END and started again.
    assert!(summary.replies > lines / 4, "{summary}");
    assert!(summary.sessions > 1, "{summary}");
}

#[test]
fn gtp_go_survives_twenty_thousand_random_lines() {
    run(Protocol::Gtp, 12, 20_000);
}

#[test]
fn gana_survives_twenty_thousand_random_lines() {
    run(Protocol::Gana, 12, 20_000);
}

#[test]
fn gomocup_survives_twenty_thousand_random_lines() {
    run(Protocol::Gomocup, 12, 20_000);
}

/// Every line answered as the schema says: malformed ones with an error of id null,
/// queries with one error or one final answer per turn, actions with one reply.
#[test]
fn the_analysis_engine_survives_five_thousand_random_queries() {
    run(Protocol::Analysis, 12, 5_000);
}
