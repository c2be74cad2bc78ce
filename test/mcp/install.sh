#!/usr/bin/env bash
# Installs the MCP Inspector (test/mcp/package.json) with the Node of $KD_NODE24 (the path of a Node >= 22.19
# binary; the current lane's Node 24). Idempotent and quick when it is already there.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
say() { printf '[test-mcp] %s\n' "$*"; }
if [ -z "${KD_NODE24:-}" ] || [ ! -x "$KD_NODE24" ]; then
  say "KD_NODE24 is not set to a Node >= 22.19 binary: the MCP Inspector test will be skipped"; exit 0
fi
VERSION="$(node -p "require('$HERE/package.json').dependencies['@modelcontextprotocol/inspector']")"
installed() { [ "$(node -p "try{require('$HERE/node_modules/@modelcontextprotocol/inspector/package.json').version}catch{''}")" = "$VERSION" ]; }
if installed; then say "MCP Inspector $VERSION present"; exit 0; fi
say "installing the MCP Inspector $VERSION with $("$KD_NODE24" --version) (about 30 s, ~110 MB)"
cd "$HERE"
# npm itself runs under Node 24 (first on PATH), so the inspector's engines (>= 22.19) are met. No install
# scripts: it needs none to run its CLI.
PATH="$(dirname "$KD_NODE24"):$PATH" npm install --no-audit --no-fund --no-package-lock --ignore-scripts 2>&1 | tail -3
installed || { say "the MCP Inspector install did not complete"; exit 3; }
say "MCP Inspector $VERSION installed"
