import Foundation

/// The keys of one object of a bundle document, declared once: each key's name (the case's raw
/// value) and the form of its value. The document's writer names its keys through them, its
/// strict reader reads through them and names a problem by their path, and the format's
/// documentation lists them (a test holds docs/bundle-format.md to them).
public protocol DocumentKeys: CaseIterable, Hashable, Sendable, RawRepresentable
where RawValue == String {
  /// Where the object sits in its document, as a problem names it: "" for the document itself,
  /// "session.device." below, "session.markers[]." for each object of a list.
  static var prefix: String { get }
  var form: DocumentForm { get }
}

extension DocumentKeys {
  /// The key with its object's place: "session.device.model".
  public var fullName: String { Self.prefix + rawValue }
}

/// The form of a key's value.
public indirect enum DocumentForm: Sendable {
  case string
  case integer
  case number
  case boolean
  /// An RFC 3339 instant as export writes it.
  case instant
  case object(any DocumentKeys.Type)
  /// An object whose keys are data, not the format's (a proxy's options), each value of the form.
  case map(DocumentForm)
  case array(DocumentForm)
  /// A value of one of these forms (an item's `value`: a code in hex or a number).
  case oneOf([DocumentForm])
  /// The value, or null.
  case orNull(DocumentForm)
  /// Written only in some documents (said in the format's documentation): a reader takes its
  /// absence.
  case leftOut(DocumentForm)

  /// The form with null allowed.
  public var orNull: DocumentForm { .orNull(self) }
  /// The form of a key some documents leave out.
  public var leftOut: DocumentForm { .leftOut(self) }
}

extension JSONValue {
  /// An object of the format's keys.
  public static func fields<K: DocumentKeys>(_ values: [K: JSONValue]) -> JSONValue {
    .object([String: JSONValue](fields: values))
  }
}

extension Dictionary where Key == String, Value == Any {
  /// The value of one of the format's keys, as Foundation read it.
  public subscript<K: DocumentKeys>(key: K) -> Any? { self[key.rawValue] }
}

extension Dictionary where Key == String, Value == JSONValue {
  /// The members of an object of the format's keys, by their names.
  public init<K: DocumentKeys>(fields: [K: JSONValue]) {
    self.init(uniqueKeysWithValues: fields.map { ($0.key.rawValue, $0.value) })
  }

  /// The value of one of the format's keys.
  public subscript<K: DocumentKeys>(key: K) -> JSONValue? {
    get { self[key.rawValue] }
    set { self[key.rawValue] = newValue }
  }
}

extension DocumentKeys {
  /// Each key's name and form, in declaration order: the table as data, for what walks it.
  public static var table: [(name: String, form: DocumentForm)] {
    allCases.map { ($0.rawValue, $0.form) }
  }
}

extension DocumentForm {
  /// The keys of the object this form holds (inside a list, a null or an absence), if it does.
  public var keys: (any DocumentKeys.Type)? {
    switch self {
    case .object(let keys): keys
    case .array(let form), .orNull(let form), .leftOut(let form), .map(let form): form.keys
    default: nil
    }
  }
}
