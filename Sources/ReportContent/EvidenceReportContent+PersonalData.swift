import Audit
import AuditDocuments
import AuditRules
import AuditWording
import ReportModel

extension EvidenceReportContent {
  /// The personal data section: which of the test account's values went where, in what form,
  /// when; the values planted and not seen.
  var personalData: [EvidenceReportBlock] {
    let content = bundle.content
    var blocks: [EvidenceReportBlock] = [
      .paragraph(ContentWording.sectionIntro(values: content.values))
    ]
    guard !content.values.isEmpty else { return blocks }
    guard !content.exchanges.isEmpty else {
      return blocks + [.paragraph(ContentWording.noExchanges)]
    }
    let sent = SentValues.of(content, findings: bundle.findings, markers: bundle.markers)
    if sent.isEmpty {
      blocks.append(.paragraph(ContentWording.noneSent))
    } else {
      blocks.append(
        .table(
          EvidenceReportTable(
            columns: ContentWording.sentColumns,
            rows: sent.map { v in
              [
                EvidenceReportCell(v.label),
                EvidenceReportCell(
                  v.host + (bundle.registrableDomains.of(v.host).map { " (\($0))" } ?? ""),
                  style: .literal),
                EvidenceReportCell(ContentWording.partyText(v.party)),
                EvidenceReportCell(
                  "\(ContentWording.formPhrase(v.form)), \(v.place.text)"
                    + (v.inCleartext ? ", in the clear" : "")),
                EvidenceReportCell(ContentWording.phaseText(v.phase)),
                EvidenceReportCell(String(v.exchangeID), style: .literal),
              ]
            }, title: "Personal data")))
    }
    let missing = SentValues.notSeen(content)
    if !missing.isEmpty { blocks.append(.paragraph(ContentWording.notSeen(missing))) }
    return blocks
  }
}
