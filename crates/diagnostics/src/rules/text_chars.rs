//! The characters that are valid UTF-8 and still wrong in text, found in
//! one pass over the well-formed stretches of a file:
//!
//! * U010 `bidi_control`: U+202A..U+202E and U+2066..U+2069, the
//!   embeddings, overrides and isolates that reorder how code reads
//!   (Trojan Source, CVE-2021-42574); one finding per line, showing it as
//!   stored and as a reader sees it; outside source code, not on a line
//!   that closes what it opens ([`Balance`]); what a line of prose leaves
//!   open gets a fix that closes it where its text ends;
//! * U011 `invisible_character`: zero-width and invisible characters other
//!   than U+FEFF (U002's); tag characters and variation selectors are
//!   U018's, `hidden_payload`. The ones a script or typography may need
//!   (joiners, U+200B, Mongolian selectors, soft hyphens, U+2800) are
//!   judged by their neighbours' scripts (`invisible`) and their place
//!   (`code_syntax`); in source code U+200E, U+200F, U+061C with no
//!   right-to-left letter as the nearest strong character on either side
//!   (beside one, a mark is what right-to-left text needs); a C1 control
//!   (U012) or soft hyphen inside mojibake is reported with no fix, since
//!   U008 repairs the run it belongs to;
//! * U012 `control_character`: C0 controls other than tab, LF, FF and CR
//!   (and ESC starting a terminal sequence), DEL, and C1 controls, which in
//!   UTF-8 text are nearly always windows-1252 read as ISO-8859-1;
//! * U013 `noncharacter`: the 66 noncharacters;
//! * U014 `non_ascii` (allow by default): every line holding a non-ASCII
//!   character, for documents that must be ASCII, as idnits counts them.
//!
//! The chunked search for candidates is `text_scan`'s, shared with U008:
//! this module decides on each candidate it hands over ([`Pass::at`]) and
//! on each line holding a non-ASCII character ([`non_ascii_line`]).

use std::cell::OnceCell;
use std::ops::Range;
use std::path::Path;

use crate::code_syntax::{self, Language, Region};
use crate::rules::fix_scope::{Lang, scope_character_fix};
use crate::rules::{info, invisible, roff};
use crate::shown::Capped;
use crate::text::{
    ascii_name, char_at, char_before, escape_shown, is_noncharacter, windows_1252_char,
};
use crate::{Diagnostic, Edit, Fix, Level, Policy, Rule};

/// The levels of the four character rules for a file, and `not_utf8`'s.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Levels {
    bidi: Level,
    invisible: Level,
    control: Level,
    noncharacter: Level,
    not_utf8: Level,
}

impl Levels {
    pub(crate) fn of(policy: &Policy) -> Levels {
        let get = |rule| policy.levels.get(rule);
        Levels {
            bidi: get(Rule::BidiControl),
            invisible: get(Rule::InvisibleCharacter),
            control: get(Rule::ControlCharacter),
            noncharacter: get(Rule::Noncharacter),
            not_utf8: get(Rule::NotUtf8),
        }
    }

    /// Whether the pass over candidates is needed: a character rule is on,
    /// or `not_utf8`, which asks whether an ISO-2022 escape occurs.
    pub(crate) fn wants_pass(self) -> bool {
        [
            self.bidi,
            self.invisible,
            self.control,
            self.noncharacter,
            self.not_utf8,
        ]
        .iter()
        .any(|&l| l != Level::Allow)
    }
}

/// Vim script stores keystrokes literally (`^[`, `^V`, `^M` in mappings and
/// `:normal` commands): C0 controls are its syntax, not damage.
fn is_vim_script(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.ends_with(".vim")
        || matches!(
            name,
            "vimrc" | ".vimrc" | "_vimrc" | "gvimrc" | ".gvimrc" | ".exrc"
        )
}

/// U010..U013 over one file: each candidate the search finds is looked at
/// once ([`Pass::at`]); the findings come out capped ([`Pass::finish`]).
pub(crate) struct Pass<'a> {
    bytes: &'a [u8],
    path: &'a Path,
    /// [`Lang::is_source`], worked out at the first character that asks: most
    /// files have none, and parsing every file's name was 0.5% of a
    /// whole-tree scan.
    source: OnceCell<bool>,
    /// The file's language, for where a fix may touch a character
    /// (`fix_scope`), worked out at the first finding.
    lang: OnceCell<Option<Lang>>,
    /// Where a byte stands: code, a string or a comment, a test's value.
    place: Place<'a>,
    /// C0 controls are keystrokes here (Vim script): [`is_vim_script`],
    /// also worked out when first asked.
    keystrokes: OnceCell<bool>,
    /// The file is a roff source (`roff::is_source`), worked out at the
    /// first control.
    roff: OnceCell<bool>,
    /// The file is an Info file (`info::is_file`), worked out at the first
    /// control.
    info: OnceCell<bool>,
    /// The last run of invisible characters judged (`invisible::neighbours`).
    runs: invisible::Runs,
    /// An ISO-2022 designation (`ESC $ B`, `ESC $ @`, `ESC ( J`) was seen.
    iso_2022_escape: bool,
    /// Whether the file designates a multi-byte set for SO to shift into
    /// (`ESC $ ) C`: ISO-2022-KR; `ESC $ ) A`, `ESC $ * H`: ISO-2022-CN),
    /// worked out at the first SO or SI.
    shifts: OnceCell<bool>,
    bidi: Capped,
    invisible: Capped,
    control: Capped,
    noncharacter: Capped,
    /// U010 reports a line once: the end of the last line reported.
    bidi_line_end: usize,
    /// The last line asked whether it names a character (a table of
    /// characters, `invisible::names`), the character and the answer: a
    /// line of many is read once.
    table_line: Option<(Range<usize>, char, bool)>,
}

/// A source file's strings and comments, in order (`code_syntax::non_code`).
type Regions = Vec<(Range<usize>, Region)>;

/// Where the bytes of a file stand, for the text rules that judge a
/// character by its place (U011, U016): code, a string or a comment, and
/// whether the file holds a test's values. Each is worked out when first
/// asked: most files have no character that asks.
pub(crate) struct Place<'a> {
    bytes: &'a [u8],
    path: &'a Path,
    /// The stretches of a source file that are strings and comments
    /// (`code_syntax`); `None` for a language it does not follow.
    regions: OnceCell<Option<Regions>>,
    /// The file holds a test's values (`invisible::holds_test_values`).
    test_values: OnceCell<bool>,
}

impl<'a> Place<'a> {
    pub(crate) fn new(bytes: &'a [u8], path: &'a Path) -> Place<'a> {
        Place {
            bytes,
            path,
            regions: OnceCell::new(),
            test_values: OnceCell::new(),
        }
    }

    /// What byte `i` is in a source file of a language `code_syntax`
    /// follows (code, a string, a comment); `None` in other files.
    fn region(&self, i: usize) -> Option<Region> {
        let regions = self.regions.get_or_init(|| {
            Language::of(self.path, self.bytes).map(|l| code_syntax::non_code(self.bytes, l))
        });
        let regions = regions.as_ref()?;
        let k = regions.partition_point(|(range, _)| range.end <= i);
        Some(match regions.get(k) {
            Some((range, region)) if range.start <= i => *region,
            _ => Region::Code,
        })
    }

    /// Whether the character at `i` is a value a test feeds or compares:
    /// in a file of a test's values (a fuzzer's input, a fixture, a test's
    /// own source: `invisible::holds_test_values`), outside code and
    /// comments. A test tree's code, comments and documents are read by
    /// people, and what hides in them is still reported.
    pub(crate) fn is_test_value(&self, i: usize) -> bool {
        *self
            .test_values
            .get_or_init(|| invisible::holds_test_values(self.path, self.bytes))
            && !matches!(self.region(i), Some(Region::Code | Region::Comment))
    }

    /// Whether byte `i` is prose: a comment of a source file `code_syntax`
    /// follows, or anywhere in a file that is no program (documentation,
    /// catalogues, data); not code or a string, and nothing of a program
    /// whose strings and comments are not told apart (a Ruby or Perl file).
    pub(crate) fn is_prose(&self, i: usize) -> bool {
        match self.region(i) {
            Some(region) => region == Region::Comment,
            None => !Lang::is_source(self.path, self.bytes),
        }
    }
}

