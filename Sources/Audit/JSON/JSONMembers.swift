import Foundation

/// An object of a `JSONTree` read member by member by the keys of `K`, with what
/// `KeyedDecodingContainer` offers and means: `decode` needs the member (of `T?`: there, maybe
/// null), `decodeIfPresent` takes it missing or null; integers as `JSONDecoder` reads them (an
/// integral value also in a fraction or exponent, within the type's range), a number as a
/// `Double` only when finite and not rounded to zero.
public struct JSONMembers<K: CodingKey> {
  @usableFromInline let members: [(key: String, value: JSONTree)]

  @inlinable
  public init(_ tree: JSONTree) throws(JSONTree.Unreadable) {
    guard case .object(let members) = tree else { throw JSONTree.Unreadable() }
    self.members = members
  }

  @inlinable
  func member(_ key: K) -> JSONTree? {
    let name = key.stringValue
    // Lengths first: most members are not the one asked for, and telling them by length
    // spares a call into the runtime's comparison for each (a flow has some forty).
    let length = name.utf8.count
    return members.first { $0.key.utf8.count == length && $0.key == name }?.value
  }

  @inlinable
  public func contains(_ key: K) -> Bool { member(key) != nil }

  @inlinable
  public func decode<T: JSONTreeDecodable>(_: T.Type, forKey key: K) throws(JSONTree.Unreadable)
    -> T
  {
    guard let tree = member(key) else { throw JSONTree.Unreadable() }
    return try T(tree: tree)
  }

  @inlinable
  public func decodeIfPresent<T: JSONTreeDecodable>(_: T.Type, forKey key: K)
    throws(JSONTree.Unreadable) -> T?
  {
    guard let tree = member(key), tree != .null else { return nil }
    return try T(tree: tree)
  }

  /// Whether the member is null; it must be there.
  @inlinable
  public func decodeNil(forKey key: K) throws(JSONTree.Unreadable) -> Bool {
    guard let tree = member(key) else { throw JSONTree.Unreadable() }
    return tree == .null
  }

  @inlinable
  public func nestedContainer<N: CodingKey>(keyedBy: N.Type, forKey key: K)
    throws(JSONTree.Unreadable) -> JSONMembers<N>
  {
    guard let tree = member(key) else { throw JSONTree.Unreadable() }
    return try JSONMembers<N>(tree)
  }

  /// The member's elements, each to be read as an object.
  @inlinable
  public func nestedObjects<N: CodingKey>(keyedBy: N.Type, forKey key: K)
    throws(JSONTree.Unreadable) -> [JSONMembers<N>]
  {
    guard case .array(let elements)? = member(key) else { throw JSONTree.Unreadable() }
    var objects: [JSONMembers<N>] = []
    objects.reserveCapacity(elements.count)
    for element in elements { objects.append(try JSONMembers<N>(element)) }
    return objects
  }
}

/// A value a `JSONTree` reads as.
public protocol JSONTreeDecodable {
  init(tree: JSONTree) throws(JSONTree.Unreadable)
}

extension String: JSONTreeDecodable {
  public init(tree: JSONTree) throws(JSONTree.Unreadable) {
    guard case .string(let text) = tree else { throw JSONTree.Unreadable() }
    self = text
  }
}

extension Bool: JSONTreeDecodable {
  public init(tree: JSONTree) throws(JSONTree.Unreadable) {
    guard case .bool(let value) = tree else { throw JSONTree.Unreadable() }
    self = value
  }
}

extension Double: JSONTreeDecodable {
  public init(tree: JSONTree) throws(JSONTree.Unreadable) {
    guard case .number(let text) = tree, let value = Double(text), value.isFinite,
      value != 0 || !Self.mantissaHasDigit(text)
    else { throw JSONTree.Unreadable() }
    self = value
  }

  /// Whether a digit other than 0 comes before the exponent.
  static func mantissaHasDigit(_ text: String) -> Bool {
    for c in text {
      if c == "e" || c == "E" { return false }
      if ("1"..."9").contains(c) { return true }
    }
    return false
  }
}

extension JSONTreeDecodable where Self: FixedWidthInteger {
  public init(tree: JSONTree) throws(JSONTree.Unreadable) {
    guard case .number(let text) = tree else { throw JSONTree.Unreadable() }
    if let value = Self(text) {
      self = value
      return
    }
    guard text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let double = Double(text),
      let value = Self(exactly: double)
    else { throw JSONTree.Unreadable() }
    self = value
  }
}

extension Int: JSONTreeDecodable {}
extension Int64: JSONTreeDecodable {}
extension UInt64: JSONTreeDecodable {}
extension UInt32: JSONTreeDecodable {}
extension UInt16: JSONTreeDecodable {}
extension UInt8: JSONTreeDecodable {}

extension Optional: JSONTreeDecodable where Wrapped: JSONTreeDecodable {
  public init(tree: JSONTree) throws(JSONTree.Unreadable) {
    self = tree == .null ? nil : try Wrapped(tree: tree)
  }
}

extension Array: JSONTreeDecodable where Element: JSONTreeDecodable {
  public init(tree: JSONTree) throws(JSONTree.Unreadable) {
    guard case .array(let elements) = tree else { throw JSONTree.Unreadable() }
    var values: [Element] = []
    values.reserveCapacity(elements.count)
    for element in elements { values.append(try Element(tree: element)) }
    self = values
  }
}

extension JSONTree: Decodable {
  /// A value as any `Decoder` gives it (numbers as the text of the integer or double they read
  /// as): the way from a `Codable` document to the readers that take a tree.
  public init(from decoder: Decoder) throws {
    if let object = try? decoder.container(keyedBy: AnyKey.self) {
      var members: [(key: String, value: JSONTree)] = []
      for key in object.allKeys {
        members.append((key.stringValue, try object.decode(JSONTree.self, forKey: key)))
      }
      self = .object(members)
      return
    }
    if var list = try? decoder.unkeyedContainer() {
      var elements: [JSONTree] = []
      while !list.isAtEnd { elements.append(try list.decode(JSONTree.self)) }
      self = .array(elements)
      return
    }
    let value = try decoder.singleValueContainer()
    if value.decodeNil() {
      self = .null
    } else if let bool = try? value.decode(Bool.self) {
      self = .bool(bool)
    } else if let text = try? value.decode(String.self) {
      self = .string(text)
    } else if let integer = try? value.decode(Int64.self) {
      self = .number(String(integer))
    } else if let integer = try? value.decode(UInt64.self) {
      self = .number(String(integer))
    } else {
      self = .number("\(try value.decode(Double.self))")
    }
  }

  struct AnyKey: CodingKey {
    let stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
  }
}
