/// Where an address is registered, as an address database (MaxMind DB format) states it: the
/// country its network is registered in and the autonomous system that announces it. It says
/// nothing of where data is processed or stored.
public struct AddressRegistration: Sendable, Hashable, Comparable {
  /// ISO 3166-1 alpha-2, upper case ("DE", "US").
  public var country: String?
  /// The autonomous system's number (AS15169 → 15169) and its organisation's name.
  public var asn: UInt32?
  public var organisation: String?

  public init(country: String? = nil, asn: UInt32? = nil, organisation: String? = nil) {
    self.country = country
    self.asn = asn
    self.organisation = organisation
  }

  public var isEmpty: Bool { country == nil && asn == nil && organisation == nil }

  /// By country, then network: the order a list of a host's registrations is said in.
  public static func < (a: AddressRegistration, b: AddressRegistration) -> Bool {
    (a.country ?? "", a.asn ?? 0, a.organisation ?? "")
      < (b.country ?? "", b.asn ?? 0, b.organisation ?? "")
  }

  /// Whether the country is one of the EU's or the EEA's; nil when no country is stated.
  public var isInEuropeanEconomicArea: Bool? {
    country.map { Self.europeanEconomicArea.contains($0) }
  }

  /// The 27 member states of the European Union and the three other states of the European
  /// Economic Area (Iceland, Liechtenstein, Norway).
  public static let europeanEconomicArea: Set<String> = [
    "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU", "IE", "IT",
    "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK", "IS", "LI", "NO",
  ]

  /// What the first database states, completed field by field from the next ones: a country
  /// database and an ASN database given together.
  public func completed(by other: AddressRegistration) -> AddressRegistration {
    AddressRegistration(
      country: country ?? other.country, asn: asn ?? other.asn,
      organisation: organisation ?? other.organisation)
  }
}

/// Which address database a bundle's registrations come from.
public struct AddressDatabaseIdentity: Sendable, Hashable {
  /// The database's own type, from its metadata ("GeoLite2-Country", "DBIP-ASN-Lite (compat=ASN)").
  public let name: String
  /// Its path, as given.
  public let path: String
  public let sha256: String
  /// When it was built (its metadata's build epoch), yyyy-MM-dd.
  public let built: String

  public init(name: String, path: String, sha256: String, built: String) {
    self.name = name
    self.path = path
    self.sha256 = sha256
    self.built = built
  }
}

/// The registration of each server address of a session, from the databases given (none: nothing
/// is stated, and that is said once). Pure: the shell looks the addresses up, or the bundle's
/// flows.json states them.
public struct AddressRegistrations: Sendable, Hashable {
  public let databases: [AddressDatabaseIdentity]
  /// Every address looked up, sorted: those the databases hold nothing for too.
  public let addresses: [String]
  private let map: [String: AddressRegistration]

  /// By address as the flows write it (inet_ntop's form).
  public init(
    databases: [AddressDatabaseIdentity] = [], _ map: [String: AddressRegistration] = [:],
    addresses: [String] = []
  ) {
    self.databases = databases
    self.map = map.filter { !$0.value.isEmpty }
    self.addresses = addresses
  }

  public func of(_ address: String) -> AddressRegistration? { map[address] }

  /// Whether no address has a registration (no database given, or none held any): the writers
  /// of flows.json and flows.csv then look nothing up.
  public var isEmpty: Bool { map.isEmpty }

  /// The addresses a session's registrations are looked up for: both ends of every flow, sorted.
  public static func addresses(of flows: [StoredFlow]) -> [String] {
    Set(flows.flatMap { [$0.peers.a.address, $0.peers.b.address] }).sorted()
  }

  /// As a bundle states them: flows.json's registrations, looked up for every flow's addresses
  /// in the databases session.json names (none: nothing was looked up).
  public static func stated(
    _ flows: [StoredFlow], databases: [AddressDatabaseIdentity],
    _ map: [String: AddressRegistration]
  ) -> AddressRegistrations {
    AddressRegistrations(
      databases: databases, map, addresses: databases.isEmpty ? [] : addresses(of: flows))
  }

}
