import Audit
import Foundation

/// One line of an inspecting proxy's log (the mitmproxy addon's, format 1): what the proxy saw of
/// one client connection that attempted TLS with it. Facts only; `outcome` is our reading of them.
public struct InspectionLogEntry: Sendable, Hashable {
  public struct Endpoint: Sendable, Hashable {
    public let address: String
    public let port: UInt16
  }
  public enum ClientHandshake: String, Sendable, Hashable {
    /// Begun and never finished either way (the client went away mid-handshake).
    case started
    case established
    case failed
  }
  /// 1-based, for what is said of the line.
  public let line: Int
  public let start: Int64, end: Int64?
  public let client: Endpoint
  /// Where the client connected to: the proxy's listening socket (explicit mode), or, redirected
  /// (transparent mode), the proxy's side of it.
  public let proxy: Endpoint?
  /// The server the proxy stood in for: the address asked for, and the one connected to.
  public let serverAddress: String?, serverPort: UInt16?
  public let serverPeer: Endpoint?
  /// What the real server negotiated with the proxy.
  public let serverTLSVersion: TLSProtocolVersion?
  public let serverCipher: UInt16?
  /// The real server's own certificate (DER), as the proxy received it.
  public var serverCertificate: Data? = nil
  public let sni: String?
  public let clientHandshake: ClientHandshake
  public let requests: Int
  public let error: String?
  /// The certificate scenario the proxy served, as its addon was told (`tunnelvision_scenario`);
  /// nil when the line does not say.
  public var scenario: CertificateScenario? = nil

  /// What the entry says of the app's connection, or nil when it says nothing: an unfinished
  /// handshake, or one that finished and was cut off by an error before any request.
  public var outcome: InspectionOutcome? {
    switch clientHandshake {
    case .failed: return .notInspectable
    case .started: return nil
    case .established:
      if requests > 0 { return .inspected }
      return error == nil ? .closedAfterHandshake : nil
    }
  }
}

/// What the proxy said of itself when it started: its version and the options it ran with, for
/// the test log (TR-03161 §4.2 asks for every tool's version).
public struct ProxyStart: Sendable, Hashable {
  public let line: Int
  public let tool: String
  public let version: String?
  /// The options it ran with, by name, as text.
  public let options: [String: String]
  public let time: Int64?
}

/// One exchange the proxy decrypted (a request and its response), or one WebSocket message, with
/// the ends of the connection it went over: its bodies as sent (their Content-Encoding not undone:
/// the importer does that).
public struct LoggedExchange: Sendable, Hashable {
  public let line: Int
  public var exchange: HTTPExchange
  public let client: InspectionLogEntry.Endpoint
  public let proxy: InspectionLogEntry.Endpoint?
  public let serverPeer: InspectionLogEntry.Endpoint?
  public let scenario: CertificateScenario?
}

/// A line of the log: about a connection, an exchange or a message, or the proxy's start.
public enum InspectionLogLine: Sendable, Hashable {
  case connection(InspectionLogEntry)
  case exchange(LoggedExchange)
  case start(ProxyStart)
}

/// A log read whole, its lines by kind.
public struct InspectionLogContents: Sendable, Hashable {
  public var entries: [InspectionLogEntry] = []
  public var exchanges: [LoggedExchange] = []
  public var starts: [ProxyStart] = []
  public init() {}

  public mutating func add(_ line: InspectionLogLine) {
    switch line {
    case .connection(let entry): entries.append(entry)
    case .exchange(let exchange): exchanges.append(exchange)
    case .start(let start): starts.append(start)
    }
  }
}

/// A log read whole: its entries, or the first line that is not one, said with its number.
/// Format 1 holds connection lines; format 2 adds the proxy's start, exchanges and WebSocket
/// messages ("type"), and its connection lines are those of format 1.
public enum InspectionLog {
  public static let format = 2
  public static let formats = 1...2

  public struct Problem: Error, Sendable, Hashable {
    public let line: Int
    public let reason: String
    public init(line: Int, reason: String) {
      self.line = line
      self.reason = reason
    }
  }

  public static func parse(_ data: Data) throws(Problem) -> InspectionLogContents {
    var contents = InspectionLogContents()
    var number = 0
    for raw in data.split(separator: 0x0a, omittingEmptySubsequences: false) {
      number += 1
      if let line = try line(Data(raw), number: number) { contents.add(line) }
    }
    return contents
  }

  /// One line (without its line feed); nil for a blank one.
  public static func line(_ raw: Data, number: Int) throws(Problem) -> InspectionLogLine? {
    if raw.isEmpty || raw.allSatisfy({ $0 == 0x20 || $0 == 0x0d }) { return nil }
    if let failure = JSONSyntax.failure(in: raw) {
      // Foundation would forgive what JSON does not allow, and read a key given twice as its last.
      throw Problem(
        line: number,
        reason: failure.reason == JSONSyntax.namedTwice ? "it names a key twice" : "it is not JSON")
    }
    let object: [String: Any]
    do {
      guard let parsed = try JSONSerialization.jsonObject(with: raw) as? [String: Any]
      else { throw Problem(line: number, reason: "it is not a JSON object") }
      object = parsed
    } catch let problem as Problem {
      throw problem
    } catch {
      throw Problem(line: number, reason: "it is not JSON")
    }
    guard let format = JSONNumber.integer(object["format"]) else {
      throw Problem(line: number, reason: "it has no format")
    }
    guard formats.contains(format) else {
      throw Problem(
        line: number,
        reason:
          "its format is \(format); this tunnelvision reads formats \(formats.lowerBound) to \(formats.upperBound)"
      )
    }
    let type = format == 1 ? "connection" : (object["type"] as? String ?? "connection")
    switch type {
    case "connection": return .connection(try entry(object, line: number))
    case "exchange", "message":
      return .exchange(try LoggedExchangeReading.exchange(object, line: number))
    case "start": return .start(LoggedExchangeReading.start(object, line: number))
    default:
      throw Problem(line: number, reason: "its type is not connection, exchange, message or start")
    }
  }

