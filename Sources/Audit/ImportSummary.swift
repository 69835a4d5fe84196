import Foundation

/// What an import read, as the command reports it: counts and facts, no flows.
public struct ImportSummary: Sendable, Hashable {
  public var frames = 0
  public var packets = 0
  public var flows = 0
  public var namesFromSNI = 0, namesFromQUIC = 0, namesFromDNS = 0
  public var unparseable: [String: Int] = [:]
  public var damagedRecords = 0
  /// The first damaged records, with where and what: what the summary names.
  public var damaged: [DamagedRecord] = []
  public var piecesNotReassembled = 0
  public var deviceAddresses: [String] = []
  public var devicesInferred = true
  /// HTTP/1 requests read in the clear from the capture's streams.
  public var exchangesInTheClear = 0
  public init() {}
}

/// A record of a capture file that could not be read: where it began, and why; a record cut
/// short by the file's end has no other reason.
public struct DamagedRecord: Sendable, Hashable {
  public let offset: Int
  /// nil: cut short at the end of the file.
  public let reason: String?
  public init(offset: Int, reason: String?) {
    self.offset = offset
    self.reason = reason
  }
  /// How many a summary names; the rest are counted.
  public static let named = 5
}
