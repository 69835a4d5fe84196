/// A TLS (or SSL) protocol version as it travels on the wire.
public struct TLSProtocolVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
  public let rawValue: UInt16
  public init(rawValue: UInt16) { self.rawValue = rawValue }

  /// SSL 2.0's ClientHello carries 0x0002; scanners report whether a server still speaks it.
  public static let ssl2 = TLSProtocolVersion(rawValue: 0x0002)
  public static let ssl3 = TLSProtocolVersion(rawValue: 0x0300)
  public static let tls10 = TLSProtocolVersion(rawValue: 0x0301)
  public static let tls11 = TLSProtocolVersion(rawValue: 0x0302)
  public static let tls12 = TLSProtocolVersion(rawValue: 0x0303)
  public static let tls13 = TLSProtocolVersion(rawValue: 0x0304)

  /// The five published versions, oldest first.
  public static let published: [TLSProtocolVersion] = [
    .ssl2, .ssl3, .tls10, .tls11, .tls12, .tls13,
  ]

  public var isPublished: Bool { Self.published.contains(self) }

  /// GREASE values (RFC 8701) are not versions.
  public var isGREASE: Bool { rawValue & 0x0f0f == 0x0a0a && rawValue >> 8 == rawValue & 0xff }

  /// "TLS 1.2", "SSL 3.0", or the hex value when it has no name.
  public var name: String {
    switch self {
    case .ssl2: return "SSL 2.0"
    case .ssl3: return "SSL 3.0"
    case .tls10: return "TLS 1.0"
    case .tls11: return "TLS 1.1"
    case .tls12: return "TLS 1.2"
    case .tls13: return "TLS 1.3"
    default: return hex
    }
  }

  /// Without the space, as a spreadsheet cell carries it: "TLS1.2", "0x7F1C".
  public var compactName: String {
    switch self {
    case .ssl2: return "SSL2.0"
    case .ssl3: return "SSL3.0"
    case .tls10: return "TLS1.0"
    case .tls11: return "TLS1.1"
    case .tls12: return "TLS1.2"
    case .tls13: return "TLS1.3"
    default: return hex
    }
  }

  /// Reads what `name` writes.
  public init?(name: String) {
    if let named = Self.published.first(where: { $0.name == name }) {
      self = named
    } else if name.hasPrefix("0x"), name.count == 6,
      let value = UInt16(name.dropFirst(2), radix: 16)
    {
      self.init(rawValue: value)
      guard hex == name, !isPublished else { return nil }
    } else {
      return nil
    }
  }

  public var hex: String {
    TLSRegistry.hex(rawValue)
  }

  /// "1.0" … "1.3": how a catalogue writes a minimum.
  public init?(catalogueText: String) {
    switch catalogueText {
    case "1.0": self = .tls10
    case "1.1": self = .tls11
    case "1.2": self = .tls12
    case "1.3": self = .tls13
    default: return nil
    }
  }

  public var catalogueText: String? {
    switch self {
    case .tls10: return "1.0"
    case .tls11: return "1.1"
    case .tls12: return "1.2"
    case .tls13: return "1.3"
    default: return nil
    }
  }

  public var description: String { name }

  /// Ordered by wire value; only meaningful between published versions.
  public static func < (lhs: TLSProtocolVersion, rhs: TLSProtocolVersion) -> Bool {
    lhs.rawValue < rhs.rawValue
  }
}