/// The ISO-2022 designation of a multi-byte set into G1, G2 or G3 at
/// `i` (`ESC $ )`, `ESC $ *`, `ESC $ +` and the set's final byte), the
/// sets SO and SS2/SS3 shift into.
fn designation_at(bytes: &[u8], i: usize) -> Option<&[u8]> {
    match bytes.get(i..i + 4)? {
        [0x1B, b'$', b')' | b'*' | b'+', 0x40..=0x7E] => Some(&bytes[i..i + 4]),
        _ => None,
    }
}

/// Whether `bytes` designate a multi-byte set anywhere ([`designation_at`]).
fn designates_shifted_set(bytes: &[u8]) -> bool {
    memchr::memchr_iter(0x1B, bytes).any(|i| designation_at(bytes, i).is_some())
}

impl<'a> Pass<'a> {
    pub(crate) fn new(bytes: &'a [u8], path: &'a Path, levels: Levels, shown: usize) -> Pass<'a> {
        Pass {
            bytes,
            path,
            source: OnceCell::new(),
            lang: OnceCell::new(),
            place: Place::new(bytes, path),
            keystrokes: OnceCell::new(),
            roff: OnceCell::new(),
            info: OnceCell::new(),
            runs: invisible::Runs::default(),
            iso_2022_escape: false,
            shifts: OnceCell::new(),
            bidi: Capped::new(Rule::BidiControl, levels.bidi, shown),
            invisible: Capped::new(Rule::InvisibleCharacter, levels.invisible, shown),
            control: Capped::new(Rule::ControlCharacter, levels.control, shown),
            noncharacter: Capped::new(Rule::Noncharacter, levels.noncharacter, shown),
            bidi_line_end: 0,
            table_line: None,
        }
    }

    fn is_source(&self) -> bool {
        *self
            .source
            .get_or_init(|| Lang::is_source(self.path, self.bytes))
    }

    fn lang(&self) -> Option<Lang> {
        *self.lang.get_or_init(|| Lang::of(self.path, self.bytes))
    }

    /// Where the file's bytes stand, which U016 asks too.
    pub(crate) fn place(&self) -> &Place<'a> {
        &self.place
    }

    fn region(&self, i: usize) -> Option<Region> {
        self.place.region(i)
    }

    /// Whether byte `i` is code (not a string or comment) of a language
    /// `code_syntax` follows; in other files nothing is code.
    fn in_code(&self, i: usize) -> bool {
        self.region(i) == Some(Region::Code)
    }

    /// Looks at the candidate at `i` (a character boundary in `stretch`, a
    /// well-formed stretch of the file); returns where the next candidate
    /// may start. A character
    /// that does not end inside `stretch` is left alone.
    pub(crate) fn at(&mut self, i: usize, stretch: &Range<usize>) -> usize {
        match char_at(self.bytes, i).filter(|(_, len)| i + len <= stretch.end) {
            Some((c, len)) => i + len.max(self.one(c, i, len, stretch)),
            None => i + 1,
        }
    }

    /// Whether an ISO-2022 designation was seen (a 7-bit Japanese file).
    pub(crate) fn saw_iso_2022_escape(&self) -> bool {
        self.iso_2022_escape
    }

    /// The kept findings onto `out`, one summary per rule over the cap
    /// onto `summaries`, in code order.
    pub(crate) fn finish(self, out: &mut Vec<Diagnostic>, summaries: &mut Vec<Diagnostic>) {
        self.bidi.finish(out, summaries);
        self.invisible.finish(out, summaries);
        self.control.finish(out, summaries);
        self.noncharacter.finish(out, summaries);
    }

    /// Looks at `c` at `i`; returns how many bytes it covered beyond its
    /// own.
    fn one(&mut self, c: char, i: usize, len: usize, stretch: &Range<usize>) -> usize {
        let v = u32::from(c);
        let span = i..i + len;
        match v {
            0x202A..=0x202E | 0x2066..=0x2069 => self.bidi_line(i, stretch),
            0x200E | 0x200F | 0x061C => {
                // A mark beside right-to-left text is what marks are for
                // (an LRM after an Arabic word, in prose or in a string);
                // in code with no such text around it, it is invisible.
                if self.is_source() && !beside_right_to_left(self.bytes, i, len, stretch) {
                    self.invisible_char(c, span);
                }
                len
            }
            // NUL is binary data's mark: the binary sniff's, not this rule's.
            0x00 => len,
            0x01..=0x1F | 0x7F => {
                self.control_char(c, span);
                len
            }
            0x80..=0x9F => {
                if self.control.wants()
                    && !in_code_point_table(self.bytes, i)
                    && !ends_a_raw_range(self.bytes, &span)
                {
                    let in_mojibake = crate::rules::mojibake::part_of_run(self.bytes, i);
                    let mut d = c1_diagnostic(c, span.clone(), !in_mojibake);
                    if in_mojibake {
                        part_of_mojibake(&mut d);
                    }
                    let (bytes, lang) = (self.bytes, self.lang());
                    self.control
                        .push(|level| scoped(bytes, lang, Diagnostic { level, ..d }), span);
                }
                len
            }
            0x2060 => {
                // A word joiner inside a word is what Unicode recommends for
                // joining (and what `stray_feff`'s fix writes for a U+FEFF
                // there); elsewhere it joins nothing.
                let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
                if !(word(char_before(self.bytes, i))
                    && word(char_at(self.bytes, i + len).map(|(c, _)| c)))
                {
                    self.invisible_char(c, span);
                }
                len
            }
            _ if invisible::is_judged(c) => {
                self.judged_invisible(c, span, stretch);
                len
            }
            0x115F | 0x1160 | 0x3164 | 0xFFA0 => {
                self.invisible_char(c, span);
                len
            }
            // Tag characters and variation selectors are `hidden_payload`'s
            // (U018), which knows the sequences they belong in.
            0xE0000..=0xE007F | 0xFE00..=0xFE0F | 0xE0100..=0xE01EF => len,
            _ if is_noncharacter(v) => {
                if self.noncharacter.wants()
                    && !in_code_point_table(self.bytes, i)
                    && !ends_a_raw_range(self.bytes, &span)
                {
                    let (bytes, lang) = (self.bytes, self.lang());
                    self.noncharacter.push(
                        |level| {
                            scoped(bytes, lang, Diagnostic::new(
                                Rule::Noncharacter,
                                level,
                                span.clone(),
                                format!("noncharacter {}", describe(c)),
                            )
                            .with_label("must not be interchanged")
                            .with_note(
                                "Unicode keeps 66 code points as noncharacters for a program's internal use: they have no meaning in a file another program reads",
                            )
                            .with_fix(Fix::unsafe_(
                                format!("delete {}", code(c)),
                                vec![Edit::delete(span.clone())],
                            )))
                        },
                        span.clone(),
                    );
                }
                len
            }
            _ => len,
        }
    }

    fn control_char(&mut self, c: char, span: Range<usize>) {
        let bytes = self.bytes;
        let i = span.start;
        if c == '\u{1B}'
            && matches!(
                bytes.get(i + 1..i + 3),
                Some(b"$B" | b"$@" | b"(J" | b"$(" | b"(I")
            )
        {
            // ISO-2022-JP's designations: the file is 7-bit Japanese, which
            // `not_utf8` decides on.
            self.iso_2022_escape = true;
            return;
        }
        if !self.control.wants() || *self.keystrokes.get_or_init(|| is_vim_script(self.path)) {
            return;
        }
        let in_roff = *self.roff.get_or_init(|| roff::is_source(self.path, bytes));
        let line = line_around(bytes, i, &(0..bytes.len()));
        if c.is_ascii() && roff::is_syntax(&bytes[line.clone()], c as u8, in_roff) {
            return;
        }
        let in_info = *self.info.get_or_init(|| info::is_file(self.path, bytes));
        if in_info && info::is_syntax(&bytes[line.start..line.end], i - line.start) {
            return;
        }
        if c.is_ascii() && is_awk_separator(&bytes[line.start..line.end], i - line.start) {
            return;
        }
        if c == '\u{8}' && is_overstrike(bytes, i) {
            return;
        }
        // A control in a test's expected output or input (a progress bar's
        // backspaces, awk's `SUBSEP` in a `.ok` file) is what the test
        // compares.
        if self.is_test_value(i) || in_code_point_table(bytes, i) || ends_a_raw_range(bytes, &span)
        {
            return;
        }
        if matches!(c, '\u{E}' | '\u{F}' | '\u{1B}')
            && *self.shifts.get_or_init(|| designates_shifted_set(bytes))
        {
            // ISO-2022-KR or -CN: SO and SI shift into the designated set
            // and out; deleting them would turn the text into other
            // characters, and no decoder here converts it. The designation
            // is reported once, with no fix; the shifts not at all.
            if c == '\u{1B}' && designation_at(bytes, i).is_some() {
                let d = Diagnostic::new(
                    Rule::ControlCharacter,
                    Level::Warn,
                    span.clone(),
                    "escape sequence designating a multi-byte set: this file is in ISO-2022-KR or ISO-2022-CN, a 7-bit encoding, not text in UTF-8".to_owned(),
                )
                .with_label("ISO-2022 designation here")
                .with_note("the SO (U+000E) and SI (U+000F) controls in the file shift into that set and back; deleting them would destroy the text, so no fix is offered")
                .with_help("convert the file with `iconv -f ISO-2022-KR -t UTF-8` (or ISO-2022-CN), or list it in `.utf8lintignore` if it must stay so");
                self.control.push(|level| Diagnostic { level, ..d }, span);
            }
            return;
        }
        if c == '\u{1B}'
            && matches!(
                bytes.get(i + 1),
                Some(b'[' | b']' | b'(' | b')' | b'P' | b'\\')
            )
        {
            // A terminal sequence (`ESC [ 31 m`): captured terminal output,
            // ANSI art, test expectations of colour.
            return;
        }
        let eof_marker = c == '\u{1A}' && span.end == bytes.len();
        let d = Diagnostic::new(
            Rule::ControlCharacter,
            Level::Warn,
            span.clone(),
            if eof_marker {
                "control character U+001A SUBSTITUTE at the end of the file: a DOS end-of-file marker".to_owned()
            } else {
                format!("control character {}", describe(c))
            },
        )
        .with_label(format!("{} here", code(c)))
        .with_note(
            "text uses no control characters other than tab, line feed, form feed and carriage return; this one is invisible or drives the terminal",
        )
        .with_fix(Fix::unsafe_(format!("delete {}", code(c)), vec![Edit::delete(span.clone())]));
        let lang = self.lang();
        let mut d = scoped(bytes, lang, d);
        if in_roff && d.fix.take().is_some() {
            d.notes.push(
                "no fix: in a roff source a control may be syntax or data (a delimiter, the leader)"
                    .to_owned(),
            );
        }
        // An Info file known by its content, not its name (which
        // `fix_scope::data_file` reads), is data all the same.
        if in_info && d.fix.take().is_some() {
            d.notes.push(format!("no fix: this is {}", info::WHY));
        }
        self.control.push(|level| Diagnostic { level, ..d }, span);
    }

    fn is_test_value(&self, i: usize) -> bool {
        self.place.is_test_value(i)
    }

    /// Whether the short line around `i` names `c` ([`invisible::names`]),
    /// read once for a line and a character.
    fn names_it(&mut self, c: char, i: usize) -> bool {
        let Some(line) = invisible::short_line(self.bytes, i) else {
            return false;
        };
        if let Some((cached, k, answer)) = &self.table_line
            && *cached == line
            && *k == c
        {
            return *answer;
        }
        let answer = invisible::names(&self.bytes[line.clone()], c, name(c).as_deref());
        self.table_line = Some((line, c, answer));
        answer
    }

    /// U011 for a character a script or typography may need
    /// (`invisible`): silent where its neighbours' script needs it, outside
    /// code, and on a line that names it (a table of characters); a soft
    /// hyphen inside mojibake is reported for its repair.
    fn judged_invisible(&mut self, c: char, span: Range<usize>, stretch: &Range<usize>) {
        if !self.invisible.wants() {
            return;
        }
        let bytes = self.bytes;
        let i = span.start;
        if !(c == '\u{AD}' && crate::rules::mojibake::part_of_run(bytes, i)) {
            let (mut before, mut after) =
                invisible::neighbours(bytes, i, span.len(), stretch, &mut self.runs);
            // A catalogue's string goes on over its continuation lines, so
            // a soft hyphen at a segment's end (`"...saí\u{AD}"` then
            // `"da"`) stands inside the word gettext joins.
            if c == '\u{AD}' && is_catalogue(self.path) {
                before = continued_before(bytes, span.start, stretch).or(before);
                after = continued_after(bytes, span.end, stretch).or(after);
            }
            if invisible::joins_emoji(c, before, after) {
                return;
            }
            // In prose and data a character outside words is an item of a
            // list of characters (a keymap's, a locale's); in a program's
            // string literal it is a value nobody can see (`'\u{200B}'`
            // written raw), which the fix spells as its escape.
            let region = self.region(i);
            // A U+200B beside a placeholder or a space in text without
            // spaces between words (Khmer `%1\u{200B} ដោយ`) is judged by
            // the letters nearest it.
            let by_letters = || {
                let (before, after) = invisible::nearest_letters(bytes, i, span.len(), stretch);
                invisible::needed(c, before, after)
            };
            if region != Some(Region::Code)
                && (invisible::needed(c, before, after)
                    || (c == '\u{200B}' && by_letters())
                    || invisible::ends_a_range(before, after)
                    || !(region == Some(Region::String) || invisible::in_a_word(c, before, after)))
            {
                return;
            }
        }
        self.invisible_char(c, span);
    }

    fn invisible_char(&mut self, c: char, span: Range<usize>) {
        if !self.invisible.wants() {
            return;
        }
        let bytes = self.bytes;
        // A line that names the character in text is a table of characters
        // (`3164;HANGUL FILLER`, `00ad   SOFT HYPHEN`), whose characters
        // are its data.
        if !self.in_code(span.start) && self.names_it(c, span.start) {
            return;
        }
        if self.is_test_value(span.start) || in_code_point_table(bytes, span.start) {
            return;
        }
        let mojibake = c == '\u{AD}' && crate::rules::mojibake::part_of_run(bytes, span.start);
        // Never safe: an invisible character can be data (a string that
        // tests a word break, a table of characters) as much as damage.
        let after_virama =
            c == '\u{200B}' && char_before(bytes, span.start).is_some_and(invisible::is_virama);
        let fix = if c == '\u{2800}' {
            Fix::unsafe_(
                format!("replace {} with a space", code(c)),
                vec![Edit::replace(span.clone(), b" ".to_vec())],
            )
        } else if after_virama {
            // It keeps a conjunct from forming, which is a ZWNJ's job: the
            // word shows the same with one, and is one word to a search.
            Fix::unsafe_(
                format!("replace {} with U+200C ZERO WIDTH NON-JOINER", code(c)),
                vec![Edit::replace(span.clone(), "\u{200C}".as_bytes().to_vec())],
            )
        } else {
            Fix::unsafe_(
                format!("delete {}", code(c)),
                vec![Edit::delete(span.clone())],
            )
        };
        let why = match c {
            '\u{AD}' => {
                "a soft hyphen: invisible unless a line breaks there; in source and data it splits words that look whole"
            }
            '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' => {
                "a Hangul filler: it renders as nothing, and some languages accept it as a letter in identifiers"
            }
            '\u{2800}' => {
                "a blank braille pattern away from braille: it looks like a space but is a symbol, so what looks like two words is one to a search, a parser or a compiler"
            }
            '\u{180B}'..='\u{180F}' => {
                "a Mongolian format character away from Mongolian letters: it selects or separates nothing here"
            }
            '\u{200B}' if after_virama => {
                "a zero width space after a virama: it keeps the consonants from joining, as a zero width non-joiner does, but splits the word in two for a search or a spelling checker"
            }
            '\u{200B}' | '\u{200C}' | '\u{200D}' if self.in_code(span.start) => {
                "an invisible character in code: a name or a token that looks the same is a different one"
            }
            _ => {
                "an invisible character: text that looks the same compares, searches and runs differently"
            }
        };
        let why = match c {
            '\u{200E}' | '\u{200F}' | '\u{61C}' => {
                "a directional mark with no right-to-left text beside it: it reorders nothing here, and code that looks the same compares differently"
            }
            _ => why,
        };
        let mut d = Diagnostic::new(
            Rule::InvisibleCharacter,
            Level::Warn,
            span.clone(),
            format!("invisible character {}", describe(c)),
        )
        .with_label(format!("{} here", code(c)))
        .with_note(why)
        .with_fix(fix);
        if mojibake {
            part_of_mojibake(&mut d);
        }
        let lang = self.lang();
        self.invisible
            .push(|level| scoped(bytes, lang, Diagnostic { level, ..d }), span);
    }

    /// U010 for the line holding the control at `i`, once per line (the
    /// line's other controls are in the same finding). Returns the
    /// control's length.
    fn bidi_line(&mut self, i: usize, stretch: &Range<usize>) -> usize {
        let bytes = self.bytes;
        let line = line_around(bytes, i, stretch);
        if !self.bidi.wants() || i < self.bidi_line_end {
            return 3;
        }
        self.bidi_line_end = line.end;
        let Ok(text) = std::str::from_utf8(&bytes[line.clone()]) else {
            return 3;
        };
        // A catalogue's string runs on over its continuation lines: what
        // one line opens a later one may close, and the whole string is
        // what a program shows.
        let string = is_catalogue(self.path)
            .then(|| catalogue_string(bytes, &line, stretch))
            .flatten()
            .filter(|string| string.end > line.end || string.start < line.start);
        if let Some(string) = &string
            && self.string_balances(string, stretch)
        {
            self.bidi_line_end = string.end;
            return 3;
        }
        // Prose (a translation catalogue, a document) embeds and isolates
        // its parts of the other direction: outside source code, a line
        // that closes every embedding and isolate it opens, in order, is
        // that; a closed override too, when it stands beside a
        // right-to-left letter (an override among Latin text reverses
        // it). What a line leaves open reorders whatever follows it (the
        // value a `%s` puts after it, the next message) wherever it stands.
        let balance = Balance::of(text);
        let prose = !self.is_source()
            && text
                .char_indices()
                .filter(|&(_, c)| matches!(c, '\u{202D}' | '\u{202E}'))
                .all(|(k, c)| beside_right_to_left(bytes, line.start + k, c.len_utf8(), stretch));
        if prose && balance.unclosed.is_empty() && balance.stray.is_empty() {
            return 3;
        }
        let mut d = bidi_diagnostic(text, line.start, i, &balance, prose);
        // Closing at this line's end keeps the display only where the
        // line's text ends its paragraph: the string's last line, or a
        // line whose text ends with `\n`.
        let paragraph_goes_on = string.as_ref().is_some_and(|string| {
            line.end < string.end
                && !balance.unclosed.is_empty()
                && !text.trim_end().trim_end_matches('"').ends_with("\\n")
        });
        if prose
            && !paragraph_goes_on
            && let Some(fix) = closing_fix(text, line.start, &balance)
        {
            d.fix = Some(fix);
        } else if paragraph_goes_on {
            d.fix = None;
            d.alternatives.clear();
            d.notes.push("no fix: the string's paragraph goes on on the next line; close the embedding where its text ends".to_owned());
        }
        let span = d.span.clone();
        self.bidi.push(|level| Diagnostic { level, ..d }, span);
        3
    }
}

