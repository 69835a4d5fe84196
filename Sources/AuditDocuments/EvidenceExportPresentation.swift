import Audit
import AuditRules
import AuditWording
import Foundation

/// What the evidence sheet says after an export, and what a failed export says. The bundle's
/// own sentences are quoted as written into the files; the capture's sentences carry this export's numbers.
public enum EvidenceExportPresentation {
  public struct Summary: Sendable, Hashable {
    public let path: String
    public let byteCount: UInt64
    public let fileNames: [String]
    public let flowCount: Int
    public let findingCount: Int
    public let capture: EvidenceCaptureDocument
    /// Where the flows' addresses are registered.
    public let registrations: AddressRegistrations
    public init(
      path: String, byteCount: UInt64, fileNames: [String], flowCount: Int, findingCount: Int,
      capture: EvidenceCaptureDocument, registrations: AddressRegistrations = AddressRegistrations()
    ) {
      self.registrations = registrations
      self.path = path
      self.byteCount = byteCount
      self.fileNames = fileNames
      self.flowCount = flowCount
      self.findingCount = findingCount
      self.capture = capture
    }
  }

  public static let unencryptedWarning =
    "Anything that was sent unencrypted can be read in the capture. From a health app, that can be health data."
  public static let readyHeadline = "Evidence bundle ready to share"

  /// One sentence per reason that has packets, worded as capture.json defines it.
  public static func reasonSentence(_ missing: EvidenceMissingPackets) -> String {
    let n = Quantity.grouped(missing.count)
    let one = missing.count == 1
    switch missing.reason {
    case .notCaptured: return "\(n) \(one ? "was" : "were") never written to a capture file."
    case .captureFileMissing:
      return "\(n) \(one ? "is" : "are") in a capture file that is no longer in the store."
    case .recordUnreadable:
      return "\(n) could not be read back from \(one ? "its" : "their") capture file."
    }
  }

  /// The capture's lines: which of the three cases holds, then the packets outside the window.
  public static func captureLines(_ document: EvidenceCaptureSummary) -> [String] {
    var lines: [String] = []
    switch document.standing {
    case .nothingRecorded:
      lines.append("The session recorded no packets, so the capture is empty.")
    case .complete(let packets):
      lines.append(
        "Every recorded packet of the session is in the capture: \(Quantity.count(packets, "packet"))."
      )
    case .incomplete(let written, let recorded, let missing):
      lines.append(
        "⚠ \(Quantity.grouped(written)) of \(Quantity.grouped(recorded)) recorded packets are in the capture."
      )
      lines += missing.map(reasonSentence)
    }
    let outside = document.beforeStart + document.afterEnd
    if outside > 0 {
      var parts: [String] = []
      if document.beforeStart > 0 {
        parts.append("\(Quantity.grouped(document.beforeStart)) before it started")
      }
      if document.afterEnd > 0 {
        parts.append("\(Quantity.grouped(document.afterEnd)) after it ended")
      }
      lines.append(
        "\(Quantity.count(outside, "packet")) in the capture \(outside == 1 ? "falls" : "fall") outside the session's time window (\(parts.joined(separator: ", "))): \(outside == 1 ? "its connection was" : "their connections were") also active during the session."
      )
    }
    lines.append(unencryptedWarning)
    return lines
  }

  public static func sheet(_ s: Summary) -> String {
    var out = "\(readyHeadline)\n"
    out +=
      "  \(Quantity.byteCount(s.byteCount)) · ZIP · \(Quantity.count(s.fileNames.count, "file")): \(s.fileNames.joined(separator: ", "))\n"
    out +=
      "\nWhat the bundle says of itself\n  “\(ContentWording.contents(withContent: s.fileNames.contains(EvidenceContentHAR.fileName)))”\n"
    out +=
      "\nConnections  \(Quantity.grouped(s.flowCount))\nFindings     \(Quantity.grouped(s.findingCount))\n"
    out += "  “\(EvidenceWording.verdictsNote)”\n"
    out += "\nCapture\n"
    for line in captureLines(s.capture.summary) { out += "  \(line)\n" }
    out += "\nWhere the addresses are registered\n"
    for line in AddressRegistrationWording.summary(s.registrations) {
      out += "  \(line)\n"
    }
    out += "\nFile\n  \(s.path)\n"
    return out
  }

  /// What `export --json` prints: the sheet's facts for a script.
  public static func json(_ s: Summary) -> JSONValue {
    .object([
      "path": .string(s.path), "byteCount": .int(s.byteCount), "files": .strings(s.fileNames),
      "flows": .int(s.flowCount), "findings": .int(s.findingCount),
      "capture": s.capture.packets.json,
      "captureLines": .strings(captureLines(s.capture.summary)),
      "registrationLines": .strings(
        AddressRegistrationWording.summary(s.registrations)),
    ])
  }

  /// What was being made when it failed: the bundle (exported) or the report alone (written).
  public enum Product: Sendable { case bundle, report }

  /// Why a project's catalogue could not be had, as every command says it (findings, compare,
  /// export, report): no other catalogue is used instead.
  public static func catalogueFailure(_ error: RequirementCatalogueLibraryError) -> String {
    "\(error.description) No other catalogue was used instead."
  }

  public static func failure(_ error: EvidenceExportError, making product: Product = .bundle)
    -> String
  {
    let nothing = product == .bundle ? "nothing was exported" : "nothing was written"
    let noun = product == .bundle ? "bundle" : "report"
    switch error {
    case .sessionNotFound:
      return "The session is no longer in the store: \(nothing)."
    case .sessionStillOpen:
      return
        "The session is still recording. Evidence is of a closed session: end it first ('tunnelvision session end')."
    case .catalogue(let error):
      return "\(catalogueFailure(error)) \(nothing.prefix(1).uppercased() + nothing.dropFirst())."
    case .historyUnreadable(let reason):
      return "The history could not be read (\(reason)); \(nothing)."
    case .historyChangedWhileExporting:
      return
        "The session's history changed while its \(noun) was being made; nothing was kept. Try again."
    case .captureDirectoryUnavailable(let reason):
      return "The store's capture files cannot be read (\(reason)); \(nothing)."
    case .writeFailed(let reason):
      return
        "The \(noun) could not be written (\(reason)). Nothing was left behind; check that the destination can be written and has free space, and try again."
    case .reportNotDrawn(let reason):
      return
        "report.pdf could not be drawn: \(reason) \(nothing.prefix(1).uppercased() + nothing.dropFirst())."
    case .destinationDirectoryMissing(let directory):
      return
        "There is no directory \(directory) to write the \(noun) into; create it or give --output another place. \(nothing.prefix(1).uppercased() + nothing.dropFirst())."
    }
  }

  public static func reportWritten(_ path: String, pages: Int) -> String {
    "Wrote \(path): \(Quantity.count(pages, "page")), A4."
  }
}
