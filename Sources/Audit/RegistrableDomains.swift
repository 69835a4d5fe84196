/// The registrable domain (eTLD+1) of each name a session's connections went to, as the public
/// suffix list gave it: what a screen or the report says beside a host. Pure: the shell reads the
/// list, or the bundle's flows.json states the domains.
public struct RegistrableDomains: Sendable, Hashable {
  private let map: [String: String]

  /// By normalised name.
  public init(_ map: [String: String] = [:]) {
    self.map = Dictionary(
      map.map { (DomainPattern.normalised(host: $0.key), $0.value) },
      uniquingKeysWith: { a, _ in a })
  }

  public func of(_ host: String) -> String? { map[DomainPattern.normalised(host: host)] }

  /// ", registrable domain example.co.uk" when it is not the host itself; "" otherwise.
  public func beside(_ host: String) -> String {
    guard let domain = of(host), domain != DomainPattern.normalised(host: host) else { return "" }
    return ", registrable domain \(domain)"
  }
}
