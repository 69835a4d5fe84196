import Audit
import FlowStore
import Foundation

/// The session's packet counts (`FlowStore.packetCounts`), read on a connection of their own on
/// another thread while the exporting thread reads the session's flows and classifies them: the
/// second core is idle then, and the counts (400 000 packet rows stepped through on the bench's
/// workload) are what the slicing starts with. Started once the history's fingerprint is taken,
/// so that a change after it is one the final check finds.
final class PacketCountsAhead: @unchecked Sendable {
  private let done = DispatchGroup()
  // Written on the reading thread before `done` is left, read after it is waited for.
  private var result: Result<[SessionPacketCount], Error> = .success([])

  init(store: FlowStore, session: AuditSession) {
    let (start, end) = EvidenceCaptureWriter.window(of: session)
    let reader: FlowReader
    do { reader = try FlowReader(store: store) } catch {
      result = .failure(error)
      return
    }
    // The connection is opened here and used on the reading thread alone from then on.
    nonisolated(unsafe) let handed = reader
    DispatchQueue.global().async(group: done) { [self] in
      result = Result {
        try handed.packetCounts(inAuditSession: session.id, start: start, end: end)
      }
    }
  }

  /// The counts, once read; the reading's error, if it failed.
  func counts() throws -> [SessionPacketCount] {
    done.wait()
    return try result.get()
  }
}
