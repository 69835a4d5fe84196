import Audit
import AuditRules
import AuditWording
import Bytes
import Capture
import Crypto
import Foundation

enum AddressKind {
  /// A multicast or broadcast address: a group, never one host's.
  static func isGroup(_ address: String) -> Bool {
    if FlowEndpoint.isIPv6(address) { return address.lowercased().hasPrefix("ff") }
    guard let parts = ipv4Numbers(address) else { return false }
    return (224...239).contains(parts.0) || parts == (255, 255, 255, 255)
  }

  static func isPrivate(_ address: String) -> Bool {
    if FlowEndpoint.isIPv6(address) {
      let lower = address.lowercased()
      return lower.hasPrefix("fc") || lower.hasPrefix("fd") || lower.hasPrefix("fe80")
        || lower == "::1"
    }
    guard let parts = ipv4Numbers(address) else { return false }
    return parts.0 == 10 || (parts.0 == 172 && (16...31).contains(parts.1))
      || (parts.0 == 192 && parts.1 == 168)
      || parts.0 == 127 || (parts.0 == 100 && (64...127).contains(parts.1))
      || (parts.0 == 169 && parts.1 == 254)
  }

  /// An IPv4 address's four numbers, as splitting at the dots and reading each part as `Int`
  /// reads them (empty and unreadable parts left out); nil unless there are four. A plain
  /// dotted quad, the dissector's form, is read in place: it is asked of every connection.
  static func ipv4Numbers(_ address: String) -> (Int, Int, Int, Int)? {
    var numbers = (0, 0, 0, 0)
    var count = 0
    var digits = 0
    var plain = true
    for byte in address.utf8 {
      if byte == UInt8(ascii: ".") {
        if digits == 0 || count == 3 {
          plain = false
          break
        }
        count += 1
        digits = 0
      } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 9 {
        let value = Int(byte - UInt8(ascii: "0"))
        switch count {
        case 0: numbers.0 = numbers.0 * 10 + value
        case 1: numbers.1 = numbers.1 * 10 + value
        case 2: numbers.2 = numbers.2 * 10 + value
        default: numbers.3 = numbers.3 * 10 + value
        }
        digits += 1
      } else {
        plain = false
        break
      }
    }
    if plain { return count == 3 && digits > 0 ? numbers : nil }
    let parts = address.split(separator: ".").compactMap { Int($0) }
    guard parts.count == 4 else { return nil }
    return (parts[0], parts[1], parts[2], parts[3])
  }
}
