//! Which edits of an editor's text cannot change what the rules that read
//! characters find there (buffer.rs): typing a word moves the findings
//! after it and changes none, so the text need not be checked again.

use ropey::Rope;

/// Whether an edit can leave every character rule's finding as it was
/// (moved, never changed): it wrote (and, `deleted_plain`, removed) only
/// ASCII letters, digits and spaces, between ASCII characters, after the
/// first two lines (a `#!` line or a coding cookie can name the file's
/// language), on a line that holds no suppression and no letter of the
/// scripts U016 weighs (Greek to Hebrew), and went over no finding. Such
/// an edit starts no string or comment, joins no mojibake, makes or
/// breaks no word of mixed scripts and touches no control: the text need
/// not be checked again. Costs the edit and its line.
pub(crate) fn edit_keeps_findings(
    rope: &Rope,
    start: usize,
    inserted: &str,
    deleted_plain: bool,
    suppressions: &[usize],
) -> bool {
    let plain = |c: char| c.is_ascii_alphanumeric() || c == ' ';
    if !deleted_plain || !inserted.chars().all(plain) {
        return false;
    }
    let len = rope.len_chars();
    let end = start + inserted.chars().count();
    if start > len || end > len {
        return false;
    }
    let ascii_at = |at: usize| at >= len || rope.char(at).is_ascii();
    if (start > 0 && !ascii_at(start - 1)) || !ascii_at(end) {
        return false;
    }
    let line = rope.char_to_line(start);
    if line < 2 {
        return false;
    }
    let line_start = rope.line_to_char(line);
    let line_end = line_start + rope.line(line).len_chars();
    let first = suppressions.partition_point(|&m| m < line_start);
    if suppressions.get(first).is_some_and(|&m| m < line_end) {
        return false;
    }
    !rope
        .line(line)
        .chars()
        .any(|c| ('\u{0340}'..='\u{05FF}').contains(&c))
}
