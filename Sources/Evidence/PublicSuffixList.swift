import Audit
import CPSL
import Crypto
import Foundation

/// The public suffix list as libpsl reads it from Debian's publicsuffix package (never libpsl's
/// built-in copy: the list a bundle names is the file it was read from): a host's registrable
/// domain (eTLD+1), as "example.co.uk" of "api.example.co.uk" and "user.github.io" of
/// "a.user.github.io".
public final class PublicSuffixList: @unchecked Sendable {
  private let context: OpaquePointer
  /// The list file libpsl reads, and the SHA-256 of its bytes: which list the domains come from.
  public let identity: PublicSuffixListIdentity

  private init(context: OpaquePointer, identity: PublicSuffixListIdentity) {
    self.context = context
    self.identity = identity
  }

  deinit { psl_free(context) }

  public static let installedFile = "publicsuffix/public_suffix_list.dafsa"

  /// The installed list (below the share directory, /usr/share by default); nil when there is
  /// none libpsl reads.
  public static func installed(
    shareDirectory: String = TrackerListLoader.defaultShareDirectory
  ) -> PublicSuffixList? {
    let path = shareDirectory + "/" + installedFile
    guard let bytes = try? Data(contentsOf: URL(fileURLWithPath: path)),
      let context = psl_load_file(path)
    else { return nil }
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    let modified = attributes?[.modificationDate] as? Date
    return PublicSuffixList(
      context: context,
      identity: PublicSuffixListIdentity(
        path: path, sha256: SHA256Digest.hex(of: bytes), date: modified.map(Instant.day)))
  }

  /// The registrable domain of a host (lowercased), nil for a public suffix itself, an address or
  /// a name libpsl does not read.
  public func registrableDomain(_ host: String) -> String? {
    let name = host.lowercased()
    guard !name.isEmpty, name.utf8.count <= 253 else { return nil }
    return name.withCString { start -> String? in
      guard let domain = psl_registrable_domain(context, start) else { return nil }
      return String(cString: domain)
    }
  }
}

extension RegistrableDomains {
  /// The domains flows.json states, by each flow's name.
  static func stated(_ flows: [StoredFlow], _ domains: [String?]) -> RegistrableDomains {
    var map: [String: String] = [:]
    for (flow, domain) in zip(flows, domains) {
      if let name = flow.name?.text, let domain { map[name] = domain }
    }
    return RegistrableDomains(map)
  }

  /// The list's domains of the flows' names, each name asked once (a session's flows go to a few
  /// hundred names). `lookups`: the names DNS lookups asked for too, which a screen says beside a
  /// tracker looked up; a bundle's documents state only the flows' names (flows.json), which is
  /// what verify reads back.
  public static func of(_ flows: [StoredFlow], by list: PublicSuffixList?, lookups: Bool = false)
    -> RegistrableDomains
  {
    guard let list else { return RegistrableDomains() }
    var map: [String: String] = [:]
    var names = Set(flows.compactMap { $0.name?.text })
    if lookups { names.formUnion(flows.flatMap(\.dnsQuestions)) }
    for name in names {
      if let domain = list.registrableDomain(DomainPattern.normalised(host: name)) {
        map[name] = domain
      }
    }
    return RegistrableDomains(map)
  }
}
