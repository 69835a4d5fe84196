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
# From PyPI into an ignored virtual environment: mitmproxy for the inspection tests, ja4plus (an
# independent JA4) for the TLS parameter tests, publicsuffixlist (an independent public suffix
# reader), mmdb-writer (writes the address databases the tests read) and maxminddb (reads them
# independently). Named as `pip list` names them (mmdb_writer). What is missing is installed in one
# pip run: five runs took 22 s on a clean clone, one 16 s.
pinned=(mitmproxy==11.0.2 ja4plus==1.4.0 publicsuffixlist==1.1.2.20261023 mmdb_writer==0.2.7
        maxminddb==3.2.0)
[ -x .venv/bin/pip ] || python3 -m venv .venv
# pip's output taken whole first: `pip list | grep -q` under pipefail fails when grep stops
# reading early, and reinstalled every package at every run.
installed=$(.venv/bin/pip list --format=freeze 2>/dev/null || true)
wanted=()
for package in "${pinned[@]}"; do
  grep -qixF "$package" <<<"$installed" || wanted+=("$package")
done
if [ ${#wanted[@]} -gt 0 ]; then
  echo "Installing into .venv: ${wanted[*]}" >&2
  .venv/bin/pip install -q "${wanted[@]}"
fi
