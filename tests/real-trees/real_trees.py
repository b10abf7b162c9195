#!/usr/bin/env python3
"""Fix real source trees and check that nothing is damaged.

For each pinned Debian source package (packages.tsv), on a copy of its
unpacked tree: `utf8lint check`, then `--fix`, then `--fix --unsafe-fixes`,
then `--fix --unsafe-fixes` again. Asserted, for every stage:

* no file that libmagic (`file --mime`) calls binary is changed, and no
  entry is created or deleted;
* a changed file that has a consumer (python, perl -c, bash -n, sh -n,
  xmllint, msgfmt -c, JSON, TOML, YAML) and was accepted by it before any
  fix is still accepted; after `--fix` (safe fixes) the consumer's reading
  (syntax tree, parsed value) is also unchanged;
* `check` changes nothing, and the second `--fix --unsafe-fixes` changes
  nothing (one run settles the tree);
* utf8lint does not crash (no panic, exit code 0, 1 or 2).

Prints a table per package and a summary; `--markdown FILE` writes the
summary as the table docs/fixes.md keeps. Exit code 1 if any assertion
failed (0 with `--report-only`), 2 if the suite could not run.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import consumers  # noqa: E402
import declarations  # noqa: E402
import fetch  # noqa: E402
from snapshot import Tracker  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
STAGES = [
    ("check", []),
    ("fix", ["--fix"]),
    ("unsafe", ["--fix", "--unsafe-fixes"]),
    ("again", ["--fix", "--unsafe-fixes"]),
]
# Which fixes a stage applies, to attribute a changed file to its findings' rules.
APPLIED = {"check": set(), "fix": {"safe"}, "unsafe": {"safe", "unsafe"}, "again": {"safe", "unsafe"}}
# Every byte but the C0 controls (tab, line feed, vertical tab, form feed and
# carriage return excepted) and DEL: what is left is the file's controls.
KEPT_BYTES = bytes(b for b in range(256) if not (b < 0x20 and b not in b"\t\n\v\f\r" or b == 0x7F))
RUN_TIMEOUT = 600  # seconds one utf8lint run may take on one tree (the largest takes about 1)
MIN_PACKAGES = 20  # fewer fetched trees than this is no suite
SUMMARY_PREFIXES = ("utf8lint: checked ", "utf8lint: by rule:", "utf8lint: fixed ")


def shown(rel):
    """A relative path (bytes) as utf8lint's JSON writes it: a UTF-8 name
    exactly; in any other, each invalid byte `\\xNN`, `\\` as `\\\\` and a
    control character `\\u{N}`."""
    try:
        return rel.decode("utf-8")
    except UnicodeDecodeError:
        pass
    out = []
    for ch in rel.decode("utf-8", "surrogateescape"):
        if 0xDC80 <= ord(ch) <= 0xDCFF:  # an invalid byte
            out.append(f"\\x{ord(ch) - 0xDC00:02X}")
        elif ch == "\\":
            out.append("\\\\")
        elif ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0:
            out.append(f"\\u{{{ord(ch):X}}}")
        else:
            out.append(ch)
    return "".join(out)


def _text(out):
    if isinstance(out, bytes):
        return out.decode("utf-8", "replace")
    return out or ""


def is_utf8(data):
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def findings_by_path(stdout):
    by_path = defaultdict(set)
    # Not splitlines(): a U+2028 inside a JSON string is not a line break.
    for line in stdout.split("\n"):
        if not line.strip():
            continue
        f = json.loads(line)
        if "code" not in f:
            # Not a finding: a named binary file skipped, or the note of
            # findings past the display cap.
            continue
        applicability = f["fix"]["applicability"] if f.get("fix") else None
        by_path[f["path"]].add((f["code"], applicability))
    return by_path


def problems_in(stderr):
    """utf8lint's own stderr lines that are not the summary: refusals and trouble."""
    return [
        line for line in stderr.split("\n")
        if line.startswith("utf8lint: ") and not line.startswith(SUMMARY_PREFIXES)
    ]


def crash_of(returncode, stderr):
    """What says utf8lint crashed, or None."""
    panics = [line for line in stderr.split("\n") if " panicked at " in line or "internal error" in line]
    if returncode in (0, 1, 2) and not panics:
        return None
    lines = stderr.split("\n")
    said = [lines[i + 1] if i + 1 < len(lines) and "panicked at" in line else "" for i, line in enumerate(lines)]
    detail = "; ".join(sorted({f"{p.strip()} {m.strip()}".strip() for p, m in zip(lines, said) if "panicked at" in p}))
    return f"utf8lint crashed (exit {returncode}, {len(panics)} panics/internal errors): {detail[:400]}"


