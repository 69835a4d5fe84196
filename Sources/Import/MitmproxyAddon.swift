import Audit
import AuditRules
import AuditWording
import Crypto

/// The mitmproxy addon that writes the inspection log `import --inspection-log` reads, as
/// `tunnelvision mitmproxy-addon` writes it: the binary alone is enough. Its format is
/// `InspectionLog.format`, documented in docs/inspection.md.
public enum MitmproxyAddon {
  public static let fileName = "tunnelvision_addon.py"

  public static let source = #"""
    """TunnelVision Evidence: the inspection log, for `tunnelvision import --inspection-log`.

    Written by `tunnelvision mitmproxy-addon`; for mitmproxy 11. Run it so:

        mitmdump -s tunnelvision_addon.py --set tunnelvision_log=inspection.jsonl \
            --set tunnelvision_scenario=systemTrust

    (`tunnelvision mitmproxy-scenario` prints the options for each certificate scenario.)

    It appends JSON lines, each as it happens: one when the proxy starts (its version and the
    options it runs with), one per request with its response (or its error), one per WebSocket
    message, and one per client connection that attempted TLS with the proxy, when that connection
    closes: what the proxy saw of it. Bodies are logged as sent, in Base64. It decides nothing:
    tunnelvision reads the outcomes and what was sent from these facts (docs/inspection.md,
    docs/content.md). Format \#(InspectionLog.format): the keys are listed there.
    """

    import base64
    import json
    import os
    import ssl
    import time

    from mitmproxy import ctx
    from mitmproxy import version as mitmproxy_version

    FORMAT = \#(InspectionLog.format)
    # The most of a body a line carries; a longer one is cut and says so.
    BODY_LIMIT = \#(LoggedExchangeReading.largestBody)
    OPTIONS = ("mode", "listen_host", "listen_port", "ssl_insecure", "certs", "confdir",
               "connection_strategy", "tunnelvision_scenario", "tunnelvision_log")


    def _cipher_codes():
        # OpenSSL's cipher names, as mitmproxy reports them, to their IANA numbers.
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        try:
            context.set_ciphers("ALL:@SECLEVEL=0")
        except ssl.SSLError:
            pass
        return {c["name"]: c["id"] & 0xFFFF for c in context.get_ciphers()}


    _CODES = _cipher_codes()


    def _address(pair):
        if not pair:
            return None
        host, port = pair[0], pair[1]
        if isinstance(host, str) and host.startswith("::ffff:") and "." in host:
            host = host[len("::ffff:"):]
        return {"address": host, "port": port}


    def _text(value):
        if value is None:
            return None
        if isinstance(value, bytes):
            return value.decode("utf-8", "replace")
        return str(value)


    def _certificate(server):
        # The server's own certificate as the proxy received it (TLS 1.3 encrypts it on the wire):
        # DER in Base64, for its key and signature algorithm.
        certificates = getattr(server, "certificate_list", None)
        if not certificates:
            return None
        der = ssl.PEM_cert_to_DER_cert(certificates[0].to_pem().decode("ascii"))
        return base64.b64encode(der).decode("ascii")


    def _headers(headers):
        return [[_text(name), _text(value)] for name, value in headers.fields]


    def _body(message, into):
        raw = message.raw_content
        if raw is None:
            into["body"] = None
            return
        into["body"] = base64.b64encode(raw[:BODY_LIMIT]).decode("ascii")
        into["bodySize"] = len(raw)
        into["bodyCut"] = len(raw) > BODY_LIMIT


    def _server(flow):
        server = flow.server_conn
        if server is None:
            return None
        return {
            "address": _text(server.address[0]) if server.address else None,
            "port": server.address[1] if server.address else None,
            "peer": _address(server.peername),
        }


    class TunnelVisionLog:
        def __init__(self):
            self.seen = {}
            self.started = False

        def _write(self, line):
            path = ctx.options.tunnelvision_log
            if not path:
                return
            line["format"] = FORMAT
            line["tool"] = "mitmproxy"
            line["scenario"] = ctx.options.tunnelvision_scenario or None
            with open(path, "a", encoding="utf-8") as out:
                out.write(json.dumps(line, sort_keys=True) + "\n")
                out.flush()
                os.fsync(out.fileno())

