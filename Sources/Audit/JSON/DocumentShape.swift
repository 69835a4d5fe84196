import Foundation

/// A document as Foundation's JSONSerialization read it, held to its keys' table: every key the
/// table declares is there (but those it says some documents leave out), none it does not
/// declare, and each value of its form. Each problem names the key's path.
public enum DocumentShape {
  public struct Problem: Sendable, Hashable, CustomStringConvertible {
    /// The key's path: "session.device.model", "session.markers[2].at".
    public let path: String
    public let what: What
    public enum What: Sendable, Hashable {
      case missing
      case notOfTheFormat
      case notA(String)
    }
    public var description: String {
      switch what {
      case .missing: "\(path) is missing"
      case .notOfTheFormat: "\(path) is not a key of the format"
      case .notA(let form): "\(path) is not \(form)"
      }
    }
  }

  /// The problems of `object` as a document of `keys`, at most `limit` of them.
  public static func problems<K: DocumentKeys>(of object: Any, as keys: K.Type, limit: Int = 20)
    -> [Problem]
  {
    var problems: [Problem] = []
    check(object, .object(keys), "", into: &problems, limit: limit)
    return Array(problems.prefix(limit))
  }

  private static func check(
    _ value: Any?, _ form: DocumentForm, _ path: String, into problems: inout [Problem],
    limit: Int
  ) {
    guard problems.count < limit else { return }
    func fail(_ what: String) { problems.append(Problem(path: path, what: .notA(what))) }
    switch form {
    case .orNull(let inner):
      if value is NSNull { return }
      check(value, inner, path, into: &problems, limit: limit)
    case .oneOf(let forms):
      let each = forms.map { form in
        var found: [Problem] = []
        check(value, form, path, into: &found, limit: limit)
        return found
      }
      if !each.contains(where: \.isEmpty) { problems += each.first ?? [] }
    case .leftOut(let inner):
      // Whether it may be absent is its object's to say (checkFields).
      check(value, inner, path, into: &problems, limit: limit)
    case .string, .instant:
      guard let text = value as? String else { return fail("a string") }
      if case .instant = form, Instant.parseWritten(text) == nil {
        fail("an instant as export writes it")
      }
    case .integer: if JSONNumber.integer(value) == nil { fail("a whole number") }
    case .number: if JSONNumber.double(value) == nil { fail("a number") }
    case .boolean:
      guard let number = value as? NSNumber, String(cString: number.objCType) == "c" else {
        return fail("true or false")
      }
    case .array(let element):
      guard let list = value as? [Any] else { return fail("a list") }
      for (index, item) in list.enumerated() {
        check(item, element, indexed(path, index), into: &problems, limit: limit)
      }
    case .map(let element):
      guard let object = value as? [String: Any] else { return fail("an object") }
      for (key, item) in object.sorted(by: { $0.key < $1.key }) {
        check(item, element, path + "." + key, into: &problems, limit: limit)
      }
    case .object(let keys):
      guard let object = value as? [String: Any] else { return fail("an object") }
      checkFields(object, keys, path, into: &problems, limit: limit)
    }
  }

  private static func checkFields<K: DocumentKeys>(
    _ object: [String: Any], _ keys: K.Type, _ path: String, into problems: inout [Problem],
    limit: Int
  ) {
    let prefix = path.isEmpty ? "" : path + "."
    for key in K.allCases {
      guard let value = object[key.rawValue] else {
        if case .leftOut = key.form { continue }
        problems.append(Problem(path: prefix + key.rawValue, what: .missing))
        continue
      }
      check(value, key.form, prefix + key.rawValue, into: &problems, limit: limit)
    }
    let declared = Set(K.allCases.map(\.rawValue))
    for name in object.keys.sorted() where !declared.contains(name) {
      problems.append(Problem(path: prefix + name, what: .notOfTheFormat))
    }
  }

  private static func indexed(_ path: String, _ index: Int) -> String { "\(path)[\(index)]" }
}
