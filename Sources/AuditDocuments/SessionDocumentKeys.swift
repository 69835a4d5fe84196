import Audit

/// session.json's keys, object by object: the table its writer (`EvidenceBundle.sessionDocument`
/// and `SessionJSON`), its strict reader (`EvidenceSessionRecord`) and docs/bundle-format.md
/// take them from. The forms are format version 10's; the reader takes earlier versions' absent
/// keys where it says so.
public enum SessionDocument {
  public enum Key: String, CodingKey, DocumentKeys {
    case formatVersion, exportedAt, exportedWith, project, session, contents, testAccount
    case attribution, publicSuffixList, addressDatabases, serverScans, trackerLists, testLog
    case baseline
    public static let prefix = ""
    public var form: DocumentForm {
      switch self {
      case .formatVersion: .integer
      case .exportedAt: .instant
      case .exportedWith, .contents, .attribution: .string
      case .project: .object(ProjectKey.self)
      case .session: .object(SessionKey.self)
      case .testAccount: .object(TestAccountKey.self)
      case .publicSuffixList: DocumentForm.object(PublicSuffixListKey.self).orNull
      case .addressDatabases: .array(.object(AddressDatabaseKey.self))
      case .serverScans: .array(.object(ServerScanKey.self))
      case .trackerLists: .array(.object(TrackerListKey.self))
      case .testLog: .object(TestLogKey.self)
      case .baseline: DocumentForm.object(BaselineKey.self).orNull
      }
    }
  }

  public enum ProjectKey: String, DocumentKeys {
    case id, name, bundleIdentifier, catalogue, allowlist
    public static let prefix = "project."
    public var form: DocumentForm {
      switch self {
      case .id: .integer
      case .name, .catalogue: .string
      case .bundleIdentifier: DocumentForm.string.orNull
      case .allowlist: .array(.object(AllowlistKey.self))
      }
    }
  }

  public enum AllowlistKey: String, DocumentKeys {
    case pattern, note
    public static let prefix = "project.allowlist[]."
    public var form: DocumentForm { self == .pattern ? .string : DocumentForm.string.orNull }
  }

  public enum SessionKey: String, CodingKey, DocumentKeys {
    case id, name, kind, release, startedAt, endedAt, notes, device, recordedWith, capture
    case inspection, markers, recording
    public static let prefix = "session."
    public var form: DocumentForm {
      switch self {
      case .id: .integer
      case .name, .kind, .notes: .string
      case .release: DocumentForm.object(ReleaseKey.self).orNull
      case .startedAt: .instant
      case .endedAt: DocumentForm.instant.orNull
      case .device: .object(DeviceKey.self)
      case .recordedWith: DocumentForm.string.orNull
      case .capture: DocumentForm.object(CaptureKey.self).orNull
      case .inspection: .object(InspectionKey.self)
      case .markers: .array(.object(MarkerKey.self))
      case .recording: .object(RecordingKey.self)
      }
    }
  }

  public enum ReleaseKey: String, DocumentKeys {
    case version, build
    public static let prefix = "session.release."
    public var form: DocumentForm { .string }
  }

  public enum DeviceKey: String, DocumentKeys {
    case model, osVersion
    public static let prefix = "session.device."
    public var form: DocumentForm { .string }
  }

  /// The capture an imported session was read from.
  public enum CaptureKey: String, DocumentKeys {
    case fileName, sha256, application, host, importedWith, proxies
    public static let prefix = "session.capture."
    public var form: DocumentForm {
      switch self {
      case .fileName, .sha256, .importedWith: .string
      case .application, .host: DocumentForm.string.orNull
      case .proxies: .array(.object(ProxyKey.self))
      }
    }
  }

  /// A start of the inspecting proxy, under an import's capture and under each recorder run.
  public enum ProxyKey: String, DocumentKeys {
    case tool, version, options
    public static let prefix = "proxies[]."
    public var form: DocumentForm {
      switch self {
      case .tool: .string
      case .version: DocumentForm.string.orNull
      case .options: .map(.string)
      }
    }
  }

  public enum InspectionKey: String, DocumentKeys {
    case inspectionEnabled, caTrusted, certificateScenario, pinningEvidence
    public static let prefix = "session.inspection."
    public var form: DocumentForm {
      switch self {
      case .inspectionEnabled, .caTrusted: .boolean
      case .certificateScenario: DocumentForm.string.orNull
      case .pinningEvidence: .string
      }
    }
  }

  public enum MarkerKey: String, DocumentKeys {
    case at, kind, label, name
    public static let prefix = "session.markers[]."
    public var form: DocumentForm {
      switch self {
      case .at: .instant
      case .kind, .name: .string
      case .label: DocumentForm.string.orNull
      }
    }
  }

