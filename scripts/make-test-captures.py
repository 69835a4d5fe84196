#!/usr/bin/env python3
"""Makes the real captures the import tests read (Tests/ImportTests/Captures), as root.

Two network namespaces joined by a veth pair: "tvphone" (10.99.0.2, fd99::2), whose side is
captured with dumpcap, and "tvserver" (10.99.0.1, fd99::1), where real servers run: dnsmasq,
openssl s_server (TLS 1.3 on 9443; TLS 1.2 on 8443, resumed; a HelloRetryRequest on 4433),
an HTTP server on port 443, an aioquic server on UDP 443. The phone's clients are openssl
s_client, curl, a DNS client that picks its query IDs, and an aioquic client. The server side
also sends an ICMPv6 Router Solicitation from its link-local address. Traffic stays inside the
namespaces, which are removed at the end.

Writes:
  real-traffic.pcapng   every exchange above, in time order (dumpcap, one interface)
  merged-out-of-order.pcapng  the first and second half of the day concatenated out of order
                         (mergecap -a of two captures): what import must refuse

usage: sudo make-test-captures.py PYTHON_WITH_AIOQUIC OUTPUT_DIRECTORY
"""
import os, socket, struct, subprocess, sys, tempfile, time

A, B = "tvphone", "tvserver"


def sh(*args, ns=None, check=True, **kw):
    cmd = (["ip", "netns", "exec", ns] if ns else []) + list(args)
    return subprocess.run(cmd, check=check, **kw)


def spawn(*args, ns, **kw):
    return subprocess.Popen(["ip", "netns", "exec", ns] + list(args), stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)


def setup():
    for ns in (A, B):
        sh("ip", "netns", "add", ns)
    sh("ip", "link", "add", "tva0", "netns", A, "type", "veth", "peer", "name", "tvb0", "netns", B)
    for ns, dev, v4, v6 in ((A, "tva0", "10.99.0.2/24", "fd99::2/64"), (B, "tvb0", "10.99.0.1/24", "fd99::1/64")):
        sh("ip", "link", "set", "lo", "up", ns=ns)
        sh("ip", "addr", "add", v4, "dev", dev, ns=ns)
        sh("ip", "-6", "addr", "add", v6, "dev", dev, "nodad", ns=ns)
        sh("ip", "link", "set", dev, "up", ns=ns)


def teardown():
    for ns in (A, B):
        subprocess.run(["ip", "netns", "del", ns], stderr=subprocess.DEVNULL)


def dns_query(name, qid, qtype=1):
    q = struct.pack(">HHHHHH", qid, 0x0100, 1, 0, 0, 0)
    for label in name.split("."):
        q += bytes([len(label)]) + label.encode()
    return q + b"\x00" + struct.pack(">HH", qtype, 1)


CLIENT_DNS = r'''
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(2)
s.bind(("10.99.0.2", int(sys.argv[1])))
s.sendto(bytes.fromhex(sys.argv[2]), ("10.99.0.1", 53))
s.recvfrom(4096)
'''

SEND_RS = r'''
import socket
s = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_ICMPV6)
s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_HOPS, 255)
idx = socket.if_nametoindex("tvb0")
s.sendto(bytes([133, 0, 0, 0, 0, 0, 0, 0]), ("ff02::2", 0, 0, idx))
'''

QUIC_SERVER = r'''
import asyncio, sys
from aioquic.asyncio import serve
from aioquic.quic.configuration import QuicConfiguration
async def main():
    c = QuicConfiguration(is_client=False, alpn_protocols=["tv"])
    c.load_cert_chain(sys.argv[1], sys.argv[2])
    await serve("10.99.0.1", 443, configuration=c)
    await asyncio.Future()
asyncio.run(main())
'''

QUIC_CLIENT = r'''
import asyncio, ssl
from aioquic.asyncio import connect
from aioquic.quic.configuration import QuicConfiguration
async def main():
    c = QuicConfiguration(is_client=True, alpn_protocols=["tv"], server_name="quic.example-health.de")
    c.verify_mode = ssl.CERT_NONE
    async with connect("10.99.0.1", 443, configuration=c) as client:
        await client.ping()
asyncio.run(main())
'''


