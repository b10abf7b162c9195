//! A configuration file that could not be read or understood, and how a
//! message quotes what the file says: a leaf that every reader of
//! configuration files uses.

use std::path::PathBuf;

/// A configuration file that could not be read or understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// The file.
    pub path: PathBuf,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// The key, when one is at fault.
    pub key: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Escaped: the path, the key and a parser's words may quote
        // anything a repository holds (ESC, CR, a bidi override).
        let path = utf8lint_diagnostics::escape_lossless(self.path.as_os_str().as_encoded_bytes());
        write!(f, "{path}")?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(key) = &self.key {
            // A key may be a glob of any length: quoted, cut short.
            write!(f, ": {}", utf8lint_diagnostics::escape_shown(&shorten(key)))?;
        }
        let message = shorten_quoted(&self.message);
        write!(f, ": {}", utf8lint_diagnostics::escape_shown(&message))
    }
}

impl std::error::Error for ConfigError {}

/// At most this many characters of a value from a configuration file are
/// quoted in a message.
const SHOWN_CHARS: usize = 100;

/// `value`, cut to [`SHOWN_CHARS`] characters with a count of the rest: a
/// message quotes what a configuration file says, and a file may say 5 MB.
pub(crate) fn shorten(value: &str) -> std::borrow::Cow<'_, str> {
    match value.char_indices().nth(SHOWN_CHARS) {
        None => std::borrow::Cow::Borrowed(value),
        Some((cut, _)) => std::borrow::Cow::Owned(format!(
            "{}... ({} bytes in all)",
            &value[..cut],
            value.len()
        )),
    }
}

/// `message` with each value it quotes in backquotes cut by [`shorten`]:
/// a parser's words quote the key at fault whole (`unknown field `...``).
fn shorten_quoted(message: &str) -> std::borrow::Cow<'_, str> {
    if message.len() <= SHOWN_CHARS {
        return std::borrow::Cow::Borrowed(message);
    }
    let mut out = String::new();
    for (i, piece) in message.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        out.push_str(&if i % 2 == 1 {
            shorten(piece)
        } else {
            piece.into()
        });
    }
    std::borrow::Cow::Owned(out)
}
