import Audit
import Foundation

/// A TCP direction's bytes handed over in order, for a reader that reads it whole (HTTP/1):
/// segments out of order are held (up to `ReadingLimits.outOfOrderBytes`) until the bytes before
/// them come; a retransmission gives only what it adds.
struct InOrderBytes {
  private(set) var next: UInt32?
  private var held: [UInt32: [UInt8]] = [:]
  private var heldBytes = 0
  /// Bytes given up: held past the bound, or never preceded.
  private(set) var dropped = 0

  mutating func start(at sequence: UInt32) { if next == nil { next = sequence } }

  /// The bytes now in order that were not handed over before.
  mutating func add(sequence: UInt32, _ payload: ArraySlice<UInt8>) -> [UInt8] {
    guard !payload.isEmpty else { return [] }
    if next == nil { next = sequence }
    var out: [UInt8] = []
    take(sequence, payload, into: &out)
    // What was held may follow now.
    while !out.isEmpty,
      let (start, bytes) = held.first(where: { Int32(bitPattern: $0.key &- next!) <= 0 })
    {
      held[start] = nil
      heldBytes -= bytes.count
      take(start, bytes[...], into: &out)
    }
    return out
  }

  private mutating func take(
    _ sequence: UInt32, _ payload: ArraySlice<UInt8>, into out: inout [UInt8]
  ) {
    let offset = Int(Int32(bitPattern: sequence &- next!))
    if offset <= 0 {
      let skip = -offset
      guard skip < payload.count else { return }
      let fresh = payload.dropFirst(skip)
      out += fresh
      next = next! &+ UInt32(fresh.count)
    } else if heldBytes + payload.count <= ReadingLimits.outOfOrderBytes, held[sequence] == nil {
      held[sequence] = Array(payload)
      heldBytes += payload.count
    } else {
      dropped += payload.count
    }
  }
}

/// One direction of an HTTP/1 connection read into its messages: each head (start line and
/// headers) and body, framed by Content-Length, chunked transfer coding, or (a response) the
/// connection's end. Bytes come in order, with the instant of the packet that brought them.
public struct HTTP1Stream {
  public enum Role: Sendable { case requests, responses }

  public struct Message: Sendable {
    public var startLine: [String]
    public var headers: [HTTPHeader]
    /// The body as sent (the transfer coding undone), up to `ReadingLimits.httpBodyBytes`.
    public var body: [UInt8] = []
    public var bodyBytes = 0
    public var complete = false
    public var start: Int64
    public var end: Int64
  }

  private enum Framing {
    case head
    case fixed(Int)
    case chunkSize
    case chunkData(Int)
    case chunkEnd
    case trailer
    case untilClose
  }

  public let role: Role
  private var framing = Framing.head
  private var buffer: [UInt8] = []
  /// How far `buffer` was searched for a head's end or a line's: a head that comes a byte a
  /// segment is searched once, not again from its start at each byte.
  private var headSearched = 0
  private var current: Message?
  /// Messages read whole, or cut by the stream's end, not yet taken.
  public private(set) var messages: [Message] = []
  /// Why reading stopped, when it did before the stream's end.
  public private(set) var failure: String?
  /// The requests' methods in order, for the responses' framing (a HEAD's answer has no body).
  public var methods: [String] = []
  private var answered = 0

  public init(role: Role) { self.role = role }

  public mutating func take() -> [Message] {
    defer { messages = [] }
    return messages
  }

