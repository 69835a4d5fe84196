import Audit
import Foundation

/// What the readers make of one handshake record: for a writer of captures (the sample) to state
/// exactly the readings import will read from its bytes.
public enum HandshakeReadings {
  /// The offer of the ClientHello a record holds.
  public static func offer(ofRecord record: Data, overQUIC: Bool = false) -> ClientTLSOffer? {
    let bytes = Array(record)
    guard
      let hello = TLSHandshakeReader.handshakeMessages(bytes).messages.first(where: { $0.0 == 1 })
    else { return nil }
    return TLSHandshakeReader.clientHello(hello.1, transport: overQUIC ? .quic : .tcp)?.offer
  }

  /// The parameters of the ServerHello a record holds.
  public static func parameters(ofRecord record: Data) -> ServerTLSParameters? {
    let bytes = Array(record)
    guard
      let hello = TLSHandshakeReader.handshakeMessages(bytes).messages.first(where: { $0.0 == 2 })
    else { return nil }
    return TLSHandshakeReader.serverHello(hello.1)?.parameters
  }
}
