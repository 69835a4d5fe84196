import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// rename(2): puts a finished file (or directory) where it was asked for in one step. On one file
/// system what was there stays until the new one replaces it, so a failure never leaves the
/// destination missing; a directory is replaced only when it is empty.
public enum AtomicRename {
    public struct Failure: Error, CustomStringConvertible {
        public let destination: URL
        public let reason: String
        public var description: String {
            "\(destination.lastPathComponent) could not be put in place in \(destination.deletingLastPathComponent().path): \(reason)"
        }
    }

    public static func rename(_ source: URL, to destination: URL) throws(Failure) {
        guard Glibc.rename(source.path, destination.path) == 0 else {
            throw Failure(destination: destination, reason: String(cString: strerror(errno)))
        }
    }

    /// A name beside `destination` to write it under, of this process and this call alone.
    public static func partialName(for destination: URL) -> URL {
        destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).partial-\(getpid())-\(UUID().uuidString.prefix(8))")
    }
}
