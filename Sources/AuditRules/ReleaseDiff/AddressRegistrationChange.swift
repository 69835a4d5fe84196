import Audit

/// A host contacted in both sessions whose server addresses are registered otherwise in the
/// later one: the countries (and networks) each session's addresses for it were registered in,
/// as the address databases given state them. Pure: the shell looks the addresses up.
public struct AddressRegistrationChange: Sendable, Hashable {
  public let host: String
  /// Each session's registrations of the host's server addresses, each once, in their order;
  /// an address no database holds is left out.
  public let earlier: [AddressRegistration]
  public let later: [AddressRegistration]

  /// The hosts of both sessions' named TCP connections whose server addresses' countries differ
  /// between the sessions, in the later session's order.
  public static func changes(
    earlier: [StoredFlow], later: [StoredFlow], registrations: AddressRegistrations
  ) -> [AddressRegistrationChange] {
    func byHost(_ flows: [StoredFlow]) -> (order: [String], [String: Set<AddressRegistration>]) {
      var order: [String] = []
      var found: [String: Set<AddressRegistration>] = [:]
      for flow in flows.inSessionOrder() where flow.ipProtocol == .tcp {
        guard let name = flow.name?.text else { continue }
        let host = DomainPattern.normalised(host: name)
        if found[host] == nil { order.append(host) }
        var held = found[host, default: []]
        if let registration = registrations.of(ScanTargets.server(of: flow).address) {
          held.insert(registration)
        }
        found[host] = held
      }
      return (order, found)
    }
    let (_, before) = byHost(earlier)
    let (order, now) = byHost(later)
    func countries(_ set: Set<AddressRegistration>) -> Set<String?> { Set(set.map(\.country)) }
    return order.compactMap { host in
      guard let then = before[host], let current = now[host],
        countries(then) != countries(current)
      else { return nil }
      return AddressRegistrationChange(host: host, earlier: then.sorted(), later: current.sorted())
    }
  }
}
