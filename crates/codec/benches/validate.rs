//! Validation and error-enumeration throughput, side by side with std and
//! simdutf8, on generated text (see benches/README.md).
//!
//! Inputs are generated here with a small xorshift PRNG, no data files:
//! ASCII source code, Latin prose with accents, CJK, emoji, a mix of all of
//! them, and the mix with an ill-formed sequence every 4 KiB. Each is
//! measured as 16 distinct 64 KiB buffers, rotated (every iteration takes the
//! next one, so branch predictors cannot learn a single buffer), and as one
//! 64 MiB buffer.
//!
//! Time is the benchmark thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), not
//! wall-clock time: the machines this runs on are shared (2 cores, often
//! with compilers running beside), and time spent descheduled is not the
//! code's cost. On an idle machine the two agree.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput};
use utf8lint_codec::Wanted;
use utf8lint_codec::testing::{
    Kernel, validate_marking_using, validate_scanning_using, validate_using,
};

/// The patterns `utf8lint-diagnostics` asks the fused validator for (the
/// text rules' candidates and the inline directives' marker), measured as
/// `check` uses them.
#[allow(dead_code, unreachable_pub)]
#[path = "../../diagnostics/src/candidates.rs"]
mod candidates;

const SMALL: usize = 64 * 1024;
const LARGE: usize = 64 * 1024 * 1024;
const ROTATION: usize = 16;
const ERROR_EVERY: usize = 4 * 1024;

/// CPU time of the calling thread, in nanoseconds.
struct ThreadCpuTime;

fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

impl Measurement for ThreadCpuTime {
    type Intermediate = u64;
    type Value = u64;

    fn start(&self) -> u64 {
        thread_cpu_ns()
    }
    fn end(&self, start: u64) -> u64 {
        thread_cpu_ns().saturating_sub(start)
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, value: &u64) -> f64 {
        *value as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &CpuTimeFormatter
    }
}

/// Formats nanoseconds of CPU time, and throughput in GiB/s.
struct CpuTimeFormatter;

impl ValueFormatter for CpuTimeFormatter {
    fn scale_values(&self, typical_ns: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = match typical_ns {
            t if t < 1e3 => (1.0, "ns (cpu)"),
            t if t < 1e6 => (1e-3, "µs (cpu)"),
            t if t < 1e9 => (1e-6, "ms (cpu)"),
            _ => (1e-9, "s (cpu)"),
        };
        values.iter_mut().for_each(|v| *v *= factor);
        unit
    }

