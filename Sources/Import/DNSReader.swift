import Audit
import AuditRules
import AuditWording
import Bytes
import Capture
import Crypto
import Foundation

enum DNSReader {
  /// Whether a datagram reads as a DNS message: a header and at least one question whose name
  /// reads (a query or a response).
  static func isMessage(_ payload: ArraySlice<UInt8>) -> Bool {
    let message = Array(payload)
    guard let questions = message.integer(at: 4, as: UInt16.self), questions >= 1,
      message[2] & 0x78 == 0, let (_, end) = name(message, 12)
    else { return false }
    return end + 4 <= message.count
  }

  /// The name a message asks about (its first question), lowercased as a host; nil when it does
  /// not read as a DNS message.
  static func question(_ payload: ArraySlice<UInt8>) -> String? {
    guard isMessage(payload), let (name, _) = name(Array(payload), 12), !name.isEmpty else {
      return nil
    }
    return DomainPattern.normalised(host: name)
  }

  struct Answer {
    let name: String
    let addresses: [String]
  }

  /// A response's question name and the addresses its A/AAAA records give it (following CNAMEs).
  static func response(_ payload: ArraySlice<UInt8>) -> Answer? {
    let message = Array(payload)
    guard message.count >= 12, message[2] & 0x80 != 0, message[3] & 0x0f == 0 else { return nil }
    let questions = Int(message.integer(at: 4, as: UInt16.self)!)
    let answers = Int(message.integer(at: 6, as: UInt16.self)!)
    guard questions >= 1 else { return nil }
    var at = 12
    guard let (question, next) = name(message, at) else { return nil }
    at = next + 4
    for _ in 1..<max(1, questions) {
      guard let (_, n) = name(message, at) else { return nil }
      at = n + 4
    }
    var chain: Set<String> = [question.lowercased()]
    var addresses: [String] = []
    for _ in 0..<min(answers, 64) {
      guard let (owner, n) = name(message, at), n + 10 <= message.count else { break }
      let type = Int(message.integer(at: n, as: UInt16.self)!)
      let length = Int(message.integer(at: n + 8, as: UInt16.self)!)
      let data = n + 10
      guard data + length <= message.count else { break }
      let ownerLower = owner.lowercased()
      if type == 5, chain.contains(ownerLower), let (target, _) = name(message, data) {
        chain.insert(target.lowercased())
      }
      if (type == 1 && length == 4) || (type == 28 && length == 16), chain.contains(ownerLower) {
        addresses.append(PacketDissector.address(message[data..<(data + length)]))
      }
      at = data + length
    }
    return addresses.isEmpty
      ? nil : Answer(name: DomainPattern.normalised(host: question), addresses: addresses)
  }

  /// A name at `start` (labels and compression pointers, jumps bounded); the offset after it.
  static func name(_ m: [UInt8], _ start: Int) -> (String, Int)? {
    var labels: [String] = []
    var at = start
    var end: Int?
    var jumps = 0
    while at < m.count {
      let length = Int(m[at])
      if length == 0 { return (labels.joined(separator: "."), end ?? at + 1) }
      if length & 0xc0 == 0xc0 {
        guard at + 1 < m.count, jumps < 16 else { return nil }
        if end == nil { end = at + 2 }
        at = (length & 0x3f) << 8 | Int(m[at + 1])
        jumps += 1
        continue
      }
      guard length <= 63, at + 1 + length <= m.count else { return nil }
      labels.append(String(decoding: m[(at + 1)..<(at + 1 + length)], as: UTF8.self))
      at += 1 + length
      guard labels.count < 128 else { return nil }
    }
    return nil
  }
}
