#!/usr/bin/env bash
# The Debian package as an assessor meets it (CI runs this as root): built, checked by lintian,
# installed with apt, the main job run with the installed binary from outside the source tree
# (the sample store, an export with report.pdf, verify), the man page rendered, the bash
# completion loaded; then removed, and nothing of it left.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
for p in lintian man-db; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || {
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends lintian man-db >/dev/null
    break
  }
done
# The release link as Package.swift asks: relative relocations packed, the functions the commands
# run placed first (docs/performance.md, "Hot code together").
scripts/hot-functions.py --check .build/release/tunnelvision Sources/tunnelvision/hot-functions.order
deb=$(scripts/deb.sh | tail -1)
lintian --fail-on error "$deb"
files=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\.||' | grep -v '/$')
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "./$deb" >/dev/null
trap 'DEBIAN_FRONTEND=noninteractive $SUDO apt-get remove --purge -y -qq tunnelvision >/dev/null 2>&1 || true' EXIT
work=$(mktemp -d)
(
  cd "$work"
  [ "$(command -v tunnelvision)" = /usr/bin/tunnelvision ]
  tunnelvision --version
  tunnelvision --store store sample >/dev/null
  tunnelvision --store store export 3 -o bundle.zip >/dev/null
  unzip -l bundle.zip | grep report.pdf >/dev/null
  unzip -tq bundle.zip
  tunnelvision verify bundle.zip >/dev/null
  man -P cat tunnelvision | grep "session start" >/dev/null
  bash -c 'source /usr/share/bash-completion/completions/tunnelvision && complete -p tunnelvision >/dev/null'
)
rm -rf "$work"
DEBIAN_FRONTEND=noninteractive $SUDO apt-get remove --purge -y -qq tunnelvision >/dev/null
trap - EXIT
left=0
for f in $files; do
  if [ -e "$f" ]; then echo "Left after removal: $f" >&2; left=1; fi
done
[ -e /usr/share/tunnelvision ] && { echo "Left after removal: /usr/share/tunnelvision" >&2; left=1; }
[ "$left" -eq 0 ]
echo "The package installs, runs the main job from $work, documents itself and leaves nothing: $deb"
