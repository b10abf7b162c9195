//! The byte-order-mark table against the real consumers: for each format
//! whose entry names one in `tested_with`, the consumer reads a file with
//! and without a leading mark, and the entry's policy must agree with what
//! it does. Where the mark breaks the file, `utf8lint check` reports U003
//! and `--fix` gives the consumer back its reading.
//!
//! A consumer that is not installed is a notice; `.ci/run` installs them
//! all and sets `UTF8LINT_REQUIRE_BOM_CONSUMERS=1`, which makes it a failure.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use utf8lint_diagnostics::{BOM_FORMATS, BomPolicy, SHEBANG, bom_format_of};

use crate::common::*;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// One consumer reading one file.
struct Case {
    /// The table's format name.
    format: &'static str,
    /// The file, relative to a fresh directory.
    file: &'static str,
    text: &'static [u8],
    /// Other files the consumer needs beside it.
    beside: &'static [(&'static str, &'static [u8])],
    /// `sh -c` script run in that directory; what it prints and its exit
    /// status are the consumer's reading.
    consumer: &'static str,
    /// A command that succeeds when the consumer is installed.
    installed: &'static str,
    /// Whether the mark changes the reading.
    mark_changes_reading: bool,
}

const GIT: &str = "git -c user.name=t -c user.email=t@example.invalid -c commit.gpgsign=false";

