import Audit
import Capture
import Foundation

/// What cairo cannot say of a document, added by an incremental update (PDF 1.7 § 7.5.6) at the
/// end of the file it wrote: the catalogue again with /Lang, /ViewerPreferences with
/// DisplayDocTitle (viewers show the title, not "report.pdf") and /Metadata, an XMP stream of the
/// Info facts, and a trailer /ID derived from the file's bytes (the same file, the same /ID).
/// The file's bytes before the update stay as they were.
enum PDFDocumentFacts {
  struct Facts {
    let language: String
    let title: String
    let subject: String
    let creator: String
    let created: Date
  }

  static func append(_ facts: Facts, toFileAt url: URL) throws {
    let handle = try FileHandle(forUpdating: url)
    defer { try? handle.close() }
    let size = Int(try handle.seekToEnd())
    try handle.seek(toOffset: UInt64(max(0, size - 64 * 1024)))
    let tail = [UInt8](try handle.readToEnd() ?? Data())
    guard let update = update(facts, tail: tail, fileSize: size, digest: try digest(of: url)) else {
      throw EvidenceReportPDF.DrawError(
        description: "the report's PDF does not end as cairo writes it; its catalogue was not found"
      )
    }
    try handle.seekToEnd()
    try handle.write(contentsOf: update)
  }

  /// The bytes to append, given the file's last bytes (at most 64 KiB), its size and a digest of
  /// it; nil when the tail is not cairo's (a trailer with /Root, /Info, /Size and startxref).
  static func update(_ facts: Facts, tail: [UInt8], fileSize: Int, digest: String) -> [UInt8]? {
    let text = String(decoding: tail, as: UTF8.self)
    guard let trailer = text.range(of: "trailer", options: .backwards),
      let root = integer(after: "/Root ", in: text[trailer.upperBound...]),
      let info = integer(after: "/Info ", in: text[trailer.upperBound...]),
      let size = integer(after: "/Size ", in: text[trailer.upperBound...]),
      let startxref = text.range(of: "startxref", options: .backwards),
      let previous = integer(after: "startxref", in: text[startxref.lowerBound...]),
      let objectStart = text.range(of: "\n\(root) 0 obj", options: .backwards),
      let open = text[objectStart.upperBound...].range(of: "<<"),
      let end = text[open.upperBound...].range(of: "endobj"),
      let close = text[open.upperBound..<end.lowerBound].range(of: ">>", options: .backwards)
    else { return nil }
    let entries = text[open.upperBound..<close.lowerBound]
    let metadata = size
    var out = "\n"
    var offsets: [(Int, Int)] = []
    func object(_ number: Int, _ body: String) {
      offsets.append((number, fileSize + out.utf8.count))
      out += "\(number) 0 obj\n\(body)\nendobj\n"
    }
    object(
      root,
      "<<\(entries)   /Lang (\(facts.language))\n   /ViewerPreferences << /DisplayDocTitle true >>\n   /Metadata \(metadata) 0 R\n>>"
    )
    let xmp = self.xmp(facts)
    object(
      metadata,
      "<< /Type /Metadata /Subtype /XML /Length \(xmp.utf8.count) >>\nstream\n\(xmp)\nendstream")
    let xrefAt = fileSize + out.utf8.count
    out += "xref\n"
    for (number, offset) in offsets.sorted(by: { $0.0 < $1.0 }) {
      out += "\(number) 1\n" + String(format: "%010d 00000 n \n", offset)
    }
    let id = String(digest.prefix(32))
    out += """
      trailer
      << /Size \(metadata + 1)
         /Root \(root) 0 R
         /Info \(info) 0 R
         /Prev \(previous)
         /ID [<\(id)> <\(id)>]
      >>
      startxref
      \(xrefAt)
      %%EOF

      """
    return Array(out.utf8)
  }

  static func integer(after key: String, in text: Substring) -> Int? {
    guard let at = text.range(of: key) else { return nil }
    return Int(
      text[at.upperBound...].drop(while: { $0 == " " || $0 == "\n" || $0 == "\r" }).prefix(
        while: \.isNumber))
  }

  static func escaped(_ s: String) -> String {
    s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }

  /// The Info facts as an XMP packet (Dublin Core, XMP basic, Adobe PDF schemas).
  static func xmp(_ f: Facts) -> String {
    let date = Instant.rfc3339(f.created)
    return """
      <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
      <x:xmpmeta xmlns:x="adobe:ns:meta/">
       <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
         <dc:title><rdf:Alt><rdf:li xml:lang="x-default">\(escaped(f.title))</rdf:li></rdf:Alt></dc:title>
         <dc:description><rdf:Alt><rdf:li xml:lang="x-default">\(escaped(f.subject))</rdf:li></rdf:Alt></dc:description>
         <dc:language><rdf:Bag><rdf:li>\(escaped(f.language))</rdf:li></rdf:Bag></dc:language>
         <xmp:CreatorTool>\(escaped(f.creator))</xmp:CreatorTool>
         <xmp:CreateDate>\(date)</xmp:CreateDate>
         <xmp:ModifyDate>\(date)</xmp:ModifyDate>
        </rdf:Description>
       </rdf:RDF>
      </x:xmpmeta>
      <?xpacket end="r"?>
      """
  }

  /// SHA-256 of the file as cairo left it, in hex.
  static func digest(of url: URL) throws -> String {
    SHA256Digest.hex(of: try Data(contentsOf: url))
  }
}
