import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Foundation

/// What `tunnelvision compare` says. Ordered by the question that opens it: what is new?
public enum ReleaseComparisonPresentation {
  public static let laterRule =
    "The later session is the one that started later, whatever its version number."
  public static let newMeaning =
    "New means not contacted while the earlier session was recording; it is not attributed to the app."
  public static let noNewDomain = "No named domain is new."
  public static let unlistedMark = "⚠ not in allowlist"
  public static let loweredMark = "▼ lowered"

  public static func refusal(_ refusal: ReleaseDiff.Refusal) -> String {
    switch refusal {
    case .sameSession:
      return "A session cannot be compared with itself; name two sessions of the project."
    case .differentProjects:
      return "The two sessions belong to different projects; compare releases of one project."
    case .notTheSessionsProject: return "The sessions are not of the project named."
    case .baseline(let id):
      return
        "Session \(id) is a baseline: it observes no release, so there is nothing to compare it with. Compare two audit sessions."
    case .stillOpen(let id): return "Session \(id) is still recording; end it before comparing."
    }
  }

  static func versions(_ list: [TLSProtocolVersion]) -> String {
    list.map(\.name).joined(separator: ", ")
  }

  static func negotiatorPhrase(_ negotiator: TLSNegotiator) -> String {
    negotiator == .app
      ? "negotiated by the app"
      : "read from the connection the inspecting proxy opened to the server, which is not what the app negotiated"
  }

  /// One line per negotiator whose versions differ.
  public static func tlsChanges(_ domain: DomainComparison) -> [(
    negotiator: TLSNegotiator, earlier: [TLSProtocolVersion], later: [TLSProtocolVersion],
    floor: TLSFloorShift
  )] {
    guard case .inBoth(let app, let proxy) = domain.status else { return [] }
    return [(TLSNegotiator.app, app), (.proxy, proxy)].compactMap { negotiator, comparison in
      guard case .different(let earlier, let later, let floor) = comparison else { return nil }
      return (negotiator, earlier, later, floor)
    }
  }

  public static func standingText(_ standing: AllowlistStanding) -> String {
    switch standing {
    case .listed(let entry):
      return "listed: \(entry.pattern.text)" + (entry.note.map { " — \($0)" } ?? "")
    case .unlisted: return unlistedMark
    case .allowlistEmpty: return ""
    }
  }

  /// Said of a host whose connections refused the proxy's certificate in the earlier release and
  /// accepted it in the later.
  public static let validationLostMeaning =
    "its connections refused the certificate the proxy served in the earlier release and accepted it, sending requests, in the later: a regression."

  /// How a session was recorded, said beside it: inspection and the certificate scenario.
  public static func conditions(_ s: AuditSession) -> String {
    s.inspection.inspectionEnabled
      ? "HTTPS inspection on, certificates: \(PinningEvidence.scenarioPhrase(s.inspection.scenario))"
      : "HTTPS inspection off"
  }
  public static let conditionsDiffer =
    "The two sessions were recorded under different conditions: what their connections did with the proxy's certificate is not compared."
  public static func notComparable(_ diff: ReleaseDiff) -> String {
    "refused the proxy's certificate in the earlier release and accepted it in the later, but the earlier was recorded with \(PinningEvidence.scenarioPhrase(diff.earlier.inspection.scenario)) and the later with \(PinningEvidence.scenarioPhrase(diff.later.inspection.scenario)): not comparable."
  }

  /// Said of a session with a stretch no recorder ran in: the lists cannot hold what happened then.
  public static func coverageCaveat(_ which: String, _ coverage: SessionCoverage) -> String? {
    guard let unrecorded = coverage.unrecorded else { return nil }
    return
      "⚠ The \(which) session was \(CoverageWording.notRecorded(unrecorded)): a domain contacted only then is in neither list, and \"no longer contacted\" may be only not recorded."
  }

