//! Reading a file's bytes with as few system calls as possible and bounded
//! memory.
//!
//! * Small and medium files (up to [`MMAP_THRESHOLD`]) are read into a
//!   buffer that each worker thread reuses: `open`, `fstat` (for the size,
//!   and the stamp `--fix` compares later), one `read` of size + 1 bytes
//!   (a short count from a regular file means end of file, so no second
//!   `read` is needed to see EOF), `close`. Four calls per file.
//! * Larger files are memory-mapped read-only. The pages are backed by the
//!   file, so the kernel can drop them under pressure: a 4 GiB file needs
//!   address space, not 4 GiB of RAM. The checks walk the bytes once, front
//!   to back (`MADV_SEQUENTIAL`), and keep only capped diagnostics.
//!   A file truncated by someone else while mapped could fault (SIGBUS);
//!   ripgrep accepts the same risk for the same speed.
//! * Each thread's buffer therefore never grows past the threshold, and the
//!   peak memory of a scan is about threads x threshold plus the findings.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::time::SystemTime;

use memmap2::{Mmap, MmapOptions};

/// Files larger than this are memory-mapped instead of read.
pub const MMAP_THRESHOLD: u64 = 16 * 1024 * 1024;

/// What a file was when it was read: `--fix` refuses to replace a file whose
/// stamp changed since.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    pub len: u64,
    pub modified: Option<SystemTime>,
    #[cfg(unix)]
    pub ino: u64,
    #[cfg(unix)]
    pub dev: u64,
}

impl Stamp {
    pub fn of(meta: &std::fs::Metadata) -> Stamp {
        #[cfg(unix)]
        use std::os::unix::fs::MetadataExt;
        Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
            #[cfg(unix)]
            ino: meta.ino(),
            #[cfg(unix)]
            dev: meta.dev(),
        }
    }
}

/// A file's bytes: in the thread's buffer or mapped.
pub enum Contents {
    /// The first `len` bytes of the thread's buffer.
    Buffered(usize),
    Mapped(Mmap),
}

impl Contents {
    pub fn bytes<'a>(&'a self, buf: &'a [u8]) -> &'a [u8] {
        match self {
            Contents::Buffered(len) => &buf[..*len],
            Contents::Mapped(map) => map,
        }
    }
}

pub struct Loaded {
    pub contents: Contents,
    pub stamp: Stamp,
}

/// Why a path was not read.
pub enum LoadError {
    /// Not a regular file (a FIFO, a socket, a device): never opened for
    /// reading, so a scan cannot hang on a pipe.
    NotAFile,
    Io(io::Error),
}

impl From<io::Error> for LoadError {
    fn from(e: io::Error) -> Self {
        LoadError::Io(e)
    }
}

/// Reads `path`, reusing `buf`.
pub fn load(path: &Path, buf: &mut Vec<u8>) -> Result<Loaded, LoadError> {
    let mut file = open_for_reading(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(LoadError::NotAFile);
    }
    let stamp = Stamp::of(&meta);
    if stamp.len > MMAP_THRESHOLD {
        // SAFETY: the map is read-only and private to this process; the
        // bytes may change if another process writes the file meanwhile
        // (then the findings describe a mix, as any reader would see), and
        // a concurrent truncation can fault, as documented above.
        if let Ok(map) = unsafe { MmapOptions::new().map(&file) } {
            #[cfg(unix)]
            let _ = map.advise(memmap2::Advice::Sequential);
            return Ok(Loaded {
                contents: Contents::Mapped(map),
                stamp,
            });
        }
    }
    let len = read_sized(&mut file, stamp.len, buf)?;
    Ok(Loaded {
        contents: Contents::Buffered(len),
        stamp,
    })
}

/// Reads all of `file`, expected to be `expected` bytes long, into `buf`
/// (whose length only ever grows: the bytes past what is read are stale
/// and never looked at). Returns how many bytes were read.
fn read_sized(file: &mut File, expected: u64, buf: &mut Vec<u8>) -> io::Result<usize> {
    if expected == 0 {
        // Nothing to read; a file growing right now is read next time.
        return Ok(0);
    }
    let want = usize::try_from(expected).unwrap_or(usize::MAX - 1) + 1;
    if buf.len() < want {
        buf.resize(want, 0);
    }
    let mut filled = 0;
    loop {
        if filled == buf.len() {
            // The file grew past its size: keep reading.
            let grow = buf.len().max(64 * 1024);
            buf.resize(buf.len() + grow, 0);
        }
        match file.read(&mut buf[filled..]) {
            Ok(0) => return Ok(filled),
            Ok(n) => {
                filled += n;
                // A regular file returns fewer bytes than asked only at its
                // end: having read what fstat promised and not the one byte
                // more, we are done without another read.
                if filled as u64 == expected && filled < want {
                    return Ok(filled);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

#[cfg(unix)]
fn open_for_reading(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK: opening a FIFO must not wait for a writer; it is then
    // rejected as not a regular file. Reads of regular files ignore it.
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_for_reading(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// Reads all of standard input into `buf`. Standard input cannot be mapped,
/// so this is the one input whose size bounds memory; use a file path for
/// huge inputs.
pub fn load_stdin(buf: &mut Vec<u8>) -> io::Result<usize> {
    buf.clear();
    io::stdin().lock().read_to_end(buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn file_with(bytes: &[u8]) -> (tempfile::NamedTempFile, File) {
        let mut tmp = tempfile::NamedTempFile::new().unwrap();
        tmp.write_all(bytes).unwrap();
        let f = File::open(tmp.path()).unwrap();
        (tmp, f)
    }

    #[test]
    fn sized_read_gets_everything_even_if_the_size_was_stale() {
        let mut buf = Vec::new();
        // The file grew after fstat: keep reading past the expected size.
        let (_t, mut f) = file_with(b"0123456789");
        assert_eq!(read_sized(&mut f, 3, &mut buf).unwrap(), 10);
        assert_eq!(&buf[..10], b"0123456789");
        // It shrank: stop at its end.
        let (_t, mut f) = file_with(b"abc");
        assert_eq!(read_sized(&mut f, 50, &mut buf).unwrap(), 3);
        assert_eq!(&buf[..3], b"abc");
        // The buffer is reused, never shrunk; stale bytes past the length are
        // never looked at.
        assert!(buf.len() >= 51);
    }

    #[test]
    fn load_reads_small_files_into_the_buffer() {
        let (t, _f) = file_with(b"hello");
        let mut buf = Vec::new();
        let loaded = load(t.path(), &mut buf).ok().unwrap();
        assert!(matches!(loaded.contents, Contents::Buffered(5)));
        assert_eq!(loaded.contents.bytes(&buf), b"hello");
        assert_eq!(loaded.stamp.len, 5);
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            load(dir.path(), &mut buf),
            Err(LoadError::NotAFile) | Err(LoadError::Io(_))
        ));
    }
}
