import CSystemCalls
import Foundation

/// What a listing of the capture directory needs of each file, in one statx(2): Foundation's
/// attributes also read the owner's name (/etc/passwd, /etc/group) and the extended attributes,
/// a third of a millisecond a file.
public struct FileStatus: Sendable, Hashable {
  public let size: UInt64
  public let isRegularFile: Bool
  /// When the file was made, where the file system keeps it.
  public let birth: Date?

  /// The status of the file at `path` itself (a symbolic link is not followed).
  public static func of(path: String) -> Result<FileStatus, Errno> {
    var status = tv_file_status()
    return nothingOrErrno { tv_file_status(path, &status) }.map {
      FileStatus(
        size: status.size, isRegularFile: status.is_regular != 0,
        birth: status.has_birth != 0
          ? Date(
            timeIntervalSince1970: Double(status.birth_seconds) + Double(status.birth_nanoseconds)
              / 1e9) : nil)
    }
  }
}
