"""Debian source packages: download (pinned) and unpack into a cache.

apt runs with a configuration of its own under the cache directory (a
`deb-src` line for bookworm, its own lists and archive cache), so the
system's apt sources are neither needed nor changed, and the lists are
refreshed only when a pinned version is not in them.
"""

import os
import shutil
import subprocess
from dataclasses import dataclass

SOURCES_LINE = (
    "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] "
    "http://deb.debian.org/debian bookworm main\n"
)


@dataclass
class Package:
    name: str
    version: str  # the pin
    kind: str


@dataclass
class Fetched:
    package: Package
    version: str  # what was unpacked: the pin, unless the archive no longer has it
    tree: str  # the unpacked, pristine tree (never modified)


def read_packages(path):
    packages = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 3 or not all(fields):
                raise ValueError(f"{path}:{number}: expected NAME, VERSION and KIND separated by tabs")
            packages.append(Package(*fields))
    return packages


class Apt:
    """apt-get and apt-cache on a private configuration in `root`."""

    def __init__(self, root):
        self.root = root
        self.options = [
            "-o", f"Dir::Etc::SourceList={root}/sources.list",
            "-o", "Dir::Etc::SourceParts=/nonexistent",
            "-o", f"Dir::State::Lists={root}/lists",
            "-o", f"Dir::Cache={root}/cache",
            "-o", "Dir::State::status=/var/lib/dpkg/status",
        ]
        if os.geteuid() == 0:
            # The files land in the cache, which apt's sandbox user may not reach.
            self.options += ["-o", "APT::Sandbox::User=root"]
        self.updated = False
        for sub in ("lists/partial", "cache/archives/partial"):
            os.makedirs(os.path.join(root, sub), exist_ok=True)
        with open(os.path.join(root, "sources.list"), "w", encoding="utf-8") as f:
            f.write(SOURCES_LINE)

    def has_lists(self):
        lists = os.path.join(self.root, "lists")
        return any("_source_Sources" in n for n in os.listdir(lists))

    def update(self):
        subprocess.run(["apt-get", "-qq", *self.options, "update"], check=True)
        self.updated = True

    def versions(self, name):
        """The versions of source package `name` the lists hold (bookworm main has one)."""
        out = subprocess.run(
            ["apt-cache", *self.options, "showsrc", "--only-source", name],
            capture_output=True, text=True,
        ).stdout
        return [line.split(None, 1)[1] for line in out.splitlines() if line.startswith("Version: ")]

    def download(self, name, version, dest):
        subprocess.run(
            ["apt-get", "-qq", *self.options, "source", "--download-only", f"{name}={version}"],
            cwd=dest, check=True, stdout=subprocess.DEVNULL,
        )


def dsc_name(name, version):
    # The epoch is not part of the file names.
    return f"{name}_{version.split(':', 1)[-1]}.dsc"


def fetch(package, cache, apt, log):
    """The pristine tree of `package`, downloaded and unpacked once per version.

    A pin the archive no longer carries (a point release replaced it) is
    fetched in the version the archive has now, and said so: the assertions
    hold for any version, the table in docs/fixes.md is for the pins.
    """
    version = package.version
    tree = os.path.join(cache, "trees", f"{package.name}_{version}")
    if os.path.isdir(tree):
        return Fetched(package, version, tree)
    if not apt.has_lists():
        apt.update()
    if version not in apt.versions(package.name) and not apt.updated:
        apt.update()
    available = apt.versions(package.name)
    if version not in available:
        if not available:
            raise RuntimeError(f"{package.name}: no source package of that name in bookworm")
        log(f"{package.name}: pinned {version} is no longer in bookworm; using {available[0]}")
        version = available[0]
        tree = os.path.join(cache, "trees", f"{package.name}_{version}")
        if os.path.isdir(tree):
            return Fetched(package, version, tree)
    downloads = os.path.join(cache, "downloads", f"{package.name}_{version}")
    dsc = os.path.join(downloads, dsc_name(package.name, version))
    if not os.path.isfile(dsc):
        partial = downloads + ".partial"
        shutil.rmtree(partial, ignore_errors=True)
        os.makedirs(partial)
        try:
            apt.download(package.name, version, partial)
        except subprocess.CalledProcessError:
            apt.download(package.name, version, partial)  # once more: a mirror's hiccup
        os.replace(partial, downloads)
    unpacking = tree + ".partial"
    shutil.rmtree(unpacking, ignore_errors=True)
    os.makedirs(os.path.dirname(tree), exist_ok=True)
    # The .dsc's signature is not checked here (no keyring): apt has checked
    # its hashes against the signed index, and dpkg-source checks the rest.
    p = subprocess.run(["dpkg-source", "--no-copy", "-x", dsc, unpacking], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{package.name}: dpkg-source -x failed: {p.stderr.strip()}")
    os.replace(unpacking, tree)
    return Fetched(package, version, tree)
