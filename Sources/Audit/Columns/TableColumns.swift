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
public struct ColumnValues<Column: TableColumns, Value> {
  public private(set) var values: [Value]

  public init(filledWith value: Value) {
    values = Array(repeating: value, count: Column.allCases.count)
  }

  public subscript(column: Column) -> Value {
    get { values[column.rawValue] }
    set { values[column.rawValue] = newValue }
  }

  /// The values of `columns`, in their order.
  public func values(of columns: [Column]) -> [Value] { columns.map { values[$0.rawValue] } }
}
