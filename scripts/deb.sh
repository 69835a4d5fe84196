#!/usr/bin/env bash
# Builds out/tunnelvision_VERSION_ARCH.deb with dpkg-deb from the release build (the Swift
# runtime linked in statically): the files of 'scripts/install.sh "" /usr', the documents Debian
# asks for, and Depends naming the package of each shared library the executable links.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=.build/release/tunnelvision
[ -x "$binary" ] || { echo "No release build at $binary: run 'make release' first." >&2; exit 1; }
if readelf -d "$binary" | grep -q 'NEEDED.*libswift'; then
  echo "$binary links the Swift runtime dynamically: build it with --static-swift-stdlib." >&2
  exit 1
fi
version=$("$binary" --version | awk '{print $2}')
arch=$(dpkg --print-architecture)
stage="out/deb/tunnelvision_${version}_${arch}"
rm -rf "$stage"
scripts/install.sh "$stage" /usr >/dev/null
# Debian ships executables stripped of their symbols (a third of the size).
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/tunnelvision"
# The packages of the libraries it links, as this system names them.
depends=$(readelf -d "$binary" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | while read -r lib; do
  path=$(ldconfig -p | awk -v lib="$lib" '$1 == lib && /x86-64|aarch64|64bit/ {print $NF; exit}')
  [ -n "$path" ] || path=$(ldconfig -p | awk -v lib="$lib" '$1 == lib {print $NF; exit}')
  real=$(readlink -f "$path")
  dpkg -S "$path" 2>/dev/null || dpkg -S "$real" 2>/dev/null || dpkg -S "${path#/usr}" 2>/dev/null
done | cut -d: -f1 | sort -u | paste -sd, - | sed 's/,/, /g')
[ -n "$depends" ] || { echo "No package found for the libraries $binary links." >&2; exit 1; }
# Packed relative relocations (DT_RELR, Package.swift's release link) load with glibc 2.36 on.
if readelf -V "$binary" | grep -q GLIBC_ABI_DT_RELR; then
  depends=$(sed -E 's/(^|, )libc6(,|$)/\1libc6 (>= 2.36)\2/' <<<"$depends")
fi
doc="$stage/usr/share/doc/tunnelvision"
install -d "$doc" "$stage/DEBIAN"
cat > "$doc/copyright" <<COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: tunnelvision
Comment: TunnelVision Evidence: network traffic as evidence for BSI TR-03161.

Files: *
Copyright: 2026 The TunnelVision Evidence authors
License: proprietary
 All rights reserved.

Files: usr/share/tunnelvision/Fonts/*
Copyright: Bitstream, Inc.; DejaVu changes are in the public domain
License: Bitstream-Vera
 See /usr/share/tunnelvision/Fonts/LICENSE-DejaVu.txt.
COPYRIGHT
# A native package (no Debian revision): its changelog is changelog.gz.
printf 'tunnelvision (%s) unstable; urgency=medium\n\n  * Built from the source tree by scripts/deb.sh.\n\n -- TunnelVision Evidence <evidence@tunnelvision.invalid>  %s\n' \
  "$version" "$(date -R -d @"${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")" \
  | gzip -9n > "$doc/changelog.gz"
chmod 0644 "$doc/copyright" "$doc/changelog.gz"
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
cat > "$stage/DEBIAN/control" <<CONTROL
Package: tunnelvision
Version: $version
Architecture: $arch
Maintainer: TunnelVision Evidence <evidence@tunnelvision.invalid>
Installed-Size: $size
Depends: $depends
Suggests: tshark, mitmproxy, testssl.sh
Section: net
Priority: optional
Description: network traffic of mobile apps as evidence for BSI TR-03161
 Records an app's traffic (live with libpcap, or from a capture) into a store
 of connections and packets with audit projects, sessions and markers, reads
 findings and a verdict per requirement from it, compares two releases, and
 writes an evidence bundle (JSON, CSV, a pcapng slice, a PDF report and a
 SHA-256 manifest) that verify checks again.
CONTROL
find "$stage" -type d -exec chmod 0755 {} +
mkdir -p out
dpkg-deb --root-owner-group -Zxz --build "$stage" "out/tunnelvision_${version}_${arch}.deb" >/dev/null
echo "out/tunnelvision_${version}_${arch}.deb"
