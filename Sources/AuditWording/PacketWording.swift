import Audit
import AuditRules

/// Words for what a packet's headers hold.
public enum PacketWording {
  public static func flags(_ f: UInt8) -> String {
    let names = [
      (0x02, "SYN"), (0x10, "ACK"), (0x08, "PSH"), (0x01, "FIN"), (0x04, "RST"), (0x20, "URG"),
    ]
    return names.filter { Int(f) & $0.0 != 0 }.map(\.1).joined(separator: " ")
  }

}
