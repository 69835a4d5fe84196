import CFuzzDriver
import Crypto
import Foundation

/// A PEM key file, as `export --sign` and `verify --key` read it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKey(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let pem = Data(bytes: bytes, count: count)
  _ = Ed25519Signature.isEncrypted(pem: pem)
  _ = Ed25519Signature.publicKey(pem: pem)
  _ = Ed25519Signature.isPrivateKey(pem: pem)
  return 0
}

/// libFuzzer's loop over `fuzzKey`.
@_cdecl("FuzzKey_main")
public func fuzzKeyMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  var count = argc
  var arguments = argv
  return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
    guard let data else { return 0 }
    return fuzzKey(data, size)
  }
}
