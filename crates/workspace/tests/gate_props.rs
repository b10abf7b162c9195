//! The fix gate on random files: what it accepts is settled (fixing the
//! result again changes nothing) and its edits of the original are the
//! bytes it writes.

use std::path::Path;

use proptest::prelude::*;
use utf8lint_diagnostics::{Policy, write_fixes};
use utf8lint_workspace::gate::{self, Refusal, Request, Select};

/// Pieces files are made of: text, marks, ill-formed bytes, invisible and
/// tag characters, mojibake pairs, line ends.
fn piece() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(b"word ".to_vec()),
        Just(b"x\n".to_vec()),
        Just(b"\r\n".to_vec()),
        Just("\u{FEFF}".as_bytes().to_vec()),
        Just(b"\xFF\xFE".to_vec()),
        Just(b"\xEF\xBB\xBF".to_vec()),
        Just(b"\xC0\xAE".to_vec()),
        Just(b"\xE9".to_vec()),
        Just(b"\xED\xA0\x80".to_vec()),
        Just("\u{200B}".as_bytes().to_vec()),
        Just("\u{200D}".as_bytes().to_vec()),
        Just("\u{2060}".as_bytes().to_vec()),
        Just("\u{E0041}".as_bytes().to_vec()),
        Just("\u{E0001}".as_bytes().to_vec()),
        Just("Ã".as_bytes().to_vec()),
        Just("©".as_bytes().to_vec()),
        Just("Ã©".as_bytes().to_vec()),
        Just("â€™".as_bytes().to_vec()),
        Just("\u{202E}".as_bytes().to_vec()),
        Just(b"\x07".to_vec()),
        Just("café".as_bytes().to_vec()),
    ]
}

fn file() -> impl Strategy<Value = Vec<u8>> {
    // Ending in a line end: a file ending in U+200B is a known crash of the
    // text rules, not this property.
    proptest::collection::vec(piece(), 0..24)
        .prop_map(|pieces| [pieces.concat(), b"end\n".to_vec()].concat())
}

fn fix(bytes: &[u8], name: &str, unsafe_fixes: bool) -> Result<gate::Fixed, Refusal> {
    let policy = Policy::default();
    let select = Select::Applicable { unsafe_fixes };
    let request = Request {
        path: Path::new(name),
        policy: &policy,
        select: &select,
        allow_binary: false,
        filter: None,
    };
    gate::fix(bytes, &request)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn what_the_gate_accepts_is_settled_and_announced_exactly(
        bytes in file(),
        name in prop_oneof![Just("a.txt"), Just("a.json"), Just("a.py")],
        unsafe_fixes in any::<bool>(),
    ) {
        let Ok(fixed) = fix(&bytes, name, unsafe_fixes) else {
            // Refused: nothing is written, which settles it too.
            return Ok(());
        };
        if fixed.is_empty() {
            return Ok(());
        }
        let mut announced = Vec::new();
        write_fixes(&mut announced, &bytes, &[&fixed.fix]).unwrap();
        prop_assert_eq!(&announced, &fixed.bytes);
        let again = fix(&fixed.bytes, name, unsafe_fixes);
        prop_assert!(
            matches!(&again, Ok(f) if f.is_empty()),
            "fixing {:02X?} again: {:?}",
            fixed.bytes,
            again.map(|f| f.bytes)
        );
    }
}
