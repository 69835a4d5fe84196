import Foundation

/// What a key file must be to be read: one PEM block and nothing else but blank space around it.
/// OpenSSL reads the first block of a file and ignores what follows it, so a file with a second
/// key or trailing bytes would be taken for the key it begins with.
public enum PEMShape {
  /// Why the bytes are not a single PEM block, or nil when they are.
  public static func problem(_ pem: Data) -> String? {
    guard let text = String(data: pem, encoding: .utf8) else { return "it is not UTF-8 text" }
    let begins = text.components(separatedBy: "-----BEGIN ").count - 1
    guard begins > 0 else { return "it holds no PEM block (no -----BEGIN line)" }
    guard begins == 1 else { return "it holds \(begins) PEM blocks, and a key file holds one" }
    guard let begin = text.range(of: "-----BEGIN "),
      let end = text.range(of: "-----END ", range: begin.upperBound..<text.endIndex),
      let close = text.range(of: "-----", range: end.upperBound..<text.endIndex)
    else { return "its PEM block has no -----END line" }
    let before = text[..<begin.lowerBound]
    let after = text[close.upperBound...]
    guard before.allSatisfy(\.isWhitespace) else {
      return "it has \(before.utf8.count) bytes before its PEM block"
    }
    guard after.allSatisfy(\.isWhitespace) else {
      return "it has \(after.utf8.count) bytes after its PEM block"
    }
    return nil
  }
}
