//! The keys TOML's rules need while a `utf8lint.toml` is read: for each
//! table, the keys it holds and what each holds (a 32-bit value), to
//! refuse a key defined twice or a table extended the wrong way.
//!
//! One store for every table, not a map per table: an entry is 16 bytes
//! (its table, its key, its value), a key of up to four bytes (`U001`, a
//! short glob) in the entry itself and a longer one in one arena, found
//! through an open-addressing index of 4-byte slots.
//! Thousands of `[per-file-lints]` entries written as dotted keys
//! (`"a".U001 = "allow"`) are each a table with one key: a map, a list
//! and two boxed strings each took several times what they hold.

use std::hash::{BuildHasher, Hasher};

/// An index slot no entry has used.
const EMPTY: u32 = 0;
/// An index slot whose entry was removed; a search goes on past it.
const REMOVED: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct Entry {
    table: u32,
    /// The key when it is at most [`INLINE`] bytes, else where it starts
    /// in the arena (little-endian).
    bytes: [u8; INLINE],
    len: u32,
    value: u32,
}

/// The longest key kept in its entry.
const INLINE: usize = 4;

impl Entry {
    /// Where its key starts in the arena, if it is there.
    fn arena_start(&self) -> Option<usize> {
        (self.len as usize > INLINE).then(|| u32::from_le_bytes(self.bytes) as usize)
    }
}

/// Keys by table, each with a value.
pub(crate) struct KeyStore {
    arena: Vec<u8>,
    entries: Vec<Entry>,
    /// Open addressing (empty, or 16 slots or more): `EMPTY`, `REMOVED`,
    /// or one more than an entry's place in `entries`.
    index: Vec<u32>,
    /// Slots not `EMPTY` (live and removed): the index grows before
    /// they are three quarters of it, so every search ends at an empty
    /// slot.
    used: usize,
    hasher: std::hash::RandomState,
}

impl Default for KeyStore {
    fn default() -> KeyStore {
        KeyStore {
            arena: Vec::new(),
            entries: Vec::new(),
            index: Vec::new(),
            used: 0,
            hasher: std::hash::RandomState::new(),
        }
    }
}

