//! Times the U005 legacy verdict (`legacy_verdict`, not the scan that finds
//! the errors nor the fix's decoding) on windows-1252 text and on UTF-8
//! with one defect, 100 B to 64 MiB: the verdict reads a bounded sample, so
//! its cost stops growing at `LEGACY_SCAN_BYTES`.
//!
//!     cargo run --release -p utf8lint-diagnostics --example verdict_cost

use std::time::Instant;

use utf8lint_diagnostics::testing::legacy_verdict;

fn main() {
    let latin = b"Le caf\xE9 de la gare \xE9tait ferm\xE9, alors nous avons march\xE9 jusqu'\xE0 la brasserie.\n";
    let utf8 = "Le café de la gare était fermé, alors nous avons marché jusqu'à la brasserie.\n";
    println!("| size | windows-1252 text | UTF-8 with one defect |");
    println!("| --- | --- | --- |");
    for size in [100usize, 10_000, 1 << 20, 16 << 20, 64 << 20] {
        let legacy: Vec<u8> = latin.iter().copied().cycle().take(size).collect();
        let mut defect: Vec<u8> = utf8.bytes().cycle().take(size).collect();
        defect[size / 2] = 0xFF;
        let times = [&legacy, &defect].map(|bytes| {
            let subs: Vec<_> = utf8lint_codec::subparts(bytes).collect();
            let runs = (100_000_000 / size.max(1_000)).clamp(30, 2_000);
            let start = Instant::now();
            for _ in 0..runs {
                std::hint::black_box(legacy_verdict(
                    bytes,
                    subs.len(),
                    &subs[..subs.len().min(6)],
                ));
            }
            start.elapsed().as_secs_f64() / runs as f64
        });
        println!(
            "| {} | {:.1} µs | {:.1} µs |",
            if size >= 1 << 20 {
                format!("{} MiB", size >> 20)
            } else {
                format!("{size} B")
            },
            times[0] * 1e6,
            times[1] * 1e6
        );
    }
}
