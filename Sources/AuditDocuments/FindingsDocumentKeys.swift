import Audit

/// findings.json's keys, object by object, each with its value's form: what its writer
/// (`EvidenceBundle.findingsDocument`, `FindingsDocument`) names keys through, and what
/// docs/bundle-format.md lists.
extension FindingsDocument {
  public enum Key: String, CodingKey, DocumentKeys {
    case formatVersion, sessionID, catalogue, requirements, checks, verdictsNote, findings
    public static let prefix = ""
    public var form: DocumentForm {
      switch self {
      case .formatVersion, .sessionID: .integer
      case .catalogue: .object(CatalogueKey.self)
      case .requirements: .array(.object(RequirementKey.self))
      case .checks: .map(.object(CheckKey.self))
      case .verdictsNote: .string
      case .findings: .array(.object(FindingKey.self))
      }
    }
  }

  public enum CatalogueKey: String, CodingKey, DocumentKeys {
    case identifier, source, tls
    public static let prefix = "catalogue."
    public var form: DocumentForm {
      switch self {
      case .identifier: .string
      case .source: .object(SourceKey.self)
      case .tls: .object(TLSPolicyKey.self)
      }
    }
  }

  /// The document a catalogue or its TLS minimum is taken from.
  public enum SourceKey: String, CodingKey, DocumentKeys {
    case document, title, version, date, sha256, url
    public static let prefix = "catalogue.source."
    public var form: DocumentForm {
      self == .sha256 || self == .url ? DocumentForm.string.orNull : .string
    }
  }

  public enum TLSPolicyKey: String, DocumentKeys {
    case minimumVersion, source
    public static let prefix = "catalogue.tls."
    public var form: DocumentForm { self == .source ? .object(SourceKey.self) : .string }
  }

  public enum RequirementKey: String, CodingKey, DocumentKeys {
    case id, title, aspect, testDepth, rule, verdict, statement, toolCoverage
    case contraryFindingIDs, supportingFindingIDs, coverage, onlyWhereRecorded
    public static let prefix = "requirements[]."
    public var form: DocumentForm {
      switch self {
      case .id, .title, .rule, .verdict, .statement: .string
      case .aspect: .object(AspectKey.self)
      case .testDepth, .toolCoverage: DocumentForm.string.orNull
      case .contraryFindingIDs, .supportingFindingIDs: .array(.string)
      case .coverage: DocumentForm.object(RequirementCoverageKey.self).orNull
      case .onlyWhereRecorded: DocumentForm.object(SessionDocument.NotRecordedKey.self).leftOut
      }
    }
  }

  public enum AspectKey: String, DocumentKeys {
    case number, name
    public static let prefix = "requirements[].aspect."
    public var form: DocumentForm { self == .number ? .integer : .string }
  }

  /// A requirement's coverage: its one check by name (`check`) or its several (`checks`).
  public enum RequirementCoverageKey: String, DocumentKeys {
    case check, checks, flagged, satisfied, notAssessed, notApplicable
    public static let prefix = "requirements[].coverage."
    public var form: DocumentForm {
      switch self {
      case .check: DocumentForm.string.leftOut
      case .checks: DocumentForm.array(.string).leftOut
      case .flagged, .satisfied, .notAssessed, .notApplicable: .integer
      }
    }
  }

  /// A check's coverage under `checks`, by the check's name.
  public enum CheckKey: String, DocumentKeys {
    case flagged, satisfied, notApplicable, notAssessed
    public static let prefix = "checks.*."
    public var form: DocumentForm {
      self == .notAssessed ? .array(.object(UnassessedKey.self)) : .integer
    }
  }

  /// A reason a check did not assess connections; `flowIDs` only in findings.json (the
  /// screens' `findings --json` counts them).
  public enum UnassessedKey: String, DocumentKeys {
    case reason, statement, connections, flowIDs
    public static let prefix = "checks.*.notAssessed[]."
    public var form: DocumentForm {
      switch self {
      case .reason, .statement: .string
      case .connections: .integer
      case .flowIDs: DocumentForm.array(.integer).leftOut
      }
    }
  }

