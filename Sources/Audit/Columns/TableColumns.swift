/// The columns of a table, declared once as the cases of an enum, in the table's order: a case's
/// raw value is its position, so adding a column shifts nothing by hand, and its name is the
/// case's own.
public protocol TableColumns: CaseIterable, Hashable, RawRepresentable, Sendable
where RawValue == Int, AllCases == [Self] {}

extension TableColumns {
  /// The case's name as declared ("peerA", "firstSeen").
  public var identifier: String { String(describing: self) }

  /// The name in lower case with underscores, as SQL writes it ("peerA" → "peer_a").
  public var snakeCaseIdentifier: String {
    var out = ""
    for character in identifier {
      if character.isUppercase {
        out += "_"
        out += character.lowercased()
      } else {
        out.append(character)
      }
    }
    return out
  }
}

/// One row's values, a place per column of `Column`: filled by column, read in the columns' order.
/// Inlinable, so that the modules that fill rows get it specialized for their columns and values:
/// generic, each subscript went through the column's and the value's witnesses, most of the time
/// a recorder spent making a connection's row.
public struct ColumnValues<Column: TableColumns, Value> {
  @usableFromInline var storage: [Value]

  public var values: [Value] { storage }

  @inlinable public init(filledWith value: Value) {
    storage = Array(repeating: value, count: Column.allCases.count)
  }

  @inlinable public subscript(column: Column) -> Value {
    get { storage[column.rawValue] }
    set { storage[column.rawValue] = newValue }
  }

  /// The values of `columns`, in their order.
  @inlinable public func values(of columns: [Column]) -> [Value] {
    columns.map { storage[$0.rawValue] }
  }
}
