/// How the store names its capture files: one place, for the writer, the library and what is said.
public enum CaptureFileName {
  /// `NNNNNNNN.pcap`: the file name of a capture sequence.
  public static func of(sequence: UInt32) -> String {
    let digits = String(sequence)
    return String(repeating: "0", count: max(0, 8 - digits.count)) + digits + ".pcap"
  }

  /// The sequence a file name stands for, or nil for any other file.
  public static func sequence(of fileName: String) -> UInt32? {
    guard fileName.count == 13, fileName.hasSuffix(".pcap") else { return nil }
    let digits = fileName.prefix(8)
    guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = UInt32(digits), value > 0
    else { return nil }
    return value
  }
}
