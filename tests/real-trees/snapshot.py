"""What changed in a tree between two moments, by content.

A snapshot records each entry's `lstat` identity; an entry whose identity
moved (the fix writer renames a new file over the old one, so a rewritten
file always has a new inode) is compared by content with what it held
before, which is the pristine tree's copy until the harness has seen it
change.
"""

import hashlib
import os
import stat


def walk(root):
    """Relative paths (bytes) of every entry under `root` but directories."""
    root = os.fsencode(root)
    out = []
    for top, dirs, files in os.walk(root):
        for name in files + [d for d in dirs if os.path.islink(os.path.join(top, d))]:
            out.append(os.path.relpath(os.path.join(top, name), root))
    return sorted(out)


def identity(path):
    st = os.lstat(path)
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_mode)


def digest(path):
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        return b"link:" + os.fsencode(os.readlink(path))
    if not stat.S_ISREG(st.st_mode):
        return b"special:" + str(stat.S_IFMT(st.st_mode)).encode()
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.digest() + str(stat.S_IMODE(st.st_mode)).encode()


class Tracker:
    """Follows one working copy of a pristine tree through the fix runs."""

    def __init__(self, pristine, work):
        self.pristine = os.fsencode(pristine)
        self.work = os.fsencode(work)
        self.ids = {rel: identity(os.path.join(self.work, rel)) for rel in walk(work)}
        self.contents = {}  # rel -> digest, for entries that changed since the copy

    def content_before(self, rel):
        if rel in self.contents:
            return self.contents[rel]
        return digest(os.path.join(self.pristine, rel))

    def step(self):
        """(changed, created, deleted) since the last step, each a sorted list."""
        now = {rel: identity(os.path.join(self.work, rel)) for rel in walk(self.work)}
        changed, created = [], []
        for rel, ident in now.items():
            if rel not in self.ids:
                created.append(rel)
                self.contents[rel] = digest(os.path.join(self.work, rel))
            elif ident != self.ids[rel]:
                after = digest(os.path.join(self.work, rel))
                if after != self.content_before(rel):
                    changed.append(rel)
                self.contents[rel] = after
        deleted = sorted(rel for rel in self.ids if rel not in now)
        self.ids = now
        return sorted(changed), sorted(created), deleted