def reason_of(line, work_names):
    """A refusal's reason without its path and numbers, so that equal reasons group:
    `utf8lint: error: not fixing a/b.txt: it would leave 2 ...` -> `not fixing: it would leave N ...`."""
    text = line
    for prefix in ("utf8lint: error: ", "utf8lint: warning: ", "utf8lint: "):
        if text.startswith(prefix):
            text = text[len(prefix):]
            break
    colon = text.find(": ")
    while colon >= 0:
        starts = [0] + [k + 1 for k in range(colon) if text[k] == " "]
        for start in starts:
            if text[start:colon] in work_names:
                text = (text[:start].rstrip() + ": " if start else "") + text[colon + 2:]
                return re.sub(r"\d+", "N", text)[:160]
        colon = text.find(": ", colon + 1)
    return re.sub(r"\d+", "N", text)[:160]


def libmagic_binary(tree, rels):
    """Those of `rels` (in `tree`) that `file --mime` calls binary, with what it said."""
    binary = {}
    rels = [r for r in rels if os.path.isfile(os.path.join(os.fsencode(tree), r))]
    for i in range(0, len(rels), 200):
        chunk = rels[i:i + 200]
        out = subprocess.run(
            ["file", "--mime", "-b", "-N", "--", *[b"./" + r for r in chunk]],
            cwd=tree, capture_output=True, check=True,
        ).stdout.splitlines()
        for rel, mime in zip(chunk, out):
            if b"charset=binary" in mime:
                binary[rel] = mime.decode("utf-8", "replace")
    return binary


class Package:
    """One package's run: its stages, what they changed, and what failed."""

    def __init__(self, fetched):
        self.fetched = fetched
        self.violations = []  # (stage, path, rules, what)
        self.changed = {}  # stage -> Counter of rule code -> files
        self.files_changed = {}  # stage -> number of files
        self.changed_files = {}  # stage -> [(path, rules)]
        self.refusals = {}  # stage -> Counter of reason
        self.seconds = Counter()
        self.controls_deleted = Counter()  # stage -> files that lost control characters
        self.stale = defaultdict(list)  # stage -> [(path, declaration)] left legacy after a conversion
        self.consumers = defaultdict(Counter)  # consumer -> {checked, accepted, kept, reading}
        self.read_differently = []  # (stage, path, rules, consumer): accepted, but read otherwise
        self.before = {}  # rel -> (consumer, accepted, said, reading) on the pristine tree
        self.files = 0
        self.bytes = 0

    def violate(self, stage, rel, rules, what):
        self.violations.append((stage, shown(rel), ",".join(sorted(rules)) or "-", what))

    def consumer_before(self, rel):
        if rel not in self.before:
            tree = self.fetched.tree
            path = os.path.join(os.fsencode(tree), rel)
            with open(path, "rb") as f:
                head = f.read(4096)
            name = consumers.consumer_for(os.fsdecode(rel), head)
            if name is None:
                self.before[rel] = None
            else:
                self.before[rel] = (name, *consumers.check(name, tree, "./" + os.fsdecode(rel)))
        return self.before[rel]

    def inspect_change(self, stage, work, rel):
        """Counts a changed file that lost control characters, or that was
        converted to UTF-8 and still declares a legacy encoding.

        Reported, not asserted: a control can be junk, but it is often syntax
        or data (an awk FS, an Info separator, IRC formatting in a catalogue);
        a declaration found by a pattern can be a mention.
        """
        with open(os.path.join(os.fsencode(self.fetched.tree), rel), "rb") as f:
            before = f.read()
        with open(os.path.join(os.fsencode(work), rel), "rb") as f:
            after = f.read()
        if len(after.translate(None, KEPT_BYTES)) < len(before.translate(None, KEPT_BYTES)):
            self.controls_deleted[stage] += 1
        if not is_utf8(before) and is_utf8(after):
            stale = declarations.legacy_declaration(after)
            if stale:
                self.stale[stage].append((shown(rel), stale))

    def check_consumer(self, stage, work, rel, rules):
        before = self.consumer_before(rel)
        if before is None:
            return
        name, accepted, _, reading = before
        tally = self.consumers[name]
        tally["checked"] += 1
        if not accepted:
            return
        tally["accepted"] += 1
        ok, said, reading_after = consumers.check(name, work, "./" + os.fsdecode(rel))
        if not ok:
            self.violate(stage, rel, rules, f"{name} accepted it before, now: {said}")
            return
        tally["kept"] += 1
        if reading is not None and reading_after != reading:
            tally["reading changed"] += 1
            self.read_differently.append((stage, shown(rel), ",".join(sorted(rules)) or "?", name))
            if stage == "fix":
                self.violate(stage, rel, rules, f"a safe fix changed what {name} reads")