const CASES: &[Case] = &[
    Case {
        format: "JSON",
        file: "data.json",
        text: b"{\"a\": 1}\n",
        beside: &[],
        consumer: "python3 -c 'import json; print(json.load(open(\"data.json\", encoding=\"utf-8\")))'",
        installed: "python3 -c 'import json'",
        mark_changes_reading: true,
    },
    Case {
        format: "`#!` script",
        file: "tool",
        text: b"#!/bin/sh\necho ran\n",
        beside: &[],
        consumer: "python3 -c 'import subprocess; print(subprocess.run([\"./tool\"], capture_output=True).stdout)'",
        installed: "python3 --version",
        mark_changes_reading: true,
    },
    Case {
        format: "shell script",
        file: "run.sh",
        text: b"echo ran\n",
        beside: &[],
        consumer: "bash run.sh",
        installed: "bash --version",
        mark_changes_reading: true,
    },
    Case {
        format: "shell script",
        file: "run.sh",
        text: b"echo ran\n",
        beside: &[],
        consumer: "dash run.sh",
        installed: "command -v dash",
        mark_changes_reading: true,
    },
    Case {
        format: "shell start-up file",
        file: ".bashrc",
        text: b"export GREETING=hello\n",
        beside: &[],
        consumer: "bash -c '. ./.bashrc; echo \"GREETING=$GREETING\"'",
        installed: "bash --version",
        mark_changes_reading: true,
    },
    Case {
        format: "dotenv file",
        file: ".env",
        text: b"KEY=1\nOTHER=2\n",
        beside: &[],
        consumer: "python3 -c 'from dotenv import dotenv_values; print(dict(dotenv_values(\".env\")))'",
        installed: "python3 -c 'import dotenv'",
        mark_changes_reading: true,
    },
    Case {
        format: "ignore file",
        file: ".ignore",
        text: b"*.log\n",
        beside: &[("build.log", b"log\n"), ("notes.txt", b"notes\n")],
        consumer: "rg --files --sort path",
        installed: "rg --version",
        mark_changes_reading: true,
    },
    Case {
        format: "git attributes",
        file: ".gitattributes",
        text: b"*.txt eol=crlf\n",
        beside: &[],
        consumer: "git init -q . && git check-attr eol -- a.txt",
        installed: "git --version",
        mark_changes_reading: false,
    },
    Case {
        format: "git mailmap",
        file: ".mailmap",
        text: b"Real Name <real@example.invalid> <old@example.invalid>\n",
        beside: &[],
        consumer: "git init -q . && git check-mailmap 'Old <old@example.invalid>'",
        installed: "git --version",
        mark_changes_reading: true,
    },
    Case {
        format: "git blame ignore list",
        file: ".git-blame-ignore-revs",
        // The commit the consumer makes, with its fixed dates and author.
        text: b"3e080509316aac16280fa5769639fcab75e22f3d\n",
        beside: &[("f", b"a\n")],
        consumer: "export GIT_AUTHOR_DATE=2000-01-01T00:00:00+0000 GIT_COMMITTER_DATE=2000-01-01T00:00:00+0000; git init -q . && git add f && GITCMD commit -qm one && git blame --ignore-revs-file .git-blame-ignore-revs f | cut -c1-8",
        installed: "git --version",
        mark_changes_reading: true,
    },
    Case {
        format: "git configuration",
        file: ".gitmodules",
        text: b"[submodule \"x\"]\n\tpath = x\n\turl = ../x\n",
        beside: &[],
        consumer: "git config -f .gitmodules submodule.x.path",
        installed: "git --version",
        mark_changes_reading: false,
    },
    Case {
        format: "TOML",
        file: "pyproject.toml",
        text: b"[project]\nname = \"x\"\n",
        beside: &[],
        consumer: "python3 -c 'import tomllib; print(tomllib.load(open(\"pyproject.toml\", \"rb\")))'",
        installed: "python3 -c 'import tomllib'",
        mark_changes_reading: true,
    },
    Case {
        format: "Python tool configuration (INI)",
        file: "setup.cfg",
        text: b"[metadata]\nname = x\n",
        beside: &[],
        consumer: "python3 -c 'import configparser; c = configparser.ConfigParser(); c.read(\"setup.cfg\", encoding=\"utf-8\"); print(c.sections())'",
        installed: "python3 -c 'import configparser'",
        mark_changes_reading: true,
    },
    Case {
        format: "gettext catalogue",
        file: "de.po",
        text: b"msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=UTF-8\\n\"\n\nmsgid \"yes\"\nmsgstr \"ja\"\n",
        beside: &[],
        consumer: "msgfmt -c -o /dev/null de.po",
        installed: "msgfmt --version",
        mark_changes_reading: true,
    },
    Case {
        format: "OpenSSH configuration",
        file: "ssh_config",
        text: b"Host x\n  User someone\n",
        beside: &[],
        consumer: "ssh -G -F ssh_config x | grep '^user '",
        installed: "command -v ssh",
        mark_changes_reading: true,
    },
    Case {
        format: "OpenSSH key list",
        file: "authorized_keys",
        text: b"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOj1slSfcZsrK8bZBBDyuKQWxo7grH2ebGlaQzOmab+Q someone\n",
        beside: &[],
        consumer: "ssh-keygen -l -f authorized_keys",
        installed: "command -v ssh-keygen",
        mark_changes_reading: true,
    },
    Case {
        format: "sudoers",
        file: "sudoers",
        text: b"Defaults env_reset\nroot ALL=(ALL:ALL) ALL\n",
        beside: &[],
        consumer: "visudo -c -f sudoers",
        installed: "command -v visudo",
        mark_changes_reading: true,
    },
    Case {
        format: "Makefile",
        file: "Makefile",
        text: b"GREETING = hello\nall:\n\t@echo $(GREETING)\n",
        beside: &[],
        consumer: "make -s all",
        installed: "make --version",
        mark_changes_reading: false,
    },
    Case {
        format: "npm and yarn configuration",
        file: ".npmrc",
        text: b"registry=https://registry.example.invalid/\n",
        beside: &[],
        consumer: "npm config get registry",
        installed: "npm --version",
        mark_changes_reading: false,
    },
    Case {
        format: "EditorConfig",
        file: ".editorconfig",
        text: b"root = true\n[*.c]\nindent_size = 3\n",
        beside: &[],
        consumer: "python3 -c 'import editorconfig, os; print(dict(editorconfig.get_properties(os.path.abspath(\"a.c\"))))'",
        installed: "python3 -c 'import editorconfig'",
        mark_changes_reading: false,
    },
    Case {
        format: "CSV and TSV",
        file: "data.csv",
        text: b"name,count\nx,1\n",
        beside: &[],
        consumer: "python3 -c 'import csv; print(next(csv.reader(open(\"data.csv\", encoding=\"utf-8\"))))'",
        installed: "python3 -c 'import csv'",
        mark_changes_reading: true,
    },
    Case {
        format: "YAML",
        file: "config.yaml",
        text: b"name: x\n",
        beside: &[],
        consumer: "python3 -c 'import yaml; print(yaml.safe_load(open(\"config.yaml\", \"rb\")))'",
        installed: "python3 -c 'import yaml'",
        mark_changes_reading: false,
    },
    Case {
        format: "Python",
        file: "hello.py",
        text: b"print('hello')\n",
        beside: &[],
        consumer: "python3 hello.py",
        installed: "python3 --version",
        mark_changes_reading: false,
    },
    Case {
        format: "XML",
        file: "a.xml",
        text: b"<a>text</a>\n",
        beside: &[],
        consumer: "xmllint --xpath 'string(/a)' a.xml",
        installed: "xmllint --version",
        mark_changes_reading: false,
    },
    Case {
        format: "JavaScript and TypeScript",
        file: "hello.js",
        text: b"console.log('hello')\n",
        beside: &[],
        consumer: "node hello.js",
        installed: "node --version",
        mark_changes_reading: false,
    },
    Case {
        format: "Rust",
        file: "hello.rs",
        text: b"fn main() { println!(\"hello\"); }\n",
        beside: &[],
        consumer: "rustc -o hello hello.rs && ./hello",
        installed: "rustc --version",
        mark_changes_reading: false,
    },
    Case {
        format: "C and C++",
        file: "hello.c",
        text: b"#include <stdio.h>\nint main(void) { puts(\"hello\"); return 0; }\n",
        beside: &[],
        consumer: "cc -o hello hello.c && ./hello",
        installed: "cc --version",
        mark_changes_reading: false,
    },
    Case {
        format: "Perl",
        file: "hello.pl",
        text: b"print \"hello\\n\";\n",
        beside: &[],
        consumer: "perl hello.pl",
        installed: "perl -v",
        mark_changes_reading: false,
    },
];

