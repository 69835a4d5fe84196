import Foundation

/// What an import read, as the command reports it: counts and facts, no flows.
public struct ImportSummary: Sendable, Hashable {
  public var frames = 0
  public var packets = 0
  public var flows = 0
  public var namesFromSNI = 0, namesFromQUIC = 0, namesFromDNS = 0
  public var unparseable: [String: Int] = [:]
  public var damagedRecords = 0
  public var piecesNotReassembled = 0
  public var deviceAddresses: [String] = []
  public var devicesInferred = true
  /// HTTP/1 requests read in the clear from the capture's streams.
  public var exchangesInTheClear = 0
  public init() {}
}
