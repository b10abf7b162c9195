#!/usr/bin/env bash
# The extension in a real VS Code: installs code-server and playwright-core
# (install.sh), builds the self-contained linux-x64 .vsix with the server
# inside, and runs run.mjs (headless Chromium against code-server).
#   editors/vscode/e2e/run.sh     # uses $UTF8LINT_BIN, else target/debug/utf8lint
# UTF8LINT_VSIX=FILE tests that .vsix instead of building one (run-tests.sh
# passes the one it just built). Screenshots, the Problems panel's text and the
# editor's logs go to target/e2e-vscode (UTF8LINT_E2E_OUT to change it).
# Needs Linux x86_64, Node 20, Chromium, libkrb5-dev: `install.sh --check`.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
export UTF8LINT_BIN="${UTF8LINT_BIN:-$root/target/debug/utf8lint}"
out="${UTF8LINT_E2E_OUT:-${CARGO_TARGET_DIR:-$root/target}/e2e-vscode}"

"$here/install.sh"

vsix="${UTF8LINT_VSIX:-}"
if [[ -z "$vsix" ]]; then
  if [[ ! -x "$UTF8LINT_BIN" ]]; then
    echo "no server at $UTF8LINT_BIN: run 'cargo build --bin utf8lint' first, or set UTF8LINT_BIN" >&2
    exit 1
  fi
  (
    cd "$here/.."
    [[ -d node_modules ]] || npm ci --no-audit --no-fund
    ./package-platform.sh linux-x64 "$UTF8LINT_BIN"
  )
  vsix="$here/../utf8lint-linux-x64.vsix"
fi

node "$here/run.mjs" --vsix "$vsix" --out "$out"
