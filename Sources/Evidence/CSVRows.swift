import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Crypto
import Foundation

/// RFC 4180 rows read one at a time from UTF-8 bytes pulled a piece at a time from `source` (an
/// entry of the archive as it is inflated): a comma, a quote, CR and LF are never part of a longer
/// UTF-8 sequence, so cells are cut on bytes, and each cell is checked to be UTF-8 on its own.
final class CSVRows {
  private var buffer: [UInt8] = []
  private var position = 0
  /// nil once it gave its last: what it holds (an archive entry's inflater and buffers) let go.
  private var source: (() -> Data?)?
  private var exhausted = false
  /// Whether a cell read so far held bytes that are not UTF-8.
  private(set) var sawBytesThatAreNotUTF8 = false
  /// Whether a line ended otherwise than with CR LF, or a CR stood outside a quoted cell alone.
  private(set) var sawLineEndOtherThanCRLF = false
  private var afterCR = false

  init(pulling source: @escaping () -> Data?) { self.source = source }

  /// All of `data`, given at once.
  convenience init(_ data: Data) {
    var given = false
    self.init {
      defer { given = true }
      return given ? nil : data
    }
  }

  /// The byte at the position, pulling more once the buffer is used up; nil at the end.
  private func peek() -> UInt8? {
    if position == buffer.count { pull(toHold: 1) }
    return position < buffer.count ? buffer[position] : nil
  }

  /// The bytes not read yet moved to the buffer's start, and more pulled until it holds `count`
  /// or the source has given its last (then let go, and the buffer with it once it is empty).
  private func pull(toHold count: Int) {
    guard !exhausted else { return }
    buffer.removeSubrange(0..<position)
    position = 0
    while buffer.count < count {
      guard let more = source?() else {
        exhausted = true
        source = nil
        if buffer.isEmpty { buffer = [] }
        return
      }
      buffer.append(contentsOf: more)
    }
  }

  /// Whether the next record's bytes are `line`'s, taking them when they are. `line` is a whole
  /// record as export writes one (`EvidenceFlowsCSV.appendLine`, CR LF last): such a record reads
  /// as its cells, is UTF-8 and ends as export ends its rows, so nothing is learnt by cutting it
  /// into cells. Otherwise nothing is taken.
  func take(ifNextRecordIs line: [UInt8]) -> Bool {
    guard !afterCR, line.count >= 2, line[line.count - 2] == 0x0D, line[line.count - 1] == 0x0A
    else { return false }
    if buffer.count - position < line.count { pull(toHold: line.count) }
    guard buffer.count - position >= line.count else { return false }
    let same = buffer.withUnsafeBytes { bytes in
      line.withUnsafeBytes { memcmp(bytes.baseAddress! + position, $0.baseAddress!, line.count) }
    }
    guard same == 0 else { return false }
    position += line.count
    return true
  }

  func next() -> [String]? {
    var row: [String] = []
    var cell: [UInt8] = []
    var quoted = false
    var afterQuote = false
    func endCell() {
      // ASCII needs no validating (nearly every cell is); validating asks the runtime for the
      // generic decoder's metadata for every cell.
      if cell.allSatisfy({ $0 < 0x80 }) {
        row.append(String(decoding: cell, as: UTF8.self))
      } else if let text = String(validating: cell, as: UTF8.self) {
        row.append(text)
      } else {
        sawBytesThatAreNotUTF8 = true
        row.append(String(decoding: cell, as: UTF8.self))
      }
      cell.removeAll(keepingCapacity: true)
      afterQuote = false
    }
    // After a byte of a cell, the bytes that follow in the buffer and mean nothing but themselves
    // (in a quoted cell all but a quote; in another, all but a comma, CR and LF) taken at once.
    func takeRun(quoted: Bool) {
      var end = position
      if quoted {
        while end < buffer.count, buffer[end] != UInt8(ascii: "\"") { end += 1 }
      } else {
        while end < buffer.count, buffer[end] != UInt8(ascii: ","), buffer[end] != 0x0D,
          buffer[end] != 0x0A
        {
          end += 1
        }
      }
      cell.append(contentsOf: buffer[position..<end])
      position = end
    }
    while let byte = peek() {
      position += 1
      let wasCR = afterCR
      afterCR = false
      if wasCR, byte != 0x0A { sawLineEndOtherThanCRLF = true }
      if quoted {
        if byte == UInt8(ascii: "\"") {
          if peek() == UInt8(ascii: "\"") {
            cell.append(byte)
            position += 1
          } else {
            quoted = false
            afterQuote = true
          }
        } else {
          cell.append(byte)
          takeRun(quoted: true)
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\"") where cell.isEmpty && !afterQuote: quoted = true
      case UInt8(ascii: ","): endCell()
      case 0x0D: afterCR = true
      case 0x0A:
        if !wasCR { sawLineEndOtherThanCRLF = true }
        endCell()
        return row
      default:
        cell.append(byte)
        takeRun(quoted: false)
      }
    }
    // The last record, without a line feed after it (nothing but CR at the end is no record).
    // Export ends every row with CR LF: a record without one, or a CR at the end, is not its.
    if afterCR { sawLineEndOtherThanCRLF = true }
    if !cell.isEmpty || !row.isEmpty {
      sawLineEndOtherThanCRLF = true
      endCell()
      return row
    }
    return nil
  }
}

/// RFC 4180 reading: quoted cells, doubled quotes, CRLF between records.
enum CSVText {
  static func parse(_ text: String) -> [[String]] {
    var rows: [[String]] = []
    forEachRow(Data(text.utf8)) { rows.append($0) }
    return rows
  }

  /// RFC 4180 rows handed over one at a time, read from UTF-8 bytes.
  static func forEachRow(_ data: Data, _ body: ([String]) -> Void) {
    let rows = CSVRows(data)
    while let row = rows.next() { body(row) }
  }
}
