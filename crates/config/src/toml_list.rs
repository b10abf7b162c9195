//! The one long expression a valid `utf8lint.toml` has, a key and a list
//! of strings (`exclude = ["vendor/**", ...]`), read token by token: the
//! events the parser would give for it, without holding its tokens (24
//! bytes each). Told apart while its tokens are counted; any other shape
//! is parsed whole.

use toml_parser::lexer::{Token, TokenKind};
use toml_parser::parser::EventReceiver;
use toml_parser::{ErrorSink, Source};

/// An expression of more tokens than this that is a key and a list of
/// strings (`exclude = ["a", "b", ...]`) is read token by token rather
/// than parsed whole (24 bytes a token).
pub(crate) const LONG_EXPRESSION: usize = 1024;

/// Where an expression is in the shape `key = [ "string", ... ]` (any
/// string form, commas, whitespace, newlines and comments between, a
/// comment after): the one shape a long expression of a valid
/// `utf8lint.toml` has. Any other token ends in [`ListShape::Other`], and
/// the expression is parsed whole.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum ListShape {
    #[default]
    Start,
    /// After a part of the key.
    Key,
    /// After whitespace after a part of the key.
    KeySpace,
    /// After a `.` of the key.
    Dot,
    /// After the `=`.
    Equals,
    /// After the `[` or a `,`: a string or the `]` may come.
    Open,
    Comma,
    /// After a string: a `,` or the `]` may come.
    Item,
    Closed,
    Comment,
    Done,
    Other,
}

impl ListShape {
    pub(crate) fn step(&mut self, kind: TokenKind) {
        use ListShape as S;
        use TokenKind as T;
        let string = matches!(
            kind,
            T::BasicString | T::LiteralString | T::MlBasicString | T::MlLiteralString
        );
        let key = matches!(kind, T::Atom | T::BasicString | T::LiteralString);
        let blank = matches!(kind, T::Whitespace | T::Newline | T::Comment);
        *self = match (*self, kind) {
            (S::Start, T::Whitespace) => S::Start,
            (S::Start | S::Dot, _) if key => S::Key,
            (S::Dot, T::Whitespace) => S::Dot,
            (S::Key | S::KeySpace, T::Dot) => S::Dot,
            (S::Key | S::KeySpace, T::Whitespace) => S::KeySpace,
            (S::Key | S::KeySpace, T::Equals) => S::Equals,
            (S::Equals, T::Whitespace) => S::Equals,
            (S::Equals, T::LeftSquareBracket) => S::Open,
            (S::Open | S::Comma | S::Item, _) if blank => *self,
            (S::Open | S::Comma, _) if string => S::Item,
            (S::Item, T::Comma) => S::Comma,
            (S::Open | S::Comma | S::Item, T::RightSquareBracket) => S::Closed,
            (S::Closed, T::Whitespace) => S::Closed,
            (S::Closed, T::Comment) => S::Comment,
            (S::Closed | S::Comment, T::Newline | T::Eof) => S::Done,
            _ => S::Other,
        };
    }

    pub(crate) fn is_list(self) -> bool {
        self == ListShape::Done
    }
}

/// Reads an expression of [`ListShape`] token by token, handing the
/// reader the events the parser would (its keys, `=`, `[`, each string,
/// `]`) and checking comments and newlines as the parser's whitespace
/// check does.
#[derive(Default)]
pub(crate) struct ListReader {
    shape: ListShape,
}

impl ListReader {
    /// Takes the expression's next token: hands `reader` its event, if
    /// any, and `errors` what is wrong in a comment or a newline.
    pub(crate) fn take(
        &mut self,
        token: Token,
        reader: &mut dyn EventReceiver,
        source: Source<'_>,
        errors: &mut dyn ErrorSink,
    ) {
        let before = self.shape;
        self.shape.step(token.kind());
        let span = token.span();
        let encoding = token.kind().encoding();
        match (before, self.shape) {
            (_, ListShape::Key) => reader.simple_key(span, encoding, errors),
            (_, ListShape::Equals) if token.kind() == TokenKind::Equals => {
                reader.key_val_sep(span, errors);
            }
            (_, ListShape::Open) if token.kind() == TokenKind::LeftSquareBracket => {
                let _ = reader.array_open(span, errors);
            }
            (_, ListShape::Item) if before != ListShape::Item => {
                reader.scalar(span, encoding, errors);
            }
            (_, ListShape::Closed) if token.kind() == TokenKind::RightSquareBracket => {
                reader.array_close(span, errors);
            }
            _ => {}
        }
        if let Some(raw) = source.get(span) {
            match token.kind() {
                TokenKind::Comment => raw.decode_comment(errors),
                TokenKind::Newline => raw.decode_newline(errors),
                _ => {}
            }
        }
    }
}
