#!/usr/bin/env python3
"""Imports captures with tunnelvision and checks its readings against tshark's on the same files.

For every TLS and QUIC flow: the SNI, the negotiated TLS version (the server's, QUIC's too) and
the ALPN list that tunnelvision stored must be what `tshark -T fields` reads. Every flow tshark
reads as DNS must be DNS for tunnelvision too, with no QUIC reading. Prints one line per file and
every disagreement; exits 1 if there is any.

usage: compare-with-tshark.py TUNNELVISION CAPTURE...
"""
import json, os, subprocess, sys, tempfile, zipfile

VERSIONS = {0x0300: "SSL 3.0", 0x0301: "TLS 1.0", 0x0302: "TLS 1.1", 0x0303: "TLS 1.2", 0x0304: "TLS 1.3"}


def name_of(value):
    return VERSIONS.get(value, "0x%04X" % value)


def tshark(capture, display_filter, fields):
    out = subprocess.run(["tshark", "-r", capture, "-Y", display_filter, "-T", "fields", "-E", "separator=\t",
                          "-E", "occurrence=a", "-E", "aggregator=,"] + sum((["-e", f] for f in fields), []),
                         capture_output=True, text=True, check=True).stdout
    return [line.split("\t") for line in out.splitlines() if line.strip()]


def key(src, sport, dst, dport, proto):
    return (proto,) + tuple(sorted([(src, int(sport)), (dst, int(dport))]))


def theirs(capture):
    """One reading of the file (tshark's start-up is most of its time): each ClientHello's name
    and ALPN, each ServerHello's version, each DNS datagram."""
    flows = {}
    fields = ["ip.src", "ipv6.src", "tcp.srcport", "udp.srcport", "ip.dst", "ipv6.dst", "tcp.dstport", "udp.dstport",
              "tls.handshake.type", "tls.handshake.extensions_server_name", "tls.handshake.extensions_alpn_str",
              "tls.handshake.extensions.supported_version", "tls.handshake.version", "dns.id"]
    for row in tshark(capture, "tls.handshake.type == 1 || tls.handshake.type == 2 || (dns && udp)", fields):
        src, sport = row[0] or row[1], row[2] or row[3]
        dst, dport = row[4] or row[5], row[6] or row[7]
        proto = "udp" if row[3] else "tcp"
        k = key(src.split(",")[0], sport.split(",")[0], dst.split(",")[0], dport.split(",")[0], proto)
        types = row[8].split(",")
        if "1" in types:
            entry = flows.setdefault(k, {})
            entry.setdefault("sni", row[9].split(",")[0] or None)
            entry.setdefault("alpn", [a for a in row[10].split(",") if a])
        if "2" in types:
            chosen = (row[11] or row[12]).split(",")[-1]
            flows.setdefault(k, {})["version"] = name_of(int(chosen, 16))
        if row[13] and proto == "udp":
            flows.setdefault(k, {})["dns"] = True
    return flows


def ours(tunnelvision, capture, work):
    store = os.path.join(work, "store")
    run = lambda *args: subprocess.run([tunnelvision, "--store", store] + list(args), capture_output=True, text=True)
    if not os.path.exists(store):
        run("project", "new", "Comparison")
    result = run("import", capture, "--project", "Comparison", "--version", "1", "--build", "1", "--json")
    if result.returncode != 0:
        raise SystemExit("import of %s failed: %s" % (capture, result.stderr.strip()))
    session = json.loads(result.stdout)["sessionID"]
    bundle = os.path.join(work, "bundle-%d.zip" % session)
    exported = run("export", str(session), "--no-report", "-o", bundle, "--at", "2026-01-01T00:00:00Z")
    if exported.returncode != 0:
        raise SystemExit("export failed: %s" % exported.stderr.strip())
    flows = {}
    for flow in json.loads(zipfile.ZipFile(bundle).read("flows.json"))["flows"]:
        a, b = flow["peers"]
        entry = {"sni": flow["sni"], "alpn": (flow["clientTLS"] or {}).get("alpn", []),
                 "version": (flow["serverTLS"] or {}).get("version") if (flow["serverTLS"] or {}).get("answer") == "negotiated" else None,
                 "dns": flow["streamOpening"] == "dnsMessage" and flow["quic"] is None}
        flows.setdefault(key(a["address"], a["port"], b["address"], b["port"], flow["protocol"]), entry)
    return flows


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    tunnelvision, captures = sys.argv[1], sys.argv[2:]
    problems = 0
    with tempfile.TemporaryDirectory() as work:
        for capture in captures:
            expected, actual = theirs(capture), ours(tunnelvision, capture, work)
            checked = 0
            for k, want in sorted(expected.items()):
                got = actual.get(k)
                if got is None:
                    print("  %s: tshark reads a handshake of %s that tunnelvision has no flow for" % (os.path.basename(capture), k))
                    problems += 1
                    continue
                for field in ("sni", "alpn", "version", "dns"):
                    if field in want and want[field] != got[field]:
                        print("  %s %s: %s is %r for tshark, %r for tunnelvision" % (os.path.basename(capture), k, field, want[field], got[field]))
                        problems += 1
                checked += 1
            dns = sum(1 for want in expected.values() if want.get("dns"))
            print("%s: %d TLS/QUIC flows compared, %d DNS" % (os.path.basename(capture), checked - dns, dns))
    print("%d disagreements" % problems)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
