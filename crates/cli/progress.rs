//! Progress on standard error during long scans, only when standard error is
//! a terminal: `12345 files, 210.3 MiB (180.2 MiB/s)`, redrawn in place and
//! erased at the end. Nothing at all when piped.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::check::Stats;

/// Scans shorter than this show no progress at all.
const QUIET_FOR: Duration = Duration::from_millis(500);
const EVERY: Duration = Duration::from_millis(200);

/// A reporter thread that reads the shared counters.
pub(crate) struct Handle {
    stop: Arc<(Mutex<bool>, Condvar)>,
    drew: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Handle {
    /// Starts reporting on `stats` if `enabled`.
    pub(crate) fn start(stats: Arc<Stats>, enabled: bool) -> Handle {
        let stop = Arc::new((Mutex::new(false), Condvar::new()));
        let drew = Arc::new(AtomicBool::new(false));
        if !enabled {
            return Handle {
                stop,
                drew,
                thread: None,
            };
        }
        let (stop2, drew2) = (stop.clone(), drew.clone());
        let thread = std::thread::spawn(move || {
            let started = Instant::now();
            let (lock, cvar) = &*stop2;
            let mut stopped = lock.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                let (guard, _) = cvar
                    .wait_timeout(stopped, EVERY)
                    .unwrap_or_else(|e| e.into_inner());
                stopped = guard;
                if *stopped {
                    break;
                }
                let elapsed = started.elapsed();
                if elapsed < QUIET_FOR {
                    continue;
                }
                let files = stats.files.load(Ordering::Relaxed);
                let bytes = stats.bytes.load(Ordering::Relaxed);
                let rate = bytes as f64 / elapsed.as_secs_f64();
                let mut err = std::io::stderr().lock();
                let _ = write!(
                    err,
                    "\r\x1b[K{files} files, {} ({}/s)",
                    human_bytes(bytes),
                    human_bytes(rate as u64)
                );
                let _ = err.flush();
                drew2.store(true, Ordering::Relaxed);
            }
        });
        Handle {
            stop,
            drew,
            thread: Some(thread),
        }
    }

    /// Stops the reporter and erases its line.
    pub(crate) fn stop(mut self) {
        if let Some(thread) = self.thread.take() {
            let (lock, cvar) = &*self.stop;
            *lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
            cvar.notify_all();
            let _ = thread.join();
            if self.drew.load(Ordering::Relaxed) {
                let _ = write!(std::io::stderr(), "\r\x1b[K");
            }
        }
    }
}

/// `12.0 KiB`, `3.4 MiB`.
pub(crate) fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = n as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{n} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}
