#!/usr/bin/env bash
# Installs the e2e test's pinned dev dependencies (code-server, playwright-core)
# from package-lock.json into editors/vscode/e2e/node_modules:
#   editors/vscode/e2e/install.sh
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

# Skip the install when node_modules already holds exactly this lockfile's
# packages (npm writes node_modules/.package-lock.json on every install).
if [[ -f node_modules/.package-lock.json && -x node_modules/.bin/code-server ]] &&
  cmp -s <(node -e 'const l=require("./package-lock.json");console.log(JSON.stringify(l.packages["node_modules/code-server"]))') \
    <(node -e 'const l=require("./node_modules/.package-lock.json");console.log(JSON.stringify(l.packages["node_modules/code-server"]))'); then
  echo "e2e dependencies already installed"
  exit 0
fi

for tool in rg cc make python3; do
  command -v "$tool" >/dev/null || { echo "install.sh: '$tool' is needed to install code-server (Debian: ripgrep, gcc, make, python3)" >&2; exit 1; }
done
[[ -f /usr/include/krb5.h || -f /usr/include/krb5/krb5.h ]] ||
  { echo "install.sh: the kerberos module needs Kerberos headers (Debian: apt-get install libkrb5-dev)" >&2; exit 1; }
nodedir="${npm_config_nodedir:-/usr}"
[[ -f "$nodedir/include/node/node.h" ]] ||
  { echo "install.sh: no Node headers in $nodedir/include/node: set npm_config_nodedir to a Node source or headers folder" >&2; exit 1; }

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
