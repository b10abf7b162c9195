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
use utf8lint_diagnostics::{Policy, check};

const SIZE: usize = 64 * 1024 * 1024;

/// Deterministic text: `pieces` chosen by a xorshift generator until `SIZE`.
fn text(pieces: &[&str]) -> Vec<u8> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut out = Vec::with_capacity(SIZE + 64);
    while out.len() < SIZE {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        out.extend_from_slice(pieces[(state % pieces.len() as u64) as usize].as_bytes());
    }
    // End on a character boundary.
    while std::str::from_utf8(&out).is_err() {
        out.pop();
    }
    out
}

fn bench(c: &mut Criterion) {
    let inputs = [
        (
            "ascii-code",
            text(&[
                "fn main() {\n",
                "    let x = 42;\n",
                "    println!(\"{x}\");\n",
                "}\n",
                "// comment\n",
            ]),
        ),
        (
            "mixed-prose",
            text(&[
                "The café ",
                "naïve ",
                "東京 ",
                "Grüße ",
                "😀 ",
                "plain words ",
                "\n",
            ]),
        ),
        (
            "latin-prose",
            text(&[
                "L’été dernier, ",
                "nous avons mangé des crêpes ",
                "à Noël chez François ",
                "— « très » bien… ",
                "Größe über Äpfel ",
                "\n",
            ]),
        ),
        (
            "cjk",
            text(&["日本語の文章です。", "中文文本，", "한국어 ", "\n"]),
        ),
    ];
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
            check(bytes, path, &policy).is_empty(),
            "{name} must be clean"
        );
        group.bench_function(format!("{name}/codec::from_utf8"), |b| {
            b.iter(|| utf8lint_codec::from_utf8(black_box(bytes)).is_ok())
        });
        group.bench_function(format!("{name}/diagnostics::check"), |b| {
            b.iter(|| check(black_box(bytes), path, &policy).len())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
