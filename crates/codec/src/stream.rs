use crate::error::{ErrorKind, Subpart};
use crate::scalar::{Step, step};
use crate::validate::next_error;

/// What [`Utf8Decoder`] reports, in input order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event<'a> {
    /// Well-formed text.
    Text(&'a str),
    /// An ill-formed maximal subpart, with its absolute offset in the stream.
    Error(Subpart),
}

/// A streaming decoder: input arrives in chunks of any size, down to one
/// byte, and comes out as the same text and the same errors, at the same
/// absolute offsets, as the one-shot [`crate::subparts`] path would give for
/// the whole input.
///
/// An error is reported as soon as the bytes seen prove it (so `ED` then `BF`
/// gives two errors when `BF` arrives); a sequence cut by a chunk boundary is
/// held back until the next chunk completes it, breaks it, or the stream ends.
///
/// ```
/// use utf8lint_codec::{Event, Utf8Decoder, ErrorKind};
/// let mut decoder = Utf8Decoder::new();
/// let mut events = Vec::new();
/// decoder.decode(b"caf\xC3", false, |e| events.push(format!("{e:?}")));
/// decoder.decode(b"\xA9 \xF0\x9F", true, |e| events.push(format!("{e:?}")));
/// assert_eq!(events, [
///     r#"Text("caf")"#,
///     r#"Text("é")"#,
///     r#"Text(" ")"#,
///     "Error(Subpart { offset: 6, len: 2, kind: Truncated })",
/// ]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Utf8Decoder {
    /// The bytes of a sequence cut short by the end of the last chunk: always
    /// a proper prefix of some well-formed sequence (at most three bytes).
    pending: [u8; 4],
    pending_len: u8,
    /// Absolute offset of `pending[0]`.
    pending_start: usize,
    /// Absolute offset of the next byte to arrive.
    position: usize,
}

impl Utf8Decoder {
    /// A decoder at the start of a stream.
    pub const fn new() -> Self {
        Utf8Decoder {
            pending: [0; 4],
            pending_len: 0,
            pending_start: 0,
            position: 0,
        }
    }

    /// How many bytes the decoder has been given.
    pub const fn position(&self) -> usize {
        self.position
    }

    /// How many bytes of an incomplete sequence are held back.
    pub const fn pending_len(&self) -> usize {
        self.pending_len as usize
    }

    /// Decodes the next `chunk`. With `last`, the stream ends after it, and a
    /// held-back incomplete sequence is reported as [`ErrorKind::Truncated`].
    pub fn decode<F: FnMut(Event<'_>)>(&mut self, chunk: &[u8], last: bool, mut sink: F) {
        let base = self.position;
        self.position = base.saturating_add(chunk.len());
        let mut used = 0;
        // First finish (or break) a sequence that the previous chunk cut.
        while self.pending_len > 0 {
            let held = usize::from(self.pending_len);
            let Some(&next) = chunk.get(used) else {
                if last {
                    sink(Event::Error(Subpart {
                        offset: self.pending_start,
                        len: self.pending_len,
                        kind: ErrorKind::Truncated,
                    }));
                    self.pending_len = 0;
                }
                return;
            };
            let mut buf = self.pending;
            buf[held] = next;
            match step(&buf[..=held]) {
                Step::Valid(_) => {
                    self.pending_len = 0;
                    used += 1;
                    // SAFETY: step() just found buf[..=held] to be one
                    // well-formed character.
                    sink(Event::Text(unsafe {
                        core::str::from_utf8_unchecked(&buf[..=held])
                    }));
                }
                Step::Invalid(ErrorKind::Truncated, len) if usize::from(len) == held + 1 => {
                    self.pending = buf;
                    self.pending_len += 1;
                    used += 1;
                }
                Step::Invalid(kind, len) => {
                    // The held bytes were a valid prefix, so it is `next` that
                    // breaks it: the subpart is exactly the held bytes and
                    // `next` starts afresh below.
                    self.pending_len = 0;
                    sink(Event::Error(Subpart {
                        offset: self.pending_start,
                        len,
                        kind,
                    }));
                }
            }
        }
        let rest = chunk.get(used..).unwrap_or_default();
        let rest_start = base + used;
        let mut pos = 0;
        loop {
            let error = next_error(rest, pos);
            let valid_end = error.map_or(rest.len(), |sub| sub.offset);
            if valid_end > pos {
                let valid = rest.get(pos..valid_end).unwrap_or_default();
                // SAFETY: next_error() found no error in pos..valid_end.
                sink(Event::Text(unsafe {
                    core::str::from_utf8_unchecked(valid)
                }));
            }
            let Some(sub) = error else { return };
            if sub.kind == ErrorKind::Truncated && sub.end() == rest.len() && !last {
                // More input may complete it: hold it back.
                let held = rest.get(sub.range()).unwrap_or_default();
                self.pending[..held.len()].copy_from_slice(held);
                self.pending_len = sub.len;
                self.pending_start = rest_start + sub.offset;
                return;
            }
            sink(Event::Error(Subpart {
                offset: rest_start + sub.offset,
                ..sub
            }));
            pos = sub.end();
        }
    }

    /// Ends the stream: reports a held-back incomplete sequence, if any.
    pub fn finish<F: FnMut(Event<'_>)>(&mut self, sink: F) {
        self.decode(&[], true, sink);
    }

    /// Decodes `chunk` lossily onto `out` (one U+FFFD per maximal subpart)
    /// and returns the number of errors found in this call.
    #[cfg(feature = "alloc")]
    pub fn decode_to_string(
        &mut self,
        chunk: &[u8],
        last: bool,
        out: &mut alloc::string::String,
    ) -> usize {
        let mut errors = 0;
        self.decode(chunk, last, |event| match event {
            Event::Text(text) => out.push_str(text),
            Event::Error(_) => {
                errors += 1;
                out.push(crate::error::REPLACEMENT_CHARACTER);
            }
        });
        errors
    }
}
