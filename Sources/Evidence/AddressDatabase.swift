import Audit
import CMaxMindDB
import Crypto
import Foundation

/// An address database in the MaxMind DB format (GeoLite2, DB-IP Lite: country or ASN), read
/// through libmaxminddb. I/O only: what a registration says is `AddressRegistration`'s.
public final class AddressDatabase {
  public let identity: AddressDatabaseIdentity
  private var mmdb = MMDB_s()

  public struct Failure: Error, Sendable, CustomStringConvertible {
    public let description: String
  }

  /// Opens the file and hashes its bytes (as libmaxminddb mapped them: the file is read once);
  /// a file that cannot be read, or that libmaxminddb does not read as a database, is refused
  /// with its reason.
  public init(path: String) throws(Failure) {
    let status = MMDB_open(path, UInt32(MMDB_MODE_MMAP), &mmdb)
    guard status == MMDB_SUCCESS else {
      let opening = status == MMDB_FILE_OPEN_ERROR || status == MMDB_IO_ERROR
      throw Failure(
        description: opening
          ? "The address database \(path) cannot be read: \(String(cString: strerror(errno)))."
          : "The address database \(path) is not a MaxMind DB file: \(String(cString: MMDB_strerror(status)))."
      )
    }
    let metadata = mmdb.metadata
    // A build date the documents can write (from 1970 to 2262), or none at all.
    guard let epoch = Int64(exactly: metadata.build_epoch),
      epoch <= Instant.storableMicroseconds.upperBound / 1_000_000
    else {
      MMDB_close(&mmdb)
      throw Failure(
        description:
          "The address database \(path) states no usable build date (build_epoch \(metadata.build_epoch))."
      )
    }
    let digest = SHA256Digest()
    digest.update(UnsafeRawBufferPointer(start: mmdb.file_content, count: Int(mmdb.file_size)))
    let name = metadata.database_type.map { String(cString: $0) } ?? ""
    let built = Date(timeIntervalSince1970: TimeInterval(epoch))
    identity = AddressDatabaseIdentity(
      name: name.isEmpty ? URL(fileURLWithPath: path).lastPathComponent : name, path: path,
      sha256: digest.finalHex(), built: String(Instant.rfc3339(built).prefix(10)))
  }

  deinit { MMDB_close(&mmdb) }

  /// What the database states of an address (inet_ntop's form); nil when it holds nothing for
  /// it. The country is the one the network is registered in (`registered_country`) where the
  /// database states it, else its `country`.
  public func registration(of address: String) -> AddressRegistration? {
    var addressError: Int32 = 0
    var databaseError: Int32 = 0
    var result = MMDB_lookup_string(&mmdb, address, &addressError, &databaseError)
    guard addressError == 0, databaseError == MMDB_SUCCESS, result.found_entry else { return nil }
    let registration = AddressRegistration(
      country: string(&result.entry, ["registered_country", "iso_code"])
        ?? string(&result.entry, ["country", "iso_code"]),
      asn: number(&result.entry, ["autonomous_system_number"]),
      organisation: string(&result.entry, ["autonomous_system_organization"]))
    return registration.isEmpty ? nil : registration
  }

  private func value(_ entry: inout MMDB_entry_s, _ path: [String]) -> MMDB_entry_data_s? {
    var data = MMDB_entry_data_s()
    let strings = path.map { strdup($0) } + [nil]
    defer { for s in strings { free(s) } }
    let status = strings.map { UnsafePointer($0) }.withUnsafeBufferPointer {
      MMDB_aget_value(&entry, &data, $0.baseAddress)
    }
    guard status == MMDB_SUCCESS, data.has_data else { return nil }
    return data
  }

  private func string(_ entry: inout MMDB_entry_s, _ path: [String]) -> String? {
    guard let data = value(&entry, path), data.type == MMDB_DATA_TYPE_UTF8_STRING,
      let bytes = data.utf8_string
    else { return nil }
    let text = String(
      decoding: UnsafeRawBufferPointer(start: bytes, count: Int(data.data_size)), as: UTF8.self)
    return text.isEmpty ? nil : text
  }

  private func number(_ entry: inout MMDB_entry_s, _ path: [String]) -> UInt32? {
    guard let data = value(&entry, path) else { return nil }
    switch Int32(data.type) {
    case MMDB_DATA_TYPE_UINT16: return UInt32(data.uint16)
    case MMDB_DATA_TYPE_UINT32: return data.uint32
    case MMDB_DATA_TYPE_INT32: return UInt32(exactly: data.int32)
    case MMDB_DATA_TYPE_UINT64: return UInt32(exactly: data.uint64)
    default: return nil
    }
  }

  /// The registrations of every address of the flows, each database completing what the ones
  /// before it left unstated. Without a database nothing is looked up, and no address is listed
  /// (as `AddressRegistrations.stated` reads a bundle of none).
  public static func registrations(of flows: [StoredFlow], in databases: [AddressDatabase])
    -> AddressRegistrations
  {
    guard !databases.isEmpty else { return AddressRegistrations() }
    var map: [String: AddressRegistration] = [:]
    let addresses = AddressRegistrations.addresses(of: flows)
    for address in addresses {
      var found = AddressRegistration()
      for database in databases {
        if let stated = database.registration(of: address) { found = found.completed(by: stated) }
      }
      if !found.isEmpty { map[address] = found }
    }
    return AddressRegistrations(databases: databases.map(\.identity), map, addresses: addresses)
  }
}