/// A 32-bit length or place; the text read is far shorter than 4 GiB
/// (a configuration file is at most 16 MiB), so none saturates.
fn u32_of(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl KeyStore {
    fn hash(&self, table: u32, key: &[u8]) -> usize {
        let mut h = self.hasher.build_hasher();
        h.write_u32(table);
        h.write(key);
        h.finish() as usize
    }

    fn key<'a>(&'a self, entry: &'a Entry) -> &'a [u8] {
        let len = entry.len as usize;
        match entry.arena_start() {
            Some(start) => self.arena.get(start..start + len).unwrap_or(&[]),
            None => &entry.bytes[..len],
        }
    }

    /// The index slot of `key` in `table`, or the empty slot where it
    /// would go (`index` is not empty).
    fn slot(&self, table: u32, key: &[u8]) -> (usize, Option<usize>) {
        let len = self.index.len();
        let mut at = self.hash(table, key) % len;
        loop {
            match self.index[at] {
                EMPTY => return (at, None),
                REMOVED => {}
                n => {
                    let i = n as usize - 1;
                    let entry = &self.entries[i];
                    if entry.table == table && self.key(entry) == key {
                        return (at, Some(i));
                    }
                }
            }
            at = if at + 1 == len { 0 } else { at + 1 };
        }
    }

    /// The value of `key` in `table`.
    pub(crate) fn get(&self, table: usize, key: &str) -> Option<u32> {
        if self.index.is_empty() {
            return None;
        }
        let (_, found) = self.slot(u32_of(table), key.as_bytes());
        found.map(|i| self.entries[i].value)
    }

    /// Sets `key` in `table` to `value`.
    pub(crate) fn insert(&mut self, table: usize, key: &str, value: u32) {
        let (table, key) = (u32_of(table), key.as_bytes());
        if (self.used + 1) * 4 > self.index.len() * 3 {
            self.grow();
        }
        let (at, found) = self.slot(table, key);
        if let Some(i) = found {
            self.entries[i].value = value;
            return;
        }
        let mut bytes = [0; INLINE];
        match bytes.get_mut(..key.len()) {
            Some(inline) => inline.copy_from_slice(key),
            None => {
                bytes = u32_of(self.arena.len()).to_le_bytes();
                self.arena.extend_from_slice(key);
            }
        }
        // Grown by half, not doubled: thousands of tiny tables are most of
        // what a configuration of them costs while it is read.
        if self.entries.len() == self.entries.capacity() {
            self.entries.reserve_exact((self.entries.len() / 2).max(16));
        }
        self.entries.push(Entry {
            table,
            bytes,
            len: u32_of(key.len()),
            value,
        });
        self.index[at] = u32_of(self.entries.len());
        self.used += 1;
    }

    /// A new index, twice the live entries, without removed slots; the
    /// old one is freed first (the entries are all it is made from).
    fn grow(&mut self) {
        self.index = Vec::new();
        let len = ((self.entries.len() + 1) * 2).max(16);
        let mut index = vec![EMPTY; len];
        for (i, entry) in self.entries.iter().enumerate() {
            let mut at = self.hash(entry.table, self.key(entry)) % len;
            while index[at] != EMPTY {
                at = if at + 1 == len { 0 } else { at + 1 };
            }
            index[at] = u32_of(i + 1);
        }
        self.index = index;
        self.used = self.entries.len();
    }

    /// A mark of what the store holds now, for [`KeyStore::remove_since`].
    pub(crate) fn mark(&self) -> usize {
        self.entries.len()
    }

    /// Removes the keys added since `mark` (an inline table's, once it is
    /// closed), calling `removed` with each one's value.
    pub(crate) fn remove_since(&mut self, mark: usize, mut removed: impl FnMut(u32)) {
        while self.entries.len() > mark {
            let Some(entry) = self.entries.last().copied() else {
                break;
            };
            let (at, found) = self.slot(entry.table, self.key(&entry));
            if found.is_some() {
                self.index[at] = REMOVED;
            }
            self.entries.pop();
            if let Some(start) = entry.arena_start() {
                self.arena.truncate(start);
            }
            removed(entry.value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_found_by_table_and_text() {
        let mut keys = KeyStore::default();
        assert_eq!(keys.get(0, "a"), None);
        for table in 0..500 {
            keys.insert(table, &format!("k{table}"), table as u32);
            keys.insert(table, "U001", 7);
        }
        for table in 0..500 {
            assert_eq!(keys.get(table, &format!("k{table}")), Some(table as u32));
            assert_eq!(keys.get(table, "U001"), Some(7));
            assert_eq!(keys.get(table, &format!("k{}", table + 1)), None);
        }
        keys.insert(3, "U001", 9);
        assert_eq!(keys.get(3, "U001"), Some(9));
        assert_eq!(keys.get(4, "U001"), Some(7));
        assert_eq!(keys.get(0, ""), None);
        keys.insert(0, "", 1);
        assert_eq!(keys.get(0, ""), Some(1));
    }

    #[test]
    fn keys_added_since_a_mark_are_removed_and_told() {
        let mut keys = KeyStore::default();
        keys.insert(0, "a", 1);
        let mark = keys.mark();
        for i in 0..100 {
            keys.insert(1 + i % 3, &format!("x{i}"), 10 + i as u32);
        }
        let mut told = Vec::new();
        keys.remove_since(mark, |value| told.push(value));
        assert_eq!(told.len(), 100);
        assert!(told.contains(&10) && told.contains(&109));
        assert_eq!(keys.get(1, "x0"), None);
        assert_eq!(keys.get(0, "a"), Some(1));
        // The slots freed are found again, and used again.
        keys.insert(1, "x0", 5);
        assert_eq!(keys.get(1, "x0"), Some(5));
        // Short keys are kept in their entries, longer ones in the arena.
        assert!(keys.arena.is_empty());
        keys.insert(1, "longer", 6);
        assert_eq!(keys.arena, b"longer");
        assert_eq!(keys.get(1, "longer"), Some(6));
        assert_eq!(keys.get(1, "long"), None);
    }
}
