import Crypto
import FuzzSupport

/// A PEM key file, as `export --sign` and `verify --key` read it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKey(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  let pem = FuzzFile.data(bytes, count)
  _ = Ed25519Signature.isEncrypted(pem: pem)
  _ = Ed25519Signature.publicKey(pem: pem)
  _ = Ed25519Signature.isPrivateKey(pem: pem)
  return 0
}

@_cdecl("FuzzKey_main")
public func fuzzKeyMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 { runFuzzer(argc, argv, fuzzKey) }
