#!/usr/bin/env bash
# Installs the documents of the retrieval dev set (npm run eval): the Debian FAQ and the Developer's Reference,
# in English and Japanese, from the Debian archive. Idempotent: does nothing when they are installed.
# Not part of npm test (which needs no system packages).
set -euo pipefail
PACKAGES=(debian-faq debian-faq-ja developers-reference developers-reference-ja)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "eval documents: installed (${PACKAGES[*]})"
  exit 0
fi
SUDO=''
[ "$(id -u)" -ne 0 ] && SUDO='sudo'
echo "eval documents: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
