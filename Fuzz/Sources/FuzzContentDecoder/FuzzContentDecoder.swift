import Foundation
import FuzzSupport
import Import

/// The Content-Encodings a body is decoded from: the input's first byte chooses gzip, deflate
/// (zlib's or raw), br, or two of them stacked; the rest is the body as sent.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContentDecoder(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  guard let bytes, count > 0 else { return 0 }
  let encodings = ["gzip", "deflate", "br", "gzip, br", "x-gzip", "deflate, gzip", "identity"]
  let encoding = encodings[Int(bytes[0]) % encodings.count]
  let body = ContentDecoder.body(Data(bytes: bytes + 1, count: count - 1), encoding: encoding)
  precondition(body.bytes.count <= ContentDecoder.largestDecoded, "the decoded bound holds")
  return 0
}

@_cdecl("FuzzContentDecoder_main")
public func fuzzContentDecoderMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 { runFuzzer(argc, argv, fuzzContentDecoder) }
