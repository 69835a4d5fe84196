import Audit

/// The network's own traffic, which a device exchanges whatever app runs on it: name lookups,
/// address configuration, neighbour and router discovery, multicast membership, local service
/// discovery. Stored and listed like any flow, never a host the app contacted.
public enum InfrastructureService: String, Sendable, Hashable, CaseIterable {
  /// DNS on its port, or a flow read as DNS messages.
  case dns
  /// DHCP (UDP 67/68) and DHCPv6 (UDP 546/547).
  case dhcp
  /// ICMPv6 to a multicast or between link-local addresses: neighbour and router discovery,
  /// multicast listener reports.
  case neighbourDiscovery
  /// IGMP: IPv4 multicast membership.
  case multicastMembership
  /// mDNS (5353), LLMNR (5355), SSDP (1900), and any datagram to a multicast or broadcast address.
  case localDiscovery

  public init?(of flow: borrowing StoredFlow) {
    let peers = flow.peers
    let addresses = [peers.a.address, peers.b.address]
    let groupAddressed = addresses.contains(where: Self.isGroupAddress)
    switch flow.ipProtocol {
    case .udp, .tcp:
      if flow.streamOpening == .dnsMessage || peers.contains(port: 53) {
        self = .dns
      } else if flow.ipProtocol == .udp
        && (peers.contains(port: 67) && peers.contains(port: 68)
          || peers.contains(port: 546) && peers.contains(port: 547))
      {
        self = .dhcp
      } else if [5353, 5355, 1900].contains(where: peers.contains(port:))
        || (flow.ipProtocol == .udp && groupAddressed)
      {
        self = .localDiscovery
      } else {
        return nil
      }
    case .icmpv6:
      guard groupAddressed || addresses.allSatisfy(Self.isLinkLocal) else { return nil }
      self = .neighbourDiscovery
    case IPProtocolNumber(rawValue: 2):
      self = .multicastMembership
    case .icmp:
      guard groupAddressed else { return nil }
      self = .localDiscovery
    default:
      return nil
    }
  }

  /// IPv4 multicast (224.0.0.0/4) or the limited broadcast; IPv6 multicast (ff00::/8). Read from
  /// the text's first bytes: every flow of a session is asked, so nothing is allocated.
  static func isGroupAddress(_ address: String) -> Bool {
    let bytes = address.utf8
    if bytes.contains(UInt8(ascii: ":")) {
      return bytes.prefix(2).allSatisfy { $0 | 0x20 == UInt8(ascii: "f") }
    }
    if address == "255.255.255.255" { return true }
    var first = 0
    for byte in bytes {
      guard byte != UInt8(ascii: ".") else { break }
      guard (48...57).contains(byte), first < 1000 else { return false }
      first = first * 10 + Int(byte - 48)
    }
    return (224...239).contains(first)
  }

  /// IPv6 link-local (fe80::/10).
  static func isLinkLocal(_ address: String) -> Bool {
    let bytes = Array(address.utf8.prefix(3)).map { $0 | 0x20 }
    return bytes.count == 3 && bytes[0] == UInt8(ascii: "f") && bytes[1] == UInt8(ascii: "e")
      && [UInt8(ascii: "8"), UInt8(ascii: "9"), UInt8(ascii: "a"), UInt8(ascii: "b")].contains(
        bytes[2])
  }
}
