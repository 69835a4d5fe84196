import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Foundation

/// What `tunnelvision findings` says: per requirement its verdict, its toolCoverage, the
/// findings against and for it; the findings F1, F2…; how far each check got.
public enum FindingsPresentation {
  /// Where a finding's value stood in what its connections sent, a line each, the first few:
  /// "sent: e-mail as its SHA-256 in query uid (exchange 3)".
  public static func sentLines(_ label: String, flows: [Int64], in content: SessionContent)
    -> [String]
  {
    var lines: [String] = []
    for flow in flows {
      for exchange in content.exchanges(ofFlow: flow) {
        for match in exchange.matches where match.label == label {
          let line =
            "sent: \(ExchangesPresentation.matchLine(match)) (exchange \(exchange.exchangeID))"
          if !lines.contains(line) { lines.append(line) }
        }
      }
    }
    let shown = 3
    return lines.count > shown
      ? Array(lines.prefix(shown)) + [
        "and \(lines.count - shown) more: 'tunnelvision exchanges SESSION'"
      ]
      : lines
  }

  /// The host's registrable domain said right after the host where the subject begins with it
  /// ("cdn.t.example, registrable domain t.example, rule ||t.example^"), else at its end.
  static func besideHost(_ subject: String, _ host: String?, _ domains: RegistrableDomains)
    -> String
  {
    guard let host else { return subject }
    let domain = domains.beside(host)
    guard subject.hasPrefix(host) else { return subject + domain }
    return host + domain + subject.dropFirst(host.count)
  }

  /// `domains`: each host's registrable domain, said beside it; `earlier`: by flow id, the
  /// connections whose row continues one of another session.
  public static func text(
    _ assessment: SessionAssessment, session: SessionOverview,
    domains: RegistrableDomains = RegistrableDomains(), earlier: [Int64: EarlierReading] = [:]
  ) -> String {
    let catalogue = assessment.catalogue
    let findings = assessment.findings.findings
    let minimum = catalogue.policy.minimumTLSVersion
    var out =
      "Findings · \(AuditPresentation.sessionName(session.session.kind)) · \(TerminalText.inline(session.projectName)) · session \(session.session.id)\n"
    out +=
      "Catalogue \(catalogue.identifier): \(catalogue.source.document) \(catalogue.source.version) of \(catalogue.source.date)\n"
    out +=
      "TLS minimum \(minimum.name), from \(catalogue.tlsSource.document) \(catalogue.tlsSource.version) of \(catalogue.tlsSource.date)\n"
    out +=
      "\(Quantity.count(assessment.findings.flowIDs.count, "connection")), \(Quantity.count(findings.count, "finding"))\n"
    if let coverage = session.coverage {
      out += CoverageWording.headline(coverage, open: session.session.isOpen) + "\n"
      for line in CoverageWording.gapLines(coverage, instant: Instant.rfc3339) {
        out += "  \(line)\n"
      }
    }

    out += "\nRequirements\n"
    for r in assessment.requirements {
      out += "  \(r.requirement.id)  \(r.requirement.title)\n"
      out += "      \(EvidenceWording.verdict(r))\n"
      if let coverage = r.requirement.toolCoverage {
        out += "      What the tool looks at: \(coverage)\n"
      }
      if r.requirement.rule.readsFindings {
        let against = FindingsDocument.identifiers(of: r.contraryFindings, in: findings)
        out += "      Against it: \(against.isEmpty ? "none" : against.joined(separator: ", "))\n"
        if !r.requirement.rule.supportingKinds.isEmpty {
          let support = FindingsDocument.identifiers(of: r.supportingFindings, in: findings)
          out +=
            "      In its support: \(support.isEmpty ? "none" : support.joined(separator: ", "))\n"
        }
      }
      if let c = r.coverage {
        out +=
          "      The \(EvidenceWording.checksNoun(c.checks)) looked at \(Quantity.count(c.lookedAt, "connection")), could not assess \(Quantity.grouped(c.unassessed)) and does not apply to \(Quantity.grouped(c.notApplicable)).\n"
      }
    }

    out += "\nFindings\n"
    if findings.isEmpty { out += "  None.\n" }
    for (index, finding) in findings.enumerated() {
      out +=
        "  \(FindingsDocument.identifier(index))  \(TerminalText.inline(EvidenceWording.statement(of: finding.evidence, minimum: minimum)))\n"
      if let subject = EvidenceWording.subject(of: finding.evidence) {
        out += "      \(TerminalText.inline(besideHost(subject, finding.evidence.host, domains)))\n"
      }
      out +=
        "      \(Quantity.count(finding.flowIDs.count, "connection")): flows \(AuditPresentation.flowList(finding.flowIDs))\n"
      for reading in finding.flowIDs.compactMap({ earlier[$0] }) {
        out += "      \(reading.sentence)\n"
      }
      if let value = finding.evidence.testData, let content = assessment.content {
        for line in sentLines(value.label, flows: finding.flowIDs, in: content) {
          out += "      \(TerminalText.inline(line))\n"
        }
      }
    }

    out += "\nChecks\n"
    for report in assessment.findings.coverageReports {
      out +=
        "  \(EvidenceWording.checkName(report.check)): \(Quantity.grouped(report.flaggedFlowIDs.count)) behind a finding, \(Quantity.grouped(report.satisfiedFlowIDs.count)) looked at with nothing to report, \(Quantity.grouped(report.unassessedCount)) not assessed, \(Quantity.grouped(report.notApplicableFlowIDs.count)) not applicable\n"
      for reason in report.unassessed {
        out +=
          "      \(Quantity.grouped(reason.flowIDs.count)): \(TerminalText.inline(reason.sentence))\n"
      }
    }
    out += "\n\(EvidenceWording.verdictsNote)\n"
    return out
  }

