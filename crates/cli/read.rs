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
//! * Files found by the walk ([`load_walked`]) cost less: the walker has
//!   already said they are regular files, so unless `--fix` needs the stamp
//!   there is no `fstat` (one `read` into the thread's buffer, a short count
//!   being the end of the file; only a file that fills the first 64 KiB is
//!   measured, and mapped if it is over 256 KiB). On Linux they are opened
//!   relative to their directory (`openat` on a descriptor kept in a small
//!   per-thread [`DirCache`]), so the kernel looks up one name instead of
//!   walking the whole path. Three calls per file: `openat`, `read`, `close`,
//!   made directly (see [`sys`]), with `O_NOATIME` when the kernel allows it.
//! * Each worker thread has a descriptor table of its own
//!   ([`own_fd_table`]), so opening and closing files on two cores does not
//!   pass one lock between them.

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
    /// `None` when the caller did not ask for it.
    pub stamp: Option<Stamp>,
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
                stamp: Some(stamp),
            });
        }
    }
    let len = read_sized(&mut file, stamp.len, buf)?;
    Ok(Loaded {
        contents: Contents::Buffered(len),
        stamp: Some(stamp),
    })
}

/// The thread's buffer holds at least this much, so that one `read` takes
/// all of a typical source file.
const FIRST_READ: usize = 64 * 1024;

/// Walked files larger than this are mapped, with their pages mapped up
/// front (`MAP_POPULATE`): the bytes are read once, in place, instead of
/// being copied into the buffer first. (For small files the copy costs less
/// than a mapping's setup and teardown.) Half the bytes of a Linux source
/// tree are in the 1% of files above 64 KiB.
const MAP_ABOVE: u64 = 256 * 1024;

/// Reads a file the walker found (a regular file when it was listed),
/// reusing `buf`; the stamp only if `need_stamp`.
pub fn load_walked(
    dirs: &mut DirCache,
    path: &Path,
    buf: &mut Vec<u8>,
    need_stamp: bool,
) -> Result<Loaded, LoadError> {
    if need_stamp {
        return load(path, buf);
    }
    let mut file = dirs.open(path)?;
    if buf.len() < FIRST_READ {
        buf.resize(FIRST_READ, 0);
    }
    let mut filled = 0;
    let end = loop {
        if filled == buf.len() {
            break None;
        }
        match sys::read(&mut file, &mut buf[filled..]) {
            // A short count from a regular file is its end (as in
            // `read_sized`): the common case, one `read` and done.
            Ok(0) => break Some(filled),
            Ok(n) if filled + n < buf.len() => break Some(filled + n),
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.into()),
        }
    };
    if let Some(len) = end {
        sys::close(file);
        return Ok(Loaded {
            contents: Contents::Buffered(len),
            stamp: None,
        });
    }
    // The file fills the buffer: measure it, then map or keep reading.
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(LoadError::NotAFile);
    }
    if meta.len() > MAP_ABOVE {
        let mut options = MmapOptions::new();
        if meta.len() <= MMAP_THRESHOLD {
            // Bounded by the threshold; above it, pages come as they are read.
            options.populate();
        }
        // SAFETY: as in `load`.
        if let Ok(map) = unsafe { options.map(&file) } {
            // Read ahead only matters for pages not mapped up front.
            #[cfg(unix)]
            if meta.len() > MMAP_THRESHOLD {
                let _ = map.advise(memmap2::Advice::Sequential);
            }
            return Ok(Loaded {
                contents: Contents::Mapped(map),
                stamp: None,
            });
        }
    }
    let len = read_rest(&mut file, filled, meta.len(), buf)?;
    Ok(Loaded {
        contents: Contents::Buffered(len),
        stamp: None,
    })
}

/// How many directories each thread keeps open.
const DIR_CACHE: usize = 16;

/// A thread's open directories, most recently used first. The walk is
/// depth-first per thread (the `ignore` crate's workers are LIFO), so the
/// files of one directory come one after another, and after a subdirectory
/// the walk comes back to its parent: a few entries hold nearly every hit.
#[derive(Default)]
pub struct DirCache {
    #[cfg(target_os = "linux")]
    dirs: Vec<(std::path::PathBuf, std::os::fd::OwnedFd)>,
    /// The file name, NUL-terminated, reused.
    #[cfg(target_os = "linux")]
    name: Vec<u8>,
    /// Set once `O_NOATIME` was refused (a file we do not own): from then
    /// on files are opened without it.
    #[cfg(target_os = "linux")]
    atime_refused: bool,
    /// The thread that opened `dirs`: its descriptor table holds them (a
    /// worker's table is its own, see [`own_fd_table`]).
    #[cfg(target_os = "linux")]
    thread: Option<std::thread::ThreadId>,
}

