/// Which public suffix list a bundle's registrable domains come from.
public struct PublicSuffixListIdentity: Sendable, Hashable {
  public let path: String
  public let sha256: String
  /// Its file's date, yyyy-MM-dd (the list states none); nil in a bundle before format
  /// version 10.
  public let date: String?
  public init(path: String, sha256: String, date: String?) {
    self.path = path
    self.sha256 = sha256
    self.date = date
  }
}