impl Pass<'_> {
    /// Whether the catalogue string on the lines `string` closes, in each
    /// of its paragraphs (a `\n` escape ends one, and with it every
    /// embedding the algorithm has open), every embedding and isolate it
    /// opens, with its overrides beside right-to-left letters: what a line
    /// of prose that balances is.
    fn string_balances(&self, string: &Range<usize>, stretch: &Range<usize>) -> bool {
        let Ok(text) = std::str::from_utf8(&self.bytes[string.clone()]) else {
            return false;
        };
        let overrides_beside_rtl = text
            .char_indices()
            .filter(|&(_, c)| matches!(c, '\u{202D}' | '\u{202E}'))
            .all(|(k, c)| {
                beside_right_to_left(self.bytes, string.start + k, c.len_utf8(), stretch)
            });
        overrides_beside_rtl
            && string_text(text).split("\\n").all(|paragraph| {
                let balance = Balance::of(paragraph);
                balance.unclosed.is_empty() && balance.stray.is_empty()
            })
    }
}

/// Whether the file at `path` is a gettext catalogue (`.po`, `.pot`).
fn is_catalogue(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("po") || e.eq_ignore_ascii_case("pot"))
}

/// Whether a catalogue line (without its newline) is a continuation of
/// the string above it: a quoted string alone.
fn is_continuation(line: &[u8]) -> bool {
    line.trim_ascii_start().starts_with(b"\"")
}