#[cfg(target_os = "linux")]
impl Drop for DirCache {
    fn drop(&mut self) {
        // Dropped on another thread, closing these numbers would close that
        // thread's own descriptors. Leave them to their table: the kernel
        // closes a thread's own table's descriptors when the thread ends.
        if self
            .thread
            .is_some_and(|t| t != std::thread::current().id())
        {
            for (_, fd) in self.dirs.drain(..) {
                let _ = std::os::fd::IntoRawFd::into_raw_fd(fd);
            }
        }
    }
}

impl DirCache {
    /// The open directory `parent` (its path's bytes), from the cache or
    /// opened and cached now; `None` if it cannot be opened.
    #[cfg(target_os = "linux")]
    fn dir(&mut self, parent: &Path) -> Option<&std::os::fd::OwnedFd> {
        match self
            .dirs
            .iter()
            .position(|(p, _)| p.as_os_str() == parent.as_os_str())
        {
            Some(i) => self.dirs[..=i].rotate_right(1),
            None => {
                let fd = self
                    .open_dir_from_parent(parent)
                    .or_else(|| open_dir(parent).ok())?;
                if self.dirs.len() == DIR_CACHE {
                    self.dirs.pop();
                }
                if self.dirs.is_empty() {
                    self.thread = Some(std::thread::current().id());
                }
                self.dirs.insert(0, (parent.to_path_buf(), fd));
            }
        }
        Some(&self.dirs[0].1)
    }

    /// Opens the directory `dir` relative to its parent when the parent is
    /// open already (the walk goes depth-first, so it usually is): the
    /// kernel then looks up one name instead of every component of the path.
    #[cfg(target_os = "linux")]
    fn open_dir_from_parent(&mut self, dir: &Path) -> Option<std::os::fd::OwnedFd> {
        use std::os::fd::AsRawFd;
        use std::os::unix::ffi::OsStrExt;
        let bytes = dir.as_os_str().as_bytes();
        let slash = bytes.iter().rposition(|&b| b == b'/').filter(|&i| i > 0)?;
        let (parent, name) = (&bytes[..slash], &bytes[slash + 1..]);
        let parent_fd = self
            .dirs
            .iter()
            .find(|(p, _)| p.as_os_str().as_bytes() == parent)?
            .1
            .as_raw_fd();
        self.set_name(name)?;
        let flags = libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC;
        sys::openat(parent_fd, &self.name, flags)
            .ok()
            .map(Into::into)
    }

    /// Puts `name`, NUL-terminated, in `self.name`; `None` if it is not a
    /// plain name (empty, `.`, `..`, or with a `/` or a NUL), which the
    /// caller then leaves to a lookup of the whole path.
    #[cfg(target_os = "linux")]
    fn set_name(&mut self, name: &[u8]) -> Option<()> {
        if name.is_empty()
            || name == b"."
            || name == b".."
            || name.contains(&0)
            || name.contains(&b'/')
        {
            return None;
        }
        self.name.clear();
        self.name.extend_from_slice(name);
        self.name.push(0);
        Some(())
    }

    /// Opens `name` (no `/`, no NUL) in the open directory `parent`; `None`
    /// when that cannot be done relative to it (the caller then uses the
    /// whole path).
    #[cfg(target_os = "linux")]
    fn open_in(&mut self, parent: &Path, name: &[u8]) -> Option<io::Result<File>> {
        use std::os::fd::AsRawFd;
        // The directory first: opening it may use `self.name` too.
        let dir = self.dir(parent)?.as_raw_fd();
        self.set_name(name)?;
        // The flags of `open_for_reading`, and O_NOATIME: a linter reading
        // a file is not a use of it worth recording, and the kernel skips
        // the access-time check on every read (about 1% of a scan). Only the
        // owner may ask for it; for anyone else's file it is EPERM.
        let flags = libc::O_RDONLY | libc::O_NONBLOCK | libc::O_CLOEXEC;
        if !self.atime_refused {
            match sys::openat(dir, &self.name, flags | libc::O_NOATIME) {
                Err(e) if e.raw_os_error() == Some(libc::EPERM) => self.atime_refused = true,
                opened => return Some(opened),
            }
        }
        Some(sys::openat(dir, &self.name, flags))
    }