  /// `domains`: each host's registrable domain, said beside a new one; `trackers`: the lists a new
  /// host is looked up in, its rule said when one names it; `coverage`: each session's, whose
  /// unrecorded stretches qualify the lists.
  public static func text(
    _ diff: ReleaseDiff, projectName: String, zone: TimeZone,
    domains: RegistrableDomains = RegistrableDomains(), trackers: TrackerLists? = nil,
    coverage: (earlier: SessionCoverage?, later: SessionCoverage?) = (nil, nil)
  ) -> String {
    func describe(_ s: AuditSession) -> String {
      "\(AuditPresentation.sessionName(s.kind)) (session \(s.id), started \(AuditPresentation.dateTime(s.startedAt, in: zone)))\n             \(conditions(s))"
    }
    var out = "Comparison · \(TerminalText.inline(projectName))\n"
    out += "  Later:   \(describe(diff.later))\n"
    out += "  Earlier: \(describe(diff.earlier))\n"
    if diff.conditionsDiffer { out += "  \(conditionsDiffer)\n" }
    for (which, c) in [("later", coverage.later), ("earlier", coverage.earlier)] {
      if let c, let caveat = coverageCaveat(which, c) { out += "  \(caveat)\n" }
    }
    out +=
      "  New domains: \(diff.newDomains.count) · No longer contacted: \(diff.goneDomains.count) · In both: \(diff.domainsInBoth.count)\n"
    out += "  \(laterRule)\n"

    out += "\nNew domains\n"
    if diff.newDomains.isEmpty { out += "  \(noNewDomain)\n" }
    for line in TextColumns().lines(
      diff.newDomains.map {
        [
          $0.host + domains.beside($0.host),
          Quantity.count($0.later?.flowIDs.count ?? 0, "connection"),
          standingText($0.standing)
            + (trackers?.match($0.host).map { " · a tracker: \(TrackerWording.citation($0))" }
              ?? ""),
        ]
      })
    { out += "  " + line + "\n" }
    out += "  \(newMeaning)\n"

    if !diff.validationLost.isEmpty {
      out += "\nCertificate validation lost\n"
      for host in diff.validationLost {
        out += "  \(loweredMark)  \(TerminalText.inline(host)): \(validationLostMeaning)\n"
      }
    }
    if !diff.validationNotComparable.isEmpty {
      out += "\nCertificate validation not comparable\n"
      for host in diff.validationNotComparable {
        out += "  \(TerminalText.inline(host)): \(notComparable(diff))\n"
      }
    }

    if !diff.newlySent.isEmpty {
      let read = diff.earlierReadContent
      out += "\n\(ContentWording.newlySentHeading(earlierRead: read))\n"
      for sent in diff.newlySent {
        let line = ContentWording.newlySent(sent.label, host: sent.host, earlierRead: read)
        out += "  \(TerminalText.inline(line))\n"
      }
      if !diff.earlierReadContent { out += "  \(ContentWording.earlierReadNoContent)\n" }
    }

    let changed = diff.domainsWithTLSChange
    if !changed.isEmpty {
      out += "\nTLS version changed\n"
      for domain in changed {
        for change in tlsChanges(domain) {
          let mark = change.floor == .lowered ? "\(loweredMark)  " : ""
          out +=
            "  \(mark)\(TerminalText.inline(domain.host)): \(versions(change.earlier)) → \(versions(change.later)), \(negotiatorPhrase(change.negotiator))\n"
        }
      }
    }

    out += "\nNo longer contacted\n"
    if diff.goneDomains.isEmpty { out += "  None.\n" }
    for line in TextColumns().lines(
      diff.goneDomains.map {
        [$0.host, Quantity.count($0.earlier?.flowIDs.count ?? 0, "connection")]
      })
    {
      out += "  " + line + "\n"
    }

    if let closing = closingParagraph(diff) { out += "\nWhat the lists cannot say\n  \(closing)\n" }
    return out
  }

