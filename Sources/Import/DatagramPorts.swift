import Audit
import AuditRules
import AuditWording
import Bytes
import Capture
import Crypto
import Foundation

/// UDP ports whose protocol is known: what is sent on them is read as that, never as QUIC.
enum DatagramPorts {
  /// DNS, multicast DNS, LLMNR.
  static func isDNS(_ port: UInt16) -> Bool { port == 53 || port == 5353 || port == 5355 }

  /// DNS's, DHCP, TFTP, NTP, NetBIOS, SNMP, syslog, SSDP.
  static func isKnownOtherThanQUIC(_ port: UInt16) -> Bool {
    switch port {
    case 53, 67, 68, 69, 123, 137, 138, 161, 162, 514, 1900, 5353, 5355: return true
    default: return false
    }
  }
}
