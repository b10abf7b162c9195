"""Encoding declarations a file's consumer reads, found by pattern.

Used on a file that a fix converted to UTF-8: a declaration that still
names a legacy encoding makes its consumer read the new bytes wrongly
(a catalogue's charset=, HTML's meta charset, XML's encoding=, a Python
or Emacs coding cookie, POD's =encoding, LaTeX's inputenc, Texinfo's
@documentencoding, Vim's scriptencoding).
"""

import re

PATTERNS = [
    # No spaces around `=`, as in HTML, MIME and catalogue headers (not `charset = x` in code).
    re.compile(rb"charset=[\"']?([A-Za-z][A-Za-z0-9_.:-]*)", re.I),
    re.compile(rb"<\?xml[^>]*\bencoding\s*=\s*[\"']([A-Za-z0-9_.:-]+)", re.I),
    re.compile(rb"^=encoding[ \t]+(\S+)", re.M),
    re.compile(rb"\\usepackage\s*\[([^\]]+)\]\s*\{inputenc\}"),
    re.compile(rb"^[ \t]*@documentencoding[ \t]+(\S+)", re.M),
    re.compile(rb"^[ \t]*scriptencoding[ \t]+(\S+)", re.M),
]
# PEP 263 and Emacs: only on the first two lines.
COOKIE = re.compile(rb"coding[:=]\s*([-\w.]+)")
NOT_LEGACY = {"utf-8", "utf8", "utf_8", "us-ascii", "ascii", "charset", "unicode-1-1-utf-8"}


def legacy_declaration(data):
    """The first declaration in `data` naming an encoding other than UTF-8, or None."""
    head = b"\n".join(data.split(b"\n", 2)[:2])
    for pattern, text in [(COOKIE, head)] + [(p, data) for p in PATTERNS]:
        for m in pattern.finditer(text):
            names = m.group(1).decode("ascii", "replace").lower()
            for name in names.split(","):
                if name.strip() and name.strip() not in NOT_LEGACY:
                    return m.group(0).decode("ascii", "replace")[:80]
    return None
