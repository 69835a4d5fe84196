/// A value kept behind one reference, so that a copy of it copies a pointer. A flow holds its TLS
/// readings this way, so that the flows of a session, held together while they are classified,
/// take a few hundred bytes each and flows that read alike share one copy (`FlowPartsSharing`);
/// a finding holds its evidence this way, listed under each requirement it bears on.
public struct Indirect<Value: Hashable & Sendable>: Hashable, Sendable {
  private final class Box: Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
  }
  private let box: Box

  public init(_ value: Value) { box = Box(value) }

  public var value: Value { box.value }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.box === rhs.box || lhs.box.value == rhs.box.value
  }

  public func hash(into hasher: inout Hasher) { hasher.combine(box.value) }
}
