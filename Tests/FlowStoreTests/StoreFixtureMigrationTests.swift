import Audit
import FlowStore
import Foundation
import TestSupport
import XCTest

/// Stores written by earlier versions of the tool (Fixtures/store-schema-N.sql, one per schema
/// version a release wrote; version 1 was never written alone) open at the current schema, and
/// every row of every table reads back through the store as the older tool wrote it.
final class StoreFixtureMigrationTests: XCTestCase {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

  /// A store directory whose database is the fixture's, at its own schema version.
  func restore(version: Int) throws -> TemporaryDirectory {
    let dir = TemporaryDirectory("schema-\(version)")
    try FileManager.default.createDirectory(
      at: dir.url.appendingPathComponent("captures"), withIntermediateDirectories: true)
    let fixture = Self.fixtures.appendingPathComponent("store-schema-\(version).sql").path
    let database = dir.url.appendingPathComponent("history.sqlite").path
    let restored = try XCTUnwrap(ExternalTool.run("sqlite3", [database, ".read \(fixture)"]))
    XCTAssertEqual(restored.status, 0, restored.error)
    let stated = try query(database, "PRAGMA user_version")
    XCTAssertEqual(stated, [["user_version": .int(Int64(version))]])
    return dir
  }

  enum Cell: Equatable {
    case int(Int64)
    case text(String)
    case null
  }

  /// The rows sqlite3 itself reads, before the tool opens the file.
  func query(_ database: String, _ sql: String) throws -> [[String: Cell]] {
    let result = try XCTUnwrap(ExternalTool.run("sqlite3", ["-json", database, sql]))
    XCTAssertEqual(result.status, 0, result.error)
    guard !result.output.isEmpty else { return [] }
    let rows = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
    return rows.map { row in
      row.mapValues { value -> Cell in
        if let number = value as? NSNumber { return .int(number.int64Value) }
        if let text = value as? String { return .text(text) }
        return .null
      }
    }
  }

  func testEveryEarlierSchemaVersionHasAFixture() {
    let versions = (1..<FlowStore.schemaVersion).filter {
      FileManager.default.fileExists(
        atPath: Self.fixtures.appendingPathComponent("store-schema-\($0).sql").path)
    }
    XCTAssertEqual(versions, Array(2..<FlowStore.schemaVersion), "a fixture per version since 2")
  }

