/// What a person is told when the store cannot be opened, read or written.
public enum StorePresentation {
  public static func sentence(for error: FlowStoreError) -> String {
    switch error {
    case .newerSchema(let path, let found, let supported):
      return
        "\(path) was written by a newer version of tunnelvision (schema \(found); this version reads up to \(supported)). Use that version, or another store."
    case .notAStore(let path, let reason):
      return "\(path) is not a tunnelvision store: \(reason). It was left as it is."
    case .directoryUnavailable(let path, let reason):
      return "The store directory \(path) cannot be used: \(reason)."
    case .damaged(let path, let error):
      return
        "\(path) is damaged: SQLite reports “\(error.message)”. Restore it from a backup, or use another --store."
    case .diskFull(let path):
      return
        "The disk holding \(path) is full, so nothing was changed in the store. Free some space and try again."
    case .readOnly(let path):
      return
        "\(path) cannot be written (a read-only file or file system), so nothing was changed in the store."
    case .inputOutput(let path, let error):
      return
        "\(path) or a file beside it could not be read or written (SQLite reports “\(error.message)”, code \(error.code)); nothing was changed in the store. Check that its disk has free space and works."
    case .noStore(let path):
      return
        "There is no store at \(path). A store is made by the first command that writes one (tunnelvision project new, import, sample); check --store or $TUNNELVISION_STORE."
    case .capturesWithoutDatabase(let path, let files):
      return
        "\(path) holds \(Quantity.count(files, "capture file")) but no history.sqlite, the database that says what they are: no store was made over them. Restore its history.sqlite, or give another --store."
    case .databaseIsDirectory(let path):
      return "\(path) is a directory, not a store's database; nothing was changed."
    case .sqlite(let error):
      return sentence(for: error)
    }
  }

  public static func created(at path: String) -> String { "Made a new store at \(path)." }

  /// A SQLite error with nothing more to say of it: its code, its message, the SQL.
  public static func sentence(for error: SQLiteError) -> String {
    var text = "SQLite error \(error.code): \(error.message)"
    // The statement's first line is enough to say where; a migration's is sixty lines long.
    if let sql = error.sql {
      let lines = sql.split(separator: "\n", omittingEmptySubsequences: true)
      text +=
        " — while executing: \(lines.first.map(String.init) ?? "")\(lines.count > 1 ? " …" : "")"
    }
    return text
  }
}
