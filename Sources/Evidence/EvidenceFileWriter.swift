import Audit
import Foundation

/// A file written in order through a buffer, hashed and counted as it goes.
public final class EvidenceFileWriter {
    /// The name the manifest gives it.
    public let name: String
    private var handle: FileHandle?
    private var choice: TargetChoice?
    /// False when the bytes go into a file someone else owns (an archive's entry).
    private var ownsHandle = true
    private var buffer = Data()
    private let digest = SHA256Digest()
    public private(set) var byteCount: UInt64 = 0
    /// CRC-32 of what was written, computed on the same pass: the archive needs it and need not read the file again.
    public private(set) var crc32: UInt32 = 0
    private static let bufferLimit = 1 << 20

    /// The bytes deflated as they are written, when asked for: the archive then need not read the
    /// file again nor deflate it on the thread that assembles it.
    private let deflater: DeflateStream?

    public init(url: URL, deflating: Bool = false) throws {
        name = url.lastPathComponent
        deflater = deflating ? try DeflateStream(level: ZipArchiveWriter.deflateLevel) : nil
        guard FileManager.default.createFile(atPath: url.path, contents: nil), let handle = FileHandle(forWritingAtPath: url.path) else {
            throw EvidenceWriteError("\(url.lastPathComponent) could not be created in \(url.deletingLastPathComponent().path)")
        }
        self.handle = handle
        buffer.reserveCapacity(Self.bufferLimit)
    }

    /// Where the bytes go, chosen once the first of them are known (up to the buffer's size, or all
    /// of them when there are fewer): a file to own and close, or one that stays open (an archive
    /// the bytes are an entry of).
    public typealias TargetChoice = (_ firstBytes: Data) throws -> (handle: FileHandle, closeWhenFinished: Bool)

    public init(name: String, choosingTarget choose: @escaping TargetChoice) {
        self.name = name
        choice = choose
        deflater = nil
        buffer.reserveCapacity(Self.bufferLimit)
    }

    public func write(_ text: String) throws { try write(Data(text.utf8)) }

    public func write(_ data: Data) throws {
        buffer.append(data)
        byteCount += UInt64(data.count)
        if buffer.count >= Self.bufferLimit { try flush() }
    }

    public func write(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        byteCount += UInt64(bytes.count)
        if buffer.count >= Self.bufferLimit { try flush() }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        digest.update(buffer)
        crc32 = Deflate.crc32(crc32, buffer)
        if let deflater { try buffer.withUnsafeBytes { try deflater.append($0) } }
        if handle == nil, let choose = choice {
            let chosen = try choose(buffer)
            handle = chosen.handle
            ownsHandle = chosen.closeWhenFinished
            choice = nil
        }
        do { try handle?.write(contentsOf: buffer) } catch {
            throw EvidenceWriteError("\(name) could not be written: \(error.localizedDescription)")
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Closes the file; returns its manifest entry.
    public func finish() throws -> EvidenceManifest.Entry { try finishFile().entry }

    /// Closes the file; returns its manifest entry and its CRC-32.
    public func finishFile() throws -> WrittenFile {
        if buffer.isEmpty, handle == nil, let choose = choice {
            // Nothing was written: the target is still chosen, so that an empty file exists.
            let chosen = try choose(buffer)
            handle = chosen.handle; ownsHandle = chosen.closeWhenFinished; choice = nil
        }
        try flush()
        if ownsHandle { try handle?.close() }
        return WrittenFile(entry: EvidenceManifest.Entry(name: name, byteCount: byteCount, sha256: digest.finalHex()), crc32: crc32,
                           deflated: try deflater?.finish())
    }
}


/// A write that failed, with what and where.
public struct EvidenceWriteError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A file of the bundle as written: its manifest entry, and the CRC-32 the archive will need.
public struct WrittenFile: Sendable, Hashable {
    public let entry: EvidenceManifest.Entry
    public let crc32: UInt32
    /// The file deflated, when it was deflated as it was written.
    public var deflated: Data? = nil
}
