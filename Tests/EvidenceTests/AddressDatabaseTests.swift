import Audit
import AuditWording
import Evidence
import Foundation
import TestSupport
import XCTest

/// Address databases written by PyPI's mmdb-writer, read through libmaxminddb, against what
/// PyPI's maxminddb reads from the same files.
final class AddressDatabaseTests: XCTestCase {
  static let python = VenvPython.path

  /// A country database (a network whose registered country is not where it is located, an IPv6
  /// network) and an ASN database, as two files.
  static let writer = """
    import sys
    from mmdb_writer import MMDBWriter, MmdbU32
    from netaddr import IPSet
    country = MMDBWriter(ip_version=6, ipv4_compatible=True, database_type="Test-Country",
                         languages=["en"], description="test")
    country.insert_network(IPSet(["198.51.100.0/25"]), {"country": {"iso_code": "DE"},
                           "registered_country": {"iso_code": "US"}})
    country.insert_network(IPSet(["198.51.100.128/25"]), {"country": {"iso_code": "FR"}})
    country.insert_network(IPSet(["2001:db8:1::/48"]), {"country": {"iso_code": "NO"}})
    country.to_db_file(sys.argv[1])
    asn = MMDBWriter(ip_version=6, ipv4_compatible=True, database_type="Test-ASN",
                     languages=["en"], description="test")
    asn.insert_network(IPSet(["198.51.100.0/24", "2001:db8::/32"]),
                       {"autonomous_system_number": MmdbU32(64500),
                        "autonomous_system_organization": "Example Net"})
    asn.to_db_file(sys.argv[2])
    """

  static let addresses = [
    "198.51.100.0", "198.51.100.127", "198.51.100.128", "198.51.100.255", "198.51.101.1",
    "10.0.0.2", "2001:db8:1::5", "2001:db8:2::1", "2001:db9::1", "::1",
  ]

  func databases() throws -> (TemporaryDirectory, country: String, asn: String) {
    guard VenvPython.isThere else {
      if ProcessInfo.processInfo.environment["CI"] == "true" {
        XCTFail("CI makes .venv (scripts/setup.sh)")
      }
      throw XCTSkip(VenvPython.missing)
    }
    let dir = TemporaryDirectory("address-database")
    let country = dir.url.appendingPathComponent("country.mmdb").path
    let asn = dir.url.appendingPathComponent("asn.mmdb").path
    let made = try XCTUnwrap(ExternalTool.run(Self.python, ["-c", Self.writer, country, asn]))
    XCTAssertEqual(made.status, 0, made.error)
    return (dir, country, asn)
  }

  /// What PyPI's maxminddb reads for each address: "country asn organisation", "-" for none.
  func theirs(_ path: String) throws -> [String] {
    let script = """
      import sys, maxminddb
      reader = maxminddb.open_database(sys.argv[1])
      for address in sys.argv[2:]:
          r = reader.get(address) or {}
          c = (r.get("registered_country") or r.get("country") or {}).get("iso_code", "-")
          print(c, r.get("autonomous_system_number", "-"),
                r.get("autonomous_system_organization", "-"))
      """
    let run = try XCTUnwrap(ExternalTool.run(Self.python, ["-c", script, path] + Self.addresses))
    XCTAssertEqual(run.status, 0, run.error)
    return run.output.split(separator: "\n").map(String.init)
  }

  func ours(_ registration: AddressRegistration?) -> String {
    [
      registration?.country ?? "-", registration?.asn.map { String($0) } ?? "-",
      registration?.organisation ?? "-",
    ].joined(separator: " ")
  }

  func testEachAddressReadsAsMaxminddbReadsItInBothDatabases() throws {
    let (dir, countryPath, asnPath) = try databases()
    defer { _ = dir }
    for path in [countryPath, asnPath] {
      let database = try AddressDatabase(path: path)
      XCTAssertEqual(Self.addresses.map { ours(database.registration(of: $0)) }, try theirs(path))
    }
    let country = try AddressDatabase(path: countryPath)
    XCTAssertEqual(
      country.registration(of: "198.51.100.1")?.country, "US",
      "the registered country, not where the network is located")
    XCTAssertNil(country.registration(of: "10.0.0.2"))
  }

