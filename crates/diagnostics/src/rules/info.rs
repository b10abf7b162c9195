//! What U012 knows of Info files (Texinfo's compiled manuals, which the
//! `info` reader and Emacs browse): three controls are their structure.
//! `\x1F` alone on a line separates two nodes (or a node and the tag
//! table); `\x7F` in a tag table entry stands between a node's name and
//! its byte offset (`Node: Top\x7F773`), which the reader seeks to; a
//! backspace after a NUL opens and closes an index or image marker
//! (`\0\b[index\0\b]`). A manual holds one of each per node, and none is a
//! defect: every one reported buried the manual's real findings.

use std::path::Path;

/// Why no fix touches an Info file (`fix_scope::data_file`): its bytes are
/// what the reader seeks in.
pub(crate) const WHY: &str =
    "an Info file: `\\x1F` separates its nodes and other controls are its markup";

/// How far into a file the node header that marks Info is looked for.
const HEADER_WINDOW: usize = 8 * 1024;

/// Whether `name` (a file name in lower case) is an Info file's:
/// `foo.info` and its split parts `foo.info-1`, `foo.info-2`...
pub(crate) fn is_file_name(name: &str) -> bool {
    name.ends_with(".info")
        || name
            .rsplit_once(".info-")
            .is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether the file at `path`, holding `bytes`, is an Info file: by its
/// name, by makeinfo's first line (`This is grep.info, produced by
/// makeinfo version 6.8 from grep.texi.`, texi2any's the same), or by a
/// node separator before a node header (`\x1F\nFile: grep.info,  Node:
/// Top`) near its start, which only Info writes (the `dir` file, a manual
/// renamed).
pub(crate) fn is_file(path: &Path, bytes: &[u8]) -> bool {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    let first = &bytes[..memchr::memchr(b'\n', bytes).unwrap_or(bytes.len())];
    let by_makeinfo = first.starts_with(b"This is ")
        && memchr::memmem::find(first, b"produced by ").is_some()
        && [&b"makeinfo"[..], b"Makeinfo", b"texi2any"]
            .iter()
            .any(|tool| memchr::memmem::find(first, tool).is_some());
    let head = &bytes[..bytes.len().min(HEADER_WINDOW)];
    is_file_name(&name) || by_makeinfo || memchr::memmem::find(head, b"\x1F\nFile: ").is_some()
}

/// Whether the control at `at` of `line` (a line of an Info file, without
/// its `\n`) is its structure: a node separator (`\x1F` alone on its
/// line, or before the form feed older manuals put after it), a tag table
/// entry's `\x7F` (after `Node: ` or `Ref: ` and a name, before the
/// offset's digits and the line's end), or the backspace of a marker
/// (`\0\b[`, `\0\b]`).
pub(crate) fn is_syntax(line: &[u8], at: usize) -> bool {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let Some(&c) = line.get(at) else {
        return false;
    };
    match c {
        0x1F => matches!(line, [0x1F] | [0x1F, 0x0C]),
        0x7F => {
            let offset = &line[at + 1..];
            (line.starts_with(b"Node: ") || line.starts_with(b"Ref: "))
                && at > 5
                && !offset.is_empty()
                && offset.iter().all(u8::is_ascii_digit)
        }
        0x08 => at > 0 && line[at - 1] == 0 && matches!(line.get(at + 1), Some(b'[' | b']')),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_files_by_name_first_line_and_node_header() {
        let is = |p: &str, b: &[u8]| is_file(Path::new(p), b);
        assert!(is("doc/grep.info", b""));
        assert!(is("doc/Emacs.INFO-12", b""));
        assert!(is(
            "doc/manual",
            b"This is sed.info, produced by makeinfo version 6.8 from sed.texi.\n"
        ));
        assert!(is(
            "x",
            b"This is x.info, produced by texi2any version 7.0 from x.texi.\n"
        ));
        assert!(is(
            "dir",
            b"This is the file .../info/dir\n\x1F\nFile: dir,\tNode: Top\n"
        ));
        assert!(!is("doc/info.txt", b"This is a note, produced by hand.\n"));
        assert!(!is("a.info-x", b"\x1F\n"));
        assert!(!is("notes", b"\x1F\nfile: lower case is no node header\n"));
    }

    #[test]
    fn separators_tag_table_offsets_and_markers_are_syntax() {
        let text = b"x\n\x1F\nFile: a.info\n\x1F\x0C\n\x1F\r\n\0\x08[index\0\x08]\n\
Tag Table:\nNode: Top\x7F773\nRef: an anchor\x7F1965\n\x1F\nEnd Tag Table\n";
        // Each control tested on its line, as the rule hands it over.
        let on_line = |i: usize| {
            let start = text[..i]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |k| k + 1);
            let end = text[i..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(text.len(), |k| i + k);
            is_syntax(&text[start..end], i - start)
        };
        let syntax: Vec<usize> = (0..text.len())
            .filter(|&i| matches!(text[i], 0x1F | 0x7F | 0x08) && on_line(i))
            .collect();
        let controls: Vec<usize> = (0..text.len())
            .filter(|&i| matches!(text[i], 0x1F | 0x7F | 0x08))
            .collect();
        assert_eq!(syntax, controls);
        // A control anywhere else in an Info file is no structure.
        for stray in [
            &b"a\x1F node separator inside text\n"[..],
            b"\x1F\x1F\n",
            b"Node: Top\x7F\n",
            b"Node: Top\x7F77 3\n",
            b"Node\x7F773\n",
            b"Look: the \x7F7\n",
            b"back\x08space\n",
            b"\0\x08index\n",
        ] {
            let line = stray.strip_suffix(b"\n").unwrap();
            let i = line
                .iter()
                .position(|b| matches!(b, 0x1F | 0x7F | 0x08))
                .unwrap();
            assert!(!is_syntax(line, i), "{stray:?}");
        }
    }
}
