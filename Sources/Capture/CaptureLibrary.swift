import Audit
import AuditRules
import AuditWording
import Crypto
import Foundation
import SystemCalls

/// One packet's bytes as they are in the `.pcap`.
public struct CaptureRecord: Sendable, Hashable {
  public let location: CaptureLocation
  /// The bare IP datagram (LINKTYPE_RAW).
  public let bytes: Data
  /// Its length before the snaplen.
  public let originalLength: UInt32
  public let timestampMicroseconds: UInt64
  public var capturedLength: UInt32 { UInt32(bytes.count) }
  public var isTruncated: Bool { originalLength > capturedLength }
}

/// Why a record could not be read back.
public enum CaptureRecordProblem: Sendable, Hashable, CustomStringConvertible {
  case notACapture(reason: String)
  case offsetInsideHeader(UInt64)
  case offsetPastEnd(UInt64)
  case recordCutShort(UInt64)
  case recordLargerThanSnaplen(offset: UInt64, length: UInt32, snaplen: UInt32)

  public var description: String {
    switch self {
    case .notACapture(let reason): return "not a capture of ours (\(reason))"
    case .offsetInsideHeader(let o): return "offset \(o) is inside the file header"
    case .offsetPastEnd(let o): return "offset \(o) is past the end of the file"
    case .recordCutShort(let o): return "the record at offset \(o) is cut short"
    case .recordLargerThanSnaplen(let o, let length, let snaplen):
      return
        "the record at offset \(o) claims \(length) bytes, more than the file's snaplen of \(snaplen)"
    }
  }
}

public enum CaptureLibraryError: Error, Sendable, Hashable, CustomStringConvertible {
  case containerUnavailable(String)
  case deletionFailed(String)
  /// That sequence is not in the directory: for a packet, its bytes are gone.
  case notFound(UInt32)
  case recordUnreadable(CaptureRecordProblem)

  public var description: String {
    switch self {
    case .containerUnavailable(let reason):
      return "The captures directory cannot be read: \(reason)."
    case .deletionFailed(let reason): return "A capture file could not be deleted: \(reason)."
    case .notFound(let sequence):
      return "Capture file \(CaptureFileName.of(sequence: sequence)) is not there."
    case .recordUnreadable(let problem): return "A capture record could not be read: \(problem)."
    }
  }
}

/// The store's capture directory: listing, deleting, and reading one packet's record.
public struct CaptureLibrary: Sendable {
  public let directory: URL
  public init(directory: URL) { self.directory = directory }

  /// In sequence order; files of any other name are ignored. An absent directory reads as empty.
  public func files() throws(CaptureLibraryError) -> [CaptureFileInfo] {
    let fm = FileManager.default
    var isDirectory: ObjCBool = false
    guard fm.fileExists(atPath: directory.path, isDirectory: &isDirectory) else { return [] }
    guard isDirectory.boolValue else {
      throw .containerUnavailable("\(directory.path) is not a directory")
    }
    let names: [String]
    do { names = try fm.contentsOfDirectory(atPath: directory.path) } catch {
      throw .containerUnavailable("\(directory.path): \(SystemErrorText.reason(error))")
    }
    return names.compactMap { name -> CaptureFileInfo? in
      guard let sequence = CaptureFileName.sequence(of: name) else { return nil }
      let url = directory.appendingPathComponent(name)
      guard case .success(let status) = FileStatus.of(path: url.path), status.isRegularFile else {
        return nil
      }
      return CaptureFileInfo(
        sequence: sequence, url: url, byteCount: status.size, createdAt: status.birth)
    }.sorted { $0.sequence < $1.sequence }
  }

  public func url(sequence: UInt32) -> URL {
    directory.appendingPathComponent(CaptureFileName.of(sequence: sequence))
  }

  public func delete(sequence: UInt32) throws(CaptureLibraryError) {
    let url = self.url(sequence: sequence)
    guard FileManager.default.fileExists(atPath: url.path) else { throw .notFound(sequence) }
    do { try FileManager.default.removeItem(at: url) } catch {
      throw .deletionFailed("\(url.lastPathComponent): \(SystemErrorText.reason(error))")
    }
  }

  /// Reads the record of one packet in a few bounded reads.
  public func record(at location: CaptureLocation) throws(CaptureLibraryError) -> CaptureRecord {
    let reader = try CaptureFileReader(
      url: url(sequence: location.fileSequence), sequence: location.fileSequence)
    return try reader.record(at: location.offset)
  }
}