  public enum FindingKey: String, CodingKey, DocumentKeys {
    case id, kind, statement, host, tls, reason, parameter, fingerprint, tracker, request, offer
    case testData, flowIDs, alsoContactedInBaseline, earlierReadings
    public static let prefix = "findings[]."
    public var form: DocumentForm {
      switch self {
      case .id, .kind, .statement: .string
      case .host, .reason, .fingerprint, .request: DocumentForm.string.orNull
      case .tls: DocumentForm.object(TLSReadingKey.self).orNull
      case .parameter: DocumentForm.object(ParameterKey.self).orNull
      case .tracker: DocumentForm.object(TrackerKey.self).orNull
      case .offer: DocumentForm.object(OfferKey.self).orNull
      case .testData: DocumentForm.object(TestDataKey.self).orNull
      case .flowIDs: .array(.integer)
      case .alsoContactedInBaseline: DocumentForm.array(.string).orNull
      case .earlierReadings: .array(.object(EarlierReadingKey.self))
      }
    }
  }

  public enum TLSReadingKey: String, DocumentKeys {
    case version, versionValue, source
    public static let prefix = "findings[].tls."
    public var form: DocumentForm { self == .versionValue ? .integer : .string }
  }

  public enum ParameterKey: String, DocumentKeys {
    case item, standing, version, leg, reference, document
    public static let prefix = "findings[].parameter."
    public var form: DocumentForm {
      switch self {
      case .item: .object(ItemKey.self)
      case .standing: .object(StandingKey.self)
      case .version, .leg, .reference, .document: .string
      }
    }
  }

  /// What a parameter or an offer is: its type, and the value, bits, scheme or version its type
  /// has.
  public enum ItemKey: String, DocumentKeys {
    case type, value, bits, scheme, version, text
    public static let prefix = "item."
    public var form: DocumentForm {
      switch self {
      case .type, .text: .string
      case .value: DocumentForm.oneOf([.string, .integer]).leftOut
      case .bits: DocumentForm.integer.leftOut
      case .scheme: DocumentForm.string.orNull.leftOut
      case .version: DocumentForm.string.leftOut
      }
    }
  }

  /// How the TLS document stands on an item: `is`, with the year or the bits it names.
  public enum StandingKey: String, DocumentKeys {
    case `is`, year, minimumBits
    public static let prefix = "standing."
    public var form: DocumentForm { self == .is ? .string : DocumentForm.integer.leftOut }
  }

  public enum TrackerKey: String, DocumentKeys {
    case list, date, rule
    public static let prefix = "findings[].tracker."
    public var form: DocumentForm { .string }
  }

  public enum OfferKey: String, DocumentKeys {
    case server, scannedAt, item, standing, reference, document
    public static let prefix = "findings[].offer."
    public var form: DocumentForm {
      switch self {
      case .server: .object(ServerKey.self)
      case .scannedAt: DocumentForm.string.orNull
      case .item: .object(ItemKey.self)
      case .standing: .object(StandingKey.self)
      case .reference, .document: .string
      }
    }
  }

  public enum ServerKey: String, DocumentKeys {
    case address, port
    public static let prefix = "findings[].offer.server."
    public var form: DocumentForm { self == .port ? .integer : .string }
  }

  /// The test account's value a personal data finding is about, by its label.
  public enum TestDataKey: String, DocumentKeys {
    case label, category
    public static let prefix = "findings[].testData."
    public var form: DocumentForm { .string }
  }

  public enum EarlierReadingKey: String, DocumentKeys {
    case flowID, openedIn, session, sentence
    public static let prefix = "findings[].earlierReadings[]."
    public var form: DocumentForm {
      switch self {
      case .flowID, .openedIn: .integer
      case .session: DocumentForm.integer.orNull
      case .sentence: .string
      }
    }
  }
}