  public static func json(
    _ assessment: SessionAssessment, session: SessionOverview,
    earlier: [Int64: EarlierReading] = [:]
  ) -> JSONValue {
    let findings = assessment.findings.findings
    let minimum = assessment.catalogue.policy.minimumTLSVersion
    return .object([
      "session": SessionJSON.summaryJSON(
        session.session, connections: session.connectionCount),
      "catalogue": .string(assessment.catalogue.identifier),
      "tlsMinimum": .string(minimum.name),
      "requirements": .array(
        assessment.requirements.map { r in
          .object([
            "id": .string(r.requirement.id), "title": .string(r.requirement.title),
            "verdict": .string(r.verdict.key),
            "statement": .string(EvidenceWording.verdict(r)),
            "toolCoverage": .optional(r.requirement.toolCoverage),
            "contraryFindingIDs": .strings(
              FindingsDocument.identifiers(of: r.contraryFindings, in: findings)),
            "supportingFindingIDs": .strings(
              FindingsDocument.identifiers(of: r.supportingFindings, in: findings)),
            "onlyWhereRecorded": r.onlyWhereRecorded.map(FindingsDocument.unrecordedJSON) ?? .null,
          ])
        }),
      "findings": .array(
        findings.enumerated().map { index, finding in
          var object = FindingsDocument.evidenceJSON(finding.evidence)
          object["id"] = .string(FindingsDocument.identifier(index))
          object["statement"] = .string(
            EvidenceWording.statement(of: finding.evidence, minimum: minimum))
          object["flowIDs"] = .ints(finding.flowIDs)
          object["earlierReadings"] = .array(
            finding.flowIDs.compactMap { earlier[$0] }.map(FindingsDocument.earlierReadingJSON))
          return .object(object)
        }),
      "checks": FindingsDocument.checksJSON(assessment, withFlowIDs: false),
      "verdictsNote": .string(EvidenceWording.verdictsNote),
    ])
  }

}