  public mutating func feed(_ bytes: [UInt8], at micros: Int64) {
    guard failure == nil else { return }
    var rest = bytes[...]
    while !rest.isEmpty, failure == nil {
      current?.end = micros
      switch framing {
      case .head:
        buffer += rest
        rest = []
        guard let (head, after) = Self.splitHead(buffer, from: max(0, headSearched - 2)) else {
          headSearched = buffer.count
          if buffer.count > ReadingLimits.httpHeadBytes {
            failure = "a message's head is longer than \(ReadingLimits.httpHeadBytes) bytes"
          }
          return
        }
        let tail = buffer[after...]
        buffer = []
        headSearched = 0
        startMessage(head, at: micros)
        rest = tail
      case .fixed(let remaining):
        let part = rest.prefix(remaining)
        keep(part)
        rest = rest.dropFirst(part.count)
        if remaining - part.count == 0 {
          finish()
        } else {
          framing = .fixed(remaining - part.count)
        }
      case .untilClose:
        keep(rest)
        rest = []
      case .chunkSize, .trailer, .chunkEnd:
        buffer += rest
        rest = []
        guard let newline = buffer[min(headSearched, buffer.count)...].firstIndex(of: 0x0A) else {
          headSearched = buffer.count
          if buffer.count > 4096 { failure = "a chunk's size line is longer than 4096 bytes" }
          return
        }
        headSearched = 0
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
          .trimmingCharacters(in: .whitespacesAndNewlines)
        rest = buffer[(newline + 1)...]
        buffer = []
        switch framing {
        case .chunkSize:
          guard let size = Int(line.split(separator: ";").first ?? "", radix: 16), size >= 0 else {
            failure = "a chunk's size is not hex"
            return
          }
          framing = size == 0 ? .trailer : .chunkData(size)
        case .chunkEnd: framing = .chunkSize
        default:
          if line.isEmpty { finish() }
        }
      case .chunkData(let remaining):
        let part = rest.prefix(remaining)
        keep(part)
        rest = rest.dropFirst(part.count)
        framing = remaining - part.count == 0 ? .chunkEnd : .chunkData(remaining - part.count)
      }
    }
  }

  /// The stream ended: a body read to the end completes, what was begun is kept, cut.
  public mutating func close() {
    guard var message = current else { return }
    if case .untilClose = framing { message.complete = true }
    messages.append(message)
    current = nil
    framing = .head
  }

  private mutating func keep(_ part: ArraySlice<UInt8>) {
    guard current != nil else { return }
    current!.bodyBytes += part.count
    let room = ReadingLimits.httpBodyBytes - current!.body.count
    if room > 0 { current!.body += part.prefix(room) }
  }

  private mutating func finish() {
    guard var message = current else { return }
    message.complete = message.bodyBytes <= ReadingLimits.httpBodyBytes
    messages.append(message)
    current = nil
    framing = .head
  }

  private mutating func startMessage(_ head: [UInt8], at micros: Int64) {
    let text = String(decoding: head, as: UTF8.self)
    var lines = text.split(
      omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }
    ).map {
      $0.trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
    }
    guard !lines.isEmpty else {
      failure = "a message has no start line"
      return
    }
    let startLine = lines.removeFirst().split(separator: " ", maxSplits: 2).map(String.init)
    let valid =
      role == .requests
      ? startLine.count == 3 && startLine[2].hasPrefix("HTTP/1.")
      : startLine.count >= 2 && startLine[0].hasPrefix("HTTP/1.") && Int(startLine[1]) != nil
    guard valid else {
      failure = role == .requests ? "a request line is not HTTP/1" : "a status line is not HTTP/1"
      return
    }
    var headers: [HTTPHeader] = []
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers.append(
        HTTPHeader(
          name: String(line[..<colon]).trimmingCharacters(in: .whitespaces),
          value: String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
    }
    current = Message(startLine: startLine, headers: headers, start: micros, end: micros)
    func header(_ name: String) -> String? {
      headers.last { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
    if role == .requests { methods.append(startLine[0]) }
    var bodyless = false
    if role == .responses {
      let status = Int(startLine[1]) ?? 0
      let method = answered < methods.count ? methods[answered] : "GET"
      if status >= 200 || status < 100 { answered += 1 }
      bodyless = method == "HEAD" || (100..<200).contains(status) || status == 204 || status == 304
    }
    if bodyless {
      finish()
    } else if header("transfer-encoding")?.lowercased().contains("chunked") == true {
      framing = .chunkSize
    } else if let length = header("content-length").flatMap({ Int($0) }), length >= 0 {
      if length == 0 { finish() } else { framing = .fixed(length) }
    } else if role == .responses {
      framing = .untilClose
    } else {
      finish()
    }
  }

  /// The head up to its blank line, and where the rest begins; nil while the blank line has not
  /// come.
  static func splitHead(_ bytes: [UInt8], from start: Int = 0) -> ([UInt8], Int)? {
    var i = start
    while i + 1 < bytes.count {
      if bytes[i] == 0x0A {
        if bytes[i + 1] == 0x0A { return (Array(bytes[..<i]), i + 2) }
        if i + 2 < bytes.count, bytes[i + 1] == 0x0D, bytes[i + 2] == 0x0A {
          return (Array(bytes[..<i]), i + 3)
        }
      }
      i += 1
    }
    return nil
  }
}
