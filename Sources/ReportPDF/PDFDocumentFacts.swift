import Crypto
import Foundation
import ReportModel

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
    /// RFC 3339.
    let created: String
    /// Structure elements in another language: by type ("H2"), the ordinal among the elements of
    /// that type, and the language; each gets its /Lang.
    var elementLanguages: [String: [Int: String]] = [:]
  }

  static func append(_ facts: Facts, toFileAt url: URL) throws {
    let handle = try FileHandle(forUpdating: url)
    defer { try? handle.close() }
    let size = Int(try handle.seekToEnd())
    func read(_ offset: Int, _ count: Int) throws -> String {
      try handle.seek(toOffset: UInt64(max(0, offset)))
      return String(decoding: try handle.read(upToCount: count) ?? Data(), as: UTF8.self)
    }
    // The file's digest and its marked structure elements, from one reading a piece at a time:
    // a large report is megabytes, which read whole were held at the end of the draw.
    func digestAndElements() throws -> (String, [(number: Int, body: String)]) {
      var elements = PDFStructureElements(marking: facts.elementLanguages)
      let digest = try SHA256Digest.hex(ofFileAt: url) { elements.add($0) }
      return (digest, elements.marked)
    }
    let failure = EvidenceReportPDF.DrawError(
      description: "the report's PDF does not end as cairo writes it; its catalogue was not found")
    // The trailer from the last bytes; the catalogue where the cross-reference table puts it (a
    // large report's table and names lie far more than a few kilobytes from the end).
    guard let trailer = Trailer(try read(size - 2048, 2048)) else { throw failure }
    let table = try read(trailer.previous, 64)
    guard table.hasPrefix("xref\n"), let headerEnd = table.dropFirst(5).firstIndex(of: "\n"),
      let offset = Int(
        try read(
          trailer.previous + table.utf8.distance(from: table.startIndex, to: headerEnd) + 1
            + 20 * trailer.root, 10)),
      case (let digest, let elements) = try digestAndElements(),
      let update = update(
        facts, trailer: trailer, catalog: try read(offset, 64 * 1024), fileSize: size,
        digest: digest, elements: elements)
    else { throw failure }
    try handle.seekToEnd()
    try handle.write(contentsOf: update)
  }

  /// What cairo's trailer says: the catalogue, the Info dictionary, the objects' count and
  /// where the cross-reference table begins.
  struct Trailer {
    let root: Int, info: Int, size: Int, previous: Int
    init?(_ text: String) {
      guard let at = text.range(of: "trailer", options: .backwards),
        let root = PDFDocumentFacts.integer(after: "/Root ", in: text[at.upperBound...]),
        let info = PDFDocumentFacts.integer(after: "/Info ", in: text[at.upperBound...]),
        let size = PDFDocumentFacts.integer(after: "/Size ", in: text[at.upperBound...]),
        let previous = PDFInfoDates.crossReferenceOffset(inTail: Array(text.utf8))
      else { return nil }
      (self.root, self.info, self.size, self.previous) = (root, info, size, previous)
    }
  }

  /// The bytes to append, given the trailer, the text from the catalogue object on, the file's
  /// size and a digest of it; nil when the catalogue is not where the table says.
  static func update(
    _ facts: Facts, trailer: Trailer, catalog text: String, fileSize: Int, digest: String,
    elements: [(number: Int, body: String)] = []
  ) -> [UInt8]? {
    let (root, info, size, previous) = (trailer.root, trailer.info, trailer.size, trailer.previous)
    guard text.hasPrefix("\(root) 0 obj"), let open = text.range(of: "<<"),
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
    for element in elements { object(element.number, element.body) }
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
    let date = f.created
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
}