        def running(self):
            if self.started:
                return
            self.started = True
            options = {}
            for name in OPTIONS:
                if hasattr(ctx.options, name):
                    value = getattr(ctx.options, name)
                    options[name] = value if isinstance(value, (str, int, bool)) else str(value)
            self._write({"type": "start", "version": mitmproxy_version.VERSION,
                         "options": options, "time": time.time()})

        def _exchange(self, flow):
            request = flow.request
            line = {
                "type": "exchange",
                "client": _address(flow.client_conn.peername),
                "proxy": _address(flow.client_conn.sockname),
                "server": _server(flow),
                "start": request.timestamp_start,
                "end": flow.response.timestamp_end if flow.response else None,
                "request": {
                    "method": _text(request.method), "scheme": _text(request.scheme),
                    "host": _text(request.pretty_host), "port": request.port,
                    "target": _text(request.path), "httpVersion": _text(request.http_version),
                    "headers": _headers(request.headers),
                },
                "response": None,
                "error": _text(flow.error.msg) if flow.error else None,
            }
            _body(request, line["request"])
            if flow.response is not None:
                response = flow.response
                line["response"] = {
                    "status": response.status_code, "httpVersion": _text(response.http_version),
                    "headers": _headers(response.headers),
                }
                _body(response, line["response"])
            self._write(line)

        def response(self, flow):
            self._exchange(flow)

        def error(self, flow):
            # A request that got no response: what it sent was still sent.
            if flow.response is None and flow.request is not None:
                self._exchange(flow)

        def websocket_message(self, flow):
            message = flow.websocket.messages[-1]
            content = message.content or b""
            self._write({
                "type": "message",
                "client": _address(flow.client_conn.peername),
                "proxy": _address(flow.client_conn.sockname),
                "server": _server(flow),
                "time": message.timestamp,
                "fromClient": bool(message.from_client),
                "text": bool(message.is_text),
                "content": base64.b64encode(content[:BODY_LIMIT]).decode("ascii"),
                "contentCut": len(content) > BODY_LIMIT,
                "scheme": "wss" if flow.request.scheme == "https" else "ws",
                "host": _text(flow.request.pretty_host), "port": flow.request.port,
                "target": _text(flow.request.path),
            })

        def load(self, loader):
            loader.add_option(
                "tunnelvision_log", str, "",
                "Append a JSON line per client connection that attempted TLS to this file.")
            loader.add_option(
                "tunnelvision_scenario", str, "",
                "The certificate scenario this proxy serves (\#(CertificateScenario.allCases.map(\.name).joined(separator: ", "))): written into each line.")

        def _record(self, client):
            return self.seen.setdefault(client.id, {"requests": 0, "clientHandshake": None,
                                                    "server": None})

        def tls_start_client(self, data):
            self._record(data.context.client)["clientHandshake"] = "started"

        def tls_established_client(self, data):
            self._record(data.context.client)["clientHandshake"] = "established"

        def tls_failed_client(self, data):
            self._record(data.context.client)["clientHandshake"] = "failed"

        def tls_established_server(self, data):
            self._record(data.context.client)["server"] = data.conn

        def tls_failed_server(self, data):
            self._record(data.context.client)["server"] = data.conn

        def request(self, flow):
            self._record(flow.client_conn)["requests"] += 1

        def client_disconnected(self, client):
            record = self.seen.pop(client.id, None)
            if record is None or record["clientHandshake"] is None:
                return
            server = record["server"]
            line = {
                "type": "connection",
                "start": client.timestamp_start,
                "tlsSetup": client.timestamp_tls_setup,
                "end": client.timestamp_end,
                "client": _address(client.peername),
                "proxy": _address(client.sockname),
                "server": None if server is None else {
                    "address": _text(server.address[0]) if server.address else None,
                    "port": server.address[1] if server.address else None,
                    "peer": _address(server.peername),
                    "tlsVersion": _text(server.tls_version),
                    "cipher": _text(server.cipher),
                    "cipherCode": _CODES.get(server.cipher),
                    "certificate": _certificate(server),
                    "error": _text(server.error),
                },
                "sni": _text(client.sni),
                "clientHandshake": record["clientHandshake"],
                "clientTLSVersion": _text(client.tls_version),
                "clientCipher": _text(client.cipher),
                "clientALPN": _text(client.alpn),
                "requests": record["requests"],
                "error": _text(client.error),
            }
            self._write(line)


    addons = [TunnelVisionLog()]
    """#
}
