//! The built-in byte-order-mark policy by format: for each format, the
//! files it covers, what a leading UTF-8 mark does to the format's common
//! consumers, and the source that says so. U003 and U004 (`bom.rs`) ask it
//! when no configuration decides; `utf8lint generate` writes the table into
//! docs/rules.md, and `tests/cli/bom_consumers.rs` runs each consumer named
//! in `tested_with` on a file with and without the mark.

use std::path::Path;

use crate::{BomPolicy, BomRule, PolicySource};

/// How a format's files are recognised by name; ASCII case is ignored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileName {
    /// The last extension (`json` for `a.json`; `.bashrc` has none).
    Extension(&'static str),
    /// The whole file name (`.gitignore`, `Dockerfile`).
    Exactly(&'static str),
    /// The start of the file name (`.env.` for `.env.local`).
    StartingWith(&'static str),
    /// A file name inside a directory of this name (`.ssh` and `config`).
    In(&'static str, &'static str),
    /// Any file inside a directory of this name (`sudoers.d`).
    AnyIn(&'static str),
}

/// One format of the table.
#[derive(Debug)]
pub struct BomFormat {
    /// The format's name, as messages use it (`JSON`, `dotenv file`).
    pub format: &'static str,
    /// The files it covers.
    pub files: &'static [FileName],
    /// What utf8lint asks of them when no configuration says otherwise.
    pub policy: BomPolicy,
    /// What a leading mark does, in a sentence (U003's message for a
    /// format that forbids one).
    pub why: &'static str,
    /// Where that is said: a specification, the consumer's code or tracker.
    pub reference: &'static str,
    /// The consumer the tests run on a file with and without the mark,
    /// when it installs on a Debian machine; empty when none does.
    pub tested_with: &'static str,
}

use BomPolicy::{Allow, Forbid, Require, RequireUnlessAscii};
use FileName::{AnyIn, Exactly, Extension, In, StartingWith};

/// A file whose first two bytes after the mark are `#!`, whatever its name:
/// asked before the table, since a script's name says nothing.
pub const SHEBANG: BomFormat = BomFormat {
    format: "`#!` script",
    files: &[],
    policy: Forbid,
    why: "the kernel reads `#!` only as the first two bytes, so the script will not run",
    reference: "Linux fs/binfmt_script.c",
    tested_with: "execve",
};

/// The table, most specific names first: the first format a file's name
/// matches is its format.
pub const BOM_FORMATS: &[BomFormat] = &[
    BomFormat {
        format: "JSON",
        files: &[
            Extension("json"),
            Extension("jsonl"),
            Extension("ndjson"),
            Extension("geojson"),
            Extension("webmanifest"),
            Extension("har"),
            Extension("ipynb"),
        ],
        policy: Forbid,
        why: "JSON forbids a byte-order mark",
        reference: "RFC 8259 section 8.1",
        tested_with: "python3 json",
    },
    BomFormat {
        format: "PHP",
        files: &[
            Extension("php"),
            Extension("phtml"),
            Extension("php3"),
            Extension("php4"),
            Extension("php5"),
            Extension("php7"),
            Extension("php8"),
            Extension("phps"),
        ],
        policy: Forbid,
        why: "PHP sends the byte-order mark as output before `<?php` (\"headers already sent\") and `declare(strict_types=1)` must come first",
        reference: "the PHP manual",
        tested_with: "",
    },
    BomFormat {
        format: "Java",
        files: &[Extension("java")],
        policy: Forbid,
        why: "javac rejects U+FEFF (`illegal character: '\\ufeff'`)",
        reference: "javac",
        tested_with: "",
    },
    BomFormat {
        format: "Java properties",
        files: &[Extension("properties")],
        policy: Forbid,
        why: "`java.util.Properties` keeps the byte-order mark as part of the first key",
        reference: "JDK-4508058 (Java's UTF-8 decoder keeps U+FEFF)",
        tested_with: "",
    },
    BomFormat {
        format: "Windows batch",
        files: &[Extension("bat"), Extension("cmd")],
        policy: Forbid,
        why: "cmd.exe reads the byte-order mark as part of the first command",
        reference: "cmd.exe",
        tested_with: "",
    },
    BomFormat {
        format: "shell script",
        files: &[
            Extension("sh"),
            Extension("bash"),
            Extension("zsh"),
            Extension("ksh"),
            Extension("dash"),
            Exactly("PKGBUILD"),
            Exactly("APKBUILD"),
        ],
        policy: Forbid,
        why: "the shell reads the byte-order mark as part of the first command",
        reference: "POSIX shells",
        tested_with: "bash, dash",
    },
    BomFormat {
        format: "shell start-up file",
        files: &[
            Exactly(".bashrc"),
            Exactly(".bash_profile"),
            Exactly(".bash_login"),
            Exactly(".bash_logout"),
            Exactly(".bash_aliases"),
            Exactly("bashrc"),
            Exactly("bash.bashrc"),
            Exactly(".profile"),
            Exactly("profile"),
            Exactly(".zshrc"),
            Exactly(".zshenv"),
            Exactly(".zprofile"),
            Exactly(".zlogin"),
            Exactly(".zlogout"),
            Exactly(".kshrc"),
            Exactly(".mkshrc"),
            Exactly(".envrc"),
        ],
        policy: Forbid,
        why: "the shell reads the byte-order mark as part of the first command",
        reference: "POSIX shells; direnv runs `.envrc` with bash",
        tested_with: "bash",
    },
    BomFormat {
        format: "dotenv file",
        files: &[
            Exactly(".env"),
            StartingWith(".env."),
            Extension("env"),
            Exactly(".flaskenv"),
        ],
        policy: Forbid,
        why: "dotenv loaders read the first variable's name with the byte-order mark in it (`\\uFEFFKEY`), so it is never set",
        reference: "theskumar/python-dotenv #637 and #526, oven-sh/bun #34002, denoland/deno #36701, vlucas/phpdotenv #500",
        tested_with: "python-dotenv",
    },
    BomFormat {
        format: "Dockerfile",
        files: &[
            Exactly("Dockerfile"),
            StartingWith("Dockerfile."),
            Extension("dockerfile"),
            Exactly("Containerfile"),
            StartingWith("Containerfile."),
        ],
        policy: Forbid,
        why: "Docker reports the first instruction as unknown, BuildKit skips a first-line `# syntax=` directive, and dependabot skips the file",
        reference: "moby/moby #23221, moby/buildkit #5631, dependabot/dependabot-core #5118",
        tested_with: "",
    },
    BomFormat {
        format: "Docker ignore file",
        files: &[Exactly(".dockerignore"), Extension("dockerignore")],
        policy: Forbid,
        why: "Docker reads the first pattern with the byte-order mark in it, so it matches nothing",
        reference: "docker/cli #4269",
        tested_with: "",
    },
    BomFormat {
        format: "ignore file",
        files: &[
            Exactly(".gitignore"),
            Exactly(".ignore"),
            Exactly(".rgignore"),
            Exactly(".npmignore"),
            Exactly(".prettierignore"),
            Exactly(".eslintignore"),
            Exactly(".stylelintignore"),
            Exactly(".vscodeignore"),
            Exactly(".utf8lintignore"),
        ],
        policy: Forbid,
        why: "ripgrep 13 (Debian 12's) and jj read the first pattern with the byte-order mark in it, so it matches nothing (git, libgit2 1.9, node-ignore 7 and ripgrep 14 skip the mark)",
        reference: "BurntSushi/ripgrep #2177, jj-vcs/jj #9105, libgit2/libgit2 #5071, kaelzhang/node-ignore #166",
        tested_with: "rg",
    },
    BomFormat {
        format: "git attributes",
        files: &[Exactly(".gitattributes")],
        policy: Allow,
        why: "git and libgit2 1.9 skip a leading byte-order mark",
        reference: "git's attr.c; libgit2/libgit2 #5071",
        tested_with: "git check-attr",
    },
    BomFormat {
        format: "git mailmap",
        files: &[Exactly(".mailmap")],
        policy: Forbid,
        why: "git keeps the byte-order mark as part of the first entry's name (`git check-mailmap` prints it)",
        reference: "git's mailmap.c",
        tested_with: "git check-mailmap",
    },
    BomFormat {
        format: "git blame ignore list",
        files: &[Exactly(".git-blame-ignore-revs")],
        policy: Forbid,
        why: "git and GitHub reject the file (`fatal: invalid object name`)",
        reference: "microsoft/component-detection #678; git blame --ignore-revs-file",
        tested_with: "git blame",
    },
    BomFormat {
        format: "git configuration",
        files: &[Exactly(".gitmodules"), Exactly(".gitconfig")],
        policy: Allow,
        why: "git's configuration parser skips a leading byte-order mark",
        reference: "git's config.c",
        tested_with: "git config",
    },
    BomFormat {
        format: "TOML",
        files: &[Extension("toml")],
        policy: Forbid,
        why: "Python's `tomllib` and `tomli` reject the file (`Invalid statement`), so `pyproject.toml` with one breaks pip's build front ends",
        reference: "hukkin/tomli #304; TOML 1.0 gives no meaning to U+FEFF",
        tested_with: "python3 tomllib",
    },
    BomFormat {
        format: "Python tool configuration (INI)",
        files: &[
            Exactly("setup.cfg"),
            Exactly("tox.ini"),
            Exactly("pytest.ini"),
            Exactly("mypy.ini"),
            Exactly(".mypy.ini"),
            Exactly(".flake8"),
            Exactly(".pylintrc"),
            Exactly("pylintrc"),
            Exactly(".coveragerc"),
            Exactly(".isort.cfg"),
            Exactly(".bumpversion.cfg"),
            Exactly(".pypirc"),
        ],
        policy: Forbid,
        why: "Python's `configparser` reads the first section header with the byte-order mark in it (`MissingSectionHeaderError`)",
        reference: "CPython's configparser",
        tested_with: "python3 configparser",
    },
    BomFormat {
        format: "gettext catalogue",
        files: &[Extension("po"), Extension("pot")],
        policy: Forbid,
        why: "msgfmt rejects the file (`syntax error` on line 1)",
        reference: "GNU gettext's po-lex.c",
        tested_with: "msgfmt",
    },
    BomFormat {
        format: "OpenSSH configuration",
        files: &[
            Exactly("ssh_config"),
            Exactly("sshd_config"),
            In(".ssh", "config"),
            AnyIn("ssh_config.d"),
            AnyIn("sshd_config.d"),
        ],
        policy: Forbid,
        why: "ssh and sshd stop at the first keyword (`Bad configuration option: \\357\\273\\277host`)",
        reference: "OpenSSH's readconf.c",
        tested_with: "ssh -G",
    },
    BomFormat {
        format: "OpenSSH key list",
        files: &[
            Exactly("authorized_keys"),
            Exactly("authorized_keys2"),
            Exactly("known_hosts"),
        ],
        policy: Forbid,
        why: "OpenSSH does not read the first key (`is not a public key file`; a first known host is not found)",
        reference: "OpenSSH's authfile.c and hostfile.c",
        tested_with: "ssh-keygen",
    },
    BomFormat {
        format: "sudoers",
        files: &[Exactly("sudoers"), AnyIn("sudoers.d")],
        policy: Forbid,
        why: "visudo and sudo report a syntax error on the first line",
        reference: "sudo's sudoers parser (visudo -c)",
        tested_with: "visudo",
    },
    BomFormat {
        format: "crontab",
        files: &[
            Exactly("crontab"),
            Extension("crontab"),
            Extension("cron"),
            AnyIn("cron.d"),
        ],
        policy: Forbid,
        why: "cron reads the byte-order mark as part of the first entry's minute field (`bad minute`), so the table is not installed",
        reference: "cron's entry.c",
        tested_with: "",
    },
    BomFormat {
        format: "justfile",
        files: &[Exactly("justfile"), Exactly(".justfile"), Extension("just")],
        policy: Forbid,
        why: "just reports an unknown start of token at the byte-order mark",
        reference: "casey/just #1017",
        tested_with: "",
    },
    BomFormat {
        format: "Windows PowerShell script",
        files: &[Extension("ps1"), Extension("psm1"), Extension("psd1")],
        policy: RequireUnlessAscii,
        why: "Windows PowerShell 5.1 reads a script without a byte-order mark in the system's ANSI code page, so its non-ASCII text is misread (PowerShell 7 reads either)",
        reference: "Microsoft's about_Character_Encoding; PSScriptAnalyzer's UseBOMForUnicodeEncodedFile",
        tested_with: "",
    },
    BomFormat {
        format: "Makefile",
        files: &[
            Exactly("Makefile"),
            Exactly("makefile"),
            Exactly("GNUmakefile"),
            Extension("mk"),
        ],
        policy: Allow,
        why: "GNU make skips a leading byte-order mark",
        reference: "GNU make 4.x",
        tested_with: "make",
    },
    BomFormat {
        format: "npm and yarn configuration",
        files: &[Exactly(".npmrc"), Exactly(".yarnrc")],
        policy: Allow,
        why: "npm's `ini` parser skips a leading byte-order mark",
        reference: "npm/ini",
        tested_with: "npm config get",
    },
    BomFormat {
        format: "pip requirements",
        files: &[
            Exactly("requirements.txt"),
            StartingWith("requirements-"),
            StartingWith("requirements_"),
            Exactly("constraints.txt"),
        ],
        policy: Allow,
        why: "pip decodes the file by its byte-order mark",
        reference: "pip's req_file.py (auto_decode)",
        tested_with: "",
    },
    BomFormat {
        format: "EditorConfig",
        files: &[Exactly(".editorconfig")],
        policy: Allow,
        why: "EditorConfig's cores skip a leading byte-order mark",
        reference: "editorconfig-core-c (inih) and editorconfig-core-py",
        tested_with: "editorconfig-core-py",
    },
    BomFormat {
        format: "CSV and TSV",
        files: &[Extension("csv"), Extension("tsv")],
        policy: Allow,
        why: "Excel needs the mark to read UTF-8 rather than the ANSI code page, while Python's `csv` with `encoding=\"utf-8\"` keeps it in the first header",
        reference: "glpi-project/glpi #24086, sqlpage/SQLPage #528; CPython's csv",
        tested_with: "python3 csv",
    },
    BomFormat {
        format: "YAML",
        files: &[Extension("yaml"), Extension("yml")],
        policy: Allow,
        why: "YAML 1.2 allows a byte-order mark at a stream's start",
        reference: "YAML 1.2 section 5.2",
        tested_with: "PyYAML",
    },
    BomFormat {
        format: "Python",
        files: &[Extension("py"), Extension("pyi"), Extension("pyw")],
        policy: Allow,
        why: "Python reads the mark as a declaration of UTF-8",
        reference: "PEP 263",
        tested_with: "python3",
    },
    BomFormat {
        format: "XML",
        files: &[
            Extension("xml"),
            Extension("xsl"),
            Extension("xslt"),
            Extension("xsd"),
            Extension("svg"),
        ],
        policy: Allow,
        why: "XML uses the mark to detect the encoding",
        reference: "XML 1.0 Appendix F",
        tested_with: "xmllint",
    },
    BomFormat {
        format: "HTML",
        files: &[Extension("html"), Extension("htm"), Extension("xhtml")],
        policy: Allow,
        why: "the mark decides the encoding, over any `<meta charset>`",
        reference: "WHATWG Encoding, \"decode\"",
        tested_with: "",
    },
    BomFormat {
        format: "CSS",
        files: &[Extension("css")],
        policy: Allow,
        why: "the mark decides the encoding, over any `@charset`",
        reference: "CSS Syntax Level 3 section 3.2",
        tested_with: "",
    },
    BomFormat {
        format: "JavaScript and TypeScript",
        files: &[
            Extension("js"),
            Extension("mjs"),
            Extension("cjs"),
            Extension("ts"),
            Extension("tsx"),
            Extension("jsx"),
        ],
        policy: Allow,
        why: "Node.js and browsers skip a leading byte-order mark",
        reference: "Node.js module loaders; WHATWG Encoding",
        tested_with: "node",
    },
    BomFormat {
        format: "Rust",
        files: &[Extension("rs")],
        policy: Allow,
        why: "rustc skips a leading byte-order mark",
        reference: "The Rust Reference, \"Input format\"",
        tested_with: "rustc",
    },
    BomFormat {
        format: "C and C++",
        files: &[
            Extension("c"),
            Extension("h"),
            Extension("cc"),
            Extension("cpp"),
            Extension("cxx"),
            Extension("hpp"),
        ],
        policy: Allow,
        why: "GCC, Clang and MSVC skip a leading byte-order mark",
        reference: "GCC's input charset handling",
        tested_with: "cc",
    },
    BomFormat {
        format: "C#",
        files: &[Extension("cs"), Extension("csx")],
        policy: Allow,
        why: "the C# compiler reads the mark as a declaration of UTF-8, and Visual Studio writes one",
        reference: "Roslyn's source text decoding",
        tested_with: "",
    },
    BomFormat {
        format: "Apache HTTP Server configuration",
        files: &[
            Exactly(".htaccess"),
            Exactly("httpd.conf"),
            Exactly("apache2.conf"),
        ],
        policy: Allow,
        why: "Apache httpd skips a leading byte-order mark in its configuration files",
        reference: "Apache httpd 2.4 (`apache2 -t` reads such a file)",
        tested_with: "",
    },
    BomFormat {
        format: "Go",
        files: &[Extension("go")],
        policy: Allow,
        why: "a Go compiler may ignore a byte-order mark as the first character, and gc does",
        reference: "The Go Programming Language Specification, \"Source code representation\"",
        tested_with: "",
    },
    BomFormat {
        format: "Perl",
        files: &[Extension("pl"), Extension("pm"), Extension("t")],
        policy: Allow,
        why: "perl reads a leading UTF-8 byte-order mark as a sign of UTF-8 source",
        reference: "perlunicode",
        tested_with: "perl",
    },
];

/// `path`'s file name and the name of the directory it is in, as bytes.
fn name_and_parent(path: &Path) -> (&[u8], &[u8]) {
    let bytes = path.as_os_str().as_encoded_bytes();
    // A search, not a loop over each byte: asked of every file's path.
    let (parent, name) = match memchr::memrchr(b'/', bytes) {
        Some(i) => (&bytes[..i], &bytes[i + 1..]),
        None => (&b""[..], bytes),
    };
    let parent = match memchr::memrchr(b'/', parent) {
        Some(i) => &parent[i + 1..],
        None => parent,
    };
    (name, parent)
}

/// `name`'s last extension, as `Path::extension` finds it: none for a name
/// that only starts with a dot (`.bashrc`), nor for `.` and `..`.
fn extension_of(name: &[u8]) -> Option<&[u8]> {
    let dot = memchr::memrchr(b'.', name)?;
    (dot > 0 && name != b"..").then(|| &name[dot + 1..])
}

impl FileName {
    fn matches(self, name: &[u8], parent: &[u8], extension: Option<&[u8]>) -> bool {
        match self {
            Extension(known) => extension.is_some_and(|e| e.eq_ignore_ascii_case(known.as_bytes())),
            Exactly(known) => name.eq_ignore_ascii_case(known.as_bytes()),
            StartingWith(start) => {
                name.len() > start.len()
                    && name[..start.len()].eq_ignore_ascii_case(start.as_bytes())
            }
            In(dir, known) => {
                parent.eq_ignore_ascii_case(dir.as_bytes())
                    && name.eq_ignore_ascii_case(known.as_bytes())
            }
            AnyIn(dir) => parent.eq_ignore_ascii_case(dir.as_bytes()),
        }
    }
}

/// The format of the file at `path` with content `bytes`: `#!` right after
/// the mark, else the first entry of the table its name matches.
pub fn bom_format_of(path: &Path, bytes: &[u8]) -> Option<&'static BomFormat> {
    let after_bom = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if after_bom.starts_with(b"#!") {
        return Some(&SHEBANG);
    }
    let (name, parent) = name_and_parent(path);
    let extension = extension_of(name);
    BOM_FORMATS.iter().find(|format| {
        format
            .files
            .iter()
            .any(|file| file.matches(name, parent, extension))
    })
}

/// Whether a file that has no mark can need one by the table: only a
/// format that requires a mark (`RequireUnlessAscii`) matches. The BOM rule
/// asks this first, so that most files skip the lookup and the ASCII test.
pub(crate) fn may_require_bom(path: &Path) -> bool {
    let (name, parent) = name_and_parent(path);
    let extension = extension_of(name);
    REQUIRING.iter().any(|f| {
        f.files
            .iter()
            .any(|file| file.matches(name, parent, extension))
    })
}

/// The formats of the table that require a mark, picked out when the
/// program is built: the BOM rule asks of every file, and a walk of the
/// whole table for each cost more than the rest of the rule.
const REQUIRING: [&BomFormat; requiring_count()] = {
    let mut out = [&SHEBANG; requiring_count()];
    let (mut i, mut k) = (0, 0);
    while i < BOM_FORMATS.len() {
        if requires(&BOM_FORMATS[i]) {
            out[k] = &BOM_FORMATS[i];
            k += 1;
        }
        i += 1;
    }
    out
};

const fn requires(format: &BomFormat) -> bool {
    matches!(format.policy, Require | RequireUnlessAscii)
}

const fn requiring_count() -> usize {
    let (mut i, mut n) = (0, 0);
    while i < BOM_FORMATS.len() {
        n += requires(&BOM_FORMATS[i]) as usize;
        i += 1;
    }
    n
}

/// The built-in BOM rule for a file, by its name and content; a file of no
/// format in the table may have a mark or not.
pub(crate) fn builtin_bom_rule(path: &Path, bytes: &[u8]) -> BomRule {
    match bom_format_of(path, bytes) {
        Some(f) => BomRule {
            policy: f.policy,
            source: PolicySource::Builtin {
                format: f.format,
                why: f.why,
                reference: f.reference,
            },
        },
        None => BomRule {
            policy: Allow,
            source: PolicySource::Builtin {
                format: "text",
                why: "a byte-order mark is allowed",
                reference: "RFC 3629 section 6",
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn builtin(path: &str, bytes: &[u8]) -> BomPolicy {
        builtin_bom_rule(Path::new(path), bytes).policy
    }

    fn format(path: &str) -> Option<&'static str> {
        bom_format_of(Path::new(path), b"x").map(|f| f.format)
    }

    #[test]
    fn extension_of_is_what_path_extension_finds() {
        for path in [
            "a.json",
            "dir/a.JSON",
            "/abs/dir.d/file",
            "dir.d/file.tar.gz",
            ".bashrc",
            "dir/.bashrc",
            "dir/.config.json",
            "file.",
            "dir/file.",
            "noext",
            "..",
            "dir/..json",
            "x/y/z.Md",
        ] {
            let expected = Path::new(path).extension().map(|e| e.as_encoded_bytes());
            let (name, _) = name_and_parent(Path::new(path));
            assert_eq!(extension_of(name), expected, "{path}");
        }
    }

    #[test]
    fn formats_that_forbid_a_mark() {
        for path in [
            "a/package.json",
            "DATA.JSON",
            "index.php",
            "Main.java",
            "run.bat",
            "run.CMD",
            "messages.properties",
            "build.sh",
            "home/.bashrc",
            ".env",
            "app/.env.local",
            "prod.env",
            "Dockerfile",
            "docker/Dockerfile.dev",
            "api.Dockerfile",
            "Containerfile",
            ".dockerignore",
            ".gitignore",
            "sub/.ignore",
            ".npmignore",
            ".mailmap",
            ".git-blame-ignore-revs",
            "pyproject.toml",
            "Cargo.toml",
            "setup.cfg",
            "tox.ini",
            ".flake8",
            "po/de.po",
            "po/messages.pot",
            "etc/ssh/sshd_config",
            "home/.ssh/config",
            "etc/ssh/sshd_config.d/10-local.conf",
            ".ssh/authorized_keys",
            "known_hosts",
            "etc/sudoers",
            "etc/sudoers.d/local",
            "etc/cron.d/backup",
            "crontab",
            "justfile",
        ] {
            assert_eq!(builtin(path, b"x"), Forbid, "{path}");
        }
        assert_eq!(builtin("tool", b"\xEF\xBB\xBF#!/bin/sh\n"), Forbid);
        assert_eq!(builtin("tool.py", b"#!/usr/bin/env python3\n"), Forbid);
        // A `#!` PowerShell script is a script first.
        assert_eq!(builtin("run.ps1", b"#!/usr/bin/env pwsh\n"), Forbid);
    }

    #[test]
    fn formats_that_allow_or_require_one() {
        for path in [
            "notes.txt",
            "config.yaml",
            "main.rs",
            "",
            "Makefile",
            ".npmrc",
            "requirements.txt",
            "requirements-dev.txt",
            ".editorconfig",
            ".gitmodules",
            ".gitattributes",
            "data.csv",
            "x/config",
            "cron.daily",
            "environment",
            ".envoy",
            "setup.py",
        ] {
            assert_eq!(builtin(path, b"x"), Allow, "{path}");
        }
        assert_eq!(builtin("Install.PS1", b"x"), RequireUnlessAscii);
        assert!(may_require_bom(Path::new("scripts/Install.psm1")));
        assert!(!may_require_bom(Path::new("scripts/install.sh")));
        assert!(!may_require_bom(Path::new("ps1")));
        // The formats picked out when built are the table's that require.
        let requiring: Vec<&str> = BOM_FORMATS
            .iter()
            .filter(|f| f.policy != Allow && f.policy != Forbid)
            .map(|f| f.format)
            .collect();
        assert_eq!(REQUIRING.map(|f| f.format).to_vec(), requiring);
        assert!(!requiring.is_empty());
    }

    #[test]
    fn a_name_belongs_to_the_most_specific_format() {
        assert_eq!(format(".env.example"), Some("dotenv file"));
        assert_eq!(format("Dockerfile.json"), Some("JSON"));
        assert_eq!(format(".env"), Some("dotenv file"));
        // `.env` is a name, not an extension: `.environment` is not one.
        assert_eq!(format(".environment"), None);
        assert_eq!(format("ssh/config"), None);
    }

    #[test]
    fn every_format_says_what_a_mark_does_and_who_says_so() {
        assert!(BOM_FORMATS.len() >= 40, "{} formats", BOM_FORMATS.len());
        for f in BOM_FORMATS {
            assert!(!f.files.is_empty(), "{}", f.format);
            assert!(!f.why.is_empty() && !f.reference.is_empty(), "{}", f.format);
            assert_ne!(
                f.policy,
                BomPolicy::Require,
                "{}: no format requires a mark always",
                f.format
            );
        }
        let mut names: Vec<&str> = BOM_FORMATS.iter().map(|f| f.format).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), BOM_FORMATS.len(), "format names are unique");
    }
}
