import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// rename(2): puts a finished file where it was asked for in one step. On one file system the
/// file that was there stays readable until the new one replaces it, so a failure never leaves
/// the destination missing.
enum AtomicRename {
    static func rename(_ source: URL, to destination: URL) throws {
        guard Glibc.rename(source.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            throw EvidenceWriteError("\(destination.lastPathComponent) could not be put in place in \(destination.deletingLastPathComponent().path): \(reason)")
        }
    }

    /// A name beside `destination` for writing it, of this process and this call alone.
    static func partialName(for destination: URL) -> URL {
        destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).partial-\(getpid())-\(UUID().uuidString.prefix(8))")
    }
}
