import Audit
import Foundation

/// A scanner's JSON file, whichever scanner wrote it — testssl.sh's (`TestsslReport`) or sslyze's
/// (`SslyzeReport`), told apart by their shapes — as server scans: the one door `scan --from`, the
/// findings, the report and `compare` read a kept scan through. Pure: the shell reads the file.
public enum ServerScanReport {
  public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String
  }

  public static func read(_ data: Data) throws(Failure) -> ServerScanRun {
    if let failure = JSONSyntax.failure(in: data) {
      throw Failure(description: "it is not JSON: \(failure.reason) at \(failure.place(in: data))")
    }
    let root = try? JSONSerialization.jsonObject(with: withoutHugeNumbers(data))
    if SslyzeReport.isSslyze(root), let object = root as? [String: Any] {
      return try SslyzeReport.read(object)
    }
    return try TestsslReport.read(root)
  }

  /// The bytes with each number of more than 300 digits outside a string written as 0: sslyze
  /// states an RSA key's modulus as a decimal integer (617 digits for 2048 bits), which
  /// Foundation's reader refuses as beyond a Double, and nothing here reads it.
  static func withoutHugeNumbers(_ data: Data) -> Data {
    var out = [UInt8]()
    out.reserveCapacity(data.count)
    var inString = false
    var escaped = false
    var digits: [UInt8] = []
    func flush() {
      out += digits.count > 300 ? [UInt8(ascii: "0")] : digits
      digits.removeAll(keepingCapacity: true)
    }
    for byte in data {
      if inString {
        out.append(byte)
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
      } else if byte &- UInt8(ascii: "0") < 10 {
        digits.append(byte)
      } else {
        flush()
        out.append(byte)
        if byte == UInt8(ascii: "\"") { inString = true }
      }
    }
    flush()
    return Data(out)
  }

  /// The runs of the scans kept with a session, oldest first; one whose file no longer reads is
  /// left out (the report says so where it lists the scans).
  public static func runs(_ stored: [StoredServerScan]) -> [ServerScanRun] {
    stored.compactMap { try? read($0.output) }
  }
}
