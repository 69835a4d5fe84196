import Audit

/// The allowlist's entry and the tracker lists' match for each host name a session's flows
/// carry, each found once per name as the checks ask for it: a session names most hosts in many
/// connections (the bench's 20 000 connections name 2 013), and five checks ask of every
/// connection (the lists' match alone costs some 3 800 instructions a name). A name not found
/// beforehand is looked up when asked, as it would have been without them.
public struct HostLookups: Sendable {
  private let allowlist: [AllowlistEntry]
  private let trackers: TrackerLists?
  private let found: [String: Found]

  private struct Found: Sendable {
    let allowlisted: AllowlistEntry?
    let tracker: TrackerMatch?
  }

  /// `flows`: whose names are looked up beforehand, as the checks pass them: as read (the
  /// tracker check), normalised (the host and server checks), a lookup's questions, and the other
  /// names a DNS answer gave, normalised.
  public init(allowlist: [AllowlistEntry], trackers: TrackerLists?, flows: [StoredFlow] = []) {
    self.allowlist = allowlist
    self.trackers = trackers
    var found: [String: Found] = [:]
    /// Whether `name` was new.
    @discardableResult func note(_ name: String) -> Bool {
      guard found[name] == nil else { return false }
      found[name] = Found(
        allowlisted: allowlist.first(matching: name), tracker: trackers?.match(name))
      return true
    }
    for flow in flows {
      // A name seen before had its normalised form noted then (or is asked for it when it comes).
      if let name = flow.name?.text, note(name) {
        note(DomainPattern.normalised(host: name))
      }
      for question in flow.dnsQuestions { note(question) }
      for other in flow.dnsOtherNames { note(DomainPattern.normalised(host: other)) }
    }
    self.found = found
  }

  /// `allowlist.first(matching: host)`.
  public func allowlistEntry(matching host: String) -> AllowlistEntry? {
    if let known = found[host] { return known.allowlisted }
    return allowlist.first(matching: host)
  }

  /// `trackers?.match(host)`.
  public func trackerMatch(_ host: String) -> TrackerMatch? {
    if let known = found[host] { return known.tracker }
    return trackers?.match(host)
  }
}
