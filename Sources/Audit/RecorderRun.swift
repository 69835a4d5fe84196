import Foundation

/// How a recorder run ended, as the store keeps it.
public enum RecorderRunEnd: Int, Sendable, Hashable, CaseIterable {
  /// The file or stream it read ended.
  case sourceEnded = 1
  /// Ctrl-C or SIGTERM.
  case interrupted = 2
  /// Its `--duration` passed.
  case durationReached = 3
  /// It stopped on an error (the store refused a write, the capture failed), after writing
  /// what it had read.
  case failed = 4
  /// It ended without saying so (killed, crashed, the machine stopped): found from its lock by a
  /// later command. It is known to have run until its last sign of life.
  case vanished = 5

  /// The stable identifier session.json carries.
  public var name: String {
    switch self {
    case .sourceEnded: return "sourceEnded"
    case .interrupted: return "interrupted"
    case .durationReached: return "durationReached"
    case .failed: return "failed"
    case .vanished: return "vanished"
    }
  }

  public init?(name: String) {
    guard let end = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = end
  }
}

/// What became of the inspecting proxy's log a recorder run followed.
public enum InspectionLogState: Int, Sendable, Hashable, CaseIterable {
  /// No file at its path.
  case missing = 1
  /// There, but it cannot be read (permissions, a directory).
  case unreadable = 2
  /// There and readable, but no line in it yet.
  case empty = 3
  /// It has lines, and they are read from it.
  case read = 4

  public var name: String {
    switch self {
    case .missing: return "missing"
    case .unreadable: return "unreadable"
    case .empty: return "empty"
    case .read: return "read"
    }
  }

  public init?(name: String) {
    guard let state = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = state
  }
}

/// One run of `tunnelvision record` on a store: what it read, from when, until when it is known
/// to have run, and how it ended. A session's coverage is its window against these.
public struct RecorderRun: Sendable, Hashable, Identifiable {
  public let id: Int64
  /// The claim's source: the interface, or the file or stream read.
  public var source: String
  public var isLive: Bool
  public var processID: Int32
  public var startedAt: Date
  /// Its last sign of life: the last commit or heartbeat (once a second).
  public var aliveAt: Date
  /// When it ended, and how; nil while it runs or until a later command finds it vanished.
  public var endedAt: Date?
  public var end: RecorderRunEnd?
  /// The inspection log it followed (its file name), and what became of it.
  public var inspectionLog: String?
  public var inspectionLogState: InspectionLogState?
  /// The lines of that log it could not read: the outcomes they held joined no connection.
  public var inspectionLinesUnreadable: Int
  /// The BPF filter it kept packets by (`--filter`), as given; nil: none.
  public var filter: String?
  /// libpcap's version string, as the library that read the packets gave it; nil: a run
  /// recorded before the store kept it (schema 14).
  public var libpcap: String?
  /// What the inspecting proxy said of itself each time it started, as the run read it from
  /// the log it followed: the test log's proxy version and options.
  public var proxies: [ProxyRun]

  /// An inspecting proxy's start, as a run read it from the log's first line (or a later one,
  /// when the proxy was started again).
  public struct ProxyRun: Sendable, Hashable {
    public let tool: String
    /// Its version as it stated it; nil when the line gave none.
    public let version: String?
    /// The options it ran with, by name, as text.
    public let options: [String: String]
    public init(tool: String, version: String?, options: [String: String]) {
      self.tool = tool
      self.version = version
      self.options = options
    }
  }

  public init(
    id: Int64, source: String, isLive: Bool, processID: Int32, startedAt: Date, aliveAt: Date,
    endedAt: Date? = nil, end: RecorderRunEnd? = nil, inspectionLog: String? = nil,
    inspectionLogState: InspectionLogState? = nil, inspectionLinesUnreadable: Int = 0,
    filter: String? = nil, libpcap: String? = nil, proxies: [ProxyRun] = []
  ) {
    self.filter = filter
    self.libpcap = libpcap
    self.proxies = proxies
    self.inspectionLinesUnreadable = inspectionLinesUnreadable
    self.id = id
    self.source = source
    self.isLive = isLive
    self.processID = processID
    self.startedAt = startedAt
    self.aliveAt = aliveAt
    self.endedAt = endedAt
    self.end = end
    self.inspectionLog = inspectionLog
    self.inspectionLogState = inspectionLogState
  }
}
