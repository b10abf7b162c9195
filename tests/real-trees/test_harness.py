"""The harness's own tests: each assertion fails on a fixer that breaks it.

A stand-in for utf8lint (a small Python script, its misdeed chosen by
FAKE_FIX) fixes a made-up tree; a fixer that only removes the BOM a JSON
file must not have passes, and each misdeed is caught. No network.
`python3 -m unittest discover -s tests/real-trees -p 'test_*.py'`
"""

import os
import stat
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import consumers  # noqa: E402
import declarations  # noqa: E402
import fetch  # noqa: E402
import real_trees  # noqa: E402

PNG = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x02\0\0\0\x90wS\xde"

FAKE = textwrap.dedent('''\
    #!/usr/bin/env python3
    import json, os, sys
    args = sys.argv[1:]
    fixing = "--fix" in args
    unsafe = "--unsafe-fixes" in args
    mode = os.environ.get("FAKE_FIX", "")
    def rewrite(path, data):
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    data = open("conf.json", "rb").read()
    if data.startswith(b"\\xef\\xbb\\xbf"):
        print(json.dumps({"path": "conf.json", "code": "U003",
                          "fix": {"applicability": "safe"}}))
        if fixing:
            rewrite("conf.json", data[3:])
    if fixing and unsafe:
        if mode == "binary":
            rewrite("logo.png", open("logo.png", "rb").read().replace(b"\\0", b""))
        if mode == "python":
            rewrite("tool.py", b"def f(:\\n")
        if mode == "unsettled":
            with open("notes.txt", "ab") as f:
                f.write(b"x")
            rewrite("notes.txt", open("notes.txt", "rb").read())
    if fixing and mode == "reading":
        rewrite("data.json", b'{"a": 2}\\n')
    if mode == "hang" and fixing:
        import time
        time.sleep(30)
    if mode == "panic":
        print("thread 'main' panicked at src/x.rs:1:1:", file=sys.stderr)
        print("boom", file=sys.stderr)
        sys.exit(101)
    print("utf8lint: checked 5 files", file=sys.stderr)
''')