  static func entry(_ o: [String: Any], line: Int) throws(Problem) -> InspectionLogEntry {
    let fields = LineFields(o, line: line)
    func fail(_ reason: String) -> Problem { fields.fail(reason) }
    func instant(_ key: String) throws(Problem) -> Int64? { try fields.instant(key) }
    func endpoint(_ value: Any?, _ key: String) throws(Problem) -> InspectionLogEntry.Endpoint? {
      try fields.endpoint(value, key)
    }
    func text(_ value: Any?) -> String? { LineFields.text(value) }
    guard let start = try instant("start") else { throw fail("it has no start") }
    guard let client = try endpoint(o["client"], "client") else {
      throw fail("it names no client")
    }
    guard let handshakeText = o["clientHandshake"] as? String,
      let handshake = InspectionLogEntry.ClientHandshake(rawValue: handshakeText)
    else { throw fail("clientHandshake is not started, established or failed") }
    guard let requests = JSONNumber.integer(o["requests"]), requests >= 0 else {
      throw fail("requests is not a count")
    }
    let server = o["server"] as? [String: Any]
    if let value = o["server"], !(value is NSNull), server == nil {
      throw fail("server is not an object")
    }
    let serverPort = JSONNumber.integer(server?["port"])
    let scenario = try fields.scenario()
    var certificate: Data?
    if let value = server?["certificate"], !(value is NSNull) {
      guard let text = value as? String, let der = Data(base64Encoded: text), !der.isEmpty else {
        throw fail("server.certificate is not a certificate in Base64")
      }
      certificate = der
    }
    var entry = InspectionLogEntry(
      line: line, start: start, end: try instant("end"), client: client,
      proxy: try endpoint(o["proxy"], "proxy"), serverAddress: text(server?["address"]),
      serverPort: serverPort.flatMap { (0...65535).contains($0) ? UInt16($0) : nil },
      serverPeer: try endpoint(server?["peer"], "server.peer"),
      serverTLSVersion: text(server?["tlsVersion"]).flatMap(Self.version),
      serverCipher: JSONNumber.integer(server?["cipherCode"]).flatMap {
        (0...0xffff).contains($0) ? UInt16($0) : nil
      }, sni: text(o["sni"]), clientHandshake: handshake, requests: requests,
      error: text(o["error"]), scenario: scenario)
    entry.serverCertificate = certificate
    return entry
  }

  /// OpenSSL's names of the versions, as mitmproxy reports them.
  static func version(_ name: String) -> TLSProtocolVersion? {
    switch name {
    case "SSLv3": return TLSProtocolVersion(rawValue: 0x0300)
    case "TLSv1": return TLSProtocolVersion(rawValue: 0x0301)
    case "TLSv1.1": return TLSProtocolVersion(rawValue: 0x0302)
    case "TLSv1.2": return TLSProtocolVersion(rawValue: 0x0303)
    case "TLSv1.3": return TLSProtocolVersion(rawValue: 0x0304)
    default: return nil
    }
  }
}

/// The fields of one log line, read as the format says, each failure naming the line and key.
struct LineFields {
  let o: [String: Any]
  let line: Int
  init(_ o: [String: Any], line: Int) {
    self.o = o
    self.line = line
  }

  func fail(_ reason: String) -> InspectionLog.Problem {
    InspectionLog.Problem(line: line, reason: reason)
  }

  /// Seconds since 1970 (as Python's time() writes them) as microseconds; nil when absent.
  func instant(_ key: String, in object: [String: Any]? = nil) throws(InspectionLog.Problem)
    -> Int64?
  {
    guard let value = (object ?? o)[key], !(value is NSNull) else { return nil }
    guard let seconds = JSONNumber.double(value), seconds.isFinite,
      (0...9_000_000_000).contains(seconds)
    else { throw fail("\(key) is not an instant in seconds since 1970") }
    return Int64((seconds * 1_000_000).rounded())
  }

  func endpoint(_ value: Any?, _ key: String) throws(InspectionLog.Problem) -> InspectionLogEntry
    .Endpoint?
  {
    guard let value, !(value is NSNull) else { return nil }
    guard let object = value as? [String: Any], let address = object["address"] as? String,
      let port = JSONNumber.integer(object["port"]), (0...65535).contains(port)
    else { throw fail("\(key) is not an address and a port") }
    return .init(address: address, port: UInt16(port))
  }

  static func text(_ value: Any?) -> String? {
    guard let string = value as? String, !string.isEmpty else { return nil }
    return string
  }

  func scenario() throws(InspectionLog.Problem) -> CertificateScenario? {
    guard let value = o["scenario"], !(value is NSNull) else { return nil }
    guard let name = value as? String, let stated = CertificateScenario(name: name) else {
      throw fail(
        "scenario is not one of \(CertificateScenario.allCases.map(\.name).joined(separator: ", "))"
      )
    }
    return stated
  }
}