  /// How many connections had no name, and how many domains were only another name of a shared address.
  public static func closingParagraph(_ diff: ReleaseDiff) -> String? {
    var sentences: [String] = []
    let later = diff.laterUnnamedFlowIDs.count
    let earlier = diff.earlierUnnamedFlowIDs.count
    if later + earlier > 0 {
      sentences.append(
        "\(Quantity.count(later, "connection")) in the later session and \(Quantity.grouped(earlier)) in the earlier one had no name; a new destination among them would not show."
      )
    }
    let shared = diff.undeterminedDomains.count
    if shared > 0 {
      sentences.append(
        shared == 1
          ? "1 domain was only another name of a shared address, and is in neither list."
          : "\(Quantity.grouped(shared)) domains were only another name of a shared address, and are in neither list."
      )
    }
    return sentences.isEmpty ? nil : sentences.joined(separator: " ")
  }

  public static func json(_ diff: ReleaseDiff) -> JSONValue {
    func comparisonJSON(_ c: TLSVersionComparison) -> JSONValue {
      switch c {
      case .same(let v):
        return .object(["status": .string("same"), "versions": .strings(v.map(\.name))])
      case .different(let e, let l, let floor):
        return .object([
          "status": .string("different"), "earlier": .strings(e.map(\.name)),
          "later": .strings(l.map(\.name)), "floor": .string(floor.rawValue),
        ])
      case .notCompared(let gap):
        return .object(["status": .string("notCompared"), "reason": .string(gap.rawValue)])
      }
    }
    func sessionJSON(_ s: AuditSession) -> JSONValue {
      .object([
        "id": .int(s.id), "name": .string(AuditPresentation.sessionName(s.kind)),
        "inspection": .bool(s.inspection.inspectionEnabled),
        "certificateScenario": .optional(s.inspection.scenario?.name),
        "startedAt": .string(Instant.rfc3339(s.startedAt)),
        "endedAt": .optional(s.endedAt.map(Instant.rfc3339)),
      ])
    }
    func domainJSON(_ d: DomainComparison) -> JSONValue {
      var object: [String: JSONValue] = [
        "host": .string(d.host),
        "earlierFlowIDs": .ints(d.earlier?.flowIDs ?? []),
        "laterFlowIDs": .ints(d.later?.flowIDs ?? []),
      ]
      switch d.standing {
      case .listed(let entry):
        object["allowlist"] = .object([
          "standing": .string("listed"), "pattern": .string(entry.pattern.text),
          "note": .optional(entry.note),
        ])
      case .unlisted: object["allowlist"] = .object(["standing": .string("unlisted")])
      case .allowlistEmpty: object["allowlist"] = .object(["standing": .string("allowlistEmpty")])
      }
      switch d.status {
      case .new: object["status"] = .string("new")
      case .gone: object["status"] = .string("gone")
      case .inBoth(let app, let proxy):
        object["status"] = .string("inBoth")
        object["tls"] = .object(["app": comparisonJSON(app), "proxy": comparisonJSON(proxy)])
      case .undetermined(let e, let l):
        object["status"] = .string("undetermined")
        object["presence"] = .object(["earlier": .string(e.rawValue), "later": .string(l.rawValue)])
      }
      return .object(object)
    }
    return .object([
      "earlier": sessionJSON(diff.earlier),
      "later": sessionJSON(diff.later),
      "newDomains": .array(diff.newDomains.map(domainJSON)),
      "unexpectedNewDomains": .strings(diff.unexpectedNewDomains.map(\.host)),
      "tlsChanges": .array(diff.domainsWithTLSChange.map(domainJSON)),
      "validationLost": .strings(diff.validationLost),
      "validationNotComparable": .strings(diff.validationNotComparable),
      "conditionsDiffer": .bool(diff.conditionsDiffer),
      "newlySent": .array(
        diff.newlySent.map { .object(["label": .string($0.label), "host": .string($0.host)]) }),
      "earlierReadContent": .bool(diff.earlierReadContent),
      "goneDomains": .array(diff.goneDomains.map(domainJSON)),
      "inBoth": .array(diff.domainsInBoth.map(domainJSON)),
      "undetermined": .array(diff.undeterminedDomains.map(domainJSON)),
      "earlierUnnamedFlowIDs": .ints(diff.earlierUnnamedFlowIDs),
      "laterUnnamedFlowIDs": .ints(diff.laterUnnamedFlowIDs),
      "closing": .optional(closingParagraph(diff)),
    ])
  }
}
