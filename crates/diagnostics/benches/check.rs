//! `check` with every rule on (U008 `mojibake` and U009's declarations
//! included), against the codec's validation of the same clean 64 MiB
//! buffers: the targets are at most 1.3x on ASCII and 1.5x on non-ASCII
//! text (one pass over the bytes for all rules, not one per rule).
//!
//! `cargo bench -p utf8lint-diagnostics --bench check`

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use utf8lint_diagnostics::{CheckOptions, Policy, check};

#[path = "inputs/mod.rs"]
mod inputs;

use inputs::SIZE;

fn bench(c: &mut Criterion) {
    let inputs: Vec<(&str, Vec<u8>)> = inputs::NAMES
        .iter()
        .map(|&name| (name, inputs::input(name).unwrap_or_default()))
        .collect();
    let policy = Policy::default();
    let path = Path::new("input.txt");
    let mut group = c.benchmark_group("check-vs-validate-64MiB");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .throughput(Throughput::Bytes(SIZE as u64));
    for (name, bytes) in &inputs {
        assert!(
            check(bytes, CheckOptions::new(path, &policy)).is_empty(),
            "{name} must be clean"
        );
        group.bench_function(format!("{name}/codec::from_utf8"), |b| {
            b.iter(|| utf8lint_codec::from_utf8(black_box(bytes)).is_ok())
        });
        group.bench_function(format!("{name}/diagnostics::check"), |b| {
            b.iter(|| check(black_box(bytes), CheckOptions::new(path, &policy)).len())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
