import Audit
import AuditRules

/// What is said of where an address is registered: a registration, never where data is
/// processed or stored, and never a guess when no database was given.
public enum AddressRegistrationWording {
  /// "address registered in US (AS15169 Google LLC)".
  public static func phrase(_ stated: AddressRegistration) -> String {
    switch (stated.country, network(stated)) {
    case (_?, _): return "address registered in \(registration(stated))"
    case (nil, _?): return "address of \(registration(stated))"
    case (nil, nil): return registration(stated)
    }
  }

  /// The registration alone, where a column or a list says what it is: "US (AS15169 Google
  /// LLC)", "AS64500, no country stated".
  public static func registration(_ registration: AddressRegistration) -> String {
    switch (registration.country, network(registration)) {
    case (let country?, let network?): return "\(country) (\(network))"
    case (let country?, nil): return country
    case (nil, let network?): return "\(network), no country stated"
    case (nil, nil): return "no registration stated"
    }
  }

  /// "AS15169 Google LLC", the number or the organisation alone, or nil.
  static func network(_ registration: AddressRegistration) -> String? {
    switch (registration.asn, registration.organisation) {
    case (let asn?, let organisation?): return "AS\(asn) \(organisation)"
    case (let asn?, nil): return "AS\(asn)"
    case (nil, let organisation?): return organisation
    case (nil, nil): return nil
    }
  }

  /// The phrase, and whether its country is outside the EU/EEA.
  public static func line(_ address: String, _ registration: AddressRegistration) -> String {
    let outside = registration.isInEuropeanEconomicArea == false ? ", outside the EU/EEA" : ""
    return "\(address): \(phrase(registration))\(outside)"
  }

  /// An address the databases hold nothing for.
  public static func notFound(_ address: String) -> String {
    "\(address): not in the address databases given"
  }

  /// A database as it is named: "GeoLite2-Country (built 2026-11-28)".
  public static func database(_ identity: AddressDatabaseIdentity) -> String {
    "\(identity.name) (built \(identity.built))"
  }

  public static let noDatabase =
    "Not looked up: no address database was given (--ip-database FILE.mmdb)."

  /// The export sheet's lines: the databases, then each address registered outside the EU/EEA,
  /// or that none is; without a database, that nothing was looked up.
  public static func summary(_ registrations: AddressRegistrations) -> [String] {
    guard !registrations.databases.isEmpty else { return [noDatabase] }
    let addresses = registrations.addresses
    let found = addresses.compactMap { address in registrations.of(address).map { (address, $0) } }
    var lines = [
      "\(Quantity.count(found.count, "address", "addresses")) of \(addresses.count) found in \(registrations.databases.map(database).joined(separator: ", "))."
    ]
    let outside = found.filter { $0.1.isInEuropeanEconomicArea == false }
    if outside.isEmpty {
      lines.append("None is stated as registered outside the EU/EEA.")
    } else {
      lines.append("Registered outside the EU/EEA:")
      lines += outside.map { "  \(line($0.0, $0.1))" }
    }
    lines.append(notProcessing)
    return lines
  }

  public static let notProcessing =
    "A registration says where a network is registered, not where data is processed or stored."

  /// A table's cell: "inside", "outside", or "not stated" for a registration without a country.
  public static func area(_ registration: AddressRegistration) -> String {
    switch registration.isInEuropeanEconomicArea {
    case true?: return "inside"
    case false?: return "outside"
    case nil: return "not stated"
    }
  }

  /// What `compare --ip-database` says of the hosts of both sessions: each whose addresses'
  /// countries changed, or that none did.
  public static func comparison(_ changes: [AddressRegistrationChange]) -> [String] {
    guard !changes.isEmpty else {
      return [
        "Each host contacted in both sessions has its addresses registered in the same countries in both.",
        notProcessing,
      ]
    }
    func list(_ registrations: [AddressRegistration]) -> String {
      registrations.isEmpty
        ? "no address the databases hold"
        : registrations.map(registration).joined(separator: "; ")
    }
    return changes.flatMap { change in
      [
        change.host, "  earlier: \(list(change.earlier))", "  now: \(list(change.later))",
      ]
    } + [notProcessing]
  }
}
