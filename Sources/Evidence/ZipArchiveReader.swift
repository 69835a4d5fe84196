import CZlib
import Foundation

/// Reads a ZIP's central directory (ZIP64 too) and streams each entry's bytes, checking its
/// CRC-32. What `verify` opens an archive an auditor received with.
public final class ZipArchiveReader {
    public struct Entry: Sendable, Hashable {
        public let name: String
        public let method: UInt16
        public let crc32: UInt32
        public let compressedSize: UInt64
        public let size: UInt64
        public let localHeaderOffset: UInt64
    }

    public let url: URL
    public let entries: [Entry]
    private let handle: FileHandle
    private let fileSize: UInt64

    public init(url: URL) throws {
        self.url = url
        guard let handle = FileHandle(forReadingAtPath: url.path) else { throw EvidenceWriteError("\(url.path) cannot be opened") }
        self.handle = handle
        fileSize = try handle.seekToEnd()
        let tailLength = min(fileSize, 65_557)
        try handle.seek(toOffset: fileSize - tailLength)
        let tail = [UInt8](try handle.read(upToCount: Int(tailLength)) ?? Data())
        guard let eocd = stride(from: tail.count - 22, through: 0, by: -1).first(where: { Self.u32(tail, $0) == 0x0605_4b50 }) else {
            throw EvidenceWriteError("\(url.lastPathComponent) is not a ZIP archive: no end of central directory")
        }
        var count = UInt64(Self.u16(tail, eocd + 10))
        var directorySize = UInt64(Self.u32(tail, eocd + 12))
        var directoryOffset = UInt64(Self.u32(tail, eocd + 16))
        if eocd >= 20, Self.u32(tail, eocd - 20) == 0x0706_4b50 {
            let recordOffset = Self.u64(tail, eocd - 20 + 8)
            try handle.seek(toOffset: recordOffset)
            let record = [UInt8](try handle.read(upToCount: 56) ?? Data())
            guard record.count == 56, Self.u32(record, 0) == 0x0606_4b50 else { throw EvidenceWriteError("the ZIP64 end record is damaged") }
            count = Self.u64(record, 32); directorySize = Self.u64(record, 40); directoryOffset = Self.u64(record, 48)
        }
        guard directoryOffset + directorySize <= fileSize, directorySize < 64 << 20, count < 100_000 else {
            throw EvidenceWriteError("the central directory lies outside the archive")
        }
        try handle.seek(toOffset: directoryOffset)
        let directory = [UInt8](try handle.read(upToCount: Int(directorySize)) ?? Data())
        var entries: [Entry] = []
        var at = 0
        for _ in 0..<count {
            guard at + 46 <= directory.count, Self.u32(directory, at) == 0x0201_4b50 else { throw EvidenceWriteError("the central directory is damaged") }
            let nameLength = Int(Self.u16(directory, at + 28)), extraLength = Int(Self.u16(directory, at + 30)), commentLength = Int(Self.u16(directory, at + 32))
            guard at + 46 + nameLength + extraLength + commentLength <= directory.count else { throw EvidenceWriteError("the central directory is damaged") }
            var compressed = UInt64(Self.u32(directory, at + 20)), size = UInt64(Self.u32(directory, at + 24)), offset = UInt64(Self.u32(directory, at + 42))
            var extra = at + 46 + nameLength
            let extraEnd = extra + extraLength
            while extra + 4 <= extraEnd {
                let id = Self.u16(directory, extra), length = Int(Self.u16(directory, extra + 2))
                if id == 1 {
                    var field = extra + 4
                    if size == 0xFFFF_FFFF { size = Self.u64(directory, field); field += 8 }
                    if compressed == 0xFFFF_FFFF { compressed = Self.u64(directory, field); field += 8 }
                    if offset == 0xFFFF_FFFF { offset = Self.u64(directory, field) }
                }
                extra += 4 + length
            }
            let name = String(decoding: directory[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            entries.append(Entry(name: name, method: Self.u16(directory, at + 10), crc32: Self.u32(directory, at + 16),
                                 compressedSize: compressed, size: size, localHeaderOffset: offset))
            at += 46 + nameLength + extraLength + commentLength
        }
        self.entries = entries
    }

    deinit { try? handle.close() }

    static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    static func u32(_ b: [UInt8], _ i: Int) -> UInt32 { UInt32(u16(b, i)) | UInt32(u16(b, i + 2)) << 16 }
    static func u64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(u32(b, i)) | UInt64(u32(b, i + 4)) << 32 }

    /// Hands the entry's bytes over in chunks; throws if the CRC-32 or the size is not what the directory says.
    public func read(_ entry: Entry, _ body: (Data) throws -> Void) throws {
        try handle.seek(toOffset: entry.localHeaderOffset)
        let local = [UInt8](try handle.read(upToCount: 30) ?? Data())
        guard local.count == 30, Self.u32(local, 0) == 0x0403_4b50 else { throw EvidenceWriteError("\(entry.name): its local header is damaged") }
        let dataOffset = entry.localHeaderOffset + 30 + UInt64(Self.u16(local, 26)) + UInt64(Self.u16(local, 28))
        guard dataOffset + entry.compressedSize <= fileSize else { throw EvidenceWriteError("\(entry.name): its data runs past the end of the archive") }
        try handle.seek(toOffset: dataOffset)
        var crc: uLong = 0
        var produced: UInt64 = 0
        func deliver(_ data: Data) throws {
            crc = data.withUnsafeBytes { CZlib.crc32(crc, $0.bindMemory(to: Bytef.self).baseAddress, uInt($0.count)) }
            produced += UInt64(data.count)
            guard produced <= entry.size else { throw EvidenceWriteError("\(entry.name) holds more bytes than its stated size") }
            try body(data)
        }
        var remaining = entry.compressedSize
        switch entry.method {
        case 0:
            while remaining > 0 {
                let data = try handle.read(upToCount: Int(min(remaining, 4 << 20))) ?? Data()
                guard !data.isEmpty else { throw EvidenceWriteError("\(entry.name) ends early") }
                remaining -= UInt64(data.count)
                try deliver(data)
            }
        case 8:
            // Read and inflated a piece at a time: a document is held once, by whoever keeps it.
            try Deflate.decompress({
                guard remaining > 0 else { return nil }
                let data = try handle.read(upToCount: Int(min(remaining, 1 << 20))) ?? Data()
                guard !data.isEmpty else { throw EvidenceWriteError("\(entry.name) ends early") }
                remaining -= UInt64(data.count)
                return data
            }, deliver: deliver)
        default:
            throw EvidenceWriteError("\(entry.name) uses compression method \(entry.method), which is neither stored nor deflate")
        }
        guard produced == entry.size else { throw EvidenceWriteError("\(entry.name) has \(produced) bytes, not the \(entry.size) its header states") }
        guard UInt32(crc) == entry.crc32 else { throw EvidenceWriteError("\(entry.name) does not match its CRC-32: the archive is damaged") }
    }

    public func data(_ entry: Entry) throws -> Data {
        var out = Data()
        try read(entry) { out.append($0) }
        return out
    }
}
