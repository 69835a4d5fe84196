import Audit
import AuditRules
import AuditWording
import Capture
import Crypto
import Foundation

/// A flow while the capture is read: its readings so far and its stream bytes, bounded.
final class TrackedFlow {
  static let streamLimit = 65_536
  /// Pieces beyond it are counted, not reassembled.
  static let pieceLimit = ReadingLimits.piecesPerDirection
  var bytesFromOpener: UInt64 = 0, bytesToOpener: UInt64 = 0
  var client = StreamReassembly(), server = StreamReassembly()
  var clientHello: ClientHelloReading?
  var answer: ServerAnswerReading?
  var sawRetry = false
  var chain: [Data] = []
  /// The leaf's key, read once (a recorder writes a flow's row again and again).
  var leafKey: CertificateKeyReading??
  /// TLS 1.2's ServerKeyExchange, read; and whether the server's hello is done.
  var keyExchange: ServerTLSParameters?
  var helloDone = false
  /// The server's CertificateRequest read (below TLS 1.3), and whether the client's Certificate
  /// message answering it held a certificate (nil: not read yet).
  var certificateRequested = false
  var clientSentCertificate: Bool?
  /// Whether the server's key exchange is read, or there is none to read.
  var keyExchangeSettled: Bool {
    guard keyExchange == nil, !helloDone, let suite = answer?.hello?.cipherSuite else {
      return true
    }
    return TLSRegistry.keyExchange(ofCipherSuite: suite) == .other
  }
  var opening: StreamOpening?
  var quicClientVersion: UInt32?, quicServerVersion: UInt32?
  var quicDestinationID: [UInt8]?
  var quicCrypto: [UInt64: [UInt8]] = [:], quicServerCrypto: [UInt64: [UInt8]] = [:]
  /// CRYPTO frames past `pieceLimit`, not reassembled.
  var quicPiecesRefused = 0
  /// Pieces of either direction's stream or CRYPTO frames not reassembled, past `pieceLimit`.
  var piecesRefused: Int { client.refused + server.refused + quicPiecesRefused }
  /// A TLS ≤ 1.2 server resumed the session the client offered: it sent no certificate.
  var resumed = false
  var quicOffer: ClientHelloReading?
  /// An HTTP CONNECT's host, and where each direction's tunnel begins in its stream (after the
  /// request's head, after the proxy's 2xx answer's head).
  var connectHost: String?
  var clientTunnel: Int?, serverTunnel: Int?
  /// The tunnel's first bytes were read and are not a TLS handshake: nothing more to read.
  var tunnelNotTLS = false
  /// The device's end, settled when the flow opened; nil for a flow to a group.
  var device: FlowEndpoint?
  /// The names a DNS exchange asked for, in the order first asked (bounded by `questionLimit`).
  var questions: [String] = []
  static let questionLimit = 64

  /// The names DNS had given each end's address when the flow began, the latest first.
  var namesOfA: [String] = [], namesOfB: [String] = []
  /// HTTP/1 in the clear, read whole: while the opening may be a request, and after it was one.
  var http: HTTPReading? = HTTPReading()
}

/// What an HTTP/1 connection in the clear sent and got: each direction in order, its messages,
/// the requests not answered yet, the exchanges read whole and not taken yet.
final class HTTPReading {
  var fromOpener = InOrderBytes(), toOpener = InOrderBytes()
  var requests = HTTP1Stream(role: .requests), responses = HTTP1Stream(role: .responses)
  var unanswered: [HTTP1Stream.Message] = []
  var exchanges: [HTTPExchange] = []
  /// The first request's Host header, as sent.
  var host: String?
}

/// The names DNS responses gave addresses, the latest first, a few per address.
struct DNSNames {
  static let perAddress = 16
  private var byAddress: [String: [String]] = [:]

  mutating func add(_ name: String, for address: String) {
    var names = byAddress[address, default: []]
    if names.first == name { return }
    names.removeAll { $0 == name }
    names.insert(name, at: 0)
    byAddress[address] = Array(names.prefix(Self.perAddress))
  }

  func of(_ address: String) -> [String] { byAddress[address] ?? [] }
}

/// TCP bytes of one direction in order, from out-of-order and retransmitted segments, up to a bound.
struct StreamReassembly {
  var base: UInt32?
  var segments: [UInt32: [UInt8]] = [:]
  var contiguous: [UInt8] = []
  var stored = 0
  /// Segments taken, and those refused past `TrackedFlow.pieceLimit`.
  var taken = 0
  var refused = 0
  /// The first bytes two copies disagreed on, from 0: the first and the last that differ.
  var conflict: (first: Int, last: Int)?

  mutating func start(at sequence: UInt32) { if base == nil { base = sequence } }

