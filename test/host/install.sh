#!/usr/bin/env bash
# Installs the integration-test host: Debian's Chromium + ripgrep, and code-server 4.100.3 from npm.
# Idempotent and quick when everything is already there. Run as root on Debian 12 (or have the
# Debian packages installed already).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
CODE_SERVER_VERSION=4.100.3
RG_PKG_VERSION=1.15.11            # @vscode/ripgrep pinned by code-server 4.100.3's lib/vscode
case "$(uname -m)" in
  aarch64|arm64) RG_ASSET=ripgrep-v13.0.0-10-aarch64-unknown-linux-musl.tar.gz ;;
  *)             RG_ASSET=ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz ;;
esac
say() { printf '[test-host] %s\n' "$*"; }

# 1. Debian packages: Chromium (workbench client), ripgrep (instead of @vscode/ripgrep's GitHub
#    download), libkrb5-dev + toolchain (native modules of lib/vscode are built by node-gyp), and
#    Noto CJK fonts so Japanese names render in the headless browser (empty boxes without them).
need=()
for pair in chromium:/usr/bin/chromium ripgrep:/usr/bin/rg libkrb5-dev:/usr/include/krb5.h make:/usr/bin/make g++:/usr/bin/g++ python3:/usr/bin/python3 \
  fonts-noto-cjk:/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc; do
  [ -e "${pair#*:}" ] || need+=("${pair%%:*}")
done
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    say "missing Debian packages: ${need[*]}; run as root or: sudo apt-get install -y ${need[*]}"; exit 3
  fi
  say "installing Debian packages: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/dev/null
fi

# 2. code-server from npm, in this folder (not among the extension's dependencies).
installed() { node -e "process.exit(require('$HERE/node_modules/code-server/package.json').version==='$CODE_SERVER_VERSION'&&require('fs').existsSync('$HERE/node_modules/code-server/lib/vscode/node_modules')&&require('fs').existsSync('$HERE/node_modules/playwright-core/package.json')?0:1)" 2>/dev/null; }
if installed; then say "code-server $CODE_SERVER_VERSION present"; exit 0; fi
say "installing code-server $CODE_SERVER_VERSION (takes a minute or two, ~300 MB)"
work="$(mktemp -d /tmp/kd-host-XXXXXX)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/vscode-ripgrep-cache-$RG_PKG_VERSION" "$work/rg"
cp /usr/bin/rg "$work/rg/rg"
tar czf "$work/vscode-ripgrep-cache-$RG_PKG_VERSION/$RG_ASSET" -C "$work/rg" rg
cd "$HERE"
# TMPDIR: @vscode/ripgrep looks for the seeded tarball there before downloading.
# unsafe_perm: code-server's postinstall refuses to run as root without it.
# yes: node-pty's postinstall runs `npx node-gyp`.
# dangerously_allow_all_scripts: npm >= 11.19 skips dependency install scripts by default; the nested
#   `npm install` of lib/vscode needs them for its native modules. This is a dev-only harness.
TMPDIR="$work" npm_config_yes=true npm_config_unsafe_perm=true npm_config_dangerously_allow_all_scripts=true \
  npm install --no-audit --no-fund --no-package-lock 2>&1 | tail -5
installed || { say "code-server install did not complete"; exit 3; }
say "code-server $CODE_SERVER_VERSION installed"
