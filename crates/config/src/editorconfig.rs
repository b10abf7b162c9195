//! `.editorconfig`: the `charset` property, by the EditorConfig
//! specification's rules (ec4rs parses and matches sections), with the file,
//! section and line each value came from.

use std::path::{Path, PathBuf};

use ec4rs::{ConfigParser, Section};

use crate::ConfigError;

/// A parsed `.editorconfig`.
#[derive(Clone)]
pub struct EditorConfigFile {
    /// Where it was read from.
    pub path: PathBuf,
    /// `root = true`: files further up are not read.
    pub is_root: bool,
    sections: Vec<(Section, String)>,
}

impl std::fmt::Debug for EditorConfigFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EditorConfigFile")
            .field("path", &self.path)
            .field("is_root", &self.is_root)
            .field(
                "sections",
                &self.sections.iter().map(|(_, h)| h).collect::<Vec<_>>(),
            )
            .finish()
    }
}

/// A `charset` value and where it was set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CharsetSetting {
    /// The value, lowercased: `utf-8`, `utf-8-bom`, `latin1`, ...
    pub value: String,
    /// The `.editorconfig` it came from.
    pub path: PathBuf,
    /// The section header, e.g. `[*.json]`.
    pub section: String,
    /// 1-based line of the property.
    pub line: usize,
}

impl EditorConfigFile {
    /// Parses the text of the `.editorconfig` at `path`.
    pub fn parse(text: &str, path: &Path) -> Result<EditorConfigFile, ConfigError> {
        let err = |line: Option<usize>, message: String| ConfigError {
            path: path.to_path_buf(),
            line,
            key: None,
            message,
        };
        let mut parser = ConfigParser::new_buffered_with_path(text.as_bytes(), Some(path))
            .map_err(|e| err(None, e.to_string()))?;
        let is_root = parser.is_root;
        // Section headers in file order, with their lines, to name them in
        // messages (ec4rs keeps the glob but not the text).
        let headers: Vec<(usize, String)> = text
            .lines()
            .enumerate()
            .filter_map(|(i, line)| {
                let t = line.trim();
                (t.starts_with('[') && t.ends_with(']')).then(|| (i + 1, t.to_string()))
            })
            .collect();
        let mut sections = Vec::new();
        // Iterate rather than loop on `has_more()`: in ec4rs 1.2.0 that
        // method returns the end-of-file flag itself, inverted.
        while let Some(section) = parser.next() {
            let section = section.map_err(|e| err(Some(parser.line_no()), e.to_string()))?;
            let header = headers
                .get(sections.len())
                .map(|(_, h)| h.clone())
                .unwrap_or_else(|| "[?]".to_string());
            sections.push((section, header));
        }
        Ok(EditorConfigFile {
            path: path.to_path_buf(),
            is_root,
            sections,
        })
    }

    /// The last `charset` this file sets for `relative` (a path relative to
    /// this file's directory), by section order.
    pub fn charset_for(&self, relative: &Path) -> Option<CharsetSetting> {
        // ec4rs matches a section's glob against the path relative to the
        // .editorconfig's directory, as its own ConfigFile does.
        let mut found = None;
        for (section, header) in &self.sections {
            let raw = section.props().get_raw_for_key("charset");
            // Most sections say nothing of `charset` (indentation, line
            // ends): skip them before the glob match, which a scan would
            // otherwise pay for every file and every section (8% of a
            // whole-tree scan's CPU went to ec4rs's matcher).
            if matches!(raw.into_result(), Err(false)) || !section.applies_to(relative) {
                continue;
            }
            match raw.into_result() {
                Err(true) => found = None, // `charset = unset`
                Err(false) => {}
                Ok(value) => {
                    let line = raw.source().map_or(0, |(_, line)| line);
                    found = Some(CharsetSetting {
                        value: value.to_ascii_lowercase(),
                        path: self.path.clone(),
                        section: header.clone(),
                        line,
                    });
                }
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_sections_win_and_sources_are_named() {
        let text = "root = true\n\n[*]\ncharset = utf-8\n\n[*.{csv,ps1}]\ncharset = utf-8-bom\n\n[legacy/**]\ncharset = latin1\n";
        let file = EditorConfigFile::parse(text, Path::new("/p/.editorconfig")).unwrap();
        assert!(file.is_root);
        let c = file.charset_for(Path::new("a/b.txt")).unwrap();
        assert_eq!(
            (c.value.as_str(), c.section.as_str(), c.line),
            ("utf-8", "[*]", 4)
        );
        let c = file.charset_for(Path::new("x.csv")).unwrap();
        assert_eq!(
            (c.value.as_str(), c.section.as_str(), c.line),
            ("utf-8-bom", "[*.{csv,ps1}]", 7)
        );
        let c = file.charset_for(Path::new("legacy/old/f.txt")).unwrap();
        assert_eq!(c.value, "latin1");
        assert_eq!(c.section, "[legacy/**]");
    }

    #[test]
    fn unset_and_missing() {
        let text = "[*]\ncharset = utf-8\n[*.md]\ncharset = unset\n";
        let file = EditorConfigFile::parse(text, Path::new("/p/.editorconfig")).unwrap();
        assert!(!file.is_root);
        assert_eq!(file.charset_for(Path::new("r.md")), None);
        assert!(file.charset_for(Path::new("r.txt")).is_some());
        let empty = EditorConfigFile::parse("", Path::new("/p/.editorconfig")).unwrap();
        assert_eq!(empty.charset_for(Path::new("r.txt")), None);
    }
}
