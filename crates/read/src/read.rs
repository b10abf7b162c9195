//! Reading a file with its type and size checked: portable std I/O into
//! the caller's reused buffer, no mapping (a mapped file that shrinks kills
//! the process with SIGBUS). A file read for a check alone takes one `read`
//! when it fits the buffer; one whose stamp a fix needs, `fstat` and one
//! `read`.

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::Path;

use crate::Stamp;

/// What the caller allows.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadOptions {
    /// Refuse files larger than this many bytes (before reading them, and
    /// while reading one that grows). `None`: no limit.
    pub max_len: Option<u64>,
    /// Read a FIFO, character device or other special file too (a file the
    /// user named on the command line, such as `<(cat x)` or
    /// `/proc/self/status`). Otherwise only regular files are opened, so a
    /// scan never blocks on a pipe or reads a device.
    pub allow_special: bool,
    /// Take the file's [`Stamp`] (`fstat` on the open file before reading),
    /// which a fix needs to replace it. Without it, and without
    /// `allow_special`, a file that one `read` returns whole, short of the
    /// buffer, is taken as it is, with no `fstat`: a regular file returns
    /// fewer bytes than asked only at its end (POSIX `read`), and that
    /// syscall was 5% of a whole-tree scan. Anything else (nothing read, an
    /// error, a full buffer) is settled by `fstat` as with a stamp, so a
    /// directory, device or FIFO found in a file's place is still refused
    /// by type; one that swapped in with bytes waiting is read, never
    /// waited on.
    pub stamp: bool,
}

/// What kind of file a path named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    Regular,
    Directory,
    Fifo,
    Socket,
    CharDevice,
    BlockDevice,
    Other,
}

impl FileKind {
    pub fn of(file_type: fs::FileType) -> FileKind {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if file_type.is_fifo() {
                return FileKind::Fifo;
            }
            if file_type.is_socket() {
                return FileKind::Socket;
            }
            if file_type.is_char_device() {
                return FileKind::CharDevice;
            }
            if file_type.is_block_device() {
                return FileKind::BlockDevice;
            }
        }
        if file_type.is_file() {
            FileKind::Regular
        } else if file_type.is_dir() {
            FileKind::Directory
        } else {
            FileKind::Other
        }
    }

    /// Words for messages: "a FIFO", "a directory".
    pub fn describe(self) -> &'static str {
        match self {
            FileKind::Regular => "a regular file",
            FileKind::Directory => "a directory",
            FileKind::Fifo => "a FIFO",
            FileKind::Socket => "a socket",
            FileKind::CharDevice => "a character device",
            FileKind::BlockDevice => "a block device",
            FileKind::Other => "not a regular file",
        }
    }
}

/// A file read into the caller's buffer.
#[derive(Clone, Copy, Debug)]
pub struct FileRead {
    /// The file's bytes are `buf[..len]`.
    pub len: usize,
    /// The stamp taken (by `fstat` on the open file) before reading: always
    /// when [`ReadOptions::stamp`] asked for it, else only when the read
    /// needed `fstat` anyway.
    pub stamp: Option<Stamp>,
    /// `Regular` without a stamp: the file read whole in one `read`.
    pub kind: FileKind,
}

/// Why a file was not read.
#[derive(Debug)]
pub enum ReadError {
    /// Not a regular file and the caller did not allow special files.
    NotRegular(FileKind),
    /// Larger than `ReadOptions::max_len`.
    TooLarge {
        len: u64,
        max: u64,
    },
    /// A regular file whose size changed while it was read: the bytes are a
    /// mix of two versions, so they are not checked.
    Changed {
        expected: u64,
        read: u64,
    },
    Io(io::Error),
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> Self {
        ReadError::Io(e)
    }
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::NotRegular(kind) => {
                write!(f, "it is {}, not a regular file", kind.describe())
            }
            ReadError::TooLarge { len, max } => {
                write!(
                    f,
                    "it is too large to check ({len} bytes or more; the limit is {max} bytes)"
                )
            }
            ReadError::Changed { expected, read } => write!(
                f,
                "it changed while it was being read ({expected} bytes when opened, {read} read)"
            ),
            ReadError::Io(e) => e.fmt(f),
        }
    }
}

