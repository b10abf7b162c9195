use core::fmt;

/// Why a maximal subpart is ill-formed (`docs/spec.md`, "Errors, one per maximal subpart").
///
/// Every maximal subpart has exactly one kind; the kinds are the machine
/// truth that messages are built on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ErrorKind {
    /// A byte `80..BF` where no sequence is open. Always one byte.
    UnexpectedContinuation,
    /// `C0`, `C1` or `F5..FF`: bytes that never appear in UTF-8 (this includes
    /// the RFC 2279 5- and 6-byte leads `F8..FD`). Always one byte.
    InvalidLeadByte,
    /// `E0` followed by `80..9F`, or `F0` followed by `80..8F`: the start of a
    /// longer-than-necessary form. The lead byte alone.
    Overlong,
    /// `ED` followed by `A0..BF`: the start of a UTF-16 surrogate encoded as
    /// UTF-8 (CESU-8, WTF-8). The lead byte alone.
    Surrogate,
    /// `F4` followed by `90..BF`: the start of a value above U+10FFFF. The lead
    /// byte alone.
    AboveMax,
    /// A valid prefix cut short by a byte that cannot continue it, or by the
    /// end of input. One to three bytes.
    Truncated,
}

impl ErrorKind {
    /// Every kind, in declaration order.
    pub const ALL: [ErrorKind; 6] = [
        ErrorKind::UnexpectedContinuation,
        ErrorKind::InvalidLeadByte,
        ErrorKind::Overlong,
        ErrorKind::Surrogate,
        ErrorKind::AboveMax,
        ErrorKind::Truncated,
    ];

    /// The snake_case name used in machine-readable output and in `docs/spec.md`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorKind::UnexpectedContinuation => "unexpected_continuation",
            ErrorKind::InvalidLeadByte => "invalid_lead_byte",
            ErrorKind::Overlong => "overlong",
            ErrorKind::Surrogate => "surrogate",
            ErrorKind::AboveMax => "above_max",
            ErrorKind::Truncated => "truncated",
        }
    }

    /// The inverse of [`ErrorKind::as_str`].
    pub fn from_name(name: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One ill-formed maximal subpart: where it starts, how long it is, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Subpart {
    /// Byte offset of the first byte of the subpart.
    pub offset: usize,
    /// Length in bytes, 1 to 3.
    pub len: u8,
    /// Its class.
    pub kind: ErrorKind,
}

impl Subpart {
    /// The byte range of the subpart.
    pub const fn range(&self) -> core::ops::Range<usize> {
        self.offset..self.offset + self.len as usize
    }

    /// One past the last byte of the subpart.
    pub const fn end(&self) -> usize {
        self.offset + self.len as usize
    }
}

/// The first error in a byte slice, as [`core::str::Utf8Error`] reports it,
/// plus its [`ErrorKind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Utf8Error {
    pub(crate) valid_up_to: usize,
    pub(crate) error_len: Option<u8>,
    pub(crate) kind: ErrorKind,
}

impl Utf8Error {
    /// The length of the longest valid prefix: the offset of the error.
    pub const fn valid_up_to(&self) -> usize {
        self.valid_up_to
    }

    /// The length of the maximal subpart, or `None` when the input ended in
    /// the middle of a sequence that more input could have completed
    /// (exactly as [`core::str::Utf8Error::error_len`]).
    pub fn error_len(&self) -> Option<usize> {
        self.error_len.map(usize::from)
    }

    /// Why the sequence at [`Utf8Error::valid_up_to`] is ill-formed.
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }
}

impl fmt::Display for Utf8Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.error_len {
            Some(len) => write!(
                f,
                "invalid utf-8 sequence of {} bytes from index {} ({})",
                len, self.valid_up_to, self.kind
            ),
            None => write!(
                f,
                "incomplete utf-8 byte sequence from index {}",
                self.valid_up_to
            ),
        }
    }
}

impl core::error::Error for Utf8Error {}

/// U+FFFD REPLACEMENT CHARACTER, the one character every maximal subpart
/// becomes in lossy output.
pub const REPLACEMENT_CHARACTER: char = '\u{FFFD}';