/// The lines of the catalogue string that `line` is part of: its keyword
/// line (`msgstr`, `msgid`, `msgstr[1]`...) and its continuation lines,
/// within `stretch`; `None` when `line` is neither.
fn catalogue_string(
    bytes: &[u8],
    line: &Range<usize>,
    stretch: &Range<usize>,
) -> Option<Range<usize>> {
    let text = &bytes[line.clone()];
    let keyword = |l: &[u8]| {
        let l = l.trim_ascii_start();
        let l = l.strip_prefix(b"#~").map_or(l, <[u8]>::trim_ascii_start);
        l.starts_with(b"msg")
    };
    if !(keyword(text) || is_continuation(text)) {
        return None;
    }
    let mut start = line.start;
    let mut at = text;
    while !keyword(at) {
        // A continuation: the line above is part of the same string.
        let end = start.checked_sub(1).filter(|&e| e > stretch.start)?;
        let above = memchr::memrchr(b'\n', &bytes[stretch.start..end])
            .map_or(stretch.start, |k| stretch.start + k + 1);
        at = &bytes[above..end];
        if !(keyword(at) || is_continuation(at)) {
            return None;
        }
        start = above;
    }
    let mut end = line.end;
    while end < stretch.end && bytes[end] == b'\n' {
        let next_end = memchr::memchr(b'\n', &bytes[end + 1..stretch.end])
            .map_or(stretch.end, |k| end + 1 + k);
        if !is_continuation(&bytes[end + 1..next_end]) {
            break;
        }
        end = next_end;
    }
    Some(start..end)
}