    /// Whether `name` (no `/`) exists in the directory `parent`: `None`
    /// when that cannot be asked relative to it, or the answer is not a
    /// plain yes or no (the caller then opens the file and sees why).
    #[cfg(target_os = "linux")]
    fn exists_in(&mut self, parent: &Path, name: &[u8]) -> Option<bool> {
        use std::os::fd::AsRawFd;
        let dir = self.dir(parent)?.as_raw_fd();
        self.set_name(name)?;
        // SAFETY: all-zero is a valid `stat`.
        let mut stat: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: `dir` is open, `name` NUL-terminated, `stat` writable.
        let r = unsafe { libc::fstatat(dir, self.name.as_ptr().cast(), &mut stat, 0) };
        match r {
            0 => Some(true),
            _ if io::Error::last_os_error().raw_os_error() == Some(libc::ENOENT) => Some(false),
            _ => None,
        }
    }

    #[cfg(target_os = "linux")]
    fn open(&mut self, path: &Path) -> io::Result<File> {
        use std::os::unix::ffi::OsStrExt;
        // Split at the last `/` by hand: `Path::parent` and `file_name`
        // parse components, which shows in a profile at 80,000 files.
        let bytes = path.as_os_str().as_bytes();
        let (parent, name) = match bytes.iter().rposition(|&b| b == b'/') {
            Some(0) => (Path::new("/"), &bytes[1..]),
            Some(i) => (
                Path::new(std::ffi::OsStr::from_bytes(&bytes[..i])),
                &bytes[i + 1..],
            ),
            None => (Path::new("."), bytes),
        };
        self.open_in(parent, name)
            .unwrap_or_else(|| open_for_reading(path))
    }

    #[cfg(not(target_os = "linux"))]
    fn open(&mut self, path: &Path) -> io::Result<File> {
        open_for_reading(path)
    }
}

/// The configuration files of a directory whose files are being read are
/// read through the same open directory.
impl utf8lint_config::ConfigReader for DirCache {
    fn read_config(&mut self, dir: &Path, name: &str) -> io::Result<Option<Vec<u8>>> {
        // Nearly every directory has neither file: ask with `fstatat`, which
        // only looks the name up, where a failing `openat` first sets up an
        // open file and then throws it away.
        #[cfg(target_os = "linux")]
        if self.exists_in(dir, name.as_bytes()) == Some(false) {
            return Ok(None);
        }
        #[cfg(target_os = "linux")]
        let opened = self
            .open_in(dir, name.as_bytes())
            .unwrap_or_else(|| open_for_reading(&dir.join(name)));
        #[cfg(not(target_os = "linux"))]
        let opened = open_for_reading(&dir.join(name));
        let mut file = match opened {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        Ok(Some(bytes))
    }
}

/// Gives the calling thread a descriptor table of its own (a copy).
///
/// Every `open` and `close` takes the table's lock; with the table shared,
/// two cores opening and closing files pass that lock's cache line back and
/// forth (2% of a whole-tree scan). A worker's descriptors never leave its
/// thread: files are opened, read or mapped, and closed there, and the
/// walker lists each directory on the thread that opened it.
pub fn own_fd_table() {
    #[cfg(target_os = "linux")]
    // SAFETY: unshare(CLONE_FILES) takes no pointers; if it fails, the
    // thread keeps the shared table, which is only slower.
    unsafe {
        libc::unshare(libc::CLONE_FILES);
    }
}

/// The three calls a walked file costs, made directly: glibc's `openat`,
/// `read` and `close` are cancellation points, and in a multi-threaded
/// process each call through them does two atomic read-modify-writes of
/// the thread's cancellation state (glibc 2.36), about 1% of a whole-tree
/// scan. Nothing here cancels threads. Elsewhere, the standard library.
mod sys {
    use std::fs::File;
    use std::io;

    /// Opens the NUL-terminated `name` relative to the directory `dir`.
    #[cfg(target_os = "linux")]
    pub fn openat(dir: std::os::fd::RawFd, name: &[u8], flags: i32) -> io::Result<File> {
        use std::os::fd::FromRawFd;
        debug_assert_eq!(name.last(), Some(&0), "a NUL-terminated name");
        // SAFETY: `dir` is a descriptor and `name` NUL-terminated; the
        // kernel reads nothing else.
        let fd = unsafe { libc::syscall(libc::SYS_openat, dir, name.as_ptr(), flags, 0) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: the kernel just opened `fd`, owned by nothing else; it
        // is a descriptor, so it fits an i32.
        Ok(unsafe { File::from_raw_fd(fd as i32) })
    }

    pub fn read(file: &mut File, buf: &mut [u8]) -> io::Result<usize> {
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            // SAFETY: `buf` is writable for its length.
            let n = unsafe {
                libc::syscall(
                    libc::SYS_read,
                    file.as_raw_fd(),
                    buf.as_mut_ptr(),
                    buf.len(),
                )
            };
            if n < 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(n as usize)
        }
        #[cfg(not(target_os = "linux"))]
        {
            use std::io::Read;
            file.read(buf)
        }
    }

