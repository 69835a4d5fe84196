import Evidence
import FuzzSupport

/// An address database (`export --ip-database`): opened through libmaxminddb, then addresses of
/// each family looked up in it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAddressDatabase(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  guard
    let database = try? AddressDatabase(path: FuzzFile.write(bytes, count, name: "db.mmdb").path)
  else { return 0 }
  for address in ["198.51.100.1", "203.0.113.200", "10.0.0.2", "2001:db8:1::5", "::1", "0.0.0.0"] {
    _ = database.registration(of: address)
  }
  return 0
}

@_cdecl("FuzzAddressDatabase_main")
public func fuzzAddressDatabaseMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 { runFuzzer(argc, argv, fuzzAddressDatabase) }