/// Reads `path` into `buf`: the file's bytes are `buf[..len]` of the
/// answer. `buf` is reused as it is, and may be longer than the file (the
/// bytes of an earlier one after it): a buffer that serves many files is
/// zeroed once, where it grows, not for each file. Symbolic links are
/// followed; the type checked is the target's, on the open file. On an
/// error `buf` is left empty.
pub fn read_file(
    path: &Path,
    buf: &mut Vec<u8>,
    options: ReadOptions,
) -> Result<FileRead, ReadError> {
    let read = read_into(path, buf, options);
    if read.is_err() {
        buf.clear();
    }
    read
}

fn read_into(path: &Path, buf: &mut Vec<u8>, options: ReadOptions) -> Result<FileRead, ReadError> {
    let mut file = open(path, options)?;
    let started = if options.stamp || options.allow_special {
        0
    } else {
        match read_once(&mut file, buf, options.max_len)? {
            Once::Whole(len) => {
                return Ok(FileRead {
                    len,
                    stamp: None,
                    kind: FileKind::Regular,
                });
            }
            Once::Started(filled) => filled,
        }
    };
    let meta = file.metadata()?;
    let kind = FileKind::of(meta.file_type());
    if kind == FileKind::Directory || (kind != FileKind::Regular && !options.allow_special) {
        return Err(ReadError::NotRegular(kind));
    }
    let stamp = Stamp::of(&meta);
    if let Some(max) = options.max_len
        && kind == FileKind::Regular
        && stamp.len > max
    {
        return Err(ReadError::TooLarge {
            len: stamp.len,
            max,
        });
    }
    let len = if kind == FileKind::Regular && stamp.len > 0 {
        read_regular(file, stamp.len, options.max_len, buf, started)?
    } else {
        // A FIFO, a device, or a procfs file that says its size is 0: read
        // to the end (bounded by the limit when there is one).
        read_to_end(file, options.max_len, buf, started)?
    };
    Ok(FileRead {
        len,
        stamp: Some(stamp),
        kind,
    })
}

/// The least a buffer holds for a read without `fstat`: files up to this
/// size (nearly all of a source tree's) are read in one `read`, and the
/// buffer grows to the largest file read so far.
const FIRST_READ: usize = 64 * 1024;

/// What one `read` without `fstat` found.
#[derive(Debug, PartialEq, Eq)]
enum Once {
    /// The whole file, `buf[..len]`: fewer bytes than asked, and at least one.
    Whole(usize),
    /// Not known to be whole: `buf[..filled]` are the file's first bytes
    /// (none after an error or an empty read, which `fstat` then explains).
    Started(usize),
}

/// One `read` into `buf` (at least [`FIRST_READ`] bytes, at most one more
/// than `max`). A larger file than `max` is refused here; a file that
/// fills the buffer, an empty one and an error are left to `fstat`.
fn read_once(file: &mut File, buf: &mut Vec<u8>, max: Option<u64>) -> Result<Once, ReadError> {
    if buf.len() < FIRST_READ {
        buf.resize(FIRST_READ, 0);
    }
    let ask = max.map_or(buf.len(), |max| {
        usize::try_from(max.saturating_add(1)).map_or(buf.len(), |m| m.min(buf.len()))
    });
    let read = match file.read(&mut buf[..ask]) {
        Ok(read) => read,
        Err(_) => return Ok(Once::Started(0)),
    };
    if let Some(max) = max
        && read as u64 > max
    {
        return Err(ReadError::TooLarge {
            len: read as u64,
            max,
        });
    }
    Ok(if read > 0 && read < ask {
        Once::Whole(read)
    } else {
        Once::Started(read)
    })
}

#[cfg(unix)]
fn open(path: &Path, options: ReadOptions) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut open = fs::OpenOptions::new();
    open.read(true);
    if !options.allow_special {
        // Opening a FIFO must not wait for a writer: it is then refused by
        // type. Reads of regular files ignore the flag.
        open.custom_flags(libc::O_NONBLOCK);
    }
    open.open(path)
}

