//! What `--diff` prints for a long line with one bad byte in the middle:
//! the whole line twice (`-` then `+`), as any unified diff does, so its
//! output is about twice the line.

use crate::common::*;

#[test]
fn a_fix_in_a_long_line_shows_the_whole_line_twice() {
    let mut line = vec![b'a'; 1 << 20];
    line.push(0xFF);
    line.extend(std::iter::repeat_n(b'b', 1 << 20));
    let mut file = line.clone();
    file.push(b'\n');
    let dir = tree(&[("long.txt", &file), ("copy.txt", &file)]);
    let o = run(
        dir.path(),
        ["check", "--diff", "--unsafe-fixes", "-q", "long.txt"],
    );
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    // The fixed line, as --fix writes it.
    let fixed = run(
        dir.path(),
        ["check", "--fix", "--unsafe-fixes", "-q", "copy.txt"],
    );
    assert!(matches!(code(&fixed), 0 | 1), "{}", stderr(&fixed));
    let fixed = std::fs::read(dir.path().join("copy.txt")).unwrap();
    let mut expected = b"--- a/long.txt\n+++ b/long.txt\n@@ -1,1 +1,1 @@\n-".to_vec();
    expected.extend_from_slice(&file);
    expected.push(b'+');
    expected.extend_from_slice(&fixed);
    assert!(
        o.stdout == expected,
        "{} bytes, expected {}",
        o.stdout.len(),
        expected.len()
    );
    assert!(o.stdout.len() > 2 * line.len());
}
