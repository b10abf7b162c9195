//! The one fix writer: replaces a file by a new version written beside it,
//! keeping everything but the bytes, or refusing with a message.
//!
//! What is kept: the inode's owner and group (`fchown`, where permitted;
//! otherwise the fix is refused), its mode including setuid, setgid and
//! sticky (set after the owner, since `fchown` clears setuid), and its
//! extended attributes, POSIX ACLs included (`system.posix_acl_access` is
//! one), copied onto the new file; attributes the new file got from its
//! directory (a default ACL) that the old one lacked are removed.
//! What is refused, with a message: symbolic links, anything but a regular
//! file, a file with more than one hard link, a file whose stamp changed
//! since it was read, a file another process holds open (Linux, where a
//! write lease can be taken), and anything of the above that cannot be
//! carried over.
//! What cannot be promised: an `open` that looked the name up before the
//! rename gets the old inode, even while the lease is held (the lease is
//! checked at the end of `open`). After the rename the writer waits (up to
//! about 200 ms) until nobody else has the old inode open and appends what
//! was written past the bytes it read to the new file, so a racing appender
//! loses no line (`tests/cli/writer.rs` runs thousands of fixes against
//! one); those lines may then follow lines appended to the new file
//! meanwhile. A process that writes into the middle of the file in that
//! window, or that keeps the old inode open past the wait, is not covered.
//! Without a lease (another filesystem, or a file we neither own nor have
//! CAP_LEASE for) a process that holds the file open is not detected.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

use utf8lint_read::Stamp;

/// Why a file was not replaced. The original is untouched in both cases.
#[derive(Debug)]
pub enum WriteError {
    /// A rule of the writer says no; the words say why.
    Refused(String),
    /// Writing the new version failed.
    Io(io::Error),
}

impl From<io::Error> for WriteError {
    fn from(e: io::Error) -> Self {
        WriteError::Io(e)
    }
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Refused(why) => f.write_str(why),
            WriteError::Io(e) => write!(f, "{e} (the file is unchanged)"),
        }
    }
}

fn refused<T>(why: impl Into<String>) -> Result<T, WriteError> {
    Err(WriteError::Refused(why.into()))
}

/// Test hook, compiled into debug builds only: when this variable names a
/// file (by its final path component) being replaced, the writer appends a
/// byte to it just before its last check, as a concurrent editor would.
#[cfg(debug_assertions)]
pub const MUTATE_HOOK: &str = "UTF8LINT_TEST_MUTATE_BEFORE_WRITE";

/// Temporary files being written, removed by the interrupt handler. The
/// lock is held across creating and renaming one, so the handler never
/// sees a half-registered file.
static TEMP_FILES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn temp_files() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    TEMP_FILES.lock().unwrap_or_else(|e| e.into_inner())
}

/// Makes Ctrl-C (SIGINT, and SIGTERM and SIGHUP) remove the temporary
/// files of fixes under way, then exit with status 130. Call once, from a
/// binary that writes fixes; a second call fails.
pub fn remove_temp_files_on_interrupt() -> Result<(), ctrlc::Error> {
    ctrlc::set_handler(|| {
        let files = temp_files();
        for path in files.iter() {
            let _ = fs::remove_file(path);
        }
        // Exit with the lock held: no fix starts or finishes a rename now.
        std::process::exit(130);
    })
}

