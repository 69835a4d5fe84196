import Audit
import CBrotli
import CZlib
import Crypto
import Foundation

/// Undoes a body's Content-Encoding — gzip, deflate (zlib's wrapper or raw), br — in the reverse
/// of the order it names them, up to `largestDecoded` bytes; what cannot be undone is kept as
/// sent, with why. The SHA-256 is of the body as sent.
public enum ContentDecoder {
  /// What a body may decode to: a compressed body that decodes to more is kept decoded that far
  /// and said to be cut.
  public static let largestDecoded = 16 << 20

  /// The body as kept: `raw` as sent, its encoding from the Content-Encoding header.
  public static func body(_ raw: Data, encoding header: String?, complete: Bool = true) -> HTTPBody
  {
    let encodings = (header ?? "").lowercased().split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }.filter { !$0.isEmpty && $0 != "identity" }
    var body = HTTPBody(
      bytes: raw, sentByteCount: raw.count, sha256: SHA256Digest.hex(of: raw),
      encoding: encodings.isEmpty ? nil : encodings.joined(separator: ", "), isComplete: complete)
    guard !encodings.isEmpty, !raw.isEmpty else { return body }
    var bytes = raw
    var cut = false
    for encoding in encodings.reversed() {
      let result: Result<(Data, Bool), DecodingFailure>
      switch encoding {
      case "gzip", "x-gzip": result = inflate(bytes, windowBits: 15 + 16)
      case "deflate":
        // RFC 9110's deflate is zlib's format; some servers send it raw.
        result = inflate(bytes, windowBits: 15).flatMapError { _ in inflate(bytes, windowBits: -15)
        }
      case "br": result = brotli(bytes)
      default:
        body.decoding = .notDecoded(
          "its Content-Encoding \(encoding) is not one tunnelvision undoes")
        return body
      }
      switch result {
      case .success(let (decoded, stopped)):
        bytes = decoded
        cut = cut || stopped
      case .failure(let failure):
        body.decoding = .notDecoded(
          complete
            ? "it does not decode as \(encoding): \(failure.reason)"
            : "it was cut short before its end, and \(encoding) needs the whole body")
        return body
      }
    }
    body.bytes = bytes
    body.decoding = .decoded
    if cut { body.isComplete = false }
    return body
  }

  struct DecodingFailure: Error { let reason: String }

  /// zlib's inflate: the bytes and whether the bound cut them.
  static func inflate(_ input: Data, windowBits: Int32) -> Result<(Data, Bool), DecodingFailure> {
    var stream = z_stream()
    guard
      inflateInit2_(&stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { return .failure(DecodingFailure(reason: "zlib could not start")) }
    defer { inflateEnd(&stream) }
    var output = Data()
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    var status: Int32 = Z_OK
    var input = [UInt8](input)
    input.withUnsafeMutableBufferPointer { source in
      stream.next_in = source.baseAddress
      stream.avail_in = UInt32(source.count)
      repeat {
        chunk.withUnsafeMutableBufferPointer { out in
          stream.next_out = out.baseAddress
          stream.avail_out = UInt32(out.count)
          status = CZlib.inflate(&stream, Z_NO_FLUSH)
          output.append(out.baseAddress!, count: out.count - Int(stream.avail_out))
        }
      } while status == Z_OK && output.count < largestDecoded
        && (stream.avail_in > 0 || stream.avail_out == 0)
    }
    if output.count >= largestDecoded { return .success((output.prefix(largestDecoded), true)) }
    guard status == Z_STREAM_END else {
      let reason =
        stream.msg.map { String(cString: $0) }
        ?? (status == Z_OK || status == Z_BUF_ERROR
          ? "it ends before its end" : "zlib error \(status)")
      return .failure(DecodingFailure(reason: reason))
    }
    return .success((output, false))
  }

  static func brotli(_ input: Data) -> Result<(Data, Bool), DecodingFailure> {
    guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else {
      return .failure(DecodingFailure(reason: "Brotli could not start"))
    }
    defer { BrotliDecoderDestroyInstance(state) }
    var output = Data()
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    var result = BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT
    let bytes = [UInt8](input)
    bytes.withUnsafeBufferPointer { source in
      var availableIn = source.count
      var nextIn = source.baseAddress
      while result == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT && output.count < largestDecoded {
        chunk.withUnsafeMutableBufferPointer { out in
          var availableOut = out.count
          var nextOut = out.baseAddress
          result = BrotliDecoderDecompressStream(
            state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
          output.append(out.baseAddress!, count: out.count - availableOut)
        }
      }
    }
    if output.count >= largestDecoded { return .success((output.prefix(largestDecoded), true)) }
    switch result {
    case BROTLI_DECODER_RESULT_SUCCESS: return .success((output, false))
    case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
      return .failure(DecodingFailure(reason: "it ends before its end"))
    default:
      let code = BrotliDecoderGetErrorCode(state)
      return .failure(
        DecodingFailure(reason: String(cString: BrotliDecoderErrorString(code))))
    }
  }

  /// An exchange as read (bodies as sent) made ready to keep: each body decoded, its digest
  /// computed.
  public static func prepared(_ exchange: HTTPExchange) -> HTTPExchange {
    var exchange = exchange
    if let body = exchange.requestBody {
      exchange.requestBody = Self.body(
        body.bytes,
        encoding: exchange.kind == .http ? exchange.requestHeader("content-encoding") : nil,
        complete: body.isComplete)
      exchange.requestBody?.sentByteCount = max(body.sentByteCount, body.bytes.count)
    }
    if let body = exchange.responseBody {
      exchange.responseBody = Self.body(
        body.bytes, encoding: exchange.responseHeader("content-encoding"), complete: body.isComplete
      )
      exchange.responseBody?.sentByteCount = max(body.sentByteCount, body.bytes.count)
    }
    // A HAR file's writer most often gives bodies decoded already, their header left as sent.
    if exchange.source == .har {
      for body in [\HTTPExchange.requestBody, \.responseBody] {
        if case .notDecoded = exchange[keyPath: body]?.decoding {
          exchange[keyPath: body]?.decoding = .notDecoded(harNotDecoded)
        }
      }
    }
    return exchange
  }

  static let harNotDecoded =
    "it does not decode as its Content-Encoding says: the HAR file's writer gave it decoded already, most likely, and it is read as it stands"
}
