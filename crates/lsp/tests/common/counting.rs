//! The system allocator, counting the bytes in use and their peak since
//! the last [`Counting::reset_peak`]: what the counted test and the
//! latency bench measure the server's memory with, at the same moments.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

pub(crate) struct Counting {
    in_use: AtomicUsize,
    peak: AtomicUsize,
}

impl Counting {
    pub(crate) const fn new() -> Counting {
        Counting {
            in_use: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
        }
    }

    /// Bytes handed out and not given back.
    pub(crate) fn in_use(&self) -> usize {
        self.in_use.load(Ordering::SeqCst)
    }

    /// The most bytes in use at once since the last reset.
    pub(crate) fn peak(&self) -> usize {
        self.peak.load(Ordering::SeqCst)
    }

    /// Starts a new peak from what is in use now.
    pub(crate) fn reset_peak(&self) {
        self.peak.store(self.in_use(), Ordering::SeqCst);
    }
}

// SAFETY: every call is passed to `System` as it came; only counters are
// kept beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc` requires.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = self.in_use.fetch_add(layout.size(), Ordering::SeqCst) + layout.size();
            self.peak.fetch_max(now, Ordering::SeqCst);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) };
        self.in_use.fetch_sub(layout.size(), Ordering::SeqCst);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from `alloc` with `layout`, as the caller
        // promises; `new_size` is the caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let grown = new_size - layout.size();
                let now = self.in_use.fetch_add(grown, Ordering::SeqCst) + grown;
                self.peak.fetch_max(now, Ordering::SeqCst);
            } else {
                self.in_use
                    .fetch_sub(layout.size() - new_size, Ordering::SeqCst);
            }
        }
        p
    }
}
