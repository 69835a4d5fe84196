/// Per flow and per capture file (nil: never captured), how many packets the history holds.
/// Also how many of them the history dates before the session started or after it ended.
public struct SessionPacketCount: Sendable, Hashable {
  public let flowID: Int64
  public let fileSequence: UInt32?
  public let packets: Int
  public let beforeStart: Int
  public let afterEnd: Int
  public init(
    flowID: Int64 = 0, fileSequence: UInt32?, packets: Int, beforeStart: Int = 0, afterEnd: Int = 0
  ) {
    self.flowID = flowID
    self.fileSequence = fileSequence
    self.packets = packets
    self.beforeStart = beforeStart
    self.afterEnd = afterEnd
  }
}