/// Replaces the regular file at `path` (never through a symbolic link) by
/// what `write` produces, if the file's stamp is still `read_as`; see the
/// module documentation for what is kept and what is refused.
pub fn replace_file(
    path: &Path,
    read_as: &Stamp,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), WriteError> {
    let meta = fs::symlink_metadata(path)?;
    if meta.file_type().is_symlink() {
        return refused(
            "it is a symbolic link, which utf8lint never writes through; fix its target instead",
        );
    }
    if !meta.is_file() {
        return refused("it is not a regular file");
    }
    if Stamp::of(&meta) != *read_as {
        return refused("it changed since it was read");
    }
    let links = link_count(&meta);
    if links > 1 {
        return refused(format!(
            "{}; fix it with an editor that writes in place",
            hard_links(links)
        ));
    }
    let original = open_no_follow(path)?;
    if Stamp::of(&original.metadata()?) != *read_as {
        return refused("it changed since it was read");
    }
    let attributes = attrs::list(&original).map_err(|e| {
        WriteError::Refused(format!(
            "cannot read its extended attributes to keep them ({e})"
        ))
    })?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let (temp_path, temp) = create_temp(dir)?;
    let result = (|| {
        let mut out = BufWriter::with_capacity(256 * 1024, temp);
        write(&mut out)?;
        let temp = out.into_inner().map_err(|e| e.into_error())?;
        keep_owner_and_mode(&temp, &meta)?;
        attrs::copy(&temp, &attributes)?;
        // Attributes can move the mode (an ACL sets the group bits):
        // check that it is still the original's.
        keep_owner_and_mode(&temp, &meta)?;
        temp.sync_all()?;
        drop(temp);
        #[cfg(debug_assertions)]
        if let Some(name) = std::env::var_os(MUTATE_HOOK)
            && path.file_name() == Some(name.as_os_str())
        {
            fs::OpenOptions::new()
                .append(true)
                .open(path)?
                .write_all(b"!")?;
        }
        // Held from here until the rename: nobody else has the file open.
        let lease = lease::take(&original)?;
        // The last look, immediately before the rename.
        let now = fs::symlink_metadata(path)?;
        if now.file_type().is_symlink() || Stamp::of(&now) != *read_as {
            return refused("it changed while it was being fixed");
        }
        if !lease.unbroken(&original) {
            return refused("another process opened it while it was being fixed");
        }
        let mut registered = temp_files();
        fs::rename(&temp_path, path)?;
        registered.retain(|p| p != &temp_path);
        drop(registered);
        drop(lease);
        carry_over_late_writes(&original, read_as.len, path);
        Ok(())
    })();
    if result.is_err() {
        let mut registered = temp_files();
        let _ = fs::remove_file(&temp_path);
        registered.retain(|p| p != &temp_path);
    }
    drop(original);
    if result.is_ok() {
        sync_dir(dir);
    }
    result
}

