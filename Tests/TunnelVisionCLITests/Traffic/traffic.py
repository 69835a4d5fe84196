#!/usr/bin/env python3
"""Real traffic on loopback for the recorder's tests: each command runs a server and a client
of one exchange and returns once both are done. Only 127.0.0.0/8 is ever used.

  traffic.py tls ADDRESS PORT SNI tls1.2|tls1.3 CERT KEY
  traffic.py http ADDRESS PORT
  traffic.py dns ADDRESS PORT NAME ANSWER_ADDRESS
  traffic.py trickle CAPTURE SECONDS     (writes CAPTURE to stdout over SECONDS)
"""
import socket, ssl, struct, sys, threading, time


def loopback(address):
    if not address.startswith("127."):
        sys.exit("only loopback addresses are used: " + address)
    return address


def serve_once(listener, handle):
    def run():
        connection, _ = listener.accept()
        with connection:
            handle(connection)
    thread = threading.Thread(target=run)
    thread.start()
    return thread


def listener(address, port, kind=socket.SOCK_STREAM):
    s = socket.socket(socket.AF_INET, kind)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if kind == socket.SOCK_DGRAM:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    s.bind((loopback(address), port))
    if kind == socket.SOCK_STREAM:
        s.listen(1)
    return s


def tls(address, port, sni, version, cert, key):
    versions = {"tls1.2": ssl.TLSVersion.TLSv1_2, "tls1.3": ssl.TLSVersion.TLSv1_3}
    server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_context.load_cert_chain(cert, key)
    server_context.maximum_version = versions[version]
    s = listener(address, int(port))

    def handle(connection):
        with server_context.wrap_socket(connection, server_side=True) as t:
            t.recv(4096)
            t.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
    thread = serve_once(s, handle)
    client_context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    client_context.check_hostname = False
    client_context.verify_mode = ssl.CERT_NONE
    with socket.create_connection((address, int(port))) as raw:
        with client_context.wrap_socket(raw, server_hostname=sni) as t:
            t.sendall(b"GET / HTTP/1.1\r\nHost: " + sni.encode() + b"\r\n\r\n")
            while t.recv(4096):
                pass
    thread.join()
    s.close()


def http(address, port):
    s = listener(address, int(port))

    def handle(connection):
        connection.recv(4096)
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
    thread = serve_once(s, handle)
    with socket.create_connection((address, int(port))) as c:
        c.sendall(b"GET /plain HTTP/1.1\r\nHost: plain.example-health.de\r\n\r\n")
        while c.recv(4096):
            pass
    thread.join()
    s.close()


def dns(address, port, name, answer):
    s = listener(address, int(port), socket.SOCK_DGRAM)
    labels = b"".join(bytes([len(p)]) + p.encode() for p in name.split(".")) + b"\0"
    query = struct.pack(">HHHHHH", 0x1234, 0x0100, 1, 0, 0, 0) + labels + struct.pack(">HH", 1, 1)

    def run():
        data, peer = s.recvfrom(512)
        record = b"\xc0\x0c" + struct.pack(">HHIH", 1, 1, 60, 4) + socket.inet_aton(answer)
        s.sendto(struct.pack(">HHHHHH", 0x1234, 0x8180, 1, 1, 0, 0) + data[12:] + record, peer)
    thread = threading.Thread(target=run)
    thread.start()
    c = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    c.bind(("127.0.0.1", 0))
    c.sendto(query, (address, int(port)))
    c.settimeout(5)
    c.recvfrom(512)
    c.close()
    thread.join()
    s.close()


def trickle(path, seconds):
    data = open(path, "rb").read()
    chunk = max(1, len(data) // 100)
    for at in range(0, len(data), chunk):
        sys.stdout.buffer.write(data[at:at + chunk])
        sys.stdout.buffer.flush()
        time.sleep(float(seconds) / 100)


if __name__ == "__main__":
    {"tls": tls, "http": http, "dns": dns, "trickle": trickle}[sys.argv[1]](*sys.argv[2:])
