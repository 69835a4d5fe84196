#!/usr/bin/env bash
# Installs the Debian packages the build, the tests and the sample need, if any is missing.
set -euo pipefail
packages=(libsqlite3-dev libcairo2-dev libpango1.0-dev zlib1g-dev libssl-dev libpcap-dev pkg-config
          sqlite3 unzip poppler-utils qpdf tshark tcpdump openssl iproute2 iptables curl time
          webext-ublock-origin-firefox libpsl-dev publicsuffix libbrotli-dev brotli
          libmaxminddb-dev testssl.sh)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if ! command -v swift >/dev/null 2>&1; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    echo "swift is in /opt/swift/usr/bin; add it to PATH." >&2
  else
    echo "No Swift toolchain found: install Swift 6 (swift.org) and put it on PATH." >&2
  fi
  exit 1
fi
# mitmproxy for the inspection tests, ja4plus (an independent JA4) for the TLS parameter tests,
# publicsuffixlist (an independent public suffix reader) and the address database's writer and
# reader, from PyPI into an ignored virtual environment.
mitmproxy_version=11.0.2
ja4plus_version=1.4.0
publicsuffixlist_version=1.1.2.20261023
if ! .venv/bin/mitmdump --version 2>/dev/null | grep -q "Mitmproxy: $mitmproxy_version"; then
  echo "Installing mitmproxy $mitmproxy_version into .venv" >&2
  python3 -m venv .venv
  .venv/bin/pip install -q "mitmproxy==$mitmproxy_version"
fi
# mmdb-writer writes the address databases the tests read; maxminddb reads them independently.
# (Named as `pip list` names them: mmdb_writer.)
mmdb_writer_version=0.2.7
maxminddb_version=3.2.0
# pip's output taken whole first: `pip show | grep -q` under pipefail fails when grep stops
# reading early, and reinstalled every package at every run.
installed=$(.venv/bin/pip list --format=freeze 2>/dev/null || true)
for pinned in "ja4plus==$ja4plus_version" "publicsuffixlist==$publicsuffixlist_version" \
  "mmdb_writer==$mmdb_writer_version" "maxminddb==$maxminddb_version"; do
  if ! grep -qixF "$pinned" <<<"$installed"; then
    echo "Installing $pinned into .venv" >&2
    .venv/bin/pip install -q "$pinned"
  fi
done
