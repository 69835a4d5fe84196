import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Crypto
import Foundation

/// A JSON document read as it comes, a chunk at a time: the elements of the array under `key` in
/// the top-level object are handed over one by one as soon as each is complete, and the rest of
/// the document (the skeleton, the array's elements left out: `"key": []`) is kept. Verify reads
/// flows.json and capture.json so, as they are inflated, holding no more of either than one of
/// its flows.
///
/// It reads the syntax (strings with their escapes, nesting) and not the layout. What lies between
/// the elements is checked here (whitespace and one comma between two elements); each element and
/// the skeleton are for the caller to check. Where the document is not an object whose `key` holds
/// an array, nothing is handed over and the skeleton is the whole document.
struct JSONArrayStream {
  private let key: [UInt8]
  /// The document without the array's elements.
  private(set) var skeleton: [UInt8] = []
  /// Where, in the document, the array's "[" is; nil until (unless) it is found.
  private(set) var arrayStart: Int?
  /// How many bytes of the document lie between the array's brackets.
  private(set) var innerLength = 0
  /// Faults between the elements (a comma missing, one too many, a trailing one), by document byte.
  private(set) var faults: [JSONSyntax.Failure] = []

  private enum Phase { case before, inArray, after }
  private var phase = Phase.before
  private var offset = 0
  private var depth = 0
  private var inString = false, escaped = false
  // Before the array: the member names of the top-level object.
  private var expectingName = false
  private var name: [UInt8]?
  private var lastName: [UInt8]?
  private var valueOfKey = false
  private var gaveUp = false
  // In the array.
  private var element: [UInt8]?
  private var elementStart = 0
  private var elementDepth = 0
  private var elementCount = 0
  private var commaPending = false

  init(key: String) { self.key = Array(key.utf8) }

  /// Whether the array was found (and its elements handed over).
  var foundArray: Bool { arrayStart != nil }

  mutating func feed(_ chunk: Data, _ hand: (_ bytes: [UInt8], _ at: Int) -> Void) {
    chunk.withUnsafeBytes { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      var i = 0
      while i < bytes.count {
        if phase == .inArray, element != nil {
          // Inside an element, its bytes are taken a run at a time: only quotes, escapes and
          // brackets (and, after a number or a literal, what ends it) need a look.
          let start = i
          let closed = scanElement(bytes, &i)
          element!.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
          offset += i - start
          if closed { close(hand) }
          continue
        }
        take(bytes[i])
        offset += 1
        i += 1
      }
    }
  }

