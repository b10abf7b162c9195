//! The DOS code pages text is still found in, which encoding_rs does not
//! have: CP437 (the IBM PC's) and CP850 (DOS Latin-1). A high byte of a
//! Latin file may be either: U001 names their readings beside the Windows
//! and ISO ones. Generated from Python's `cp437` and `cp850` codecs
//! (Unicode's `VENDORS/MICSFT/PC` mappings).

/// CP437's characters for `0x80..=0xFF`.
const CP437: [char; 128] = [
    '\u{C7}', '\u{FC}', '\u{E9}', '\u{E2}', '\u{E4}', '\u{E0}', '\u{E5}', '\u{E7}', '\u{EA}',
    '\u{EB}', '\u{E8}', '\u{EF}', '\u{EE}', '\u{EC}', '\u{C4}', '\u{C5}', '\u{C9}', '\u{E6}',
    '\u{C6}', '\u{F4}', '\u{F6}', '\u{F2}', '\u{FB}', '\u{F9}', '\u{FF}', '\u{D6}', '\u{DC}',
    '\u{A2}', '\u{A3}', '\u{A5}', '\u{20A7}', '\u{192}', '\u{E1}', '\u{ED}', '\u{F3}', '\u{FA}',
    '\u{F1}', '\u{D1}', '\u{AA}', '\u{BA}', '\u{BF}', '\u{2310}', '\u{AC}', '\u{BD}', '\u{BC}',
    '\u{A1}', '\u{AB}', '\u{BB}', '\u{2591}', '\u{2592}', '\u{2593}', '\u{2502}', '\u{2524}',
    '\u{2561}', '\u{2562}', '\u{2556}', '\u{2555}', '\u{2563}', '\u{2551}', '\u{2557}', '\u{255D}',
    '\u{255C}', '\u{255B}', '\u{2510}', '\u{2514}', '\u{2534}', '\u{252C}', '\u{251C}', '\u{2500}',
    '\u{253C}', '\u{255E}', '\u{255F}', '\u{255A}', '\u{2554}', '\u{2569}', '\u{2566}', '\u{2560}',
    '\u{2550}', '\u{256C}', '\u{2567}', '\u{2568}', '\u{2564}', '\u{2565}', '\u{2559}', '\u{2558}',
    '\u{2552}', '\u{2553}', '\u{256B}', '\u{256A}', '\u{2518}', '\u{250C}', '\u{2588}', '\u{2584}',
    '\u{258C}', '\u{2590}', '\u{2580}', '\u{3B1}', '\u{DF}', '\u{393}', '\u{3C0}', '\u{3A3}',
    '\u{3C3}', '\u{B5}', '\u{3C4}', '\u{3A6}', '\u{398}', '\u{3A9}', '\u{3B4}', '\u{221E}',
    '\u{3C6}', '\u{3B5}', '\u{2229}', '\u{2261}', '\u{B1}', '\u{2265}', '\u{2264}', '\u{2320}',
    '\u{2321}', '\u{F7}', '\u{2248}', '\u{B0}', '\u{2219}', '\u{B7}', '\u{221A}', '\u{207F}',
    '\u{B2}', '\u{25A0}', '\u{A0}',
];

/// CP850's characters for `0x80..=0xFF`.
const CP850: [char; 128] = [
    '\u{C7}', '\u{FC}', '\u{E9}', '\u{E2}', '\u{E4}', '\u{E0}', '\u{E5}', '\u{E7}', '\u{EA}',
    '\u{EB}', '\u{E8}', '\u{EF}', '\u{EE}', '\u{EC}', '\u{C4}', '\u{C5}', '\u{C9}', '\u{E6}',
    '\u{C6}', '\u{F4}', '\u{F6}', '\u{F2}', '\u{FB}', '\u{F9}', '\u{FF}', '\u{D6}', '\u{DC}',
    '\u{F8}', '\u{A3}', '\u{D8}', '\u{D7}', '\u{192}', '\u{E1}', '\u{ED}', '\u{F3}', '\u{FA}',
    '\u{F1}', '\u{D1}', '\u{AA}', '\u{BA}', '\u{BF}', '\u{AE}', '\u{AC}', '\u{BD}', '\u{BC}',
    '\u{A1}', '\u{AB}', '\u{BB}', '\u{2591}', '\u{2592}', '\u{2593}', '\u{2502}', '\u{2524}',
    '\u{C1}', '\u{C2}', '\u{C0}', '\u{A9}', '\u{2563}', '\u{2551}', '\u{2557}', '\u{255D}',
    '\u{A2}', '\u{A5}', '\u{2510}', '\u{2514}', '\u{2534}', '\u{252C}', '\u{251C}', '\u{2500}',
    '\u{253C}', '\u{E3}', '\u{C3}', '\u{255A}', '\u{2554}', '\u{2569}', '\u{2566}', '\u{2560}',
    '\u{2550}', '\u{256C}', '\u{A4}', '\u{F0}', '\u{D0}', '\u{CA}', '\u{CB}', '\u{C8}', '\u{131}',
    '\u{CD}', '\u{CE}', '\u{CF}', '\u{2518}', '\u{250C}', '\u{2588}', '\u{2584}', '\u{A6}',
    '\u{CC}', '\u{2580}', '\u{D3}', '\u{DF}', '\u{D4}', '\u{D2}', '\u{F5}', '\u{D5}', '\u{B5}',
    '\u{FE}', '\u{DE}', '\u{DA}', '\u{DB}', '\u{D9}', '\u{FD}', '\u{DD}', '\u{AF}', '\u{B4}',
    '\u{AD}', '\u{B1}', '\u{2017}', '\u{BE}', '\u{B6}', '\u{A7}', '\u{F7}', '\u{B8}', '\u{B0}',
    '\u{A8}', '\u{B7}', '\u{B9}', '\u{B3}', '\u{B2}', '\u{25A0}', '\u{A0}',
];

/// The DOS code pages, by name, with their high halves.
pub(crate) const DOS_CODE_PAGES: [(&str, &[char; 128]); 2] = [("CP437", &CP437), ("CP850", &CP850)];

/// The character `byte` (`0x80` and up) is in `table`.
pub(crate) fn read(table: &[char; 128], byte: u8) -> Option<char> {
    byte.checked_sub(0x80).map(|k| table[usize::from(k)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_read_the_bytes_people_meet() {
        // `\x94` is `ö` in both, `\x81` `ü`, `\xE1` `ß`; CP850 has `É` at `\x90`.
        for (table, byte, c) in [
            (&CP437, 0x94, 'ö'),
            (&CP850, 0x94, 'ö'),
            (&CP437, 0x81, 'ü'),
            (&CP437, 0xE1, 'ß'),
            (&CP850, 0x90, 'É'),
            (&CP437, 0xC9, '╔'),
            (&CP850, 0xD5, 'ı'),
        ] {
            assert_eq!(read(table, byte), Some(c), "{byte:#X}");
        }
        assert_eq!(read(&CP437, 0x41), None);
    }
}
