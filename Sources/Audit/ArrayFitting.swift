extension Array {
  /// The same elements in an array made for exactly their count: one grown by appending holds
  /// room for up to twice as many, for as long as it is kept.
  public func fitted() -> [Element] {
    guard capacity > count else { return self }
    return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
      initialized = buffer.initialize(fromContentsOf: self)
    }
  }
}