def s_client(port, *extra, sess_in=None, sess_out=None, name="api.example-health.de"):
    args = ["openssl", "s_client", "-connect", "10.99.0.1:%d" % port, "-servername", name, "-ign_eof"] + list(extra)
    if sess_in:
        args += ["-sess_in", sess_in]
    if sess_out:
        args += ["-sess_out", sess_out]
    sh(*args, ns=A, input=b"", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=10)


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    python, out = sys.argv[1], os.path.abspath(sys.argv[2])
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp()
    key, cert = os.path.join(work, "key.pem"), os.path.join(work, "cert.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-keyout", key, "-out", cert, "-days", "30", "-subj", "/CN=api.example-health.de"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for n, source in (("dns.py", CLIENT_DNS), ("rs.py", SEND_RS), ("qs.py", QUIC_SERVER), ("qc.py", QUIC_CLIENT)):
        open(os.path.join(work, n), "w").write(source)
    teardown()
    setup()
    servers = []
    try:
        hosts = os.path.join(work, "hosts")
        open(hosts, "w").write("10.99.0.1 api.example-health.de\n10.99.0.1 quic.example-health.de\n"
                               "10.99.0.1 plain.example-health.de\nfd99::1 v6.example-health.de\n")
        servers.append(spawn("dnsmasq", "--no-daemon", "--no-resolv", "--no-hosts", "--addn-hosts=" + hosts,
                             "--listen-address=10.99.0.1", "--bind-interfaces", "--port=53", ns=B))
        servers.append(spawn("openssl", "s_server", "-accept", "9443", "-tls1_3", "-key", key, "-cert", cert, "-quiet", ns=B))
        servers.append(spawn("openssl", "s_server", "-accept", "8443", "-tls1_2", "-key", key, "-cert", cert, "-quiet", ns=B))
        servers.append(spawn("openssl", "s_server", "-accept", "4433", "-tls1_3", "-groups", "P-256", "-key", key,
                             "-cert", cert, "-quiet", ns=B))
        servers.append(spawn(python, "-m", "http.server", "443", "--bind", "10.99.0.1", ns=B, cwd=work))
        servers.append(spawn(python, os.path.join(work, "qs.py"), cert, key, ns=B))
        time.sleep(1.5)
        capture = os.path.join(out, "real-traffic.pcapng")
        dumpcap = spawn("dumpcap", "-q", "-i", "tva0", "-w", capture, ns=A)
        time.sleep(1.5)
        # DNS: IDs chosen so that most have their top bit set, as a random one does half the time.
        names = ["api.example-health.de", "quic.example-health.de", "plain.example-health.de"]
        for i, qid in enumerate([0x8A01, 0xC3F2, 0x0102, 0xF00D, 0x9ABC, 0x3A01, 0xBEEF, 0xE5E5]):
            query = dns_query(names[i % 3], qid)
            sh(python, os.path.join(work, "dns.py"), str(40000 + i), query.hex(), ns=A, check=False, timeout=5)
        s_client(9443, "-tls1_3")                                   # TLS 1.3 on a port no list names
        session = os.path.join(work, "session.pem")
        s_client(8443, "-tls1_2", "-no_ticket", sess_out=session)  # TLS 1.2, full handshake
        s_client(8443, "-tls1_2", "-no_ticket", sess_in=session)   # TLS 1.2, resumed by session id
        s_client(4433, "-tls1_3", "-groups", "X25519:P-256")        # key share refused: HelloRetryRequest
        sh("curl", "-s", "-o", "/dev/null", "http://plain.example-health.de:443/", "--resolve",
           "plain.example-health.de:443:10.99.0.1", ns=A, check=False, timeout=10)  # plain HTTP on 443
        sh(python, os.path.join(work, "qc.py"), ns=A, check=False, timeout=15)  # QUIC v1, full handshake
        sh(python, os.path.join(work, "rs.py"), ns=B, check=False, timeout=5)  # the other side's RS
        time.sleep(1.5)
        dumpcap.terminate()
        dumpcap.wait(timeout=10)
        # Two captures of the same minutes, concatenated: the second begins before the first ends.
        first, second = os.path.join(work, "first.pcapng"), os.path.join(work, "second.pcapng")
        subprocess.run(["editcap", "-r", capture, first, "1-40"], check=True)
        subprocess.run(["editcap", "-r", capture, second, "41-99999"], check=True)
        subprocess.run(["mergecap", "-a", "-F", "pcapng", "-w", os.path.join(out, "merged-out-of-order.pcapng"),
                        second, first], check=True)
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            try:
                server.wait(timeout=5)
            except subprocess.TimeoutExpired:
                server.kill()
        teardown()


if __name__ == "__main__":
    main()
