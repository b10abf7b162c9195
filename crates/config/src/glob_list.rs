//! A list of globs (`exclude`, `agent-instructions`) kept compactly: one
//! text holding every glob as written, one offset a glob, and a regular
//! expression only for the rare glob that needs one. A list may hold
//! hundreds of thousands of one-character globs; each costs its bytes and
//! four more, never a heap header of its own.

use std::path::Path;

use serde::de::{Deserialize, Deserializer, SeqAccess, Visitor};

use crate::glob::{path_glob_matches, path_glob_regex};

/// The texts of a list of globs, as read: not yet compiled.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GlobTexts {
    /// Every glob, one after another.
    text: String,
    /// Where each glob ends in `text`.
    ends: Vec<u32>,
}

impl GlobTexts {
    /// Appends `glob`. A configuration file is at most 16 MiB, so its
    /// offsets fit in 32 bits.
    pub(crate) fn push(&mut self, glob: &str) {
        self.text.push_str(glob);
        let end = u32::try_from(self.text.len()).expect("a configuration's globs exceed 4 GiB");
        self.ends.push(end);
    }

    /// How many globs there are.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The `i`-th glob.
    pub fn get(&self, i: usize) -> &str {
        let start = i
            .checked_sub(1)
            .map_or(0, |before| self.ends[before] as usize);
        &self.text[start..self.ends[i] as usize]
    }

    /// The globs, in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Frees what reading reserved beyond the globs' size.
    fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
    }
}

impl<'de> Deserialize<'de> for GlobTexts {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Strings;
        impl<'de> Visitor<'de> for Strings {
            type Value = GlobTexts;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                // As serde says of a `Vec`: the message is the same for every list.
                f.write_str("a sequence")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<GlobTexts, A::Error> {
                let mut texts = GlobTexts::default();
                while let Some(glob) = seq.next_element::<std::borrow::Cow<'de, str>>()? {
                    texts.push(&glob);
                }
                Ok(texts)
            }
        }
        deserializer.deserialize_seq(Strings)
    }
}

/// A list of globs as `.gitignore` reads them, compiled.
#[derive(Clone, Debug, Default)]
pub struct GlobList {
    texts: GlobTexts,
    /// The regular expressions of the globs not matched by components, by
    /// index, in order.
    regexes: Vec<(u32, regex_automata::meta::Regex)>,
}

impl GlobList {
    /// Compiles every glob of `texts`, or says which one is not a glob
    /// utf8lint can use (the glob and why).
    pub(crate) fn compile(mut texts: GlobTexts) -> Result<GlobList, (String, String)> {
        texts.shrink_to_fit();
        let mut regexes = Vec::new();
        for (i, glob) in texts.iter().enumerate() {
            match path_glob_regex(glob) {
                Ok(None) => {}
                // `i` is below the number of globs, which fits in 32 bits.
                Ok(Some(regex)) => regexes.push((i as u32, regex)),
                Err(why) => return Err((glob.to_owned(), why)),
            }
        }
        regexes.shrink_to_fit();
        Ok(GlobList { texts, regexes })
    }

    pub fn len(&self) -> usize {
        self.texts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.texts.is_empty()
    }

    /// The `i`-th glob as written.
    pub fn get(&self, i: usize) -> &str {
        self.texts.get(i)
    }

    /// The globs as written, in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        self.texts.iter()
    }

    /// Whether the `i`-th glob matches `relative`.
    pub fn matches(&self, i: usize, relative: &Path) -> bool {
        let regex = self
            .regexes
            .binary_search_by_key(&i, |(at, _)| *at as usize)
            .ok()
            .map(|at| &self.regexes[at].1);
        path_glob_matches(self.get(i), regex, relative)
    }

    /// The first glob that matches `relative` or a directory it is in.
    pub fn first_covering(&self, relative: &Path) -> Option<&str> {
        (0..self.len())
            .find(|&i| {
                relative
                    .ancestors()
                    .filter(|a| !a.as_os_str().is_empty())
                    .any(|a| self.matches(i, a))
            })
            .map(|i| self.get(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(globs: &[&str]) -> GlobList {
        let mut texts = GlobTexts::default();
        for glob in globs {
            texts.push(glob);
        }
        GlobList::compile(texts).unwrap()
    }

    #[test]
    fn each_glob_is_kept_as_written_and_matched_as_a_path_glob() {
        let globs = [
            "a", "", "vendor/", "/top", "*.min.js", "gen/**", "x?.c", "{b,c}",
        ];
        let list = list(&globs);
        assert_eq!(list.iter().collect::<Vec<_>>(), globs);
        let cases = [
            ("a", Some("a")),
            ("d/a", Some("a")),
            ("vendor/x.txt", Some("vendor/")),
            ("top", Some("/top")),
            ("d/top", None),
            ("d/f.min.js", Some("*.min.js")),
            ("gen/x/y", Some("gen/**")),
            ("gen/a/y", Some("a")),
            ("d/x1.c", Some("x?.c")),
            ("d/c", Some("{b,c}")),
            ("d/e", None),
        ];
        for (path, glob) in cases {
            assert_eq!(list.first_covering(Path::new(path)), glob, "{path}");
        }
    }

    #[test]
    fn a_glob_that_does_not_compile_is_named() {
        let mut texts = GlobTexts::default();
        texts.push("*.txt");
        texts.push("[");
        let (glob, why) = GlobList::compile(texts).unwrap_err();
        assert_eq!(glob, "[");
        assert!(!why.is_empty());
    }

    #[test]
    fn a_list_reads_from_a_sequence_of_strings() {
        let texts: GlobTexts = serde_json::from_str(r#"["a", "b/**", "\u00e9"]"#).unwrap();
        assert_eq!(texts.iter().collect::<Vec<_>>(), ["a", "b/**", "é"]);
        assert!(serde_json::from_str::<GlobTexts>(r#"["a", 1]"#).is_err());
    }
}
