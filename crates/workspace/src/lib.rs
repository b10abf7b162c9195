//! utf8lint's workspace layer: the rules for finding, reading and rewriting
//! files, written once and used by both front ends (the CLI and the
//! language server), so that they cannot drift apart.
//!
//! * [`read_and_check`]: one file's journey, settings (from
//!   `utf8lint-config`'s resolver), exclusion, read, binary sniff and
//!   check, with one answer: [`Checked`] (the findings, the settings used,
//!   the read) or [`Skipped`] (why not: [`Skip`]). [`settle`] and
//!   [`check_bytes`] are its first and last stages, for bytes that do not
//!   come from disk.
//! * [`walker`]: the `ignore` crate's walker with utf8lint's rules
//!   (`.gitignore` inside git repositories, `.ignore`, [`IGNORE_FILE`],
//!   hidden files checked unless skipped, never `.git`).
//! * [`read_file`], [`FileKind`], [`Stamp`]: `utf8lint-read`'s, re-exported
//!   for the front ends (the same reader reads configuration files).
//! * [`gate::fix`]: the fix gate every edit passes before it is written
//!   or shown: text by evidence, applied and checked again in memory to a
//!   fixed point, nothing new; a [`gate::Refusal`] says why not.
//! * [`replace_file`]: the one fix writer. It keeps owner, mode, extended
//!   attributes and ACLs or refuses ([`WriteError::Refused`] says why); it
//!   refuses symbolic links, hard-linked files, files changed since
//!   `read_as`, and (Linux) files another process holds open.
//!   [`replace_file_in_workspace`] is the language server's entry: the same,
//!   for a path inside the workspace folders only, never through a link.
//! * [`write_whole_file`]: a new or replaced file written whole or not at
//!   all (the CLI's `--output-file` and `--write-baseline`), through the
//!   same temporary files; [`whole_file_target`] asks its rules first.
//! * [`remove_temp_files_on_interrupt`]: Ctrl-C during a fix leaves nothing.
//! * [`exclude_overrides`] and [`ExcludeProbe`]: `--exclude`, and whether
//!   the walk would have left out a file named on the command line
//!   (`--force-exclude`).

mod exclude;
pub mod gate;
mod pipeline;
mod walk;
mod write;

pub use exclude::{ExcludeProbe, exclude_overrides, lexical};
pub use pipeline::{Checked, FileOptions, Skip, Skipped, check_bytes, read_and_check, settle};
pub use utf8lint_read::{FileKind, FileRead, ReadError, ReadOptions, Stamp, read_file};
pub use walk::{IGNORE_FILE, WalkOptions, is_git_dir_name, walker};
#[cfg(debug_assertions)]
pub use write::MUTATE_HOOK;
pub use write::{
    WriteError, remove_temp_files_on_interrupt, replace_file, replace_file_in_workspace,
    resolve_in_workspace, whole_file_target, write_whole_file,
};