/// The character a catalogue string goes on with on the next line when
/// its segment closes at `end` (`"...saí\u{AD}"` then `"da\n"`: `d`).
fn continued_after(bytes: &[u8], end: usize, stretch: &Range<usize>) -> Option<char> {
    let rest = bytes[end..stretch.end].strip_prefix(b"\"")?;
    let next = trim_blanks_start(trim_blanks_start(rest).strip_prefix(b"\n")?);
    let next = next.strip_prefix(b"\"")?;
    char_at(bytes, stretch.end - next.len()).map(|(c, _)| c)
}

/// The character a catalogue string ends its segment with on the line
/// above when the segment at `start` opens its line (`"...saí"` then
/// `"\u{AD}da"`: `í`).
fn continued_before(bytes: &[u8], start: usize, stretch: &Range<usize>) -> Option<char> {
    let head = bytes[stretch.start..start].strip_suffix(b"\"")?;
    let above = trim_blanks_end(trim_blanks_end(head).strip_suffix(b"\n")?);
    let above = above.strip_suffix(b"\"")?;
    char_before(bytes, stretch.start + above.len())
}

/// `bytes` without the spaces and tabs (and a CR) it starts with.
fn trim_blanks_start(bytes: &[u8]) -> &[u8] {
    let blank = bytes
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\r'))
        .count();
    &bytes[blank..]
}

/// `bytes` without the spaces and tabs (and a CR) it ends with.
fn trim_blanks_end(bytes: &[u8]) -> &[u8] {
    let blank = bytes
        .iter()
        .rev()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\r'))
        .count();
    &bytes[..bytes.len() - blank]
}

/// The text of a catalogue string's lines: each line's quoted part,
/// joined (gettext concatenates them).
fn string_text(lines: &str) -> String {
    lines
        .lines()
        .filter_map(|l| {
            let open = l.find('"')?;
            let close = l.rfind('"').filter(|&c| c > open)?;
            Some(&l[open + 1..close])
        })
        .collect()
}

/// `d` with its fix settled by where its character is
/// ([`scope_character_fix`]): an escape inside a string literal, none
/// elsewhere in code, its own in prose.
fn scoped(bytes: &[u8], lang: Option<Lang>, mut d: Diagnostic) -> Diagnostic {
    scope_character_fix(bytes, lang, &mut d);
    d
}

/// A C1 control or soft hyphen that is part of a run of mojibake belongs
/// to U008: its finding says so and offers no fix, since deleting or
/// replacing it loses a byte the repair needs.
fn part_of_mojibake(d: &mut Diagnostic) {
    d.notes.push(
        "it is part of mojibake (UTF-8 read in a legacy code page): repair the run (`mojibake`), do not delete it"
            .to_owned(),
    );
    d.fix = None;
}

/// Whether the nearest character with a strong direction before or after
/// the mark at `i..i + len` on its line is right-to-left (Hebrew, Arabic,
/// Syriac, Thaana...): spaces, punctuation and digits between are skipped,
/// and so are the letters of printf formats (`%d`, `%1$s`), which stand in
/// for text.
fn beside_right_to_left(bytes: &[u8], i: usize, len: usize, stretch: &Range<usize>) -> bool {
    use unicode_bidi::BidiClass::{AL, L, R};
    const REACH: usize = 256;
    let line = line_around(bytes, i, stretch);
    let Ok(text) = std::str::from_utf8(&bytes[line.clone()]) else {
        return false;
    };
    let at = i - line.start;
    // Each character's direction, strong or not (`None`), in line order.
    let mut format = false;
    let directions = text.char_indices().map(|(k, c)| {
        let neutral = format && (c.is_ascii_alphanumeric() || matches!(c, '$' | '.' | '-'));
        if format && c.is_ascii_alphabetic() {
            format = false;
        } else if c == '%' {
            format = true;
        } else if !neutral {
            format = false;
        }
        let class = unicode_bidi::bidi_class(c);
        let strong = !neutral && matches!(class, L | R | AL);
        (k, strong.then_some(matches!(class, R | AL)))
    });
    let (mut before, mut after) = (None, None);
    for (k, direction) in directions {
        let Some(rtl) = direction else { continue };
        if k < at && at - k <= REACH * 4 {
            before = Some(rtl);
        } else if k >= at + len {
            after = Some(rtl);
            break;
        }
    }
    before == Some(true) || after == Some(true)
}

/// What a line's embeddings, overrides and isolates leave open, matched
/// as the Unicode Bidirectional Algorithm matches them: U+202C closes the
/// last embedding or override opened inside the current isolate, U+2069
/// the last isolate (and what was opened inside it).
struct Balance {
    /// The controls still open at the line's end (offset in the line and
    /// the control), outermost first.
    unclosed: Vec<(usize, char)>,
    /// The closers that close nothing (offset in the line).
    stray: Vec<usize>,
}

impl Balance {
    fn of(text: &str) -> Balance {
        let mut open: Vec<(usize, char)> = Vec::new();
        let mut stray = Vec::new();
        for (k, c) in text.char_indices() {
            match c {
                '\u{202A}'..='\u{202B}' | '\u{202D}'..='\u{202E}' | '\u{2066}'..='\u{2068}' => {
                    open.push((k, c))
                }
                '\u{202C}' => match open.last() {
                    Some((_, '\u{202A}'..='\u{202E}')) => {
                        open.pop();
                    }
                    _ => stray.push(k),
                },
                '\u{2069}' => match open.iter().rposition(|(_, o)| is_isolate(*o)) {
                    Some(at) => open.truncate(at),
                    None => stray.push(k),
                },
                _ => {}
            }
        }
        Balance {
            unclosed: open,
            stray,
        }
    }
}

fn is_isolate(c: char) -> bool {
    matches!(c, '\u{2066}'..='\u{2068}')
}

/// The closers of `open`, innermost first: U+2069 for an isolate, U+202C
/// for an embedding or override.
fn closers(open: &[(usize, char)]) -> String {
    open.iter()
        .rev()
        .map(|&(_, c)| {
            if is_isolate(c) {
                '\u{2069}'
            } else {
                '\u{202C}'
            }
        })
        .collect()
}

/// Where a line (`text`) closes what it leaves open: before the closing
/// quote of the string it ends with, when the first control left open is
/// inside that string (a catalogue's `msgstr "..."`, a `.strings` value),
/// and before the string's trailing `\n` escapes, which end its text's
/// paragraph; otherwise at the line's end, before trailing whitespace.
/// Returns the offset and where the text the closers end starts.
fn closing_point(text: &str, first_open: usize) -> (usize, usize) {
    let end = text.trim_end().len();
    let body = text[..end].trim_end_matches([';', ',']);
    if let Some(quote) = body.strip_suffix('"').map(str::len) {
        let opening = (0..quote).rev().find(|&k| {
            text.as_bytes()[k] == b'"'
                && text.as_bytes()[..k]
                    .iter()
                    .rev()
                    .take_while(|&&b| b == b'\\')
                    .count()
                    % 2
                    == 0
        });
        if let Some(opening) = opening.filter(|&o| o < first_open) {
            let mut at = quote;
            while text[opening + 1..at].ends_with("\\n")
                && !text[opening + 1..at - 2].ends_with('\\')
            {
                at -= 2;
            }
            return (at, opening + 1);
        }
    }
    (end, 0)
}

