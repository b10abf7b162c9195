#!/usr/bin/env bash
# Installs the e2e test's pinned dev dependencies (code-server, playwright-core)
# from package-lock.json into editors/vscode/e2e/node_modules:
#   editors/vscode/e2e/install.sh           # install (skipped when up to date)
#   editors/vscode/e2e/install.sh --check   # only say what this machine lacks
# A plain `npm ci` cannot install code-server here; each setting below lifts
# one block (../shared/ECOSYSTEM.md, "A real VS Code here"):
# * npm 11 runs no dependency install scripts, and code-server's postinstall
#   runs nested `npm install`s that read the environment, not the command line;
# * that postinstall refuses to run as root without unsafe-perm (CI is root);
# * node-pty's postinstall runs `npx node-gyp`, which `yes=false` cancels;
# * native modules build against Debian's Node headers in /usr/include/node
#   (the `kerberos` module also needs libkrb5-dev);
# * @vscode/ripgrep downloads rg from GitHub unless its cache already holds the
#   tarball: Debian's rg (package ripgrep) is put there instead.
# Chromium is Debian's (/usr/bin/chromium); playwright-core downloads nothing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
nodedir="${npm_config_nodedir:-/usr}"

# What this machine lacks for the install and the run, one line each.
missing=()
[[ "$(uname -s)-$(uname -m)" == Linux-x86_64 ]] ||
  missing+=("Linux x86_64 (the test runs the linux-x64 .vsix; this is $(uname -s)-$(uname -m))")
[[ "$(node --version 2>/dev/null)" == v20.* ]] ||
  missing+=("Node 20 (code-server 4.100.3 runs on Node 20 only; found $(node --version 2>/dev/null || echo none))")
for tool in rg cc make python3; do
  command -v "$tool" >/dev/null || missing+=("'$tool' (Debian: ripgrep, gcc, make, python3)")
done
[[ -f /usr/include/krb5.h || -f /usr/include/krb5/krb5.h ]] ||
  missing+=("Kerberos headers for the kerberos module (Debian: libkrb5-dev)")
[[ -f "$nodedir/include/node/node.h" ]] ||
  missing+=("Node headers in $nodedir/include/node (set npm_config_nodedir to a Node headers folder)")
[[ -x "${UTF8LINT_E2E_CHROMIUM:-/usr/bin/chromium}" ]] ||
  missing+=("Chromium at ${UTF8LINT_E2E_CHROMIUM:-/usr/bin/chromium} (Debian: chromium; or set UTF8LINT_E2E_CHROMIUM)")
if [[ "${#missing[@]}" -gt 0 ]]; then
  printf 'the VS Code e2e test needs: %s\n' "${missing[@]}" >&2
  exit 1
fi
[[ "${1:-}" == --check ]] && exit 0

# Skip the install when node_modules holds exactly the lockfile's packages
# (npm writes node_modules/.package-lock.json on every install).
same_packages='
const strip = (file) => {
  const { packages } = JSON.parse(require("fs").readFileSync(file, "utf8"));
  return JSON.stringify(Object.entries(packages).filter(([k]) => k !== "").map(([k, v]) => [k, v.version, v.integrity]));
};
process.exit(strip("package-lock.json") === strip("node_modules/.package-lock.json") ? 0 : 1);
'
if [[ -f node_modules/.package-lock.json && -x node_modules/.bin/code-server ]] && node -e "$same_packages"; then
  echo "e2e dependencies up to date"
  exit 0
fi

# The version @vscode/ripgrep 1.15.11 (pinned by code-server 4.100.3) fetches.
rg_cache="${TMPDIR:-/tmp}/vscode-ripgrep-cache-1.15.11"
rg_tarball="$rg_cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
if [[ ! -s "$rg_tarball" ]]; then
  mkdir -p "$rg_cache"
  staging="$(mktemp -d)"
  cp "$(command -v rg)" "$staging/rg"
  tar -czf "$rg_tarball" -C "$staging" rg
  rm -rf "$staging"
fi

export npm_config_dangerously_allow_all_scripts=true
export npm_config_unsafe_perm=true
export npm_config_yes=true
export npm_config_nodedir="$nodedir"
npm ci --no-audit --no-fund --dangerously-allow-all-scripts
