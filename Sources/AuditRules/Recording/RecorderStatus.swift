import Audit
import Foundation

/// What a running recorder has done so far: the facts its status line and summary are made of.
public struct RecorderStatus: Sendable, Hashable {
  public var claim: RecorderClaim
  public var packets = 0
  /// Connections seen, and of them those still open (held by the recorder).
  public var connections = 0, openConnections = 0
  /// IP bytes of the packets kept.
  public var bytes: UInt64 = 0
  /// Frames that held no packet to keep (another link layer's, cut short, …).
  public var unreadFrames = 0
  /// Frames whose time cannot be (a fraction of a second or more, beyond what the store holds):
  /// not kept, as import leaves them out.
  public var timesOutOfRange = 0
  /// Stream pieces past `ReadingLimits.piecesPerDirection`, kept but not reassembled.
  public var piecesNotReassembled = 0
  /// As pcap_stats counts them, on a live capture.
  public var droppedByKernel: UInt32?, droppedByInterface: UInt32?
  public var deviceAddresses: [String] = []
  public var devicesInferred = true
  /// The audit session open now, and its markers so far.
  public var session: OpenSession?
  /// Capture files started, and those retention deleted.
  public var captureFiles = 0, captureFilesDeleted = 0
  /// What the inspecting proxy's log gave, when one is followed; its lines that were not log lines.
  public var inspection: InspectionLogSummary?
  public var inspectionUnreadableLines = 0
  /// What the log gave at the last look.
  public var inspectionLogState: InspectionLogState?
  /// Times the log was truncated or rewritten, or replaced by another file (each read again from
  /// its start), and the parts of lines those turns cut off.
  public var inspectionLogRestarts = 0, inspectionLogReplacements = 0, inspectionLinesCut = 0
  /// Exchanges kept (read in the clear, or from the proxy's log), and of the log's, those that
  /// joined no connection.
  public var exchanges = 0, exchangesUnjoined = 0

  public struct OpenSession: Sendable, Hashable {
    public let id: Int64
    public let projectName: String
    public let markers: Int
    public init(id: Int64, projectName: String, markers: Int) {
      self.id = id
      self.projectName = projectName
      self.markers = markers
    }
  }

  public init(claim: RecorderClaim) { self.claim = claim }
}

/// How the reading ended, for the summary.
public enum RecordingEnd: String, Sendable, Hashable {
  case interrupted
  case durationReached = "duration"
  case sourceEnded

  /// As the store keeps it.
  public var runEnd: RecorderRunEnd {
    switch self {
    case .interrupted: return .interrupted
    case .durationReached: return .durationReached
    case .sourceEnded: return .sourceEnded
    }
  }
}