  /// Moves `i` past the element's bytes in `bytes`; true when the element ended (a number or a
  /// literal ends before what follows it, which is left to read).
  private mutating func scanElement(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Bool {
    // The state in locals, and a string's bytes run through up to its next quote or backslash:
    // a flow is mostly strings, and the scan read and wrote its fields at every byte.
    var at = i
    var inString = self.inString
    var escaped = self.escaped
    var depth = elementDepth
    defer {
      i = at
      self.inString = inString
      self.escaped = escaped
      elementDepth = depth
    }
    let count = bytes.count
    while at < count {
      if inString {
        if escaped {
          escaped = false
          at += 1
          continue
        }
        while at < count, bytes[at] != UInt8(ascii: "\""), bytes[at] != UInt8(ascii: "\\") {
          at += 1
        }
        guard at < count else { return false }
        at += 1
        if bytes[at - 1] == UInt8(ascii: "\\") {
          escaped = true
          continue
        }
        inString = false
        if depth == 0 { return true }
        continue
      }
      let b = bytes[at]
      if depth == 0 && (b == UInt8(ascii: ",") || b == UInt8(ascii: "]") || Self.isSpace(b)) {
        return true
      }
      at += 1
      switch b {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        if depth == 0 { return true }
      default: break
      }
    }
    return false
  }

  /// The document has ended: an element still open is handed over as it stands, and an array
  /// left open is a fault.
  mutating func finish(_ element: (_ bytes: [UInt8], _ at: Int) -> Void) {
    guard phase == .inArray else { return }
    if let open = self.element {
      element(open, elementStart)
      self.element = nil
    }
    faults.append(JSONSyntax.Failure(reason: "a comma or a closing bracket missing", at: offset))
    innerLength = offset - arrayStart! - 1
    phase = .after
  }

  /// After `finish`: the skeleton handed over and let go (a document's outline can be megabytes
  /// of text, findings.json's flow IDs).
  mutating func takeSkeleton() -> [UInt8] {
    defer { skeleton = [] }
    return skeleton
  }

  /// Where a byte of the skeleton lies in the document.
  func documentOffset(ofSkeletonByte at: Int) -> Int {
    guard let start = arrayStart, at > start else { return at }
    return at + innerLength
  }

  private static func isSpace(_ b: UInt8) -> Bool {
    b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
  }

  /// A byte outside the elements (they are read by `scanElement`).
  private mutating func take(_ byte: UInt8) {
    switch phase {
    case .before: before(byte)
    case .inArray: inArray(byte)
    case .after: skeleton.append(byte)
    }
  }

  private mutating func before(_ b: UInt8) {
    skeleton.append(b)
    if inString {
      if escaped {
        escaped = false
      } else if b == UInt8(ascii: "\\") {
        escaped = true
      } else if b == UInt8(ascii: "\"") {
        inString = false
        if let collected = name {
          lastName = collected
          name = nil
        }
        return
      }
      name?.append(b)
      return
    }
    if gaveUp { return }
    if valueOfKey && !Self.isSpace(b) {
      valueOfKey = false
      guard b == UInt8(ascii: "[") else {
        gaveUp = true
        return
      }
      arrayStart = offset
      depth += 1
      phase = .inArray
      return
    }
    switch b {
    case UInt8(ascii: "\""):
      inString = true
      if depth == 1 && expectingName {
        name = []
        expectingName = false
      }
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      if depth == 0 { if b == UInt8(ascii: "{") { expectingName = true } else { gaveUp = true } }
      depth += 1
    case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
    case UInt8(ascii: ":"):
      if depth == 1 {
        valueOfKey = lastName == key
        lastName = nil
      }
    case UInt8(ascii: ","): if depth == 1 { expectingName = true }
    default: if depth == 0 && !Self.isSpace(b) { gaveUp = true }
    }
  }

  /// A byte of the array outside its elements.
  private mutating func inArray(_ b: UInt8) {
    between(b)
    guard phase == .inArray, !Self.isSpace(b), b != UInt8(ascii: ","), b != UInt8(ascii: "]") else {
      return
    }
    // An element begins.
    if elementCount > 0 && !commaPending {
      faults.append(JSONSyntax.Failure(reason: "a comma or a closing bracket missing", at: offset))
    }
    commaPending = false
    element = [b]
    elementStart = offset
    switch b {
    case UInt8(ascii: "\""): inString = true
    case UInt8(ascii: "{"), UInt8(ascii: "["): elementDepth = 1
    default: elementDepth = 0
    }
  }

  /// A byte between elements: whitespace, a comma, or the closing bracket.
  private mutating func between(_ b: UInt8) {
    switch b {
    case UInt8(ascii: ","):
      if elementCount == 0 || commaPending {
        faults.append(JSONSyntax.Failure(reason: "an unexpected character", at: offset))
      }
      commaPending = true
    case UInt8(ascii: "]"):
      if commaPending { faults.append(JSONSyntax.Failure(reason: "a trailing comma", at: offset)) }
      innerLength = offset - arrayStart! - 1
      skeleton.append(b)
      depth -= 1
      phase = .after
    default: break
    }
  }

  private mutating func close(_ hand: (_ bytes: [UInt8], _ at: Int) -> Void) {
    hand(element!, elementStart)
    element = nil
    elementCount += 1
    elementDepth = 0
  }
}
