import Audit
import AuditRules
import AuditWording
import Foundation

/// Follows an inspecting proxy's log as it grows, the way `tail -F` does: each call hands over the
/// lines completed since the last. The file may not exist yet; a line cut short waits for its end.
/// A log truncated or rewritten (its first bytes no longer those read) is read again from its
/// start; one renamed over or deleted and made anew is read to its end, then the new one from its
/// start. Each such turn is counted, with the part of a line it cut off.
final class InspectionLogFollower {
  let url: URL
  private var handle: FileHandle?
  /// The file being read: its device and inode, how far it was read, and its first bytes.
  private var identity: (device: UInt64, inode: UInt64)?
  private var offset: UInt64 = 0
  private var head = Data()
  private var pending = Data()
  private var lineNumber = 0
  /// Lines that were not log lines, with why (the first few kept, for the summary).
  private(set) var unreadable: [InspectionLog.Problem] = []
  private(set) var unreadableCount = 0
  /// Times the log was truncated or rewritten, and replaced by another file.
  private(set) var restarts = 0
  private(set) var replacements = 0
  /// Parts of a line left unended when the log turned: lost.
  private(set) var linesCut = 0

  /// Bytes read from the log, over every file at its path.
  private var bytesRead: UInt64 = 0

  /// What became of the log so far: not there, not readable, nothing in it, or read. Judged by
  /// opening the file, not by whether this follower has yet: a restarted recorder finds a log with
  /// lines in it before its first poll, and that log is readable.
  var state: InspectionLogState {
    if bytesRead > 0 { return .read }
    var status = stat()
    guard stat(url.path, &status) == 0 else {
      return errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable
    }
    if (status.st_mode & S_IFMT) == S_IFDIR { return .unreadable }
    if handle == nil { open() }
    guard handle != nil else { return .unreadable }
    return status.st_size > 0 ? .read : .empty
  }

  /// How many of a file's first bytes tell it from a rewrite of it.
  static let headLength = 256

  init(url: URL) { self.url = url }

  func newLines() -> InspectionLogContents {
    var entries = InspectionLogContents()
    if handle == nil { open() }
    guard handle != nil else { return entries }
    // Another file at the path (renamed over, or deleted and made anew): the old one's last
    // lines first, then the new one from its start.
    if let now = Self.identity(ofPath: url.path), let identity, now != identity {
      entries = read()
      replacements += 1
      turn()
      open()
    } else if let size = try? handle?.seekToEnd(), size < offset || !headUnchanged() {
      // Truncated, or rewritten from its start: read it again from there.
      restarts += 1
      turn()
      try? handle?.seek(toOffset: 0)
    }
    let more = read()
    entries.entries += more.entries
    entries.exchanges += more.exchanges
    entries.starts += more.starts
    return entries
  }

  private func open() {
    guard let opened = FileHandle(forReadingAtPath: url.path) else { return }
    handle = opened
    identity = Self.identity(of: opened.fileDescriptor)
  }

  /// Forgets where the file was read: the unended part of a line is lost.
  private func turn() {
    if !pending.isEmpty { linesCut += 1 }
    pending = Data()
    head = Data()
    offset = 0
  }

  /// Whether the file still begins with the bytes it began with when they were read.
  private func headUnchanged() -> Bool {
    guard !head.isEmpty, let handle else { return true }
    let now = (try? Self.bytes(handle, at: 0, count: head.count)) ?? Data()
    return now == head
  }

  private func read() -> InspectionLogContents {
    guard let handle else { return InspectionLogContents() }
    try? handle.seek(toOffset: offset)
    guard let data = try? handle.readToEnd(), !data.isEmpty else { return InspectionLogContents() }
    if head.count < Self.headLength {
      head += data.prefix(Self.headLength - head.count)
    }
    offset += UInt64(data.count)
    bytesRead += UInt64(data.count)
    pending += data
    var entries = InspectionLogContents()
    // Lines are read where they lie; what follows the last whole line is kept once, after, so
    // that reading is linear in the log (copying the rest after each line made it quadratic).
    var start = pending.startIndex
    while let newline = pending[start...].firstIndex(of: 0x0a) {
      lineNumber += 1
      do {
        if let line = try InspectionLog.line(Data(pending[start..<newline]), number: lineNumber) {
          entries.add(line)
        }
      } catch {
        unreadableCount += 1
        if unreadable.count < 3 { unreadable.append(error) }
      }
      start = newline + 1
    }
    pending = Data(pending[start...])
    return entries
  }

  private static func bytes(_ handle: FileHandle, at position: UInt64, count: Int) throws -> Data {
    let here = try handle.offset()
    defer { try? handle.seek(toOffset: here) }
    try handle.seek(toOffset: position)
    return try handle.read(upToCount: count) ?? Data()
  }

  private static func identity(ofPath path: String) -> (device: UInt64, inode: UInt64)? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return (UInt64(status.st_dev), UInt64(status.st_ino))
  }

  private static func identity(of descriptor: Int32) -> (device: UInt64, inode: UInt64)? {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return nil }
    return (UInt64(status.st_dev), UInt64(status.st_ino))
  }
}
