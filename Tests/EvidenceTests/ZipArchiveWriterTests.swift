import Capture
import Crypto
import Evidence
import Foundation
import TestSupport
import XCTest

/// The archive writer on real files, read back by Info-ZIP and Python.
final class ZipArchiveWriterTests: XCTestCase {
  func testEntriesDeflatedAsTheyWereWrittenAreStoredOrDeflatedByWhicheverIsSmaller() throws {
    let dir = TemporaryDirectory("zip")
    func written(_ name: String, _ bytes: Data) throws -> WrittenFile {
      let writer = try EvidenceFileWriter(
        url: dir.url.appendingPathComponent(name), deflation: .asWritten)
      // In pieces, as the documents are written.
      for start in stride(from: 0, to: bytes.count, by: 70_000) {
        try writer.write(bytes[start..<min(start + 70_000, bytes.count)])
      }
      return try writer.finishFile()
    }
    let text = Data(
      String(repeating: "{\"host\": \"api.example.com\", \"port\": 443},\n", count: 60_000).utf8)
    var generator = SystemRandomNumberGenerator()
    let noise = Data((0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
    let files = [try written("a.json", text), try written("b.bin", noise)]
    XCTAssertLessThan(files[0].deflated?.count ?? .max, UInt64(text.count / 10))
    XCTAssertGreaterThan(
      files[1].deflated?.count ?? 0, UInt64(noise.count), "random bytes do not shrink")
    // A third entry with nothing deflated beforehand goes through the probe.
    try text.write(to: dir.url.appendingPathComponent("c.txt"))
    let archive = dir.url.appendingPathComponent("t.zip")
    let methods = try ZipArchiveWriter.write(
      files.map {
        ZipArchiveWriter.Entry(
          name: $0.entry.name, url: dir.url.appendingPathComponent($0.entry.name),
          crc32: $0.crc32, deflated: $0.deflated)
      }
        + [ZipArchiveWriter.Entry(name: "c.txt", url: dir.url.appendingPathComponent("c.txt"))],
      to: archive, modified: Date(timeIntervalSince1970: 1_791_370_800))
    XCTAssertEqual(methods, [.deflated, .stored, .deflated])
    let test = try XCTUnwrap(ExternalTool.run("unzip", ["-t", archive.path]))
    XCTAssertEqual(test.status, 0, test.output)
    let script = """
      import zipfile,sys,hashlib
      z = zipfile.ZipFile(sys.argv[1])
      assert z.testzip() is None
      print(" ".join(f"{i.filename}:{i.compress_type}:{hashlib.sha256(z.read(i)).hexdigest()}" for i in z.infolist()))
      """
    let read = try XCTUnwrap(ExternalTool.run("python3", ["-c", script, archive.path]))
    XCTAssertEqual(read.status, 0, read.error)
    XCTAssertEqual(
      read.output.trimmingCharacters(in: .whitespacesAndNewlines),
      "a.json:8:\(files[0].entry.sha256) b.bin:0:\(files[1].entry.sha256) c.txt:8:\(SHA256Digest.hex(of: text))"
    )
    // Our reader gives back the same bytes, pulled a piece at a time (the text inflates to more
    // than one piece of 1 MiB), and so does reading each entry whole.
    let reader = try ZipArchiveReader(url: archive)
    XCTAssertEqual(reader.entries.map(\.name), ["a.json", "b.bin", "c.txt"])
    for (entry, original) in zip(reader.entries, [text, noise, text]) {
      let stream = try reader.stream(entry)
      var pulled = Data()
      var pieces = 0
      while let piece = try stream.next() {
        pulled.append(piece)
        pieces += 1
      }
      XCTAssertEqual(pulled, original, entry.name)
      XCTAssertEqual(try reader.data(entry), original, entry.name)
      if entry.name != "b.bin" {
        XCTAssertGreaterThan(pieces, 1, "more than one piece of \(entry.name)")
      }
    }
  }
}