    /// Closes `file`. (Its close cannot fail in a way that matters: it was
    /// only read.)
    pub fn close(file: File) {
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::IntoRawFd;
            // SAFETY: the descriptor is ours and closed once.
            unsafe { libc::syscall(libc::SYS_close, file.into_raw_fd()) };
        }
        #[cfg(not(target_os = "linux"))]
        drop(file);
    }
}

/// A directory opened only to be the base of `openat` (`O_PATH`: no read
/// permission needed, nothing read).
#[cfg(target_os = "linux")]
fn open_dir(dir: &Path) -> io::Result<std::os::fd::OwnedFd> {
    use std::os::fd::FromRawFd;
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(dir.as_os_str().as_bytes())
        .map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    // SAFETY: `c` is a NUL-terminated path.
    let fd = unsafe {
        libc::open(
            c.as_ptr(),
            libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC,
        )
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` was just opened and is owned by nothing else.
    Ok(unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) })
}

/// Reads all of `file`, expected to be `expected` bytes long, into `buf`
/// (whose length only ever grows: the bytes past what is read are stale
/// and never looked at). Returns how many bytes were read.
fn read_sized(file: &mut File, expected: u64, buf: &mut Vec<u8>) -> io::Result<usize> {
    if expected == 0 {
        // Nothing to read; a file growing right now is read next time.
        return Ok(0);
    }
    read_rest(file, 0, expected, buf)
}

/// [`read_sized`] for a file whose first `filled` bytes are already in
/// `buf`.
fn read_rest(
    file: &mut File,
    mut filled: usize,
    expected: u64,
    buf: &mut Vec<u8>,
) -> io::Result<usize> {
    let want = usize::try_from(expected).unwrap_or(usize::MAX - 1) + 1;
    if buf.len() < want {
        buf.resize(want, 0);
    }
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
        assert_eq!(loaded.stamp.map(|s| s.len), Some(5));
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            load(dir.path(), &mut buf),
            Err(LoadError::NotAFile) | Err(LoadError::Io(_))
        ));
    }

    #[test]
    fn walked_files_read_through_the_directory_cache_whatever_their_size() {
        let root = tempfile::tempdir().unwrap();
        let mut files = Vec::new();
        // More directories than the cache holds, visited twice over, and
        // sizes around the first read's size.
        let sizes = [
            0,
            1,
            4096,
            FIRST_READ - 1,
            FIRST_READ,
            FIRST_READ + 1,
            3 * FIRST_READ,
        ];
        for d in 0..DIR_CACHE + 4 {
            let dir = root.path().join(format!("d{d}"));
            std::fs::create_dir(&dir).unwrap();
            let size = sizes[d % sizes.len()];
            let bytes: Vec<u8> = (0..size).map(|i| (i * 7 + d) as u8).collect();
            let path = dir.join("f");
            std::fs::write(&path, &bytes).unwrap();
            files.push((path, bytes));
        }
        let mut cache = DirCache::default();
        let mut buf = Vec::new();
        for round in 0..2 {
            for (path, bytes) in files.iter().chain(files.iter().rev()) {
                let loaded = load_walked(&mut cache, path, &mut buf, false).ok().unwrap();
                assert!(loaded.stamp.is_none());
                assert!(
                    loaded.contents.bytes(&buf) == bytes.as_slice(),
                    "{} (round {round})",
                    path.display()
                );
                let stamped = load_walked(&mut cache, path, &mut buf, true).ok().unwrap();
                assert_eq!(stamped.stamp.map(|s| s.len), Some(bytes.len() as u64));
            }
        }
        #[cfg(target_os = "linux")]
        assert_eq!(cache.dirs.len(), DIR_CACHE);
    }

    #[test]
    fn a_walked_file_that_vanished_is_an_error_not_an_empty_file() {
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join("gone");
        std::fs::write(&path, b"x").unwrap();
        let mut cache = DirCache::default();
        let mut buf = Vec::new();
        assert!(load_walked(&mut cache, &path, &mut buf, false).is_ok());
        std::fs::remove_file(&path).unwrap();
        match load_walked(&mut cache, &path, &mut buf, false) {
            Err(LoadError::Io(e)) => assert_eq!(e.kind(), io::ErrorKind::NotFound),
            _ => panic!("a vanished file must be an I/O error"),
        }
    }
    #[test]
    fn nested_directories_open_relative_to_their_parents() {
        // Depth-first, as the walk goes: each directory's own file first (so
        // it is cached), then its subdirectory's, which is opened relative
        // to it; then back up, and again after the cache has turned over.
        let root = tempfile::tempdir().unwrap();
        let mut dir = root.path().to_path_buf();
        let mut files = Vec::new();
        for depth in 0..DIR_CACHE + 3 {
            dir = dir.join(format!("level{depth}"));
            std::fs::create_dir(&dir).unwrap();
            let path = dir.join(format!("file{depth}.txt"));
            let bytes = format!("depth {depth}\n").repeat(depth + 1).into_bytes();
            std::fs::write(&path, &bytes).unwrap();
            files.push((path, bytes));
        }
        let mut cache = DirCache::default();
        let mut buf = Vec::new();
        for (path, bytes) in files.iter().chain(files.iter().rev()).chain(files.iter()) {
            let loaded = load_walked(&mut cache, path, &mut buf, false).ok().unwrap();
            assert_eq!(
                loaded.contents.bytes(&buf),
                bytes.as_slice(),
                "{}",
                path.display()
            );
        }
    }

    #[test]
    fn configuration_files_are_read_through_the_directory_cache() {
        use utf8lint_config::ConfigReader;
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("utf8lint.toml"), b"[lints]\n").unwrap();
        std::fs::create_dir(root.path().join(".editorconfig")).unwrap();
        std::fs::write(root.path().join("a.txt"), b"a").unwrap();
        let mut cache = DirCache::default();
        let mut buf = Vec::new();
        // The directory is open for its file and for its configuration.
        load_walked(&mut cache, &root.path().join("a.txt"), &mut buf, false)
            .ok()
            .unwrap();
        let read = |cache: &mut DirCache, name: &str| cache.read_config(root.path(), name);
        assert_eq!(
            read(&mut cache, "utf8lint.toml").unwrap(),
            Some(b"[lints]\n".to_vec())
        );
        assert_eq!(read(&mut cache, "missing.toml").unwrap(), None);
        // A directory where a file was expected is an error for the
        // resolver to judge (it ignores one), not a panic or an empty file.
        assert_eq!(
            read(&mut cache, ".editorconfig").unwrap_err().kind(),
            io::ErrorKind::IsADirectory
        );
        // A directory not open yet is opened for the question.
        let sub = root.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        std::fs::write(sub.join(".editorconfig"), b"root = true\n").unwrap();
        assert_eq!(
            cache.read_config(&sub, ".editorconfig").unwrap(),
            Some(b"root = true\n".to_vec())
        );
    }
    #[cfg(target_os = "linux")]
    #[test]
    fn a_cache_dropped_on_another_thread_closes_none_of_its_descriptors() {
        use std::os::fd::AsRawFd;
        let root = tempfile::tempdir().unwrap();
        for d in 0..4 {
            std::fs::create_dir(root.path().join(format!("d{d}"))).unwrap();
            std::fs::write(root.path().join(format!("d{d}/f")), b"x").unwrap();
        }
        let base = root.path().to_path_buf();
        let cache = std::thread::spawn(move || {
            own_fd_table();
            let mut cache = DirCache::default();
            let mut buf = Vec::new();
            for d in 0..4 {
                let path = base.join(format!("d{d}/f"));
                load_walked(&mut cache, &path, &mut buf, false)
                    .ok()
                    .unwrap();
            }
            cache
        })
        .join()
        .unwrap();
        // The numbers the worker's directories had are free in this
        // thread's table: files opened here get them.
        let held: Vec<File> = (0..8)
            .map(|_| File::open(root.path().join("d0/f")).unwrap())
            .collect();
        drop(cache);
        for file in &held {
            // SAFETY: all-zero is a valid `stat`.
            let mut stat: libc::stat = unsafe { std::mem::zeroed() };
            // SAFETY: `stat` is writable.
            let r = unsafe { libc::fstat(file.as_raw_fd(), &mut stat) };
            assert_eq!(r, 0, "descriptor {} was closed", file.as_raw_fd());
        }
    }
}