def run_package(fetched, binary, workroot, log):
    result = Package(fetched)
    copy_started = time.monotonic()
    work = os.path.join(workroot, fetched.package.name)
    shutil.copytree(fetched.tree, work, symlinks=True)
    tracker = Tracker(fetched.tree, work)
    for rel in tracker.ids:
        result.files += 1
        result.bytes += tracker.ids[rel][1]
    work_names = {shown(rel) for rel in tracker.ids}
    findings = defaultdict(set)
    for stage, flags in STAGES:
        started = time.monotonic()
        timed_out = False
        try:
            p = subprocess.run(
                [binary, "check", "--format", "json-lines", *flags, "."],
                cwd=work, capture_output=True, text=True, errors="replace",
                env={**os.environ, "RUST_BACKTRACE": "0"}, timeout=RUN_TIMEOUT,
            )
        except subprocess.TimeoutExpired as e:
            # Still judged below: whatever it wrote before it was stopped.
            p = subprocess.CompletedProcess(e.cmd, None, _text(e.stdout), _text(e.stderr))
            result.violate(stage, b".", set(), f"utf8lint did not finish within {RUN_TIMEOUT} s")
            timed_out = True
        result.seconds[stage] = time.monotonic() - started
        crash = None if timed_out else crash_of(p.returncode, p.stderr)
        if crash:
            result.violate(stage, b".", set(), crash)
        reasons = Counter(reason_of(line, work_names) for line in problems_in(p.stderr))
        result.refusals[stage] = reasons
        changed, created, deleted = tracker.step()
        for rel in created:
            result.violate(stage, rel, set(), "created by the fix")
        for rel in deleted:
            result.violate(stage, rel, set(), "deleted by the fix")
        per_rule = Counter()
        rules_of = {}
        for rel in changed:
            rules = {code for code, appl in findings.get(shown(rel), ()) if appl in APPLIED[stage]}
            rules_of[rel] = rules
            for code in rules or {"?"}:
                per_rule[code] += 1
        result.changed[stage] = per_rule
        result.changed_files[stage] = [(shown(rel), ",".join(sorted(rules_of[rel])) or "?") for rel in changed]
        result.files_changed[stage] = len(changed)
        if stage in ("check", "again"):
            for rel in changed:
                result.violate(stage, rel, rules_of[rel], f"changed by `{' '.join(['check', *flags])}`"
                               + (" (a second run)" if stage == "again" else ""))
        for rel, mime in sorted(libmagic_binary(fetched.tree, changed).items()):
            result.violate(stage, rel, rules_of[rel], f"changed, and libmagic calls it binary ({mime})")
        started = time.monotonic()
        for rel in changed:
            result.check_consumer(stage, work, rel, rules_of[rel])
            result.inspect_change(stage, work, rel)
        result.seconds["consumers"] += time.monotonic() - started
        try:
            findings = findings_by_path(p.stdout)
        except (json.JSONDecodeError, KeyError) as e:
            result.violate(stage, b".", set(), f"unreadable json-lines output: {e}")
            findings = defaultdict(set)
        log(f"  {stage:<7} {result.seconds[stage]:6.1f} s  {len(changed)} changed"
            + (f", {sum(reasons.values())} refusals/trouble" if reasons else ""))
    shutil.rmtree(work)
    result.seconds["total"] = time.monotonic() - copy_started
    return result


def rules_cell(counter):
    return ", ".join(f"{code} {n}" for code, n in sorted(counter.items())) or "-"


def refusals_cell(counter):
    return "; ".join(f"{n}× {reason}" for reason, n in counter.most_common()) or "-"


def consumers_cell(result):
    parts = []
    for name, t in sorted(result.consumers.items()):
        cell = f"{name} {t['kept']}/{t['accepted']}"
        if t["reading changed"]:
            cell += f" ({t['reading changed']} read differently)"
        parts.append(cell)
    return ", ".join(parts) or "-"


def print_package(result, out, verbose):
    f = result.fetched
    version = f.version + ("" if f.version == f.package.version else f" (pin {f.package.version} gone)")
    print(f"\n== {f.package.name} {version}: {f.package.kind}", file=out)
    print(f"   {result.files} files, {result.bytes / 1e6:.1f} MB", file=out)
    for stage, flags in STAGES:
        print(f"   {' '.join(['check', *flags]):<32} {result.files_changed[stage]:5} files changed"
              f"  [{rules_cell(result.changed[stage])}]", file=out)
        if verbose:
            for path, rules in result.changed_files[stage]:
                print(f"   {'':<32} {path} [{rules}]", file=out)
        if result.refusals[stage]:
            print(f"   {'':<32} refused or trouble: {refusals_cell(result.refusals[stage])}", file=out)
    print(f"   consumers (still accepted/accepted before, of changed files): {consumers_cell(result)}",
          file=out)
    for stage, stale in sorted(result.stale.items()):
        print(f"   {stage}: {len(stale)} converted files still declare a legacy encoding", file=out)
        for path, declaration in stale[: None if verbose else 5]:
            print(f"   {'':<32} {path}: {declaration}", file=out)
    if verbose:
        for stage, path, rules, name in result.read_differently:
            print(f"   {stage}: {name} reads {path} [{rules}] differently", file=out)
    if result.controls_deleted:
        print(f"   files that lost control characters: {rules_cell(result.controls_deleted)}", file=out)
    s = result.seconds
    print(f"   {s['total']:.1f} s: utf8lint {sum(s[st] for st, _ in STAGES):.1f} s,"
          f" consumers {s['consumers']:.1f} s", file=out)
    for stage, path, rules, what in result.violations:
        print(f"   FAIL {stage}: {path} [{rules}]: {what}", file=out)