    fn scale_throughputs(
        &self,
        _typical: f64,
        throughput: &Throughput,
        values: &mut [f64],
    ) -> &'static str {
        match *throughput {
            Throughput::Bytes(bytes) | Throughput::BytesDecimal(bytes) => {
                let per_ns = bytes as f64 * 1e9 / (1u64 << 30) as f64;
                values.iter_mut().for_each(|v| *v = per_ns / *v);
                "GiB/s"
            }
            _ => {
                values.iter_mut().for_each(|v| *v = 1e9 / *v);
                "iter/s"
            }
        }
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

/// xorshift64*.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
    fn char_in(&mut self, lo: u32, hi: u32) -> char {
        loop {
            let v = lo + self.below((hi - lo + 1) as usize) as u32;
            if let Some(c) = char::from_u32(v) {
                return c;
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Input {
    Ascii,
    Latin,
    Cjk,
    Emoji,
    Mixed,
    MixedErrors,
}

const INPUTS: [Input; 6] = [
    Input::Ascii,
    Input::Latin,
    Input::Cjk,
    Input::Emoji,
    Input::Mixed,
    Input::MixedErrors,
];

impl Input {
    fn name(self) -> &'static str {
        match self {
            Input::Ascii => "ascii-source",
            Input::Latin => "latin-prose",
            Input::Cjk => "cjk",
            Input::Emoji => "emoji",
            Input::Mixed => "mixed",
            Input::MixedErrors => "mixed-errors-4k",
        }
    }
}

const SOURCE_TOKENS: &[&str] = &[
    "fn ",
    "let ",
    "mut ",
    "pub ",
    "struct ",
    "impl ",
    "match ",
    "return ",
    "if ",
    "else ",
    "for ",
    "in ",
    "while ",
    "self",
    "bytes",
    "offset",
    "len",
    "value",
    "result",
    "Some(",
    "None",
    "Ok(",
    "Err(",
    "usize",
    "u8",
    " = ",
    " == ",
    " + ",
    " -= ",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    ".",
    "::",
    "->",
    "&",
    "0",
    "1",
    "64",
    "0xFF",
    "\"text\"",
    "// note ",
    "\n",
    "\n    ",
    "\n        ",
    " ",
];

const LATIN_WORDS: &[&str] = &[
    "le",
    "la",
    "les",
    "été",
    "déjà",
    "très",
    "où",
    "français",
    "naïve",
    "cœur",
    "garçon",
    "élève",
    "fenêtre",
    "hôpital",
    "Noël",
    "à",
    "et",
    "est",
    "une",
    "pour",
    "avec",
    "der",
    "die",
    "das",
    "über",
    "Straße",
    "Grüße",
    "Müller",
    "schön",
    "Äpfel",
    "Öl",
    "für",
    "und",
    "ist",
    "nicht",
    "mit",
    "Mädchen",
    "Bücher",
    "the",
    "and",
    "año",
    "niño",
    "señor",
    "café",
];

const CJK_PUNCT: &[char] = &['、', '。', '「', '」', '，', '！', '？'];

const EMOJI_RANGES: &[(u32, u32)] = &[
    (0x1F300, 0x1F5FF),
    (0x1F600, 0x1F64F),
    (0x1F680, 0x1F6FF),
    (0x1F900, 0x1F9FF),
];

/// Ill-formed sequences, one per class (the truncated ones are followed by
/// ASCII in the generated text, which cuts them).
const ERRORS: &[&[u8]] = &[
    b"\x80",
    b"\xC0",
    b"\xFF",
    b"\xE0\x80",
    b"\xED\xA0\x80",
    b"\xF4\x90\x80\x80",
    b"\xE2\x82",
    b"\xF0\x9F\x98",
];

fn push_ascii(out: &mut String, rng: &mut Rng) {
    out.push_str(rng.pick(SOURCE_TOKENS));
}

fn push_latin(out: &mut String, rng: &mut Rng) {
    out.push_str(rng.pick(LATIN_WORDS));
    out.push_str(match rng.below(12) {
        0 => ", ",
        1 => ". ",
        _ => " ",
    });
}

fn push_cjk(out: &mut String, rng: &mut Rng) {
    match rng.below(16) {
        0 => out.push(rng.pick(CJK_PUNCT)),
        1 => out.push('\n'),
        _ => out.push(rng.char_in(0x4E00, 0x9FFF)),
    }
}

fn push_emoji(out: &mut String, rng: &mut Rng) {
    let (lo, hi) = rng.pick(EMOJI_RANGES);
    out.push(rng.char_in(lo, hi));
    if rng.below(6) == 0 {
        out.push(' ');
    }
}

fn push_mixed(out: &mut String, rng: &mut Rng) {
    // Runs of each kind, as in a real multilingual document.
    let run = 1 + rng.below(12);
    let kind = rng.below(4);
    for _ in 0..run {
        match kind {
            0 => push_ascii(out, rng),
            1 => push_latin(out, rng),
            2 => push_cjk(out, rng),
            _ => push_emoji(out, rng),
        }
    }
}

/// Exactly `len` bytes of the given input, deterministic in `seed`.
fn generate(input: Input, len: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed ^ ((input as u64 + 1) << 40));
    let mut text = String::with_capacity(len + 64);
    while text.len() < len {
        match input {
            Input::Ascii => push_ascii(&mut text, &mut rng),
            Input::Latin => push_latin(&mut text, &mut rng),
            Input::Cjk => push_cjk(&mut text, &mut rng),
            Input::Emoji => push_emoji(&mut text, &mut rng),
            Input::Mixed | Input::MixedErrors => push_mixed(&mut text, &mut rng),
        }
    }
    // Cut at a character boundary and pad with spaces to exactly `len`.
    let mut cut = len;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let mut bytes = text.into_bytes();
    bytes.truncate(cut);
    bytes.resize(len, b' ');
    if input == Input::MixedErrors {
        // One ill-formed sequence in every 4 KiB block, at a character
        // boundary, followed by a space so a truncated one stays truncated.
        let mut block = 0;
        while (block + 1) * ERROR_EVERY <= len {
            let bad = rng.pick(ERRORS);
            let mut at = block * ERROR_EVERY + rng.below(ERROR_EVERY - 8);
            while bytes[at] & 0xC0 == 0x80 {
                at -= 1;
            }
            let mut end = at + bad.len() + 1;
            while end < bytes.len() && bytes[end] & 0xC0 == 0x80 {
                end += 1; // do not leave half a character behind
            }
            let mut patch = bad.to_vec();
            patch.resize(end - at, b' ');
            bytes[at..end].copy_from_slice(&patch);
            block += 1;
        }
    }
    bytes
}

// ---------------------------------------------------------------------------
// The implementations

fn codec_validate(bytes: &[u8]) -> bool {
    utf8lint_codec::from_utf8(bytes).is_ok()
}

fn std_validate(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes).is_ok()
}

fn simdutf8_basic(bytes: &[u8]) -> bool {
    simdutf8::basic::from_utf8(bytes).is_ok()
}

fn simdutf8_compat(bytes: &[u8]) -> bool {
    simdutf8::compat::from_utf8(bytes).is_ok()
}

/// Every error, classified: the count plus the sum of the kinds, so the
/// classification cannot be skipped.
fn codec_enumerate(bytes: &[u8]) -> usize {
    utf8lint_codec::subparts(bytes)
        .map(|s| 1 + s.kind as usize)
        .sum()
}

fn codec_count(bytes: &[u8]) -> usize {
    utf8lint_codec::subparts(bytes).count()
}

fn std_enumerate(bytes: &[u8]) -> usize {
    bytes
        .utf8_chunks()
        .filter(|c| !c.invalid().is_empty())
        .count()
}

/// The baseline: simdutf8::compat to the next error, skip it, repeat.
fn simdutf8_compat_enumerate(mut bytes: &[u8]) -> usize {
    let mut errors = 0;
    loop {
        match simdutf8::compat::from_utf8(bytes) {
            Ok(_) => return errors,
            Err(e) => {
                errors += 1;
                let Some(len) = e.error_len() else {
                    return errors;
                };
                bytes = &bytes[e.valid_up_to() + len..];
            }
        }
    }
}

type Impl = (&'static str, fn(&[u8]) -> usize);

const VALIDATORS: [Impl; 4] = [
    ("utf8lint_codec::from_utf8", |b| {
        usize::from(codec_validate(b))
    }),
    ("std::str::from_utf8", |b| usize::from(std_validate(b))),
    ("simdutf8::basic", |b| usize::from(simdutf8_basic(b))),
    ("simdutf8::compat", |b| usize::from(simdutf8_compat(b))),
];

const ENUMERATORS: [Impl; 3] = [
    ("utf8lint_codec::subparts", codec_enumerate),
    ("std::Utf8Chunks", std_enumerate),
    ("simdutf8::compat loop", simdutf8_compat_enumerate),
];

fn marks_with(kernel: Kernel, bytes: &[u8]) -> usize {
    let mut marks = 0;
    let valid = validate_marking_using(kernel, bytes, &mut |_, _| marks += 1);
    usize::from(valid) + marks
}

static WANT_DIRECTIVES: std::sync::LazyLock<bool> =
    std::sync::LazyLock::new(|| std::env::var_os("NO_DIRECTIVES").is_none());

fn marks_and_text_with(kernel: Kernel, bytes: &[u8]) -> usize {
    let mut found = 0;
    let wanted = Wanted {
        marks: true,
        patterns: Some(&candidates::CANDIDATES),
        pair: WANT_DIRECTIVES.then_some(candidates::DIRECTIVE_PAIR),
    };
    let valid = validate_scanning_using(kernel, bytes, wanted, &mut |_| found += 1);
    usize::from(valid) + found
}

/// The fused validator's builds, each alone, with the search for
/// U+FEFF/U+FFFD, and with the text candidates and the directive pair too
/// (what `check` asks for), against simdutf8 (what
/// `utf8lint_codec::is_valid` is): what finding the marks and the
/// candidates costs.
const MARKERS: [Impl; 8] = [
    ("simdutf8::basic", |b| usize::from(simdutf8_basic(b))),
    ("portable+marks", |b| marks_with(Kernel::Portable, b)),
    ("avx2", |b| usize::from(validate_using(Kernel::Avx2, b))),
    ("avx2+marks", |b| marks_with(Kernel::Avx2, b)),
    ("avx2+marks+text", |b| marks_and_text_with(Kernel::Avx2, b)),
    ("avx512", |b| usize::from(validate_using(Kernel::Avx512, b))),
    ("avx512+marks", |b| marks_with(Kernel::Avx512, b)),
    ("avx512+marks+text", |b| {
        marks_and_text_with(Kernel::Avx512, b)
    }),
];

fn run<M: Measurement>(
    group: &mut BenchmarkGroup<'_, M>,
    impls: &[Impl],
    input: Input,
    bufs: &[Vec<u8>],
) {
    for &(name, f) in impls {
        group.bench_with_input(BenchmarkId::new(name, input.name()), bufs, |b, bufs| {
            let mut i = 0;
            b.iter(|| {
                let buf = &bufs[i % bufs.len()];
                i += 1;
                f(black_box(buf))
            });
        });
    }
}

/// All inputs of one size, checked for agreement between implementations.
fn inputs(len: usize, copies: usize) -> Vec<(Input, Vec<Vec<u8>>)> {
    INPUTS
        .iter()
        .map(|&input| {
            let bufs: Vec<Vec<u8>> = (0..copies)
                .map(|k| generate(input, len, 0x5EED + k as u64))
                .collect();
            for buf in &bufs {
                assert_eq!(buf.len(), len);
                let valid = std_validate(buf);
                assert_eq!(valid, input != Input::MixedErrors, "{}", input.name());
                assert_eq!(codec_validate(buf), valid);
                assert_eq!(simdutf8_basic(buf), valid);
                for kernel in Kernel::available() {
                    assert_eq!(validate_using(kernel, buf), valid, "{kernel:?}");
                    let mut marks = 0;
                    let fused = validate_marking_using(kernel, buf, &mut |_, _| marks += 1);
                    assert_eq!(fused, valid, "{kernel:?}");
                }
                let errors = std_enumerate(buf);
                assert_eq!(codec_count(buf), errors, "{}", input.name());
                assert_eq!(simdutf8_compat_enumerate(buf), errors, "{}", input.name());
                if input == Input::MixedErrors {
                    assert!(errors >= len / ERROR_EVERY, "{errors} errors");
                }
            }
            (input, bufs)
        })
        .collect()
}

fn benches(c: &mut Criterion<ThreadCpuTime>) {
    // 64 KiB, 16 buffers rotated.
    let small = inputs(SMALL, ROTATION);
    let mut group = c.benchmark_group("validate-64KiB");
    group.throughput(Throughput::Bytes(SMALL as u64));
    for (input, bufs) in &small {
        run(&mut group, &VALIDATORS, *input, bufs);
    }
    group.finish();
    let mut group = c.benchmark_group("enumerate-64KiB");
    group.throughput(Throughput::Bytes(SMALL as u64));
    for (input, bufs) in &small {
        run(&mut group, &ENUMERATORS, *input, bufs);
    }
    group.finish();
    let mut group = c.benchmark_group("marks-64KiB");
    group.throughput(Throughput::Bytes(SMALL as u64));
    for (input, bufs) in &small {
        run(&mut group, &MARKERS, *input, bufs);
    }
    group.finish();
    drop(small);

    // One 64 MiB buffer per input.
    let large = inputs(LARGE, 1);
    let mut group = c.benchmark_group("validate-64MiB");
    group.throughput(Throughput::Bytes(LARGE as u64));
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    for (input, bufs) in &large {
        run(&mut group, &VALIDATORS, *input, bufs);
    }
    group.finish();
    let mut group = c.benchmark_group("enumerate-64MiB");
    group.throughput(Throughput::Bytes(LARGE as u64));
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    for (input, bufs) in &large {
        run(&mut group, &ENUMERATORS, *input, bufs);
    }
    group.finish();
    let mut group = c.benchmark_group("marks-64MiB");
    group.throughput(Throughput::Bytes(LARGE as u64));
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    for (input, bufs) in &large {
        run(&mut group, &MARKERS, *input, bufs);
    }
    group.finish();
}

criterion::criterion_group! {
    name = validate;
    config = Criterion::default()
        .with_measurement(ThreadCpuTime)
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_millis(1500));
    targets = benches
}
criterion::criterion_main!(validate);