/// The fix for a line of prose (`text`, at byte `base`; its overrides
/// stand beside right-to-left letters) that leaves an embedding, override
/// or isolate open, or holds a closer that closes nothing: the closers
/// inserted where the line's text ends ([`closing_point`]) and the stray
/// closers deleted, offered when the text then shows as it did (the
/// algorithm ends every embedding at a paragraph's end and ignores a
/// closer with nothing open, so this changes nothing a reader sees, and
/// stops the embedding from reordering what follows). The line's other
/// controls, which do their work, are kept.
fn closing_fix(text: &str, base: usize, balance: &Balance) -> Option<Fix> {
    let closers = closers(&balance.unclosed);
    let first = balance.unclosed.first().map_or(text.len(), |&(k, _)| k);
    let (at, from) = closing_point(text, first);
    let shown = |t: &str| -> String {
        visual_order(t)
            .chars()
            .filter(|&c| !is_bidi_control(c))
            .collect()
    };
    let kept: String = text[from..at]
        .char_indices()
        .filter(|(k, _)| !balance.stray.contains(&(from + k)))
        .map(|(_, c)| c)
        .collect();
    if shown(&text[from..at]) != shown(&format!("{kept}{closers}")) {
        return None;
    }
    let mut edits: Vec<Edit> = balance
        .stray
        .iter()
        .map(|&k| Edit::delete(base + k..base + k + 3))
        .collect();
    let mut what = Vec::new();
    if !closers.is_empty() {
        edits.push(Edit::insert(base + at, closers.clone().into_bytes()));
        let names: Vec<String> = closers.chars().map(code).collect();
        what.push(format!("insert {} where its text ends", names.join(", ")));
    }
    if !balance.stray.is_empty() {
        what.push("delete the closers that close nothing".to_owned());
    }
    edits.sort_by_key(|e| e.range().start);
    Some(Fix::unsafe_(
        format!("close what the line leaves open: {}", what.join(", ")),
        edits,
    ))
}

/// Whether the backspace at `i` overstrikes, as nroff's output for a
/// terminal does (formatted manuals, `bash.0`, `less` and `ul` read it): a
/// character struck again for bold (`N^HN`), or with an underscore for
/// underline (`_^Hf`), or the bullet `o^H+`. The text shows what it says.
fn is_overstrike(bytes: &[u8], i: usize) -> bool {
    let (Some(before), Some((after, _))) = (char_before(bytes, i), char_at(bytes, i + 1)) else {
        return false;
    };
    before == after
        || before == '_'
        || after == '_'
        || matches!((before, after), ('o', '+') | ('+', 'o'))
}

/// Whether the character at `i` stands in a table of code points written
/// raw: a run of characters with no space or quote in it (at most
/// [`TABLE_REACH`] bytes either side) holding [`TABLE_RANGES`] ranges or
/// more `X-Y` whose ends are characters other than printable ASCII, in
/// ascending order. A regular expression library's Unicode categories
/// (xregexp's `\0-^_^?-\u{9F}\u{AD}\u{378}\u{379}\u{380}-\u{383}...`,
/// vendored with Django's admin) are data about characters, whatever the
/// run holds. U010 does not ask: a bidi control in code is reported
/// wherever it stands.
fn in_code_point_table(bytes: &[u8], i: usize) -> bool {
    let is_end = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'"' | b'\'' | b'`');
    let floor = i.saturating_sub(TABLE_REACH);
    let ceil = (i + TABLE_REACH).min(bytes.len());
    let start = bytes[floor..i]
        .iter()
        .rposition(is_end)
        .map_or(floor, |k| floor + k + 1);
    let end = bytes[i..ceil]
        .iter()
        .position(is_end)
        .map_or(ceil, |k| i + k);
    let run = &bytes[start..end];
    let raw = |c: char| !(' '..='~').contains(&c);
    memchr::memchr_iter(b'-', run)
        .filter(|&k| {
            matches!(
                (char_before(run, k), char_at(run, k + 1)),
                (Some(x), Some((y, _))) if raw(x) && raw(y) && x < y
            )
        })
        .nth(TABLE_RANGES - 1)
        .is_some()
}

/// Whether the character at `span` ends a range of a character class whose
/// other end is written raw too, in order, or as an escape: xregexp's
/// `[\\0-\u{FFFF}]` and `\\0-^_^?-\u{9F}`, the controls and
/// noncharacters a class of every character names. A control beside a `-`
/// in prose (`a -^G b`) ends no range.
fn ends_a_raw_range(bytes: &[u8], span: &Range<usize>) -> bool {
    let Some((c, _)) = char_at(bytes, span.start) else {
        return false;
    };
    let raw = |d: char| !(' '..='~').contains(&d);
    // `-` then the other end: raw and above `c`, or an escape's backslash.
    let up = bytes.get(span.end) == Some(&b'-')
        && (bytes.get(span.end + 1) == Some(&b'\\')
            || char_at(bytes, span.end + 1).is_some_and(|(d, _)| raw(d) && d > c));
    // The other end then `-`: raw and below `c`, or the last letter of an
    // escape (`\\0`, `\\x00`).
    let down = span.start >= 2
        && bytes[span.start - 1] == b'-'
        && match char_before(bytes, span.start - 1) {
            Some(d) if raw(d) => d < c,
            Some(d) if d.is_ascii_alphanumeric() => {
                let word = bytes[..span.start - 1]
                    .iter()
                    .rev()
                    .take_while(|b| b.is_ascii_alphanumeric())
                    .count();
                span.start - 1 > word && bytes[span.start - 2 - word] == b'\\'
            }
            _ => false,
        };
    up || down
}

/// How far either side of a character [`in_code_point_table`] reads.
const TABLE_REACH: usize = 512;

/// How many ranges make a run of characters a table of code points: one
/// or two are a character class a program means (`[\u{200B}-\u{200D}]`),
/// and are judged as such.
const TABLE_RANGES: usize = 3;

/// Whether the control at `at` of `line` is an awk separator set to that
/// control alone (`FS = "^G"`, also `RS`, `OFS`, `ORS`, `SUBSEP`): a field
/// separator no data holds, chosen on purpose. Every configure script
/// autoconf writes sets `FS` to BEL twice.
fn is_awk_separator(line: &[u8], at: usize) -> bool {
    let (Some(before), Some(after)) = (at.checked_sub(1).map(|k| &line[..k]), line.get(at + 1..))
    else {
        return false;
    };
    if line[at - 1] != b'"' || after.first() != Some(&b'"') {
        return false;
    }
    let ends = after[1..]
        .first()
        .is_none_or(|b| b.is_ascii_whitespace() || matches!(b, b';' | b'}'));
    let assigned = before.trim_ascii_end();
    let Some(name) = assigned.strip_suffix(b"=") else {
        return false;
    };
    let name = name.trim_ascii_end();
    ends && ["FS", "RS", "OFS", "ORS", "SUBSEP"].iter().any(|v| {
        name.strip_suffix(v.as_bytes()).is_some_and(|before| {
            before
                .last()
                .is_none_or(|b| b.is_ascii_whitespace() || matches!(b, b'{' | b';'))
        })
    })
}

/// The line around `i`, at most 4 KiB either side, inside `stretch`.
fn line_around(bytes: &[u8], i: usize, stretch: &Range<usize>) -> Range<usize> {
    let floor = i.saturating_sub(4096).max(stretch.start);
    let ceil = (i + 4096).min(stretch.end);
    let mut start = memchr::memrchr(b'\n', &bytes[floor..i]).map_or(floor, |k| floor + k + 1);
    let mut end = memchr::memchr(b'\n', &bytes[i..ceil]).map_or(ceil, |k| i + k);
    // Whole characters at a cut; on the valid path, whose blocks come in as
    // they are validated, the bytes past the block are not known to be
    // well-formed yet (if they are not, the result is dropped).
    while start < i && (0x80..0xC0).contains(&bytes[start]) {
        start += 1;
    }
    if let Err(e) = std::str::from_utf8(&bytes[start..end]) {
        end = (start + e.valid_up_to()).max(i);
    }
    start..end
}

fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The U010 finding for a line (`text`, starting at byte `base`) whose
/// first bidi control is at byte `first`.
fn bidi_diagnostic(
    text: &str,
    base: usize,
    first: usize,
    balance: &Balance,
    prose: bool,
) -> Diagnostic {
    let mut controls = Vec::new();
    let mut edits = Vec::new();
    for (k, c) in text.char_indices() {
        if !is_bidi_control(c) {
            continue;
        }
        if !controls.contains(&c) {
            controls.push(c);
        }
        edits.push(Edit::delete(base + k..base + k + c.len_utf8()));
    }
    let names: Vec<String> = controls.iter().map(|&c| describe(c)).collect();
    let shown = visual_order(text);
    let first_char = text[first - base..].chars().next().unwrap_or('\u{202E}');
    let mut d = Diagnostic::new(
        Rule::BidiControl,
        Level::Deny,
        first..first + first_char.len_utf8(),
        format!(
            "bidirectional control{}: {}",
            if controls.len() == 1 { "" } else { "s" },
            names.join(", ")
        ),
    )
    .with_label("this line is shown in another order than it is stored")
    .with_note(format!("as stored: `{}`", escape_shown(text)))
    .with_note(format!("as shown:  `{}`", escape_shown(&shown)));
    if let Some(&(_, unclosed)) = balance.unclosed.first() {
        d.notes.push(if prose {
            format!(
                "{} is not closed before the line ends: it reorders what is shown after it (a value put in for `%s`, the text that follows the message)",
                code(unclosed)
            )
        } else {
            format!(
                "{} is not closed before the line ends: everything after it on the line is reordered (the Trojan Source pattern, CVE-2021-42574)",
                code(unclosed)
            )
        });
    }
    if !balance.stray.is_empty() {
        d.notes.push(
            "a closer on this line closes nothing: it was meant to close, or to be, an opener"
                .to_owned(),
        );
    }
    d.help.push(
        "in right-to-left prose these characters can be meant: allow `bidi_control` for those files (`-A bidi_control`, or `[lints]` in utf8lint.toml)".to_owned(),
    );
    d.fix = Some(Fix::unsafe_(
        "delete the bidirectional controls on this line",
        edits,
    ));
    d
}

/// `text` in display order (the Unicode Bidirectional Algorithm, one line
/// as one paragraph of the first strong direction).
fn visual_order(text: &str) -> String {
    let info = unicode_bidi::BidiInfo::new(text, None);
    let Some(paragraph) = info.paragraphs.first() else {
        return text.to_owned();
    };
    info.reorder_line(paragraph, paragraph.range.clone())
        .into_owned()
}

/// U012's finding for the C1 control `c`, with the windows-1252 reading
/// of its byte when `reading` (not inside mojibake, where the run's repair
/// says what was meant and a reading of one byte would contradict it).
fn c1_diagnostic(c: char, span: Range<usize>, reading: bool) -> Diagnostic {
    let byte = u32::from(c) as u8;
    let d = Diagnostic::new(
        Rule::ControlCharacter,
        Level::Warn,
        span.clone(),
        format!("C1 control character {}", describe(c)),
    )
    .with_label(format!("{} here", code(c)));
    if !reading {
        return d;
    }
    let mut d = d;
    match windows_1252_char(byte) {
        Some(meant) => {
            d.notes.push(format!(
                "windows-1252 `\\x{byte:02X}` decoded as Latin-1 gives {}; did you mean `{meant}`?",
                code(c)
            ));
            d.fix = Some(Fix::unsafe_(
                format!(
                    "replace {} with `{meant}` (windows-1252 `\\x{byte:02X}`)",
                    code(c)
                ),
                vec![Edit::replace(span, meant.to_string().into_bytes())],
            ));
        }
        None => {
            d.notes.push(
                "no text uses C1 controls; windows-1252 has no character at this byte either"
                    .to_owned(),
            );
            d.fix = Some(Fix::unsafe_(
                format!("delete {}", code(c)),
                vec![Edit::delete(span)],
            ));
        }
    }
    d
}

/// U014 for one line (`line`, well-formed, at byte `start` of the file)
/// that holds a non-ASCII character: one finding naming them, with the
/// typographic ones' ASCII as an unsafe fix.
pub(crate) fn non_ascii_line(line: &str, start: usize, out: &mut Capped) {
    let mut names: Vec<String> = Vec::new();
    let mut edits = Vec::new();
    let (mut first, mut last) = (None, 0);
    for (k, c) in line.char_indices().filter(|(_, c)| !c.is_ascii()) {
        first.get_or_insert(k);
        last = k + c.len_utf8();
        let described = describe(c);
        if !names.contains(&described) {
            names.push(described);
        }
        if let Some(plain) = ascii_for(c) {
            edits.push(Edit::replace(
                start + k..start + k + c.len_utf8(),
                plain.as_bytes().to_vec(),
            ));
        }
    }
    let Some(first) = first else {
        return;
    };
    let span = start + first..start + last;
    let count = names.len();
    out.push(
        |level| {
            let mut d = Diagnostic::new(
                Rule::NonAscii,
                level,
                span.clone(),
                format!(
                    "non-ASCII character{} in this line: {}",
                    if count == 1 { "" } else { "s" },
                    names.join(", ")
                ),
            )
            .with_label("from here to the line's last non-ASCII character");
            if !edits.is_empty() {
                d.fix = Some(Fix::unsafe_(
                    "replace the typographic characters with ASCII (no-break space, quotes, dashes, ellipsis)",
                    edits,
                ));
            }
            d
        },
        span.clone(),
    );
}

/// U014's fixes in source code (`fix_scope::Lang`) keep their quotes: a
/// curly quote inside a string literal made straight can close the
/// literal (`"he said “hi”"`), so only spaces, dashes and ellipses are
/// replaced there, with a note saying so.
pub(crate) fn scope_non_ascii_fixes(bytes: &[u8], path: &Path, diagnostics: &mut [Diagnostic]) {
    let mut lang = None;
    for d in diagnostics
        .iter_mut()
        .filter(|d| d.rule == Rule::NonAscii && d.fix.is_some())
    {
        if lang.get_or_insert_with(|| Lang::of(path, bytes)).is_none() {
            return;
        }
        let Some(fix) = d.fix.take() else { continue };
        let quote = |e: &&Edit| matches!(e.literal(), Some(b"'" | b"\""));
        if !fix.edits().iter().any(|e| quote(&e)) {
            d.fix = Some(fix);
            continue;
        }
        let kept: Vec<Edit> = fix.edits().iter().filter(|e| !quote(e)).cloned().collect();
        d.notes.push(
            "in code the curly quotes are left: made straight, one could close a string literal"
                .to_owned(),
        );
        if !kept.is_empty() {
            d.fix = Some(Fix::unsafe_(
                "replace the typographic spaces, dashes and ellipses with ASCII",
                kept,
            ));
        }
    }
}

/// The idnits-style count of U014's lines, as a note on its first finding.
pub(crate) fn count_non_ascii_lines(out: &mut Capped) {
    let lines = out.kept.len() + out.hidden;
    if let Some(first) = out.kept.first_mut() {
        first.notes.push(format!(
            "{lines} line{} in this file hold non-ASCII characters (idnits: \"{lines} instance{} of lines with non-ascii characters\")",
            if lines == 1 { "" } else { "s" },
            if lines == 1 { "" } else { "s" }
        ));
    }
}