def markdown(results):
    lines = [
        "| package | version | files | `--fix` changed | `--unsafe-fixes` changed | refused | "
        "consumers kept | lost controls | stale declarations | second run | failures |",
        "| --- | --- | ---: | --- | --- | ---: | --- | ---: | ---: | ---: | ---: |",
    ]
    for r in results:
        refused = sum(sum(r.refusals[s].values()) for s in ("fix", "unsafe"))
        lines.append(
            f"| {r.fetched.package.name} | {r.fetched.version} | {r.files} "
            f"| {r.files_changed['fix']} ({rules_cell(r.changed['fix'])}) "
            f"| {r.files_changed['unsafe']} ({rules_cell(r.changed['unsafe'])}) "
            f"| {refused} | {consumers_cell(r)} | {sum(r.controls_deleted.values())} "
            f"| {sum(len(v) for v in r.stale.values())} | {r.files_changed['again']} | {len(r.violations)} |"
        )
    return "\n".join(lines) + "\n"


def default_binary():
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(REPO, "target")
    return os.path.join(target, "debug", "utf8lint")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=default_binary(), help="the utf8lint to test (default: the debug build)")
    ap.add_argument("--packages", default=os.path.join(HERE, "packages.tsv"))
    ap.add_argument("--only", help="comma-separated package names")
    ap.add_argument("--cache", default=os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "utf8lint-real-trees"))
    ap.add_argument("-v", "--verbose", action="store_true", help="list every changed file")
    ap.add_argument("--report-only", action="store_true", help="report failures, exit 0")
    ap.add_argument("--markdown", help="write the summary table (markdown) to this file")
    ap.add_argument("--failures", help="append one tab-separated line per failure to this file")
    args = ap.parse_args(argv)

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    binary = os.path.abspath(args.bin)
    if not os.access(binary, os.X_OK):
        log(f"real-trees: no utf8lint at {binary} (build it: cargo build --bin utf8lint)")
        return 2
    for tool in ("file", "dpkg-source", "apt-get", "xmllint", "msgfmt", "perl", "bash", "sh"):
        if shutil.which(tool) is None:
            log(f"real-trees: `{tool}` is missing (see the real-trees step of .ci/run)")
            return 2
    try:
        packages = fetch.read_packages(args.packages)
    except (OSError, ValueError) as e:
        log(f"real-trees: {e}")
        return 2
    if args.only:
        wanted = set(args.only.split(","))
        packages = [p for p in packages if p.name in wanted]
    apt = fetch.Apt(os.path.join(args.cache, "apt"))
    started = time.monotonic()
    fetched = []
    for package in packages:
        try:
            fetched.append(fetch.fetch(package, args.cache, apt, log))
        except (RuntimeError, subprocess.CalledProcessError) as e:
            log(f"real-trees: {package.name}: could not be fetched, left out: {e}")
    if len(fetched) < MIN_PACKAGES and not args.only:
        log(f"real-trees: only {len(fetched)} of {len(packages)} packages could be fetched"
            f" (at least {MIN_PACKAGES} are needed)")
        return 2
    log(f"real-trees: {len(fetched)} trees ready in {time.monotonic() - started:.1f} s")
    results = []
    with tempfile.TemporaryDirectory(prefix="utf8lint-real-trees-") as workroot:
        for f in fetched:
            log(f"real-trees: {f.package.name} {f.version}")
            result = run_package(f, binary, workroot, log)
            print_package(result, sys.stdout, args.verbose)
            results.append(result)
    failed = [r for r in results if r.violations]
    print(f"\nreal-trees: {sum(len(r.violations) for r in results)} failures"
          f" in {time.monotonic() - started:.0f} s")
    print(f"real-trees: {len(results) - len(failed)} passed, {len(failed)} failed")
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as out:
            out.write(markdown(results))
    if args.failures:
        with open(args.failures, "a", encoding="utf-8") as out:
            for r in results:
                for stage, path, rules, what in r.violations:
                    out.write(f"{r.fetched.package.name}\t{stage}\t{path}\t{rules}\t{what}\n")
    return 0 if args.report_only or not failed else 1


if __name__ == "__main__":
    sys.exit(main())
