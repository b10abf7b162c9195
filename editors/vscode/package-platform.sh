#!/usr/bin/env bash
# Packages a platform-specific extension with the language server inside:
#   editors/vscode/package-platform.sh TARGET BINARY
# TARGET is a vsce target (linux-x64, linux-arm64, darwin-x64, darwin-arm64,
# win32-x64); BINARY the utf8lint built for it. The binary goes to
# bundled/utf8lint[.exe], which the extension finds before PATH
# (src/resolve.ts). Writes utf8lint-TARGET.vsix here.
set -euo pipefail
target="$1"
binary="$2"
cd "$(dirname "$0")"
name=utf8lint
[[ "$target" == win32-* ]] && name=utf8lint.exe
rm -rf bundled
mkdir bundled
cp "$binary" "bundled/$name"
chmod 755 "bundled/$name"
# A debug build is mostly debug information; releases ship release builds.
if [[ "$target" == linux-* ]] && command -v strip >/dev/null; then
  strip "bundled/$name"
fi
npm run build:release
npx vsce package --no-dependencies --target "$target" --out "utf8lint-$target.vsix"
rm -rf bundled