  func testADatabaseIsNamedByItsTypeDatedByItsBuildAndHashedAsSha256sumHashesIt() throws {
    let (dir, countryPath, _) = try databases()
    defer { _ = dir }
    let identity = try AddressDatabase(path: countryPath).identity
    XCTAssertEqual(identity.name, "Test-Country")
    XCTAssertEqual(identity.path, countryPath)
    let sum = try XCTUnwrap(ExternalTool.run("sha256sum", [countryPath]))
    XCTAssertEqual(identity.sha256, String(sum.output.prefix(64)))
    let epoch = try XCTUnwrap(
      ExternalTool.run(
        Self.python,
        [
          "-c",
          "import sys, maxminddb, datetime; print(datetime.datetime.fromtimestamp(maxminddb.open_database(sys.argv[1]).metadata().build_epoch, datetime.timezone.utc).date())",
          countryPath,
        ]))
    XCTAssertEqual(identity.built, epoch.output.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  func testACountryDatabaseAndAnASNDatabaseCompleteEachOther() throws {
    let (dir, countryPath, asnPath) = try databases()
    defer { _ = dir }
    let databases = [try AddressDatabase(path: countryPath), try AddressDatabase(path: asnPath)]
    var flow = FlowFixture.tcp(serverAddress: "198.51.100.200")
    flow.id = 1
    let stated = AddressDatabase.registrations(of: [flow], in: databases)
    XCTAssertEqual(stated.addresses, ["10.0.0.2", "198.51.100.200"])
    XCTAssertEqual(
      stated.of("198.51.100.200"),
      AddressRegistration(country: "FR", asn: 64500, organisation: "Example Net"))
    XCTAssertNil(stated.of("10.0.0.2"))
    XCTAssertEqual(stated.databases.map(\.name), ["Test-Country", "Test-ASN"])
  }

  func testWithoutADatabaseNothingIsLookedUpAsABundleOfNoneIsRead() {
    var flow = FlowFixture.tcp(serverAddress: "198.51.100.200")
    flow.id = 1
    let looked = AddressDatabase.registrations(of: [flow], in: [])
    XCTAssertEqual(looked.addresses, [])
    XCTAssertEqual(looked, AddressRegistrations.stated([flow], databases: [], [:]))
  }

  func testAFileThatIsNotADatabaseOrIsNotThereIsRefusedWithItsReason() throws {
    let dir = TemporaryDirectory("address-database-refused")
    let text = dir.url.appendingPathComponent("list.txt").path
    try Data("not a database\n".utf8).write(to: URL(fileURLWithPath: text))
    XCTAssertThrowsError(try AddressDatabase(path: text)) {
      XCTAssertTrue("\($0)".contains("\(text) is not a MaxMind DB file"), "\($0)")
    }
    // Found by FuzzAddressDatabase: a build epoch past any date trapped converting it.
    let overflow = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fuzz/Corpus/FuzzAddressDatabase/build-epoch-overflow.mmdb").path
    XCTAssertThrowsError(try AddressDatabase(path: overflow)) {
      XCTAssertTrue("\($0)".contains("states no usable build date (build_epoch "), "\($0)")
    }
    let missing = dir.url.appendingPathComponent("missing.mmdb").path
    XCTAssertThrowsError(try AddressDatabase(path: missing)) {
      XCTAssertTrue("\($0)".contains("\(missing) cannot be read"), "\($0)")
    }
  }

  func testARegistrationIsWordedAsOneNeverAsWhereDataIsProcessed() {
    let us = AddressRegistration(country: "US", asn: 15169, organisation: "Google LLC")
    XCTAssertEqual(
      AddressRegistrationWording.phrase(us), "address registered in US (AS15169 Google LLC)")
    XCTAssertEqual(
      AddressRegistrationWording.line("192.0.2.1", us),
      "192.0.2.1: address registered in US (AS15169 Google LLC), outside the EU/EEA")
    XCTAssertEqual(
      AddressRegistrationWording.line("192.0.2.2", AddressRegistration(country: "NO")),
      "192.0.2.2: address registered in NO", "Norway is in the EEA")
    XCTAssertEqual(
      AddressRegistrationWording.phrase(AddressRegistration(asn: 64500)),
      "address of AS64500, no country stated")
    let none = AddressRegistrationWording.summary(AddressRegistrations())
    XCTAssertEqual(none, [AddressRegistrationWording.noDatabase])
    let some = AddressRegistrationWording.summary(
      AddressRegistrations(
        databases: [AddressDatabaseIdentity(name: "T", path: "t", sha256: "", built: "2026-12-01")],
        ["192.0.2.1": us], addresses: ["10.0.0.2", "192.0.2.1"]))
    XCTAssertEqual(some.first, "1 address of 2 found in T (built 2026-12-01).")
    XCTAssertTrue(
      some.contains(
        "  192.0.2.1: address registered in US (AS15169 Google LLC), outside the EU/EEA"), "\(some)"
    )
    for line in none + some {
      XCTAssertFalse(line.contains("processed in"), line)
      XCTAssertFalse(line.contains("located in"), line)
    }
  }
}
