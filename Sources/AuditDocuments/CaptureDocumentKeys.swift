import Audit

/// capture.json's keys, object by object, each with its value's form: what its writer
/// (`EvidenceCaptureDocument`) and verify's reader name keys through, and what
/// docs/bundle-format.md lists.
public enum CaptureDocument {
  public enum Key: String, CodingKey, DocumentKeys {
    case formatVersion, sessionID, file, fileFormat, linkType, snaplen, packets
    case writtenOutsideSession, sourceFiles, contents, coverage, packetComments, flows
    public static let prefix = ""
    public var form: DocumentForm {
      switch self {
      case .formatVersion, .sessionID, .linkType: .integer
      case .file, .fileFormat, .contents, .packetComments: .string
      case .snaplen: DocumentForm.integer.leftOut
      case .packets: .object(TallyKey.self)
      case .writtenOutsideSession: .object(OutsideKey.self)
      case .sourceFiles: .array(.object(SourceFileKey.self))
      case .coverage: .array(.string)
      case .flows: .array(.object(FlowKey.self))
      }
    }
  }

  /// The packets of the session or of a flow: recorded, written, and those without their bytes
  /// by why (`EvidenceMissingReason`).
  public enum TallyKey: String, CodingKey, WrittenKeys {
    case recorded, written, withoutBytes
    public static let prefix = "packets."
    public static let texts = JSONKeyTexts(Self.self)
    public var form: DocumentForm {
      self == .withoutBytes ? .object(EvidenceMissingReason.self) : .integer
    }
  }

  public enum FlowKey: String, CodingKey, WrittenKeys {
    case id, recorded, written, withoutBytes
    public static let prefix = "flows[]."
    public static let texts = JSONKeyTexts(Self.self)
    public var form: DocumentForm {
      self == .withoutBytes ? .object(EvidenceMissingReason.self) : .integer
    }
  }

  public enum OutsideKey: String, CodingKey, DocumentKeys {
    case beforeStart, afterEnd
    public static let prefix = "writtenOutsideSession."
    public var form: DocumentForm { .integer }
  }

  public enum SourceFileKey: String, CodingKey, DocumentKeys {
    case sequence, name, status, packets, written
    public static let prefix = "sourceFiles[]."
    public var form: DocumentForm { self == .name || self == .status ? .string : .integer }
  }
}

/// The keys of `withoutBytes`: each reason a recorded packet is not in the capture, a count.
extension EvidenceMissingReason: CodingKey, WrittenKeys {
  public static let prefix = "withoutBytes."
  public static let texts = JSONKeyTexts(Self.self)
  public var form: DocumentForm { .integer }
}