/// What the consumer made of the directory: exit status and output.
fn reading(dir: &Path, case: &Case) -> (bool, String) {
    let script = case.consumer.replace("GITCMD", GIT);
    let out = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .current_dir(dir)
        .env("HOME", dir)
        .env("NPM_CONFIG_USERCONFIG", dir.join("no-user-npmrc"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("run sh");
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

fn installed(case: &Case) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("{} >/dev/null 2>&1", case.installed))
        .status()
        .is_ok_and(|s| s.success())
}

/// A fresh directory holding the case's file (with `prefix` before its
/// text) and the files beside it.
fn lay_out(case: &Case, prefix: &[u8]) -> tempfile::TempDir {
    let dir = tree(case.beside);
    let path = dir.path().join(case.file);
    std::fs::write(&path, [prefix, case.text].concat()).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

fn policy_of(format: &str) -> BomPolicy {
    std::iter::once(&SHEBANG)
        .chain(BOM_FORMATS)
        .find(|f| f.format == format)
        .unwrap_or_else(|| panic!("{format} is not in the table"))
        .policy
}

#[test]
fn every_consumer_reads_as_the_table_says_and_the_fix_gives_its_reading_back() {
    let require = std::env::var_os("UTF8LINT_REQUIRE_BOM_CONSUMERS").is_some_and(|v| v == "1");
    let mut missing = Vec::new();
    for case in CASES {
        if !installed(case) {
            missing.push(case.installed);
            continue;
        }
        let what = format!("{} ({}, `{}`)", case.format, case.file, case.consumer);
        let plain = lay_out(case, b"");
        let marked = lay_out(case, BOM);
        let expected = reading(plain.path(), case);
        let got = reading(marked.path(), case);
        assert_eq!(
            got != expected,
            case.mark_changes_reading,
            "{what}: with the mark {got:?}, without {expected:?}"
        );
        assert_eq!(
            bom_format_of(Path::new(case.file), case.text).map(|f| f.format),
            Some(case.format),
            "{what}: the file is not of its format"
        );
        let o = run(marked.path(), ["check", "--format", "json", case.file]);
        let u003 = findings(&o).iter().any(|(_, c)| c == "U003");
        let forbids = policy_of(case.format) == BomPolicy::Forbid;
        assert_eq!(u003, forbids, "{what}: {}", stdout(&o));
        let o = run(marked.path(), ["check", "--fix", case.file]);
        let after = std::fs::read(marked.path().join(case.file)).unwrap();
        if forbids {
            assert_eq!(after, case.text, "{what}: {}", stderr(&o));
            let fixed = lay_out(case, b"");
            std::fs::write(fixed.path().join(case.file), &after).unwrap();
            assert_eq!(
                reading(fixed.path(), case),
                expected,
                "{what} after the fix"
            );
        } else {
            assert_eq!(
                after,
                [BOM, case.text].concat(),
                "{what}: the mark was removed"
            );
        }
    }
    if !missing.is_empty() {
        let message = format!("consumers not installed: {}", missing.join("; "));
        assert!(!require, "{message} (UTF8LINT_REQUIRE_BOM_CONSUMERS=1)");
        eprintln!("NOTICE: {message}");
    }
}

/// Every format that names a tested consumer has a case, and every format
/// that forbids a mark for a consumer tested here has a case in which the
/// mark changes that consumer's reading.
#[test]
fn every_tested_consumer_has_a_case() {
    for format in std::iter::once(&SHEBANG).chain(BOM_FORMATS) {
        let cases: Vec<&Case> = CASES.iter().filter(|c| c.format == format.format).collect();
        assert_eq!(
            format.tested_with.is_empty(),
            cases.is_empty(),
            "{}: tested_with {:?} against {} cases",
            format.format,
            format.tested_with,
            cases.len()
        );
        if format.policy == BomPolicy::Forbid && !cases.is_empty() {
            assert!(
                cases.iter().any(|c| c.mark_changes_reading),
                "{}: forbidden, but no tested consumer minds the mark",
                format.format
            );
        }
    }
}

/// Windows PowerShell 5.1 is not here; what the table asks of its scripts
/// is: a mark where the script holds anything but ASCII.
#[test]
fn a_powershell_script_needs_a_mark_only_when_it_is_not_ascii() {
    let dir = tree(&[
        ("ascii.ps1", b"Write-Host 'hello'\n"),
        ("greeting.ps1", "Write-Host 'Grüße'\n".as_bytes()),
        ("marked.ps1", "\u{FEFF}Write-Host 'Grüße'\n".as_bytes()),
        (
            "script.ps1",
            "#!/usr/bin/env pwsh\nWrite-Host 'Grüße'\n".as_bytes(),
        ),
    ]);
    let o = run(dir.path(), ["check", "--format", "json", "."]);
    assert_eq!(
        findings(&o),
        [("greeting.ps1".to_owned(), "U004".to_owned())],
        "{}",
        stdout(&o)
    );
    let o = run(dir.path(), ["check", "--fix", "."]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        std::fs::read(dir.path().join("greeting.ps1")).unwrap(),
        "\u{FEFF}Write-Host 'Grüße'\n".as_bytes()
    );
    assert_eq!(
        std::fs::read(dir.path().join("script.ps1")).unwrap(),
        "#!/usr/bin/env pwsh\nWrite-Host 'Grüße'\n".as_bytes(),
        "a `#!` script is a script first"
    );
}