/// The ASCII a typographic character stands for in an ASCII-only document.
fn ascii_for(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{A0}' | '\u{2007}' | '\u{202F}' => " ",
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{2032}' => "'",
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{2033}' => "\"",
        '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2212}' => "-",
        '\u{2026}' => "...",
        _ => return None,
    })
}

/// `U+202E`.
fn code(c: char) -> String {
    format!("U+{:04X}", u32::from(c))
}

/// `U+202E RIGHT-TO-LEFT OVERRIDE`, or the code and the character (escaped
/// when it is hidden) for characters without a name here.
pub(crate) fn describe(c: char) -> String {
    match name(c) {
        Some(name) => format!("{} {name}", code(c)),
        None if is_noncharacter(u32::from(c)) => {
            format!("{} <noncharacter-{:04X}>", code(c), u32::from(c))
        }
        None => format!("{} `{}`", code(c), escape_shown(&c.to_string())),
    }
}

const C1_NAMES: [&str; 32] = [
    "PADDING CHARACTER",
    "HIGH OCTET PRESET",
    "BREAK PERMITTED HERE",
    "NO BREAK HERE",
    "INDEX",
    "NEXT LINE (NEL)",
    "START OF SELECTED AREA",
    "END OF SELECTED AREA",
    "CHARACTER TABULATION SET",
    "CHARACTER TABULATION WITH JUSTIFICATION",
    "LINE TABULATION SET",
    "PARTIAL LINE FORWARD",
    "PARTIAL LINE BACKWARD",
    "REVERSE LINE FEED",
    "SINGLE SHIFT TWO",
    "SINGLE SHIFT THREE",
    "DEVICE CONTROL STRING",
    "PRIVATE USE ONE",
    "PRIVATE USE TWO",
    "SET TRANSMIT STATE",
    "CANCEL CHARACTER",
    "MESSAGE WAITING",
    "START OF GUARDED AREA",
    "END OF GUARDED AREA",
    "START OF STRING",
    "SINGLE GRAPHIC CHARACTER INTRODUCER",
    "SINGLE CHARACTER INTRODUCER",
    "CONTROL SEQUENCE INTRODUCER",
    "STRING TERMINATOR",
    "OPERATING SYSTEM COMMAND",
    "PRIVACY MESSAGE",
    "APPLICATION PROGRAM COMMAND",
];

/// The names of the characters these rules report (and of the typographic
/// characters U014 most often finds). No full name database: these are
/// the ones a reader needs named because they cannot be seen.
fn name(c: char) -> Option<String> {
    let v = u32::from(c);
    let fixed = match v {
        0x00..=0x1F | 0x7F => return ascii_name(v).map(str::to_owned),
        0x80..=0x9F => return Some(C1_NAMES[(v - 0x80) as usize].to_owned()),
        0xA0 => "NO-BREAK SPACE",
        0xAD => "SOFT HYPHEN",
        0x061C => "ARABIC LETTER MARK",
        0x115F => "HANGUL CHOSEONG FILLER",
        0x1160 => "HANGUL JUNGSEONG FILLER",
        0x180B => "MONGOLIAN FREE VARIATION SELECTOR ONE",
        0x180C => "MONGOLIAN FREE VARIATION SELECTOR TWO",
        0x180D => "MONGOLIAN FREE VARIATION SELECTOR THREE",
        0x180E => "MONGOLIAN VOWEL SEPARATOR",
        0x180F => "MONGOLIAN FREE VARIATION SELECTOR FOUR",
        0x200B => "ZERO WIDTH SPACE",
        0x200C => "ZERO WIDTH NON-JOINER",
        0x200D => "ZERO WIDTH JOINER",
        0x200E => "LEFT-TO-RIGHT MARK",
        0x200F => "RIGHT-TO-LEFT MARK",
        0x2010 => "HYPHEN",
        0x2011 => "NON-BREAKING HYPHEN",
        0x2013 => "EN DASH",
        0x2014 => "EM DASH",
        0x2018 => "LEFT SINGLE QUOTATION MARK",
        0x2019 => "RIGHT SINGLE QUOTATION MARK",
        0x201C => "LEFT DOUBLE QUOTATION MARK",
        0x201D => "RIGHT DOUBLE QUOTATION MARK",
        0x2026 => "HORIZONTAL ELLIPSIS",
        0x202A => "LEFT-TO-RIGHT EMBEDDING",
        0x202B => "RIGHT-TO-LEFT EMBEDDING",
        0x202C => "POP DIRECTIONAL FORMATTING",
        0x202D => "LEFT-TO-RIGHT OVERRIDE",
        0x202E => "RIGHT-TO-LEFT OVERRIDE",
        0x202F => "NARROW NO-BREAK SPACE",
        0x2060 => "WORD JOINER",
        0x2066 => "LEFT-TO-RIGHT ISOLATE",
        0x2067 => "RIGHT-TO-LEFT ISOLATE",
        0x2068 => "FIRST STRONG ISOLATE",
        0x2069 => "POP DIRECTIONAL ISOLATE",
        0x2800 => "BRAILLE PATTERN BLANK",
        0x3164 => "HANGUL FILLER",
        0xFFA0 => "HALFWIDTH HANGUL FILLER",
        0xFE00..=0xFE0F => return Some(format!("VARIATION SELECTOR-{}", v - 0xFE00 + 1)),
        0xE0100..=0xE01EF => return Some(format!("VARIATION SELECTOR-{}", v - 0xE0100 + 17)),
        0xE0001 => "LANGUAGE TAG",
        0xE007F => "CANCEL TAG",
        0xE0020..=0xE007E => return ascii_name(v - 0xE0000).map(|n| format!("TAG {n}")),
        _ => return None,
    };
    Some(fixed.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A C1 control alone gets its byte's windows-1252 reading; inside
    /// mojibake it gets none, the run's repair saying what was meant.
    #[test]
    fn a_c1_control_in_mojibake_has_no_reading_of_its_own() {
        let alone = c1_diagnostic('\u{80}', 0..2, true);
        assert!(alone.notes.iter().any(|n| n.contains("did you mean `€`")));
        assert!(alone.fix.is_some());
        let mut in_run = c1_diagnostic('\u{80}', 0..2, false);
        part_of_mojibake(&mut in_run);
        assert!(
            in_run.notes.iter().all(|n| !n.contains("did you mean")),
            "{:?}",
            in_run.notes
        );
        assert!(in_run.notes.iter().any(|n| n.contains("part of mojibake")));
        assert!(in_run.fix.is_none());
    }

    /// awk's separators set to one control are that control on purpose;
    /// the control anywhere else, or among other characters, is not.
    #[test]
    fn awks_separators_set_to_a_control_alone() {
        let separator = |line: &[u8]| {
            let at = line.iter().position(u8::is_ascii_control).unwrap();
            is_awk_separator(line, at)
        };
        for line in [
            &b"  FS = \"\x07\""[..],
            b"BEGIN { FS=\"\x01\" }",
            b"{ OFS = \"\x1C\"; print }",
            b"RS = \"\x1E\";",
            b"SUBSEP = \"\x1D\"",
        ] {
            assert!(separator(line), "{line:?}");
        }
        for line in [
            &b"  FS = \"a\x07\""[..],
            b"  FS = \"\x07b\"",
            b"  XFS = \"\x07\"",
            b"  fs = \"\x07\"",
            b"  FS == \"\x07\"",
            b"  echo \"\x07\"",
            b"\x07",
            b"  FS = \"\x07\"x",
        ] {
            assert!(!separator(line), "{line:?}");
        }
    }
}
