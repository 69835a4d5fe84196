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

/// A log read whole: its entries, or the first line that is not one, said with its number.
public enum InspectionLog {
  public static let format = 1

  public struct Problem: Error, Sendable, Hashable {
    public let line: Int
    public let reason: String
    public init(line: Int, reason: String) {
      self.line = line
      self.reason = reason
    }
  }

  public static func parse(_ data: Data) throws(Problem) -> [InspectionLogEntry] {
    var entries: [InspectionLogEntry] = []
    var number = 0
    for raw in data.split(separator: 0x0a, omittingEmptySubsequences: false) {
      number += 1
      if let entry = try line(Data(raw), number: number) { entries.append(entry) }
    }
    return entries
  }

  /// One line (without its line feed); nil for a blank one.
  public static func line(_ raw: Data, number: Int) throws(Problem) -> InspectionLogEntry? {
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
    return try entry(object, line: number)
  }

  static func entry(_ o: [String: Any], line: Int) throws(Problem) -> InspectionLogEntry {
    func fail(_ reason: String) -> Problem { Problem(line: line, reason: reason) }
    guard let format = JSONNumber.integer(o["format"]) else { throw fail("it has no format") }
    guard format == Self.format else {
      throw fail("its format is \(format); this tunnelvision reads format \(Self.format)")
    }
    func instant(_ key: String) throws(Problem) -> Int64? {
      guard let value = o[key], !(value is NSNull) else { return nil }
      guard let seconds = JSONNumber.double(value), seconds.isFinite,
        (0...9_000_000_000).contains(seconds)
      else { throw fail("\(key) is not an instant in seconds since 1970") }
      return Int64((seconds * 1_000_000).rounded())
    }
    func endpoint(_ value: Any?, _ key: String) throws(Problem) -> InspectionLogEntry.Endpoint? {
      guard let value, !(value is NSNull) else { return nil }
      guard let object = value as? [String: Any], let address = object["address"] as? String,
        let port = JSONNumber.integer(object["port"]), (0...65535).contains(port)
      else { throw fail("\(key) is not an address and a port") }
      return .init(address: address, port: UInt16(port))
    }
    func text(_ value: Any?) -> String? {
      guard let string = value as? String, !string.isEmpty else { return nil }
      return string
    }
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
    var scenario: CertificateScenario?
    if let value = o["scenario"], !(value is NSNull) {
      guard let name = value as? String, let stated = CertificateScenario(name: name) else {
        throw fail(
          "scenario is not one of \(CertificateScenario.allCases.map(\.name).joined(separator: ", "))"
        )
      }
      scenario = stated
    }
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
