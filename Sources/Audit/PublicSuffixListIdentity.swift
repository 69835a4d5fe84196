/// Which public suffix list a bundle's registrable domains come from.
public struct PublicSuffixListIdentity: Sendable, Hashable {
  public let path: String
  public let sha256: String
  public init(path: String, sha256: String) {
    self.path = path
    self.sha256 = sha256
  }
}
