//! The fix gate's memory is bounded by the file and its fixes' output, not
//! by a kilobyte of words per finding: counted by a global allocator that
//! tracks the most bytes live at once.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use utf8lint_diagnostics::Policy;
use utf8lint_workspace::gate::{self, Request, Select};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is handed to the system allocator unchanged; the
// counters only add and subtract sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: the caller's layout, handed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: a pointer this allocator gave out, with its layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most bytes live at once while `fix` runs on `bytes`, above what was
/// live before, and how many findings it fixed.
fn peak_of_fixing(bytes: &[u8]) -> (usize, usize) {
    let policy = Policy::default();
    let select = Select::Applicable { unsafe_fixes: true };
    let request = Request {
        path: Path::new("many.txt"),
        policy: &policy,
        select: &select,
        allow_binary: false,
        filter: None,
    };
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let fixed = gate::fix(bytes, &request).unwrap();
    let peak = PEAK.load(Ordering::Relaxed) - base;
    (peak, fixed.findings)
}

/// `a` + U+FEFF repeated: one fixable finding per 4 bytes. The plan holds
/// one edit (40 bytes, its U+2060 in place) per finding, with the vector's
/// growth, and the output 4 bytes; a whole `Diagnostic` each was about
/// 1.2 KB.
#[test]
fn fixing_many_findings_holds_a_small_multiple_of_the_file() {
    let mut sizes = Vec::new();
    for units in [50_000usize, 100_000] {
        let bytes = "a\u{FEFF}".repeat(units).into_bytes();
        let (peak, fixed) = peak_of_fixing(&bytes);
        assert_eq!(fixed, units);
        let per_finding = peak / units;
        eprintln!("{units} findings: {peak} bytes at most ({per_finding} per finding)");
        assert!(per_finding <= 100, "{per_finding} bytes per finding");
        sizes.push(peak);
    }
    // Twice the findings, about twice the memory: no per-file surprise.
    assert!(sizes[1] <= sizes[0] * 5 / 2, "{sizes:?}");
}