  public enum RecordingKey: String, DocumentKeys {
    case basis, statement, gaps, runs, recorderAtEnd, inspectionLogAtEnd, notRecorded
    public static let prefix = "session.recording."
    public var form: DocumentForm {
      switch self {
      case .basis, .statement: .string
      case .gaps: .array(.object(GapKey.self))
      case .runs: .array(.object(RunKey.self))
      case .recorderAtEnd: DocumentForm.integer.orNull
      case .inspectionLogAtEnd: DocumentForm.string.orNull
      case .notRecorded: DocumentForm.object(NotRecordedKey.self).leftOut
      }
    }
  }

  public enum GapKey: String, DocumentKeys {
    case from, to, afterRun, cutConnections, sentence
    public static let prefix = "session.recording.gaps[]."
    public var form: DocumentForm {
      switch self {
      case .from: .instant
      case .to: DocumentForm.instant.orNull
      case .afterRun: DocumentForm.integer.orNull
      case .cutConnections: .integer
      case .sentence: .string
      }
    }
  }

  public enum RunKey: String, DocumentKeys {
    case id, source, live, processID, startedAt, lastSignOfLife, endedAt, end, inspectionLog
    case inspectionLogState, inspectionLinesUnreadable, filter, libpcap, proxies
    public static let prefix = "session.recording.runs[]."
    public var form: DocumentForm {
      switch self {
      case .id, .processID: .integer
      case .source: .string
      case .live: .boolean
      case .startedAt, .lastSignOfLife: .instant
      case .endedAt: DocumentForm.instant.orNull
      case .end, .inspectionLog, .inspectionLogState, .filter, .libpcap:
        DocumentForm.string.orNull
      case .inspectionLinesUnreadable: DocumentForm.integer.leftOut
      case .proxies: .array(.object(ProxyKey.self))
      }
    }
  }

  /// What was not recorded, where stretches were not (findings.json's `onlyWhereRecorded` too).
  public enum NotRecordedKey: String, DocumentKeys {
    case stretches, seconds
    public static let prefix = "notRecorded."
    public var form: DocumentForm { self == .stretches ? .integer : DocumentForm.number.orNull }
  }

  public enum TestAccountKey: String, DocumentKeys {
    case note, values
    public static let prefix = "testAccount."
    public var form: DocumentForm { self == .note ? .string : .array(.object(TestValueKey.self)) }
  }

  public enum TestValueKey: String, DocumentKeys {
    case label, category, value
    public static let prefix = "testAccount.values[]."
    public var form: DocumentForm { .string }
  }

  public enum PublicSuffixListKey: String, DocumentKeys {
    case path, sha256, date
    public static let prefix = "publicSuffixList."
    public var form: DocumentForm { self == .date ? DocumentForm.string.orNull : .string }
  }

  public enum AddressDatabaseKey: String, DocumentKeys {
    case name, path, sha256, built
    public static let prefix = "addressDatabases[]."
    public var form: DocumentForm { .string }
  }

  public enum ServerScanKey: String, DocumentKeys {
    case file, fileName, tool, sha256, storedAt
    public static let prefix = "serverScans[]."
    public var form: DocumentForm { self == .storedAt ? .instant : .string }
  }

  public enum TrackerListKey: String, DocumentKeys {
    case name, path, sha256, date
    public static let prefix = "trackerLists[]."
    public var form: DocumentForm { .string }
  }

  public enum TestLogKey: String, DocumentKeys {
    case note, steps, tools
    public static let prefix = "testLog."
    public var form: DocumentForm {
      switch self {
      case .note: .string
      case .steps: .array(.object(StepKey.self))
      case .tools: .array(.object(ToolKey.self))
      }
    }
  }

  public enum StepKey: String, DocumentKeys {
    case at, step, statement
    public static let prefix = "testLog.steps[]."
    public var form: DocumentForm { self == .at ? DocumentForm.instant.orNull : .string }
  }

  public enum ToolKey: String, DocumentKeys {
    case tool, version, stage, use, options
    public static let prefix = "testLog.tools[]."
    public var form: DocumentForm {
      switch self {
      case .tool, .stage, .use: .string
      case .version: DocumentForm.string.orNull
      case .options: DocumentForm.map(.string).orNull
      }
    }
  }

  public enum BaselineKey: String, DocumentKeys {
    case sessionID, hosts, tlsClients
    public static let prefix = "baseline."
    public var form: DocumentForm { self == .sessionID ? .integer : .array(.string) }
  }
}
