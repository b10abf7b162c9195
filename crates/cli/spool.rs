//! Bytes kept on disk until they can be written where they belong: a
//! document whose head depends on its end (JUnit's counts, SARIF's
//! notifications), or a report replaced into `--output-file` only once
//! the run completes. Memory stays one buffer, whatever the bytes' count.

use std::fs::File;
use std::io::{self, BufWriter, Seek, Write};

/// Bytes written to an anonymous temporary file, made at the first byte
/// (a run with nothing to keep makes none) and gone when dropped.
#[derive(Default)]
pub(crate) struct Spool {
    file: Option<BufWriter<File>>,
    len: u64,
}

impl Spool {
    /// Whether nothing was written.
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Copies everything written to `out`, in order.
    pub(crate) fn copy_to(self, out: &mut dyn Write) -> io::Result<()> {
        let Some(file) = self.file else {
            return Ok(());
        };
        let mut file = file.into_inner().map_err(io::IntoInnerError::into_error)?;
        file.rewind()?;
        let copied = io::copy(&mut file, out)?;
        if copied == self.len {
            Ok(())
        } else {
            Err(io::Error::other(format!(
                "a temporary file read back {copied} bytes of {}",
                self.len
            )))
        }
    }

    /// The bytes held in memory at most: the buffer's.
    #[cfg(test)]
    pub(crate) fn held(&self) -> usize {
        self.file.as_ref().map_or(0, BufWriter::capacity)
    }

    /// How many bytes were written.
    #[cfg(test)]
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    fn file(&mut self) -> io::Result<&mut BufWriter<File>> {
        if self.file.is_none() {
            self.file = Some(BufWriter::with_capacity(64 * 1024, tempfile::tempfile()?));
        }
        self.file
            .as_mut()
            .ok_or_else(|| io::Error::other("no temporary file"))
    }
}

impl Write for Spool {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        let written = self.file()?.write(buf)?;
        self.len += written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.file {
            Some(file) => file.flush(),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gives_back_what_it_was_given() {
        let mut spool = Spool::default();
        assert!(spool.is_empty());
        let mut expected = Vec::new();
        for i in 0..50_000u32 {
            let line = format!("line {i}\n");
            spool.write_all(line.as_bytes()).unwrap();
            expected.extend_from_slice(line.as_bytes());
        }
        assert_eq!(spool.len(), expected.len() as u64);
        assert_eq!(spool.held(), 64 * 1024);
        let mut out = Vec::new();
        spool.copy_to(&mut out).unwrap();
        assert_eq!(out, expected);
    }
}
