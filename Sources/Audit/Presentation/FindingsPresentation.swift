import Foundation

/// What `tunnelvision findings` says: per requirement its verdict, its toolCoverage, the
/// findings against and for it; the findings F1, F2…; how far each check got.
public enum FindingsPresentation {
  /// "F1", "F2"… in the order of `SessionFindings.findings`.
  public static func identifier(_ index: Int) -> String { "F\(index + 1)" }

  public static func identifiers(of findings: [Finding], in all: [Finding]) -> [String] {
    findings.compactMap { finding in all.firstIndex(of: finding).map(identifier) }
  }

  public static func flowList(_ ids: [Int64]) -> String {
    ids.map(String.init).joined(separator: ", ")
  }

  public static func text(_ assessment: SessionAssessment, session: SessionOverview) -> String {
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
      "\(AuditPresentation.count(assessment.findings.flowIDs.count, "connection")), \(AuditPresentation.count(findings.count, "finding"))\n"

    out += "\nRequirements\n"
    for r in assessment.requirements {
      out += "  \(r.requirement.id)  \(r.requirement.title)\n"
      out += "      \(EvidenceWording.verdict(r.verdict))\n"
      if let coverage = r.requirement.toolCoverage {
        out += "      What the tool looks at: \(coverage)\n"
      }
      if r.requirement.rule.readsFindings {
        let against = identifiers(of: r.contraryFindings, in: findings)
        out += "      Against it: \(against.isEmpty ? "none" : against.joined(separator: ", "))\n"
        if !r.requirement.rule.supportingKinds.isEmpty {
          let support = identifiers(of: r.supportingFindings, in: findings)
          out +=
            "      In its support: \(support.isEmpty ? "none" : support.joined(separator: ", "))\n"
        }
      }
      if let c = r.coverage {
        out +=
          "      The \(EvidenceWording.checksNoun(c.checks)) looked at \(AuditPresentation.count(c.lookedAt, "connection")), could not assess \(AuditPresentation.grouped(c.unassessed)) and does not apply to \(AuditPresentation.grouped(c.notApplicable)).\n"
      }
    }

    out += "\nFindings\n"
    if findings.isEmpty { out += "  None.\n" }
    for (index, finding) in findings.enumerated() {
      out +=
        "  \(identifier(index))  \(TerminalText.inline(EvidenceWording.statement(of: finding.evidence, minimum: minimum)))\n"
      if let subject = EvidenceWording.subject(of: finding.evidence) {
        out += "      \(TerminalText.inline(subject))\n"
      }
      out +=
        "      \(AuditPresentation.count(finding.flowIDs.count, "connection")): flows \(flowList(finding.flowIDs))\n"
    }

    out += "\nChecks\n"
    for report in assessment.findings.coverageReports {
      out +=
        "  \(EvidenceWording.checkName(report.check)): \(AuditPresentation.grouped(report.flaggedFlowIDs.count)) behind a finding, \(AuditPresentation.grouped(report.satisfiedFlowIDs.count)) looked at with nothing to report, \(AuditPresentation.grouped(report.unassessedCount)) not assessed, \(AuditPresentation.grouped(report.notApplicableFlowIDs.count)) not applicable\n"
      for reason in report.unassessed {
        out +=
          "      \(AuditPresentation.grouped(reason.flowIDs.count)): \(TerminalText.inline(reason.sentence))\n"
      }
    }
    out += "\n\(EvidenceWording.verdictsNote)\n"
    return out
  }

  /// A finding's evidence as findings.json writes it: the same keys for every kind.
  public static func evidenceJSON(_ evidence: FindingEvidence) -> [String: JSONValue] {
    [
      "kind": .string(evidence.kind.rawValue), "host": .optional(evidence.host),
      "tls": evidence.tls.map { o in
        .object([
          "version": .string(o.version.name), "versionValue": .int(o.version.rawValue),
          "source": .string(o.basis.rawValue),
        ])
      } ?? .null,
      "reason": .optional(evidence.reason),
    ]
  }

  public static func json(_ assessment: SessionAssessment, session: SessionOverview) -> JSONValue {
    let findings = assessment.findings.findings
    let minimum = assessment.catalogue.policy.minimumTLSVersion
    return .object([
      "session": SessionPresentation.summaryJSON(
        session.session, connections: session.connectionCount),
      "catalogue": .string(assessment.catalogue.identifier),
      "tlsMinimum": .string(minimum.name),
      "requirements": .array(
        assessment.requirements.map { r in
          .object([
            "id": .string(r.requirement.id), "title": .string(r.requirement.title),
            "verdict": .string(r.verdict.key),
            "statement": .string(EvidenceWording.verdict(r.verdict)),
            "toolCoverage": .optional(r.requirement.toolCoverage),
            "contraryFindingIDs": .strings(identifiers(of: r.contraryFindings, in: findings)),
            "supportingFindingIDs": .strings(identifiers(of: r.supportingFindings, in: findings)),
          ])
        }),
      "findings": .array(
        findings.enumerated().map { index, finding in
          var object = evidenceJSON(finding.evidence)
          object["id"] = .string(identifier(index))
          object["statement"] = .string(
            EvidenceWording.statement(of: finding.evidence, minimum: minimum))
          object["flowIDs"] = .ints(finding.flowIDs)
          return .object(object)
        }),
      "checks": checksJSON(assessment, withFlowIDs: false),
      "verdictsNote": .string(EvidenceWording.verdictsNote),
    ])
  }

  /// Each check's coverage as JSON, the reasons nothing was assessed with their connections:
  /// findings.json lists the flows too (`withFlowIDs`), `findings --json` counts them.
  public static func checksJSON(_ assessment: SessionAssessment, withFlowIDs: Bool) -> JSONValue {
    .object(
      Dictionary(
        uniqueKeysWithValues: assessment.findings.coverageReports.map { report in
          (
            report.check.rawValue,
            JSONValue.object([
              "flagged": .int(report.flaggedFlowIDs.count),
              "satisfied": .int(report.satisfiedFlowIDs.count),
              "notApplicable": .int(report.notApplicableFlowIDs.count),
              "notAssessed": .array(
                report.unassessed.map {
                  var reason: [String: JSONValue] = [
                    "reason": .string($0.key), "statement": .string($0.sentence),
                    "connections": .int($0.flowIDs.count),
                  ]
                  if withFlowIDs { reason["flowIDs"] = .ints($0.flowIDs) }
                  return .object(reason)
                }),
            ])
          )
        }))
  }
}
