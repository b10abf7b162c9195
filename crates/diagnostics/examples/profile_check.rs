//! `check` on one of the bench's clean 64 MiB inputs, in a loop, next to
//! the codec's validation: for `perf record` and quick ratios.
//!
//! `cargo build --release -p utf8lint-diagnostics --example profile_check`, then
//! `target/release/examples/profile_check cjk [RUNS] [check|validate|both]`
//! (inputs: ascii-code, mixed-prose, latin-prose, cjk). Prints the best run
//! of each; the bench (`benches/check.rs`) is the measurement of record.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use utf8lint_diagnostics::{CheckOptions, Policy, check};

#[path = "../benches/inputs/mod.rs"]
mod inputs;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("cjk", String::as_str);
    let Some(bytes) = inputs::input(name) else {
        eprintln!(
            "profile_check: no input {name:?}; one of {:?}",
            inputs::NAMES
        );
        return ExitCode::from(2);
    };
    let Some(runs) = args.get(1).map_or(Some(20), |n| n.parse::<usize>().ok()) else {
        eprintln!("profile_check: RUNS must be a number");
        return ExitCode::from(2);
    };
    let mode = args.get(2).map_or("both", String::as_str);
    let policy = Policy::default();
    let path = Path::new("input.txt");
    let (mut checked, mut validated) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..runs {
        if mode != "validate" {
            let t = Instant::now();
            let found = check(&bytes, CheckOptions::new(path, &policy)).len();
            checked = checked.min(t.elapsed().as_secs_f64());
            assert_eq!(found, 0, "{name} must be clean");
        }
        if mode != "check" {
            let t = Instant::now();
            let valid = utf8lint_codec::from_utf8(&bytes).is_ok();
            validated = validated.min(t.elapsed().as_secs_f64());
            assert!(valid);
        }
    }
    println!(
        "{name}: check {:.2} ms, validation {:.2} ms, ratio {:.2} (best of {runs})",
        checked * 1e3,
        validated * 1e3,
        checked / validated
    );
    ExitCode::SUCCESS
}