#[cfg(not(unix))]
fn open(path: &Path, _: ReadOptions) -> io::Result<File> {
    File::open(path)
}

/// Reads a regular file of `expected` bytes, of which `buf[..started]`
/// are read already: one `read` of `expected + 1` bytes normally does it (a
/// short count is the end). A file that shrank or grew meanwhile is an
/// error, never a crash.
fn read_regular(
    mut file: File,
    expected: u64,
    max: Option<u64>,
    buf: &mut Vec<u8>,
    started: usize,
) -> Result<usize, ReadError> {
    let want = usize::try_from(expected)
        .ok()
        .and_then(|n| n.checked_add(1))
        .ok_or(ReadError::TooLarge {
            len: expected,
            max: usize::MAX as u64,
        })?;
    // Never shortened here: what the last files left is overwritten, and
    // only bytes past all of them are zeroed, once (zeroing the buffer for
    // every file was a pass over every byte a scan reads).
    grow(buf, want)?;
    let mut filled = started;
    while filled < want {
        match file.read(&mut buf[filled..want]) {
            Ok(0) => break,
            Ok(n) => {
                filled += n;
                if filled as u64 == expected {
                    // As promised by fstat and not one byte more: the end.
                    break;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                buf.clear();
                return Err(e.into());
            }
        }
    }
    if filled as u64 != expected {
        buf.clear();
        if let Some(max) = max
            && filled as u64 > max
        {
            return Err(ReadError::TooLarge {
                len: filled as u64,
                max,
            });
        }
        return Err(ReadError::Changed {
            expected,
            read: filled as u64,
        });
    }
    Ok(filled)
}

/// Makes `buf` at least `len` bytes long, zeroing only what is new. The
/// memory is asked for first and a refusal is an error (`OutOfMemory`),
/// never the abort that `Vec::resize` makes of it: whatever a file's size
/// says, a read answers.
fn grow(buf: &mut Vec<u8>, len: usize) -> Result<(), ReadError> {
    if buf.len() >= len {
        return Ok(());
    }
    if buf.try_reserve_exact(len - buf.len()).is_err() {
        buf.clear();
        return Err(ReadError::Io(io::Error::new(
            io::ErrorKind::OutOfMemory,
            format!("it is too large to hold in memory ({len} bytes)"),
        )));
    }
    buf.resize(len, 0);
    Ok(())
}

/// Reads `file` to its end into the start of `buf`, after the `started`
/// bytes there, at most `max` bytes and one more to tell a longer file:
/// `buf` keeps its length when that is more (as for a regular file:
/// zeroing what an empty file left for every file after it was a pass over
/// every byte they read).
fn read_to_end(
    mut file: File,
    max: Option<u64>,
    buf: &mut Vec<u8>,
    started: usize,
) -> Result<usize, ReadError> {
    let limit = max.map_or(usize::MAX, |m| {
        usize::try_from(m).map_or(usize::MAX, |m| m.saturating_add(1))
    });
    let mut filled = started;
    while filled < limit {
        if filled == buf.len() {
            let more = buf.len().max(8 * 1024).min(limit - filled);
            grow(buf, filled + more)?;
        }
        let end = buf.len().min(limit);
        match file.read(&mut buf[filled..end]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                buf.clear();
                return Err(e.into());
            }
        }
    }
    if let Some(max) = max
        && filled as u64 > max
    {
        buf.clear();
        return Err(ReadError::TooLarge {
            len: filled as u64,
            max,
        });
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;

    const STAMPED: ReadOptions = ReadOptions {
        max_len: None,
        allow_special: false,
        stamp: true,
    };

    /// A buffer reused for a shorter file after a longer one holds the
    /// shorter file's bytes at its start, and an error leaves it empty;
    /// read with a stamp and without.
    #[test]
    fn a_reused_buffer_holds_each_file_at_its_start() {
        let dir = tempfile::tempdir().unwrap();
        let (long, short) = (dir.path().join("long"), dir.path().join("short"));
        fs::write(&long, b"a longer file").unwrap();
        fs::write(&short, b"short").unwrap();
        for options in [ReadOptions::default(), STAMPED] {
            let mut buf = Vec::new();
            let read = read_file(&long, &mut buf, options).unwrap();
            assert_eq!(&buf[..read.len], b"a longer file");
            let read = read_file(&short, &mut buf, options).unwrap();
            assert_eq!(&buf[..read.len], b"short");
            assert!(read_file(&dir.path().join("gone"), &mut buf, options).is_err());
            assert!(buf.is_empty());
            let read = read_file(&long, &mut buf, options).unwrap();
            assert_eq!(&buf[..read.len], b"a longer file");
            // An empty file is read to its end in place: the longer file's
            // bytes are not zeroed again for the next file.
            let kept = buf.len();
            let empty = dir.path().join("empty");
            fs::write(&empty, b"").unwrap();
            let read = read_file(&empty, &mut buf, options).unwrap();
            assert_eq!(read.len, 0);
            assert_eq!(buf.len(), kept);
            assert_eq!(&buf[..13], b"a longer file");
            let read = read_file(&short, &mut buf, options).unwrap();
            assert_eq!(&buf[..read.len], b"short");
        }
    }

    /// Without a stamp, a file that one `read` returns whole is taken with
    /// no `fstat`; one larger than the buffer, or empty, gets its `fstat`
    /// and is read whole all the same; asked for, the stamp is the file's.
    #[test]
    fn a_stamp_is_taken_when_asked_for_or_needed() {
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("small");
        fs::write(&small, b"text\n").unwrap();
        let large = dir.path().join("large");
        let bytes: Vec<u8> = (0..3 * FIRST_READ + 7).map(|i| (i % 251) as u8).collect();
        fs::write(&large, &bytes).unwrap();
        let empty = dir.path().join("empty");
        fs::write(&empty, b"").unwrap();
        let mut buf = Vec::new();

        let read = read_file(&small, &mut buf, ReadOptions::default()).unwrap();
        assert_eq!(
            (&buf[..read.len], read.stamp, read.kind),
            (&b"text\n"[..], None, FileKind::Regular)
        );
        let read = read_file(&small, &mut buf, STAMPED).unwrap();
        assert_eq!(read.stamp, Some(Stamp::of(&fs::metadata(&small).unwrap())));

        // The first read fills the buffer: fstat, then the rest.
        let mut fresh = Vec::new();
        let read = read_file(&large, &mut fresh, ReadOptions::default()).unwrap();
        assert_eq!(&fresh[..read.len], &bytes[..]);
        assert_eq!(read.stamp, Some(Stamp::of(&fs::metadata(&large).unwrap())));
        // Now that the buffer holds it, one read does.
        let read = read_file(&large, &mut fresh, ReadOptions::default()).unwrap();
        assert_eq!((&fresh[..read.len], read.stamp), (&bytes[..], None));

        let read = read_file(&empty, &mut buf, ReadOptions::default()).unwrap();
        assert_eq!(read.len, 0);
        assert!(read.stamp.is_some(), "an empty read is settled by fstat");
    }

    /// The limit holds without `fstat`: a file one byte over it is refused
    /// whether the first read tells it or `fstat` does, and a file of
    /// exactly the limit is read.
    #[test]
    fn the_limit_holds_with_and_without_a_stamp() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        for (len, max) in [
            (10, 9),
            (10, 10),
            (FIRST_READ + 10, FIRST_READ as u64 + 9),
            (FIRST_READ + 10, FIRST_READ as u64 + 10),
        ] {
            fs::write(&path, vec![b'a'; len]).unwrap();
            for stamp in [false, true] {
                let options = ReadOptions {
                    max_len: Some(max),
                    allow_special: false,
                    stamp,
                };
                let mut buf = Vec::new();
                let read = read_file(&path, &mut buf, options);
                if len as u64 > max {
                    assert!(
                        matches!(read, Err(ReadError::TooLarge { max: m, .. }) if m == max),
                        "{len} {max} {stamp}: {read:?}"
                    );
                    assert!(buf.is_empty());
                } else {
                    assert_eq!(read.unwrap().len, len, "{len} {max} {stamp}");
                }
            }
        }
    }

    /// What is not a regular file is refused by type without a stamp too,
    /// and nothing blocks: a directory, a device that reads nothing, one
    /// that reads endless zeros, a FIFO with no writer.
    #[cfg(unix)]
    #[test]
    fn what_is_not_a_regular_file_is_refused_without_a_stamp() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let cases = [
            (dir.path().to_path_buf(), FileKind::Directory),
            (fifo, FileKind::Fifo),
            ("/dev/null".into(), FileKind::CharDevice),
            ("/dev/zero".into(), FileKind::CharDevice),
        ];
        for (path, kind) in cases {
            if !path.exists() {
                continue;
            }
            for options in [ReadOptions::default(), STAMPED] {
                let mut buf = Vec::new();
                let read = read_file(&path, &mut buf, options);
                assert!(
                    matches!(read, Err(ReadError::NotRegular(k)) if k == kind),
                    "{}: {read:?}",
                    path.display()
                );
                assert!(buf.is_empty());
            }
        }
    }

    /// A file far larger than the limit (a sparse one: holes) is refused
    /// from its size, the buffer never grown past the first read; memory
    /// the allocator refuses is an error, not an abort.
    #[test]
    fn nothing_is_reserved_past_the_limit_and_a_refusal_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sparse");
        let file = File::create(&path).unwrap();
        if file.set_len(1 << 40).is_ok() {
            drop(file);
            for stamp in [false, true] {
                let options = ReadOptions {
                    max_len: Some(1 << 20),
                    allow_special: false,
                    stamp,
                };
                let mut buf = Vec::new();
                let read = read_file(&path, &mut buf, options);
                assert!(
                    matches!(read, Err(ReadError::TooLarge { len, max: 1_048_576 }) if len >= 1 << 20),
                    "{read:?}"
                );
                assert!(buf.capacity() <= FIRST_READ, "{}", buf.capacity());
            }
        }
        let mut buf = b"left".to_vec();
        let refused = grow(&mut buf, isize::MAX as usize + 1);
        assert!(
            matches!(&refused, Err(ReadError::Io(e)) if e.kind() == io::ErrorKind::OutOfMemory),
            "{refused:?}"
        );
        assert!(buf.is_empty());
        assert!(
            refused
                .unwrap_err()
                .to_string()
                .contains("too large to hold in memory")
        );
    }

    /// The size `fstat` gave and the bytes there are disagree: the file
    /// shrank or grew between the two. Told, never a crash or a short read
    /// taken for the whole file.
    #[test]
    fn a_file_that_changed_size_after_fstat_is_changed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        fs::write(&path, b"0123456789").unwrap();
        let mut buf = Vec::new();
        // Shrank: fstat said 20, there are 10.
        let shrank = read_regular(File::open(&path).unwrap(), 20, None, &mut buf, 0);
        assert!(
            matches!(
                shrank,
                Err(ReadError::Changed {
                    expected: 20,
                    read: 10
                })
            ),
            "{shrank:?}"
        );
        assert!(buf.is_empty());
        // Grew: fstat said 4; the one byte read past it tells.
        let grew = read_regular(File::open(&path).unwrap(), 4, None, &mut buf, 0);
        assert!(
            matches!(
                grew,
                Err(ReadError::Changed {
                    expected: 4,
                    read: 5
                })
            ),
            "{grew:?}"
        );
        // As promised: read whole.
        assert_eq!(
            read_regular(File::open(&path).unwrap(), 10, None, &mut buf, 0).unwrap(),
            10
        );
        assert_eq!(&buf[..10], b"0123456789");
        // Emptied: fstat said 10, there is nothing.
        fs::write(&path, b"").unwrap();
        let emptied = read_regular(File::open(&path).unwrap(), 10, None, &mut buf, 0);
        assert!(matches!(emptied, Err(ReadError::Changed { read: 0, .. })));
        let shown = emptied.unwrap_err().to_string();
        assert!(shown.contains("changed"), "{shown}");
    }
}
