import Foundation

public struct CaptureFileInfo: Sendable, Hashable, Identifiable {
  public var id: UInt32 { sequence }
  /// The name's sequence; the one its packets carry.
  public let sequence: UInt32
  public let url: URL
  public let byteCount: UInt64
  /// From the file system, not the name.
  public let createdAt: Date?
  public init(sequence: UInt32, url: URL, byteCount: UInt64, createdAt: Date?) {
    self.sequence = sequence
    self.url = url
    self.byteCount = byteCount
    self.createdAt = createdAt
  }
}
