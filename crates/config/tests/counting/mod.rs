//! Counts what a test binary's threads allocate, each its own: the bytes
//! live, their peak, and the allocations made. Tests run on threads of
//! their own, so one test's counts are its own work alone, the same on a
//! busy machine as on an idle one. A test binary that includes this module
//! installs [`Counting`] as its global allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

pub(crate) struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn note(delta: isize, allocations: usize) {
    // `try_with`: nothing to count while the thread's locals are torn
    // down.
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + allocations));
    });
}

// SAFETY: every call is passed on to the system allocator unchanged;
// the counting touches only const-initialised thread locals, which
// never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            note(layout.size() as isize, 1);
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            note(layout.size() as isize, 1);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) };
        note(-(layout.size() as isize), 0);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            note(new_size as isize - layout.size() as isize, 1);
        }
        p
    }
}

/// What running a closure cost this thread.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cost {
    /// The most bytes live at once, above those live before.
    pub(crate) peak: usize,
    /// The bytes still live when it returned (what its result holds).
    pub(crate) held: usize,
    /// Allocations and reallocations made.
    pub(crate) allocations: usize,
}

/// Runs `f` and counts what it allocates; its result is dropped after
/// the counting.
pub(crate) fn cost<T>(f: impl FnOnce() -> T) -> Cost {
    let start = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(start));
    let allocations = ALLOCATIONS.with(Cell::get);
    let result = f();
    let cost = Cost {
        peak: (PEAK.with(Cell::get) - start).max(0) as usize,
        held: (LIVE.with(Cell::get) - start).max(0) as usize,
        allocations: ALLOCATIONS.with(Cell::get) - allocations,
    };
    drop(result);
    cost
}
