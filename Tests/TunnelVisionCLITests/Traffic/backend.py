#!/usr/bin/env python3
"""A backend for the content tests, run inside the namespace the test made (ip netns exec):
an HTTP server, with TLS when given a certificate, answering every request with 200 and a small
JSON body, the request's body read whole (chunked too). Prints "ready" once it listens.

  backend.py ADDRESS PORT [CERT KEY]
"""
import http.server, json, ssl, sys


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def _answer(self):
        length = self.headers.get("Content-Length")
        if length is not None:
            self.rfile.read(int(length))
        elif self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                self.rfile.read(size + 2)
                if size == 0:
                    break
        body = json.dumps({"ok": True}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_PUT = _answer

    def log_message(self, *args):
        pass


def main():
    address, port = sys.argv[1], int(sys.argv[2])
    server = http.server.ThreadingHTTPServer((address, port), Handler)
    if len(sys.argv) == 5:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[3], sys.argv[4])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print("ready", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
