import Audit
import AuditRules
import Crypto
import Foundation

/// Finds and reads tracker lists: those Debian installs (EasyPrivacy and EasyList, in the uBlock
/// Origin package's assets) and files an assessor names. I/O only: what a list holds and matches
/// is `TrackerList`'s.
public enum TrackerListLoader {
  public static let defaultShareDirectory = "/usr/share"

  /// Where webext-ublock-origin-firefox puts the lists, below the share directory.
  static let installedDirectories = [
    "mozilla/extensions/{ec8030f7-c20a-464f-9b0e-13a3a9e97384}/uBlock0@raymondhill.net/assets/thirdparties/easylist",
    "webext/ublock-origin/assets/thirdparties/easylist",
  ]
  static let installedFiles = ["easyprivacy.txt", "easylist.txt"]

  /// The installed lists' paths, EasyPrivacy first.
  public static func installed(shareDirectory: String = defaultShareDirectory) -> [String] {
    var found: [String] = []
    for file in installedFiles {
      for directory in installedDirectories {
        let path = "\(shareDirectory)/\(directory)/\(file)"
        if FileManager.default.isReadableFile(atPath: path) {
          found.append(path)
          break
        }
      }
    }
    return found
  }

  public struct Failure: Error, Sendable, CustomStringConvertible {
    public let description: String
  }

  /// Reads a list: its bytes, their SHA-256, its title and date.
  public static func load(_ path: String) throws(Failure) -> TrackerList {
    let url = URL(fileURLWithPath: path)
    let (text, sha256) = try read(path)
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    let modified = (attributes?[.modificationDate] as? Date) ?? Date(timeIntervalSince1970: 0)
    let identity = TrackerList.Identity(
      name: header("Title", in: text) ?? url.lastPathComponent, path: path,
      sha256: sha256,
      date: statedDate(in: text) ?? Instant.day(modified))
    let list = TrackerList(identity: identity, text: text)
    guard list.ruleCount > 0 else {
      throw Failure(
        description:
          "The tracker list \(path) names no host: neither ||host^ rules nor hosts-file lines.")
    }
    return list
  }

  /// A list's text and the SHA-256 of its bytes, the bytes let go before the text is read
  /// (held while it was, they were 2 MB more of a verify's highest point).
  private static func read(_ path: String) throws(Failure) -> (text: String, sha256: String) {
    let data: Data
    do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
      throw Failure(
        description:
          "The tracker list \(path) cannot be read: \(SystemErrorText.reason(error))."
      )
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw Failure(description: "The tracker list \(path) is not UTF-8 text.")
    }
    return (text, SHA256Digest.hex(of: data))
  }

  /// The lists given, then the installed ones not given; nil when there are none.
  public static func lists(given: [String], shareDirectory: String) throws(Failure)
    -> TrackerLists?
  {
    var paths = given
    for path in installed(shareDirectory: shareDirectory) where !paths.contains(path) {
      paths.append(path)
    }
    guard !paths.isEmpty else { return nil }
    // The first failure in the order given is said.
    return TrackerLists(
      try loadSideBySide(paths).map { result throws(Failure) in try result.get() })
  }

  /// The lists a bundle was exported with, read again from where they were: nil (with the reason)
  /// when one is gone or its bytes differ.
  public static func again(_ identities: [TrackerList.Identity]) -> (TrackerLists?, String?) {
    var lists: [TrackerList] = []
    for (identity, read) in zip(identities, loadSideBySide(identities.map(\.path))) {
      guard case .success(let list) = read, list.identity.sha256 == identity.sha256 else {
        return (nil, identity.path)
      }
      lists.append(list)
    }
    return (identities.isEmpty ? nil : TrackerLists(lists), nil)
  }

  /// Each list read, in the order given: those after the first on other threads while this one
  /// reads the first.
  static func loadSideBySide(_ paths: [String]) -> [Result<TrackerList, Failure>] {
    let ahead = paths.dropFirst().map { path in
      Alongside { Result { () throws(Failure) in try load(path) } }
    }
    guard let first = paths.first else { return [] }
    return [Result { () throws(Failure) in try load(first) }] + ahead.map(\.value)
  }

  /// A header line's value ("! Title: EasyPrivacy").
  static func header(_ key: String, in text: String) -> String? {
    // The header comes first: the lines up to the first rule, 40 at the most.
    for line in text.prefix(8192).split(whereSeparator: \.isNewline).prefix(40)
    where line.hasPrefix("!") {
      let body = line.dropFirst().trimmingCharacters(in: .whitespaces)
      guard body.hasPrefix(key + ":") else { continue }
      let value = body.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces)
      return value.isEmpty ? nil : value
    }
    return nil
  }

  /// "Last modified: 31 Oct 2025 12:00 UTC" as yyyy-MM-dd; nil when unstated or a placeholder.
  static func statedDate(in text: String) -> String? {
    guard let value = header("Last modified", in: text) else { return nil }
    let parts = value.split(separator: " ")
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    guard parts.count >= 3, let day = Int(parts[0]), let year = Int(parts[2]),
      let month = months.firstIndex(of: String(parts[1])), (1...31).contains(day)
    else { return nil }
    return String(format: "%04d-%02d-%02d", year, month + 1, day)
  }
}