  /// Adds a segment; returns whether the contiguous bytes grew.
  mutating func add(sequence: UInt32, _ payload: ArraySlice<UInt8>) -> Bool {
    // The stream read as far as it is read: what follows is not needed, and not missed.
    guard !payload.isEmpty, contiguous.count < TrackedFlow.streamLimit else { return false }
    if base == nil { base = sequence }
    let offset = sequence &- base!
    // Past the bound while the stream before it is not whole: a piece not reassembled.
    guard offset < UInt32(TrackedFlow.streamLimit) else {
      refused += 1
      return false
    }
    // Each segment taken is looked at against the others held: bounded, so reading a stream of
    // one-byte segments costs a constant per flow, not the square of the segments.
    guard taken < TrackedFlow.pieceLimit else {
      refused += 1
      return false
    }
    taken += 1
    if conflict == nil { compare(Int(offset), payload) }
    if segments[offset] == nil && stored < 4 * TrackedFlow.streamLimit {
      segments[offset] = Array(payload)
      stored += payload.count
    }
    var grew = false
    while true {
      let end = UInt32(contiguous.count)
      // A segment that starts at or before the end and reaches past it extends the stream (the
      // one that starts right at it, most often).
      let exact = segments[end].map { (end, $0) }
      guard
        let (start, bytes) = exact
          ?? segments.first(where: {
            $0.key <= end && $0.key + UInt32($0.value.count) > end
          })
      else { break }
      contiguous += bytes[Int(end - start)...].prefix(TrackedFlow.streamLimit - contiguous.count)
      segments[start] = nil
      grew = true
      if contiguous.count >= TrackedFlow.streamLimit { break }
    }
    if grew {
      segments = segments.filter { $0.key + UInt32($0.value.count) > UInt32(contiguous.count) }
    }
    return grew
  }

  /// Drops the segments held beyond what was read: no more of the stream is read.
  mutating func keepOnlyWhatWasRead() {
    if !segments.isEmpty {
      segments = [:]
      stored = 0
    }
  }

  /// Compares a segment with the stream read so far, reading nothing more of it.
  mutating func compare(sequence: UInt32, _ payload: ArraySlice<UInt8>) {
    guard conflict == nil, let base, !payload.isEmpty else { return }
    let offset = sequence &- base
    guard offset < UInt32(contiguous.count) else { return }
    compare(Int(offset), payload)
  }

  /// Compares a segment at `start` with what is known of its bytes: the stream read so far and
  /// the segments held. Each copy is compared with those that came before it, so every pair is.
  private mutating func compare(_ start: Int, _ payload: ArraySlice<UInt8>) {
    // Most segments come in order with nothing held: nothing to compare them with.
    guard start < contiguous.count || !segments.isEmpty else { return }
    func against(_ other: ArraySlice<UInt8>, at otherStart: Int) {
      let from = max(start, otherStart)
      let to = min(start + payload.count, otherStart + other.count)
      guard from < to else { return }
      let mine = payload.startIndex - start
      let theirs = other.startIndex - otherStart
      var first: Int?
      var last = 0
      for offset in from..<to where payload[mine + offset] != other[theirs + offset] {
        if first == nil { first = offset }
        last = offset
      }
      if let first, conflict == nil { conflict = (first, last) }
    }
    if start < contiguous.count { against(contiguous[...], at: 0) }
    for (held, copy) in segments where conflict == nil { against(copy[...], at: Int(held)) }
  }
}

/// What a capture holds, read without writing anything.
public struct CaptureAnalysis {
  public struct Flow {
    public let flow: StoredFlow
    /// The endpoint that is the device.
    public let device: FlowEndpoint
  }
  public internal(set) var flows: [Flow] = []
  /// The exchanges read in the clear, each with the index of its flow in `flows`.
  public internal(set) var exchanges: [(exchange: HTTPExchange, flow: Int)] = []
  /// How many flows the capture holds (kept when the flows themselves are let go).
  public internal(set) var flowCount = 0
  public internal(set) var frames = 0
  public internal(set) var unparseable: [String: Int] = [:]
  public internal(set) var damagedRecords = 0
  public internal(set) var damaged: [DamagedRecord] = []
  /// Stream pieces (TCP segments, QUIC CRYPTO frames) past `TrackedFlow.pieceLimit` in a
  /// direction of a flow, not reassembled: their packets are kept, their bytes not read.
  public internal(set) var piecesNotReassembled = 0
  public internal(set) var namesFromSNI = 0, namesFromQUIC = 0, namesFromDNS = 0
  public internal(set) var deviceAddresses: [String] = []
  public internal(set) var devicesInferred = true
  public internal(set) var sections: [CaptureSectionInfo] = []
  public internal(set) var firstMicroseconds: Int64?
  public internal(set) var lastMicroseconds: Int64?
  /// The packets to import: the frames that were read whole, at a plausible time.
  public internal(set) var packetCount = 0
  public var unparseableCount: Int { unparseable.values.reduce(0, +) }
  /// The capture file's SHA-256, read as it was analysed.
  public internal(set) var sha256: String?
  /// Whether its frames were in time order or had to be put back in order.
  public internal(set) var frameOrder = CaptureFileDecoder.FrameOrder.asInFile

  /// What the command reports of it.
  public var summary: ImportSummary {
    var s = ImportSummary()
    s.frames = frames
    s.packets = packetCount
    s.flows = flowCount
    s.namesFromSNI = namesFromSNI
    s.namesFromQUIC = namesFromQUIC
    s.namesFromDNS = namesFromDNS
    s.unparseable = unparseable
    s.damagedRecords = damagedRecords
    s.damaged = damaged
    s.piecesNotReassembled = piecesNotReassembled
    s.deviceAddresses = deviceAddresses
    s.devicesInferred = devicesInferred
    s.exchangesInTheClear = exchanges.count
    return s
  }

  /// What it says of the capture, without the flows (for a summary once they are written).
  public var withoutFlows: CaptureAnalysis {
    var summary = self
    summary.flows = []
    return summary
  }
}