  func testEveryRowOfAnEarlierStoreReadsBackAfterMigration() throws {
    for version in 2..<FlowStore.schemaVersion {
      let dir = try restore(version: version)
      let database = dir.url.appendingPathComponent("history.sqlite").path
      let flows = try query(
        database,
        "SELECT id, addr_a, port_a, addr_b, port_b, first_seen, last_seen, bytes_out, bytes_in, packet_count, sni, dns_name, audit_session_id FROM flows ORDER BY id"
      )
      let packets = try query(
        database,
        "SELECT flow_id, ts, length, file_seq, file_offset FROM packets ORDER BY flow_id, ts, id")
      let certificates = try query(
        database,
        "SELECT flow_id, hex(der) AS der FROM flow_certificates ORDER BY flow_id, position")
      let projects = try query(
        database, "SELECT id, name, bundle_id, created_at FROM audit_projects ORDER BY id")
      let allowlist = try query(
        database, "SELECT project_id, pattern FROM audit_allowlist ORDER BY project_id, position")
      let sessions = try query(
        database,
        "SELECT id, project_id, app_version, started_at, ended_at, notes FROM audit_sessions ORDER BY id"
      )
      let markers = try query(
        database, "SELECT id, session_id, ts, label FROM audit_markers ORDER BY session_id, ts, id")
      XCTAssertFalse(flows.isEmpty || packets.isEmpty || markers.isEmpty || certificates.isEmpty)

      let store = try FlowStore(directory: dir.url)
      XCTAssertEqual(try store.schemaVersionOnDisk(), FlowStore.schemaVersion, "v\(version)")

      func int(_ cell: Cell?) -> Int64? {
        if case .int(let v)? = cell { return v } else { return nil }
      }
      func text(_ cell: Cell?) -> String? {
        if case .text(let v)? = cell { return v } else { return nil }
      }
      func nanoseconds(_ date: Date?) -> Int64? { date.map(Instant.nanoseconds) }

      var packetsRead = 0
      for row in flows {
        let id = try XCTUnwrap(int(row["id"]))
        let flow = try XCTUnwrap(try store.flow(id: id), "v\(version) flow \(id)")
        XCTAssertEqual(flow.peers.a.address, text(row["addr_a"]), "v\(version) flow \(id)")
        XCTAssertEqual(Int64(flow.peers.a.port), int(row["port_a"]))
        XCTAssertEqual(flow.peers.b.address, text(row["addr_b"]))
        XCTAssertEqual(Int64(flow.peers.b.port), int(row["port_b"]))
        XCTAssertEqual(nanoseconds(flow.firstSeen), int(row["first_seen"]))
        XCTAssertEqual(nanoseconds(flow.lastSeen), int(row["last_seen"]))
        XCTAssertEqual(Int64(flow.bytesOut), int(row["bytes_out"]))
        XCTAssertEqual(Int64(flow.bytesIn), int(row["bytes_in"]))
        XCTAssertEqual(Int64(flow.packetCount), int(row["packet_count"]))
        XCTAssertEqual(flow.sni, text(row["sni"]))
        XCTAssertEqual(flow.dnsName, text(row["dns_name"]))
        XCTAssertEqual(flow.auditSessionID, int(row["audit_session_id"]))
        let chain = certificates.filter { int($0["flow_id"]) == id }.compactMap { text($0["der"]) }
        XCTAssertEqual(
          flow.serverCertificate.presented?.chain.map { BlobHex.upper($0) } ?? [], chain,
          "v\(version) flow \(id)'s certificates")
        let expected = packets.filter { int($0["flow_id"]) == id }
        let read = try store.packets(forFlow: id)
        XCTAssertEqual(read.count, expected.count, "v\(version) flow \(id)'s packets")
        for (packet, row) in zip(read, expected) {
          XCTAssertEqual(nanoseconds(packet.date), int(row["ts"]))
          XCTAssertEqual(Int64(packet.length), int(row["length"]))
          XCTAssertEqual(Int64(packet.location.fileSequence), int(row["file_seq"]))
          XCTAssertEqual(Int64(packet.location.offset), int(row["file_offset"]))
        }
        packetsRead += read.count
      }
      XCTAssertEqual(packetsRead, packets.count, "v\(version): every packet")

      for row in projects {
        let id = try XCTUnwrap(int(row["id"]))
        let project = try XCTUnwrap(try store.auditProject(id: id))
        XCTAssertEqual(project.name, text(row["name"]))
        XCTAssertEqual(project.bundleIdentifier, text(row["bundle_id"]))
        XCTAssertEqual(nanoseconds(project.createdAt), int(row["created_at"]))
        XCTAssertEqual(
          project.allowlist.map(\.pattern.text),
          allowlist.filter { int($0["project_id"]) == id }.compactMap { text($0["pattern"]) })
      }
      for row in sessions {
        let id = try XCTUnwrap(int(row["id"]))
        let session = try XCTUnwrap(try store.auditSession(id: id))
        XCTAssertEqual(session.projectID, int(row["project_id"]))
        if case .audit(let release) = session.kind {
          XCTAssertEqual(release.version, text(row["app_version"]))
        } else {
          XCTAssertEqual(row["app_version"], .null)
        }
        XCTAssertEqual(nanoseconds(session.startedAt), int(row["started_at"]))
        XCTAssertEqual(nanoseconds(session.endedAt), int(row["ended_at"]))
        XCTAssertEqual(session.notes, text(row["notes"]))
        let read = try store.markers(forSession: id)
        let expected = markers.filter { int($0["session_id"]) == id }
        XCTAssertEqual(read.map(\.id), expected.compactMap { int($0["id"]) })
        XCTAssertEqual(read.map { nanoseconds($0.date) }, expected.map { int($0["ts"]) })
        XCTAssertEqual(
          read.map { marker -> String? in
            if case .custom(let label) = marker.kind { return label } else { return nil }
          }, expected.map { text($0["label"]) })
      }
    }
  }
}

/// Upper-case hex, as sqlite3's hex() writes a blob.
enum BlobHex {
  static func upper(_ data: Data) -> String { data.map { String(format: "%02X", $0) }.joined() }
}
