"""The programs that read a file: which one a file has, and whether it accepts it.

A consumer is picked by the file's name and first bytes. `check` runs it on
one file in one tree and answers (accepted, what it said); `reading` is what
the consumer makes of the file where the harness can compare it (a syntax
tree, a parsed value), so that a fix can be shown to leave the reading
unchanged, not only accepted: Python's syntax tree, the parsed JSON, TOML
or YAML value, an HTML page's text as a browser decodes it, a catalogue's messages as gettext decodes them by its
declared charset, an XML document's canonical form (`xmllint --c14n`).
"""

import ast
import gettext
import hashlib
import io
import json
import os
import re
import subprocess
import tomllib
import warnings

try:
    import yaml
except ImportError:  # PyYAML is optional: YAML files then have no consumer
    yaml = None

TIMEOUT = 30  # seconds a consumer may take on one file before it counts as failed

XML_SUFFIXES = {
    ".xml", ".xsl", ".xslt", ".svg", ".xhtml", ".rdf", ".xsd", ".dbk", ".docbook",
    ".glade", ".ui", ".page", ".policy", ".plist", ".metainfo", ".appdata", ".gir",
}
SHEBANG = re.compile(rb"^#!\s*(?:/usr/bin/env\s+(?:-S\s+)?)?(?:\S*/)?(\w+)")


def shebang_program(head):
    m = SHEBANG.match(head)
    return m.group(1).decode("ascii") if m else None


def strip_bom(head):
    for bom in (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"):
        if head.startswith(bom):
            return head[len(bom):].replace(b"\0", b"")
    return head


def consumer_for(rel, head):
    """The consumer's name for a file, or None. `head` is its first bytes."""
    name = os.path.basename(rel).lower()
    _, ext = os.path.splitext(name)
    program = shebang_program(head)
    if ext in (".py", ".pyw") or (program and program.startswith("python")):
        return "python"
    if ext in (".pl", ".pm") or program == "perl" or (ext == ".t" and b"use " in head):
        return "perl"
    if program == "bash" or ext == ".bash":
        return "bash"
    if program in ("sh", "dash") or ext == ".sh":
        return "sh"
    if ext in (".po", ".pot"):
        return "msgfmt"
    if ext == ".json":
        return "json"
    if ext == ".toml":
        return "toml"
    if ext in (".yaml", ".yml") and yaml is not None:
        return "yaml"
    if ext in XML_SUFFIXES or strip_bom(head).lstrip().startswith(b"<?xml"):
        return "xml"
    # Content-negotiated pages too: index.html.ko.euc-kr.
    if {"html", "htm", "shtml"} & set(name.split(".")[1:]):
        return "html"
    return None


def run(argv, cwd):
    """(accepted, first line of stderr, stdout) of a consumer program."""
    try:
        p = subprocess.run(
            argv, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        return False, f"timed out after {TIMEOUT} s", b""
    said = p.stderr.decode("utf-8", "replace").strip().splitlines()
    return p.returncode == 0, (said[0][:200] if said else f"exit {p.returncode}"), p.stdout


def catalogue_reading(mo):
    """A compiled catalogue's messages as its runtime decodes them (by the
    header's charset), header entry aside; None where Python cannot decode."""
    try:
        catalog = gettext.GNUTranslations(io.BytesIO(mo))._catalog
    except Exception:  # an unknown charset, or what Python's reader refuses
        return None
    return repr(sorted((repr(k), v) for k, v in catalog.items() if k != ""))


def python_reading(data):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.dump(ast.parse(data))


def yaml_reading(data):
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return repr(list(yaml.load_all(data, Loader=loader)))


META_CHARSET = re.compile(rb"<meta[^>]*charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:-]+)", re.I)
META_TEXT = re.compile(r"charset\s*=\s*[A-Za-z0-9_.:-]+", re.I)
# Labels the WHATWG Encoding standard reads as windows-1252.
WINDOWS_1252 = {"iso-8859-1", "iso8859-1", "latin1", "l1", "us-ascii", "ascii", "windows-1252", "cp1252"}


def html_reading(data):
    """The text a browser reads: by the byte-order mark, else by the
    `<meta charset>` in the first 1024 bytes; None when neither says
    (a browser then guesses). Never a rejection: browsers read anything."""
    for bom, codec in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if data.startswith(bom):
            return data[len(bom):].decode(codec, "replace")
    m = META_CHARSET.search(data[:1024])
    if not m:
        return None
    label = m.group(1).decode("ascii").lower()
    codec = "cp1252" if label in WINDOWS_1252 else label
    try:
        text = data.decode(codec, "replace")
    except LookupError:
        return None
    # The declaration itself is not the page's text: a conversion rewrites it.
    return META_TEXT.sub("charset=", text, count=1)


# In-process readers: bytes -> a comparable reading, raising when rejected.
READERS = {
    "python": python_reading,
    "json": lambda data: repr(json.loads(data)),
    "toml": lambda data: repr(tomllib.loads(data.decode("utf-8"))),
    "html": html_reading,
}
if yaml is not None:
    READERS["yaml"] = yaml_reading


def check(consumer, tree, rel):
    """(accepted, what the consumer said, its reading or None) for `rel` in `tree`."""
    path = os.path.join(tree, rel)
    reader = READERS.get(consumer)
    if reader is not None:
        with open(path, "rb") as f:
            data = f.read()
        try:
            return True, "", reader(data)
        except Exception as e:  # every rejection the parser has, reported as said
            return False, f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:200], None
    if consumer == "perl":
        # From the tree's root, with the library paths a distribution's tests use.
        ok, said, _ = run(["perl", "-c", "-Ilib", "-Iblib/lib", "-It/lib", "-I.", rel], tree)
        return ok, said, None
    if consumer in ("bash", "sh"):
        ok, said, _ = run([consumer, "-n", rel], tree)
        return ok, said, None
    if consumer == "msgfmt":
        ok, said, mo = run(["msgfmt", "-c", "-o", "-", rel], tree)
        return ok, said, catalogue_reading(mo) if ok else None
    if consumer == "xml":
        # The canonical form: the document as a parser reads it, whatever its encoding.
        ok, said, c14n = run(["xmllint", "--nonet", "--c14n", rel], tree)
        return ok, said, hashlib.sha256(c14n).hexdigest() if ok else None
    raise ValueError(consumer)
