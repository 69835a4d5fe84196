import FuzzSupport
import Import

/// HTTP/1 read from a TCP stream in the clear: the input's first byte says which way (requests or
/// responses) and how it is cut into segments, the rest is the stream, fed piece by piece and
/// closed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP1(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  guard let bytes, count > 0 else { return 0 }
  let control = bytes[0]
  let stream = Array(UnsafeBufferPointer(start: bytes + 1, count: count - 1))
  var reader = HTTP1Stream(role: control & 1 == 0 ? .requests : .responses)
  if control & 2 != 0 { reader.methods = ["HEAD", "GET", "CONNECT"] }
  let piece = Int(control >> 2) + 1
  var at = 0
  while at < stream.count {
    let end = min(stream.count, at + piece)
    reader.feed(Array(stream[at..<end]), at: Int64(at))
    _ = reader.take()
    at = end
  }
  reader.close()
  _ = reader.take()
  return 0
}

@_cdecl("FuzzHTTP1_main")
public func fuzzHTTP1Main(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 { runFuzzer(argc, argv, fuzzHTTP1) }
