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
    let parts = address.split(separator: ".").compactMap { Int($0) }
    guard parts.count == 4 else { return false }
    return (224...239).contains(parts[0]) || parts == [255, 255, 255, 255]
  }

  static func isPrivate(_ address: String) -> Bool {
    if FlowEndpoint.isIPv6(address) {
      let lower = address.lowercased()
      return lower.hasPrefix("fc") || lower.hasPrefix("fd") || lower.hasPrefix("fe80")
        || lower == "::1"
    }
    let parts = address.split(separator: ".").compactMap { Int($0) }
    guard parts.count == 4 else { return false }
    return parts[0] == 10 || (parts[0] == 172 && (16...31).contains(parts[1]))
      || (parts[0] == 192 && parts[1] == 168)
      || parts[0] == 127 || (parts[0] == 100 && (64...127).contains(parts[1]))
      || (parts[0] == 169 && parts[1] == 254)
  }
}
