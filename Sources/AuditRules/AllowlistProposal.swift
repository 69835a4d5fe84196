import Audit

/// The patterns that would cover the names a session's connections went to, grouped by their
/// registrable domain: `*.domain` for names below it, the domain itself when it was contacted, a
/// name without a registrable domain (an address, a public suffix) exactly. Names the allowlist
/// covers already are left out. Pure: the domains come from the shell's public suffix list.
public enum AllowlistProposal {
  public struct Pattern: Sendable, Hashable {
    public let pattern: DomainPattern
    /// The session's names it covers, sorted.
    public let names: [String]
  }

  public static func patterns(
    names: some Sequence<String>, domains: [String: String], allowlist: [AllowlistEntry]
  ) -> [Pattern] {
    var covering: [String: Set<String>] = [:]
    for raw in names {
      let name = DomainPattern.normalised(host: raw)
      guard !name.isEmpty, allowlist.first(matching: name) == nil else {
        continue
      }
      let text: String
      if let domain = domains[name] {
        text = name == domain ? domain : "*." + domain
      } else {
        text = name
      }
      covering[text, default: []].insert(name)
    }
    return covering.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.compactMap {
      guard let pattern = try? DomainPattern(parsing: $0) else { return nil }
      return Pattern(pattern: pattern, names: covering[$0]!.sorted())
    }
  }
}
