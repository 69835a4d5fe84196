import Audit
import AuditRules
import AuditWording
import Capture
import Foundation

/// What one packet of the sample is: when, which way, and what it carries.
public struct SamplePacket: Sendable {
  public enum Payload: Sendable {
    case none
    case bytes(Data)
    /// Ciphertext-like bytes, drawn from the writer's generator.
    case random(Int)
    /// A TLS application-data record around `count` random bytes.
    case tlsRecord(Int)
  }
  public var offset: TimeInterval  // seconds after the flow's start
  public var outbound: Bool
  public var tcpFlags: UInt8
  public var payload: Payload
}

/// What becomes of a flow's packets in the capture files.
public enum SampleCaptureFate: Sendable, Hashable {
  case captured
  /// Capture was off: the history holds them, no file does.
  case notCaptured
  /// In a capture file that is then deleted.
  case fileRemoved
  /// In a capture file whose last record is then cut short.
  case lastRecordCutShort
}

public struct SampleFlow: Sendable {
  public var flow: StoredFlow  // readings and peers; counters are filled in from the packets
  public var device: FlowEndpoint  // which end is the device
  public var start: Date
  public var packets: [SamplePacket]
  public var fate: SampleCaptureFate = .captured
  /// Written before the session starts, then again while it records (it joins it).
  public var beginsBeforeSession = false
  /// What it carried, as an inspecting proxy or the capture read it.
  public var exchanges: [HTTPExchange] = []
}

public struct SampleSession: Sendable {
  public var kind: AuditSessionKind
  public var environment: AuditEnvironment
  public var inspection: InspectionConditions
  public var notes: String
  public var start: Date
  public var end: Date
  public var markers: [(SessionMarkerKind, Date)]
  public var flows: [SampleFlow]
  /// Extra flows made on demand to reach a workload's size.
  public var bulk: SampleBulk?
  /// Flows written after this session ended, before the next one.
  public var afterwards: [SampleFlow] = []
}

public struct SampleProject: Sendable {
  public var draft: AuditProjectDraft
  public var createdAt: Date
  public var sessions: [SampleSession]
  /// The test account's values, planted before the sessions.
  public var testData: [TestDataValue] = []
}

/// The sizes of a session's bulk flows.
public struct SampleBulk: Sendable, Hashable {
  public var flows: Int
  public var packets: Int
  public var captureBytes: Int
}

/// What the sample store holds, decided without writing anything.
public struct SamplePlan: Sendable {
  public var projects: [SampleProject]
  public var seed: UInt64
}
