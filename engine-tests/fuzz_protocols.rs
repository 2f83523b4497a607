//! The protocol fuzzer's short CI run: 20,000 seeded random and malformed lines per
//! protocol mode, driven through the real binary as a manager drives it. Every GTP
//! command must get exactly one reply with its id, the Gomocup brain must answer ABOUT
//! after every burst, stdout must hold only the protocol, nothing may panic, and
//! quit/END must end the process within a second. The million-line run is
//! `tengen fuzz --protocol P --lines 1000000` (README, Robustness).

use std::time::Duration;
use tengen::fuzz::{self, Config, Protocol};

fn run(protocol: Protocol, seed: u64) {
    let mut engine = vec![env!("CARGO_BIN_EXE_tengen").to_string()];
    engine.extend(protocol.engine_args());
    let dir = fuzz::default_dir(protocol, seed);
    let cfg = Config {
        protocol,
        engine,
        lines: 20_000,
        seed,
        dir: dir.clone(),
        reply_timeout: Duration::from_secs(60),
        max_failures: 5,
    };
    let summary = fuzz::run(&cfg, |_| {});
    fuzz::tidy(&dir, &summary);
    assert!(summary.failures.is_empty(), "{summary}");
    assert!(summary.lines >= 20_000, "{summary}");
    // The run really talked to the engine: most lines drew a reply, and sessions were
    // ended by quit/END and started again.
    assert!(summary.replies > 5_000, "{summary}");
    assert!(summary.sessions > 1, "{summary}");
}

#[test]
fn gtp_go_survives_twenty_thousand_random_lines() {
    run(Protocol::Gtp, 12);
}

#[test]
fn gana_survives_twenty_thousand_random_lines() {
    run(Protocol::Gana, 12);
}

#[test]
fn gomocup_survives_twenty_thousand_random_lines() {
    run(Protocol::Gomocup, 12);
}