/// Writes a report to `path` (`--output-file`) whole or not at all: the
/// bytes go to a temporary file beside it, which is renamed over `path` once
/// complete, so a reader never sees half a report and an interrupted run
/// leaves the old one. An existing file is replaced through [`replace_file`]
/// (owner, mode and attributes kept); a new one gets the mode a plain
/// `create` would (0o666 less the umask). A symbolic link or anything but a
/// regular file is refused.
pub fn write_whole_file(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), WriteError> {
    if let Some(meta) = whole_file_target(path)? {
        return replace_file(path, &Stamp::of(&meta), write);
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let (temp_path, temp) = create_temp_with_mode(dir, 0o666)?;
    let result = (|| {
        let mut out = BufWriter::with_capacity(256 * 1024, temp);
        write(&mut out)?;
        let temp = out.into_inner().map_err(|e| e.into_error())?;
        temp.sync_all()?;
        drop(temp);
        let mut registered = temp_files();
        fs::rename(&temp_path, path)?;
        registered.retain(|p| p != &temp_path);
        Ok(())
    })();
    if result.is_err() {
        let mut registered = temp_files();
        let _ = fs::remove_file(&temp_path);
        registered.retain(|p| p != &temp_path);
    } else {
        sync_dir(dir);
    }
    result
}

/// Whether [`write_whole_file`] may write `path`, asked before anything is
/// written (a run that writes its output at the end asks at the start):
/// `None` when nothing is there, the metadata of the regular file there
/// when it may be replaced, or the refusal. A symbolic link (a dangling one
/// too), anything but a regular file and a file with more than one hard
/// link are refused; the writer asks again when it writes.
pub fn whole_file_target(path: &Path) -> Result<Option<fs::Metadata>, WriteError> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            refused("it is a symbolic link, which utf8lint never writes through")
        }
        Ok(meta) if !meta.is_file() => refused("it is not a regular file"),
        Ok(meta) if link_count(&meta) > 1 => refused(hard_links(link_count(&meta))),
        Ok(meta) => Ok(Some(meta)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// Why a file with `links` hard links is not replaced.
fn hard_links(links: u64) -> String {
    format!(
        "it has {links} hard links, and replacing it would leave the other names with the old bytes"
    )
}

/// Appends to the new file what another process appended to the old one
/// after the last check. An `open` that looked the name up before the
/// rename gets the old inode, even while we hold the lease (it waits for
/// the lease at the end of `open`, after the lookup), and a short-lived
/// appender (`echo >> file`) then writes into the unlinked inode: without
/// this, one line in a few hundred fixes was lost under a racing appender.
/// Waits (up to about 200 ms) until no other process has the old inode
/// open, then copies whatever lies past `read_len` to the end of the new
/// file: the lines survive, though they may now follow lines that were
/// appended to the new file meanwhile. Best effort: the fix itself is done.
fn carry_over_late_writes(original: &File, read_len: u64, path: &Path) {
    use std::io::{Read, Seek, SeekFrom};
    for _ in 0..200 {
        if lease::nobody_else_has_open(original) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let Ok(meta) = original.metadata() else {
        return;
    };
    if meta.len() <= read_len {
        return;
    }
    let mut tail = Vec::new();
    let mut reader = original;
    if reader.seek(SeekFrom::Start(read_len)).is_err() || reader.read_to_end(&mut tail).is_err() {
        return;
    }
    if let Ok(mut new) = open_append_no_follow(path) {
        let _ = new.write_all(&tail);
    }
}

#[cfg(unix)]
fn open_append_no_follow(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .append(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}

#[cfg(not(unix))]
fn open_append_no_follow(path: &Path) -> io::Result<File> {
    fs::OpenOptions::new().append(true).open(path)
}

/// [`replace_file`] for the language server: `path` must be inside one of
/// `roots` (the workspace folders) once its directory is canonicalised,
/// and its last component must not be a symbolic link. Relative paths are
/// refused.
pub fn replace_file_in_workspace(
    path: &Path,
    roots: &[PathBuf],
    read_as: &Stamp,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), WriteError> {
    let real = resolve_in_workspace(path, roots)?;
    replace_file(&real, read_as, write)
}

/// The path `path` really names, with its directory canonicalised, if that
/// is inside one of `roots` and the leaf is a regular file, not a symbolic
/// link.
pub fn resolve_in_workspace(path: &Path, roots: &[PathBuf]) -> Result<PathBuf, WriteError> {
    if !path.is_absolute() {
        return refused("its path is not absolute");
    }
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return refused("its path names no file");
    };
    let real = fs::canonicalize(parent)?.join(name);
    let inside = roots
        .iter()
        .filter_map(|root| fs::canonicalize(root).ok())
        .any(|root| real.starts_with(root));
    if !inside {
        return refused("it is outside the workspace folders");
    }
    let meta = fs::symlink_metadata(&real)?;
    if meta.file_type().is_symlink() {
        return refused("it is a symbolic link, which utf8lint never writes through");
    }
    if !meta.is_file() {
        return refused("it is not a regular file");
    }
    Ok(real)
}

#[cfg(unix)]
fn link_count(meta: &fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(meta)
}

#[cfg(not(unix))]
fn link_count(_: &fs::Metadata) -> u64 {
    1
}

#[cfg(unix)]
fn open_no_follow(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_no_follow(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// Temporary names are short (about 30 bytes), so that a file whose own
/// name is near the 255-byte limit can still be fixed.
fn create_temp(dir: &Path) -> io::Result<(PathBuf, File)> {
    create_temp_with_mode(dir, 0o600)
}

/// A new temporary file in `dir`, registered for removal on Ctrl-C, created
/// with `mode` (before the umask) on Unix.
fn create_temp_with_mode(dir: &Path, mode: u32) -> io::Result<(PathBuf, File)> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let pid = std::process::id();
    for _ in 0..100 {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let temp = dir.join(format!(".utf8lint-{pid}-{n}.tmp"));
        let mut options = fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(not(unix))]
        let _ = mode;
        #[cfg(unix)]
        {
            // A fix's temporary file is restrictive from the first instant
            // (0o600): the old bytes may be secret, and the mode is widened
            // only after it is written.
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(mode);
        }
        let mut registered = temp_files();
        match options.open(&temp) {
            Ok(f) => {
                registered.push(temp.clone());
                return Ok((temp, f));
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free temporary file name",
    ))
}

#[cfg(unix)]
fn keep_owner_and_mode(file: &File, meta: &fs::Metadata) -> Result<(), WriteError> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let now = file.metadata()?;
    if (now.uid(), now.gid()) != (meta.uid(), meta.gid()) {
        // Before the mode: fchown clears setuid and setgid.
        if let Err(e) = std::os::unix::fs::fchown(file, Some(meta.uid()), Some(meta.gid())) {
            return refused(format!(
                "its owner and group ({}:{}) cannot be kept ({e})",
                meta.uid(),
                meta.gid()
            ));
        }
    }
    let mode = meta.mode() & 0o7777;
    if file.metadata()?.mode() & 0o7777 != mode {
        file.set_permissions(fs::Permissions::from_mode(mode))?;
        let got = file.metadata()?.mode() & 0o7777;
        if got != mode {
            return refused(format!(
                "its mode {mode:o} cannot be kept (the new file would be {got:o})"
            ));
        }
    }
    Ok(())
}

#[cfg(not(unix))]
fn keep_owner_and_mode(file: &File, meta: &fs::Metadata) -> Result<(), WriteError> {
    file.set_permissions(meta.permissions())?;
    Ok(())
}

/// Makes the rename durable (best effort: not every file system allows it).
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

#[cfg(unix)]
mod attrs {
    use std::ffi::OsString;
    use std::fs::File;
    use std::io;

    use xattr::FileExt;

    use super::{WriteError, refused};

    pub(super) type Attributes = Vec<(OsString, Vec<u8>)>;

    fn unsupported(e: &io::Error) -> bool {
        e.kind() == io::ErrorKind::Unsupported || e.raw_os_error() == Some(libc::ENOTSUP)
    }

    /// Every extended attribute of `file`, with its value.
    pub(super) fn list(file: &File) -> io::Result<Attributes> {
        if !xattr::SUPPORTED_PLATFORM {
            return Ok(Vec::new());
        }
        let names = match file.list_xattr() {
            Ok(names) => names,
            Err(e) if unsupported(&e) => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        let mut all = Vec::new();
        for name in names {
            if let Some(value) = file.get_xattr(&name)? {
                all.push((name, value));
            }
        }
        Ok(all)
    }

    /// Gives `temp` exactly the attributes `keep`.
    pub(super) fn copy(temp: &File, keep: &Attributes) -> Result<(), WriteError> {
        for (name, value) in keep {
            if let Err(e) = temp.set_xattr(name, value) {
                return refused(format!(
                    "its extended attribute {} cannot be kept ({e})",
                    name.to_string_lossy().escape_debug()
                ));
            }
        }
        for (name, _) in list(temp)? {
            if keep.iter().all(|(k, _)| *k != name)
                && let Err(e) = temp.remove_xattr(&name)
            {
                return refused(format!(
                    "the new file got an extended attribute {} the old one lacks, and it cannot be removed ({e})",
                    name.to_string_lossy().escape_debug()
                ));
            }
        }
        Ok(())
    }
}

#[cfg(not(unix))]
mod attrs {
    use std::fs::File;
    use std::io;

    use super::WriteError;

    pub(super) type Attributes = ();

    pub(super) fn list(_: &File) -> io::Result<Attributes> {
        Ok(())
    }

    pub(super) fn copy(_: &File, _: &Attributes) -> Result<(), WriteError> {
        Ok(())
    }
}

#[cfg(target_os = "linux")]
mod lease {
    //! A write lease (`fcntl(F_SETLEASE, F_WRLCK)`) is granted only while
    //! no other open file description refers to the file: taking one proves
    //! that no process is writing to it, and holding it makes another
    //! process's `open` wait (and tells us) until we let go.
    use std::fs::File;
    use std::io;
    use std::os::fd::{AsRawFd, BorrowedFd};

    use super::{WriteError, refused};

    /// `F_SETSIG` from <fcntl.h> (the same on every Linux architecture;
    /// the libc crate lacks it for glibc).
    const F_SETSIG: libc::c_int = 10;

    /// `fcntl` with an integer argument.
    fn fcntl(fd: BorrowedFd<'_>, cmd: libc::c_int, arg: libc::c_int) -> io::Result<libc::c_int> {
        // SAFETY: `fd` is a live descriptor for the borrow's duration, and
        // every command passed here (F_SETSIG, F_SETLEASE, F_GETLEASE) takes
        // a plain integer and reads or writes no memory of ours.
        let r = unsafe { libc::fcntl(fd.as_raw_fd(), cmd, arg) };
        if r == -1 {
            Err(io::Error::last_os_error())
        } else {
            Ok(r)
        }
    }

    fn borrow(file: &File) -> BorrowedFd<'_> {
        std::os::fd::AsFd::as_fd(file)
    }

    /// A lease held on the original (released when the file is closed or
    /// this is dropped), or none where leases are unavailable.
    pub(super) struct Lease<'a>(Option<&'a File>);

    impl Lease<'_> {
        /// Whether no other process has tried to open the file since the
        /// lease was taken (a broken lease reads back as something else).
        pub(super) fn unbroken(&self, original: &File) -> bool {
            match self.0 {
                Some(_) => fcntl(borrow(original), libc::F_GETLEASE, 0).ok() == Some(libc::F_WRLCK),
                None => true,
            }
        }
    }

    impl Drop for Lease<'_> {
        fn drop(&mut self) {
            if let Some(file) = self.0 {
                let _ = fcntl(borrow(file), libc::F_SETLEASE, libc::F_UNLCK);
            }
        }
    }

    /// Whether no other open file description refers to the file: a write
    /// lease is granted (and given back at once) only then. Where leases
    /// are unavailable, true: there is no way to wait.
    pub(super) fn nobody_else_has_open(file: &File) -> bool {
        let fd = borrow(file);
        match fcntl(fd, libc::F_SETLEASE, libc::F_WRLCK) {
            Ok(_) => {
                let _ = fcntl(fd, libc::F_SETLEASE, libc::F_UNLCK);
                true
            }
            Err(e) => e.raw_os_error() != Some(libc::EAGAIN),
        }
    }

    pub(super) fn take(original: &File) -> Result<Lease<'_>, WriteError> {
        let fd = borrow(original);
        // A lease break is signalled to the holder with SIGIO, whose
        // default action ends the process. SIGURG's default is to ignore:
        // the kernel sends that instead, and `unbroken` asks directly.
        if fcntl(fd, F_SETSIG, libc::SIGURG).is_err() {
            return Ok(Lease(None));
        }
        match fcntl(fd, libc::F_SETLEASE, libc::F_WRLCK) {
            Ok(_) => Ok(Lease(Some(original))),
            Err(e) if e.raw_os_error() == Some(libc::EAGAIN) => refused(
                "another process has it open (a program writing to it would lose what it writes next); try again when it is closed",
            ),
            // Not our file and no CAP_LEASE (EACCES), a filesystem without
            // leases (EINVAL), leases turned off: the stamp check alone.
            Err(_) => Ok(Lease(None)),
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod lease {
    use std::fs::File;

    use super::WriteError;

    /// No lease outside Linux: the stamp check alone.
    pub(super) struct Lease;

    impl Lease {
        pub(super) fn unbroken(&self, _: &File) -> bool {
            true
        }
    }

    pub(super) fn take(_: &File) -> Result<Lease, WriteError> {
        Ok(Lease)
    }

    pub(super) fn nobody_else_has_open(_: &File) -> bool {
        true
    }
}
