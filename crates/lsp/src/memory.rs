//! The allocator's tuning for the server's process.
//!
//! glibc's malloc raises its mmap threshold each time a large block is
//! freed, so that later large blocks (a message carrying a whole text, a
//! file's bytes, a text copied out of the rope) land in the threads'
//! arenas and stay resident once freed: a 1 MB document kept about nine
//! times its size resident. With the threshold fixed at 128 KiB, each such
//! block is a mapping of its own, given back to the system when freed
//! (about three times). glibc reads its tunables from the environment when
//! the process starts, and only then: `utf8lint lsp` executes itself again
//! once, with the tunable added to `GLIBC_TUNABLES`, unless the environment
//! already sets the threshold. Elsewhere (another C library, another
//! system) nothing is done.

use std::ffi::{OsStr, OsString};

/// glibc's environment variable for its tunables.
const TUNABLES: &str = "GLIBC_TUNABLES";

/// The tunable, and its name.
const MMAP_THRESHOLD: &str = "glibc.malloc.mmap_threshold=131072";
const MMAP_THRESHOLD_NAME: &str = "glibc.malloc.mmap_threshold=";

/// glibc's older variable for the same setting.
const LEGACY: &str = "MALLOC_MMAP_THRESHOLD_";

/// Set on the process executed again, so that it never does so itself
/// (glibc drops `GLIBC_TUNABLES` in a set-user-ID process, for one).
const TUNED: &str = "UTF8LINT_ALLOCATOR_TUNED";

/// Executes the process again with the allocator tuned (see the module
/// docs), where that applies and has not been done; returns only if it
/// did not, with the reason when executing failed.
pub fn tune_allocator() -> Option<std::io::Error> {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use std::os::unix::process::CommandExt;
        if std::env::var_os(TUNED).is_some() || std::env::var_os(LEGACY).is_some() {
            return None;
        }
        let value = tuned(std::env::var_os(TUNABLES).as_deref())?;
        let exe = match std::env::current_exe() {
            Ok(exe) => exe,
            Err(e) => return Some(e),
        };
        let mut args = std::env::args_os();
        let mut command = std::process::Command::new(exe);
        if let Some(name) = args.next() {
            command.arg0(name);
        }
        // Returns only on failure.
        Some(
            command
                .args(args)
                .env(TUNABLES, value)
                .env(TUNED, "1")
                .exec(),
        )
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    None
}

/// `GLIBC_TUNABLES` with the mmap threshold added to `current`, or `None`
/// when `current` sets it already (or is not UTF-8, and is left alone).
fn tuned(current: Option<&OsStr>) -> Option<OsString> {
    let Some(current) = current else {
        return Some(MMAP_THRESHOLD.into());
    };
    let current = current.to_str()?;
    if current
        .split(':')
        .any(|t| t.starts_with(MMAP_THRESHOLD_NAME))
    {
        return None;
    }
    Some(if current.is_empty() {
        MMAP_THRESHOLD.into()
    } else {
        format!("{current}:{MMAP_THRESHOLD}").into()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_threshold_is_added_to_the_tunables_unless_set() {
        assert_eq!(tuned(None), Some(MMAP_THRESHOLD.into()));
        assert_eq!(tuned(Some(OsStr::new(""))), Some(MMAP_THRESHOLD.into()));
        assert_eq!(
            tuned(Some(OsStr::new("glibc.malloc.arena_max=2"))),
            Some(format!("glibc.malloc.arena_max=2:{MMAP_THRESHOLD}").into())
        );
        assert_eq!(
            tuned(Some(OsStr::new(
                "glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=65536"
            ))),
            None
        );
    }
}
