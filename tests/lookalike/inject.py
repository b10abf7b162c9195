"""Look-alike characters put into real Python code, for tests/cli/lookalike.rs.

`inject.py make SRC_DIR OUT_DIR COUNT SEED`: takes Python files that parse
from SRC_DIR (Python's own standard library), and writes COUNT copies into
OUT_DIR, each with one character of its code replaced by a look-alike (a
space between two tokens by U+00A0 or U+3000, a `"` opening a string by
U+201C, an operator `-` by U+2013, a `(` by U+FF08), and `cases.json`
naming each copy's original.

`inject.py verify OUT_DIR`: after the fix, each copy must parse to the same
syntax tree as its original; prints how many do, and exits 1 if any does not.
"""

import ast
import io
import json
import os
import random
import sys
import tokenize

KINDS = {"\u00a0": " ", "\u3000": " ", "\u201c": '"', "\u2013": "-", "\uff08": "("}


def offsets(text):
    out = [0]
    for line in text.splitlines(keepends=True):
        out.append(out[-1] + len(line))
    return out


def place(text, look):
    """Where `look` can stand in for its ASCII twin in `text`'s code."""
    tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    starts = offsets(text)
    at = lambda pos: starts[pos[0] - 1] + pos[1]
    ascii = KINDS[look]
    if ascii == " ":
        return [
            at(a.end)
            for a, b in zip(tokens, tokens[1:])
            if a.end[0] == b.start[0]
            and b.start[1] - a.end[1] == 1
            and a.type not in (tokenize.STRING, tokenize.COMMENT)
            and text[at(a.end)] == " "
        ]
    if ascii == '"':
        return [
            at(t.start)
            for t in tokens
            if t.type == tokenize.STRING
            and t.string.startswith('"')
            and not t.string.startswith('"""')
            and t.start[0] == t.end[0]
        ]
    return [at(t.start) for t in tokens if t.type == tokenize.OP and t.string == ascii]


def make(src, out, count, seed):
    rng = random.Random(seed)
    files = sorted(
        os.path.join(root, name)
        for root, _, names in os.walk(src)
        for name in names
        if name.endswith(".py") and "test" not in root
    )
    rng.shuffle(files)
    cases = []
    for path in files:
        if len(cases) == count:
            break
        try:
            text = open(path, encoding="utf-8").read()
            ast.parse(text)
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        look = rng.choice(sorted(KINDS))
        try:
            where = place(text, look)
        except (tokenize.TokenError, IndentationError, SyntaxError):
            continue
        if not where:
            continue
        i = rng.choice(where)
        name = "case%03d.py" % len(cases)
        with open(os.path.join(out, name), "w", encoding="utf-8", newline="") as f:
            f.write(text[:i] + look + text[i + 1 :])
        cases.append({"file": name, "original": path, "look": "U+%04X" % ord(look)})
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump(cases, f)
    print(len(cases))


def verify(out):
    cases = json.load(open(os.path.join(out, "cases.json")))
    wrong = []
    for case in cases:
        fixed = open(os.path.join(out, case["file"]), encoding="utf-8").read()
        original = open(case["original"], encoding="utf-8").read()
        try:
            same = ast.dump(ast.parse(fixed)) == ast.dump(ast.parse(original))
        except SyntaxError:
            same = False
        if not same:
            wrong.append(case["file"])
    print(len(cases) - len(wrong), wrong)
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    else:
        verify(sys.argv[2])
