#!/usr/bin/env python3
"""A phone and its gateway for the recorder's namespace tests: run each inside the network
namespace the test made (ip netns exec). Only the test's own 10.77.1.0/24 is ever used.

  phone.py serve                 (gateway, 10.77.1.1: DNS on 53, a keep-alive line echo on 8080;
                                  runs until killed)
  phone.py client SECONDS NAME   (phone: asks DNS for NAME, then one TCP connection to the
                                  answer sending a line every 0.2 s for SECONDS, then closes)
  phone.py stray                 (another host, 10.77.1.3: one datagram to the gateway)
  phone.py beat SECONDS          (phone: a datagram to the gateway's port 9999 every 10 ms for
                                  SECONDS; prints the instant of each, one a line)
"""
import socket, struct, sys, threading, time

GATEWAY = "10.77.1.1"


def own(address):
    if not address.startswith("10.77.1."):
        sys.exit("only the test's 10.77.1.0/24 is used: " + address)
    return address


def dns_server():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((own(GATEWAY), 53))
    while True:
        query, peer = s.recvfrom(512)
        # The question as asked, one A record pointing at the gateway.
        end = 12
        while query[end] != 0:
            end += query[end] + 1
        question = query[12:end + 5]
        header = query[:2] + b"\x81\x80" + struct.pack(">HHHH", 1, 1, 0, 0)
        answer = b"\xc0\x0c" + struct.pack(">HHIH", 1, 1, 60, 4) + socket.inet_aton(GATEWAY)
        s.sendto(header + question + answer, peer)


def echo(connection):
    with connection:
        while True:
            data = connection.recv(4096)
            if not data:
                return
            connection.sendall(data)


def serve():
    threading.Thread(target=dns_server, daemon=True).start()
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((own(GATEWAY), 8080))
    s.listen(8)
    print("ready", flush=True)
    while True:
        connection, _ = s.accept()
        threading.Thread(target=echo, args=(connection,), daemon=True).start()


def client(seconds, name):
    query = struct.pack(">HHHHHH", 0x1234, 0x0100, 1, 0, 0, 0)
    for label in name.split("."):
        query += bytes([len(label)]) + label.encode()
    query += b"\x00" + struct.pack(">HH", 1, 1)
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.settimeout(5)
    u.sendto(query, (own(GATEWAY), 53))
    reply, _ = u.recvfrom(512)
    answer = socket.inet_ntoa(reply[-4:])
    with socket.create_connection((own(answer), 8080)) as t:
        until = time.time() + float(seconds)
        while time.time() < until:
            t.sendall(b"ping\n")
            t.recv(64)
            time.sleep(0.2)


def beat(seconds):
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    until = time.time() + float(seconds)
    while time.time() < until:
        u.sendto(b"beat", (own(GATEWAY), 9999))
        print("%.6f" % time.time(), flush=True)
        time.sleep(0.01)


def stray():
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.bind((own("10.77.1.3"), 0))
    u.sendto(b"not the device", (own(GATEWAY), 9999))


if __name__ == "__main__":
    {"serve": serve, "client": client, "stray": stray, "beat": beat}[sys.argv[1]](*sys.argv[2:])