class Harness(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        root = self.tmp.name
        self.tree = os.path.join(root, "tree")
        os.makedirs(self.tree)
        files = {
            "conf.json": b'\xef\xbb\xbf{"a": 1}\n',
            "data.json": b'{"a": 1}\n',
            "logo.png": PNG,
            "tool.py": b"def f():\n    return 1\n",
            "notes.txt": b"notes\n",
        }
        for name, data in files.items():
            with open(os.path.join(self.tree, name), "wb") as f:
                f.write(data)
        self.binary = os.path.join(root, "utf8lint")
        with open(self.binary, "w", encoding="utf-8") as f:
            f.write(FAKE)
        os.chmod(self.binary, os.stat(self.binary).st_mode | stat.S_IXUSR)
        self.work = os.path.join(root, "work")
        os.makedirs(self.work)

    def tearDown(self):
        self.tmp.cleanup()
        os.environ.pop("FAKE_FIX", None)

    def run_with(self, mode):
        os.environ["FAKE_FIX"] = mode
        fetched = fetch.Fetched(fetch.Package("demo", "1", "test"), "1", self.tree)
        return real_trees.run_package(fetched, self.binary, self.work, lambda msg: None)

    def whats(self, result):
        return [(stage, path, what) for stage, path, _, what in result.violations]

    def test_a_safe_fix_passes_and_is_counted(self):
        result = self.run_with("")
        self.assertEqual(result.violations, [])
        self.assertEqual(result.files_changed["fix"], 1)
        self.assertEqual(result.changed["fix"], {"U003": 1})
        self.assertEqual(result.consumers["json"]["kept"], 1)

    def test_a_changed_binary_file_fails(self):
        whats = self.whats(self.run_with("binary"))
        self.assertTrue(any(s == "unsafe" and p == "logo.png" and "binary" in w for s, p, w in whats), whats)

    def test_a_consumer_that_no_longer_accepts_fails(self):
        whats = self.whats(self.run_with("python"))
        self.assertTrue(any(p == "tool.py" and "python accepted it before" in w for _, p, w in whats), whats)

    def test_a_second_run_that_changes_a_file_fails(self):
        whats = self.whats(self.run_with("unsettled"))
        self.assertTrue(any(s == "again" and p == "notes.txt" for s, p, _ in whats), whats)

    def test_a_safe_fix_that_changes_the_reading_fails(self):
        whats = self.whats(self.run_with("reading"))
        self.assertTrue(any(s == "fix" and p == "data.json" and "reads" in w for s, p, w in whats), whats)

    def test_a_panic_fails(self):
        whats = self.whats(self.run_with("panic"))
        self.assertTrue(any("crashed" in w and "src/x.rs" in w for _, _, w in whats), whats)

    def test_a_run_that_does_not_finish_fails(self):
        saved = real_trees.RUN_TIMEOUT
        real_trees.RUN_TIMEOUT = 1
        try:
            whats = self.whats(self.run_with("hang"))
        finally:
            real_trees.RUN_TIMEOUT = saved
        self.assertTrue(any(s == "fix" and "did not finish" in w for s, _, w in whats), whats)

    def test_the_pristine_tree_is_left_alone(self):
        self.run_with("binary")
        with open(os.path.join(self.tree, "logo.png"), "rb") as f:
            self.assertEqual(f.read(), PNG)


class Paths(unittest.TestCase):
    def test_a_name_is_shown_as_utf8lint_writes_it(self):
        self.assertEqual(real_trees.shown(b"caf\xe9.txt"), "caf\\xE9.txt")
        self.assertEqual(real_trees.shown("é\\x".encode()), "é\\x")
        self.assertEqual(real_trees.shown(b"\\\xff"), "\\\\\\xFF")

    def test_a_refusal_groups_by_its_reason(self):
        line = "utf8lint: error: a: b.txt: file changed since it was read"
        self.assertEqual(real_trees.reason_of(line, {"a: b.txt"}), "file changed since it was read")
        line = "utf8lint: error: not fixing t/x 1.t: its fixes would leave 62 findings where there were 0"
        self.assertEqual(real_trees.reason_of(line, {"t/x 1.t"}),
                         "not fixing: its fixes would leave N findings where there were N")


class Readings(unittest.TestCase):
    """A conversion that rewrites the declaration reads the same; one that leaves it does not."""

    def reading(self, consumer, name, data):
        with tempfile.TemporaryDirectory() as tree:
            with open(os.path.join(tree, name), "wb") as f:
                f.write(data)
            ok, said, reading = consumers.check(consumer, tree, "./" + name)
            self.assertTrue(ok, said)
            return reading

    def test_a_catalogue_is_read_by_its_charset(self):
        po = ('msgid ""\nmsgstr "Content-Type: text/plain; charset={}\\n"\n\n'
              'msgid "coffee"\nmsgstr "caf\u00e9"\n')
        latin1 = self.reading("msgfmt", "fr.po", po.format("ISO-8859-1").encode("latin-1"))
        converted = self.reading("msgfmt", "fr.po", po.format("UTF-8").encode("utf-8"))
        stale = self.reading("msgfmt", "fr.po", po.format("ISO-8859-1").encode("utf-8"))
        self.assertEqual(latin1, converted)
        self.assertNotEqual(latin1, stale)

    def test_an_xml_document_is_read_by_its_encoding(self):
        doc = '<?xml version="1.0" encoding="{}"?>\n<a>caf\u00e9</a>\n'
        latin1 = self.reading("xml", "a.xml", doc.format("ISO-8859-1").encode("latin-1"))
        converted = self.reading("xml", "a.xml", doc.format("UTF-8").encode("utf-8"))
        stale = self.reading("xml", "a.xml", doc.format("ISO-8859-1").encode("utf-8"))
        self.assertEqual(latin1, converted)
        self.assertNotEqual(latin1, stale)


    def test_an_html_page_is_read_by_its_meta_charset(self):
        page = '<html><head><meta http-equiv="Content-Type" content="text/html; charset={}">\n<p>\uc548\ub155</p>\n'
        euc_kr = self.reading("html", "index.html.ko.euc-kr", page.format("EUC-KR").encode("euc-kr"))
        converted = self.reading("html", "index.html.ko.euc-kr", page.format("UTF-8").encode("utf-8"))
        stale = self.reading("html", "index.html.ko.euc-kr", page.format("EUC-KR").encode("utf-8"))
        self.assertEqual(consumers.consumer_for("index.html.ko.euc-kr", b"<html>"), "html")
        self.assertEqual(euc_kr, converted)
        self.assertNotEqual(euc_kr, stale)


class Pins(unittest.TestCase):
    def test_the_pinned_list_reads_and_holds_enough_packages(self):
        packages = fetch.read_packages(os.path.join(HERE, "packages.tsv"))
        self.assertGreaterEqual(len(packages), real_trees.MIN_PACKAGES)
        self.assertEqual(len({p.name for p in packages}), len(packages))

    def test_a_malformed_line_is_an_error_that_names_it(self):
        with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
            f.write("# comment\nvim 2:9.0\n")
        try:
            with self.assertRaisesRegex(ValueError, ":2: expected NAME, VERSION and KIND"):
                fetch.read_packages(f.name)
        finally:
            os.unlink(f.name)

    def test_the_epoch_is_not_in_file_names(self):
        self.assertEqual(fetch.dsc_name("vim", "2:9.0.1378-2"), "vim_9.0.1378-2.dsc")


class Declarations(unittest.TestCase):
    def test_a_legacy_declaration_is_found(self):
        for data in (
            b"# -*- coding: latin-1 -*-\nx = 1\n",
            b'msgid ""\nmsgstr "Content-Type: text/plain; charset=ISO-8859-2\\n"\n',
            b'<?xml version="1.0" encoding="windows-1252"?>\n<a/>\n',
            b"\\usepackage[T1]{fontenc}\n\\usepackage[latin1]{inputenc}\n",
            b"=head1 NAME\n\n=encoding iso-8859-1\n",
            b"scriptencoding cp1250\n",
        ):
            self.assertIsNotNone(declarations.legacy_declaration(data), data)

    def test_utf8_and_a_late_cookie_are_not(self):
        for data in (
            b"# -*- coding: utf-8 -*-\n",
            b'<?xml version="1.0" encoding="UTF-8"?>\n',
            b"\\usepackage[utf8]{inputenc}\n",
            b"a\nb\n# coding: latin-1\n",
        ):
            self.assertIsNone(declarations.legacy_declaration(data), data)


if __name__ == "__main__":
    unittest.main()
