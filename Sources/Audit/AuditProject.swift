import Foundation

public struct AllowlistEntry: Sendable, Hashable {
  public let pattern: DomainPattern
  /// "backend", "crash reporting": goes to the report.
  public let note: String?

  public init(pattern: DomainPattern, note: String? = nil) {
    self.pattern = pattern
    let trimmed = note?.trimmingWhitespace()
    self.note = (trimmed?.isEmpty ?? true) ? nil : trimmed
  }
}

public struct AuditProject: Sendable, Hashable, Identifiable {
  public let id: Int64
  public let name: String
  /// Informational: it never filters traffic.
  public let bundleIdentifier: String?
  /// A catalogue identifier, nil until one is chosen.
  public let catalogueVersion: String?
  /// In the order it was written.
  public let allowlist: [AllowlistEntry]
  public let createdAt: Date

  public init(
    id: Int64, name: String, bundleIdentifier: String?, catalogueVersion: String?,
    allowlist: [AllowlistEntry], createdAt: Date
  ) {
    self.id = id
    self.name = name
    self.bundleIdentifier = bundleIdentifier
    self.catalogueVersion = catalogueVersion
    self.allowlist = allowlist
    self.createdAt = createdAt
  }

  /// The first entry that covers the host.
  public func allowlistEntry(matching host: String) -> AllowlistEntry? {
    allowlist.first(matching: host)
  }
}

extension [AllowlistEntry] {
  /// The first entry that covers the host, normalised once for all the patterns.
  public func first(matching host: String) -> AllowlistEntry? {
    let candidate = DomainPattern.normalised(host: host)
    return first { $0.pattern.matches(normalised: candidate) }
  }
}

/// Everything of a project but what the store assigns.
public struct AuditProjectDraft: Sendable, Hashable {
  public var name: String
  public var bundleIdentifier: String?
  public var catalogueVersion: String?
  public var allowlist: [AllowlistEntry]

  public init(
    name: String, bundleIdentifier: String? = nil, catalogueVersion: String? = nil,
    allowlist: [AllowlistEntry] = []
  ) {
    self.name = name
    self.bundleIdentifier = bundleIdentifier
    self.catalogueVersion = catalogueVersion
    self.allowlist = allowlist
  }

  public init(_ project: AuditProject) {
    self.init(
      name: project.name, bundleIdentifier: project.bundleIdentifier,
      catalogueVersion: project.catalogueVersion, allowlist: project.allowlist)
  }
}
