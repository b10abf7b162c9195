//! The clean 64 MiB inputs of the `check` bench, shared with the
//! `profile_check` example (which runs `check` on one of them in a loop, for
//! `perf`).

/// Bytes per input.
#[allow(dead_code, reason = "the example does not use it")]
pub(crate) const SIZE: usize = 64 * 1024 * 1024;

/// Deterministic text: `pieces` chosen by a xorshift generator until `SIZE`.
fn text(pieces: &[&str]) -> Vec<u8> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut out = Vec::with_capacity(SIZE + 64);
    while out.len() < SIZE {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        out.extend_from_slice(pieces[(state % pieces.len() as u64) as usize].as_bytes());
    }
    // End on a character boundary.
    while std::str::from_utf8(&out).is_err() {
        out.pop();
    }
    out
}

/// The inputs' names.
pub(crate) const NAMES: [&str; 4] = ["ascii-code", "mixed-prose", "latin-prose", "cjk"];

/// The input called `name` (one of [`NAMES`]).
pub(crate) fn input(name: &str) -> Option<Vec<u8>> {
    let pieces: &[&str] = match name {
        "ascii-code" => &[
            "fn main() {\n",
            "    let x = 42;\n",
            "    println!(\"{x}\");\n",
            "}\n",
            "// comment\n",
        ],
        "mixed-prose" => &[
            "The café ",
            "naïve ",
            "東京 ",
            "Grüße ",
            "😀 ",
            "plain words ",
            "\n",
        ],
        "latin-prose" => &[
            "L’été dernier, ",
            "nous avons mangé des crêpes ",
            "à Noël chez François ",
            "— « très » bien… ",
            "Größe über Äpfel ",
            "\n",
        ],
        "cjk" => &["日本語の文章です。", "中文文本，", "한국어 ", "\n"],
        _ => return None,
    };
    Some(text(pieces))
}
