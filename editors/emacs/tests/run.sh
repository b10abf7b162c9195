#!/usr/bin/env bash
# The Emacs end-to-end test: utf8lint's server through eglot in a headless
# Emacs (editors/emacs/tests/run.el). Needs Emacs 28+ with eglot (Debian:
# emacs-nox and elpa-eglot; Emacs 29+ has eglot built in).
#   UTF8LINT_BIN=target/debug/utf8lint editors/emacs/tests/run.sh
# Without Emacs it says so and passes, unless UTF8LINT_REQUIRE_EMACS=1 (CI).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if ! command -v emacs >/dev/null; then
  if [[ "${UTF8LINT_REQUIRE_EMACS:-0}" == 1 ]]; then
    echo "editors/emacs: emacs is not installed and UTF8LINT_REQUIRE_EMACS=1 requires it (apt-get install emacs-nox elpa-eglot)" >&2
    exit 1
  fi
  echo "editors/emacs: NOTICE: emacs is not installed: the eglot test is skipped (apt-get install emacs-nox elpa-eglot)" >&2
  exit 0
fi
: "${UTF8LINT_BIN:?set UTF8LINT_BIN to the utf8lint binary}"
export UTF8LINT_BIN
# HOME in a scratch folder: nothing of the user's Emacs set-up is read or written.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
HOME="$scratch" timeout 120 emacs --batch -Q -l "$here/run.el"
