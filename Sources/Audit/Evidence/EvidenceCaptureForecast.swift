/// What capture.json will count, said before a record is read: from the history's counts and
/// what each capture file's header and size show. A record that turns out unreadable for a
/// reason only its own header tells (a length over the snaplen) makes the forecast wrong; the
/// exporter compares it with the capture it wrote, and draws the report again when they differ.
public enum EvidenceCaptureForecast {
    /// One source file as it stands before slicing.
    public struct File: Sendable, Hashable {
        public enum Standing: Sendable, Hashable {
            case missing
            case unreadable
            /// Opened: its size, its snaplen, and the session's packets at its edges (in the
            /// header, or close enough to the end that their record may not fit).
            case readable(size: UInt64, snaplen: UInt32, edgePackets: [EdgePacket])
        }
        public let sequence: UInt32
        public let standing: Standing
        public init(sequence: UInt32, standing: Standing) { self.sequence = sequence; self.standing = standing }
    }

    public struct EdgePacket: Sendable, Hashable {
        public let offset: UInt64
        public let length: Int
        public let microseconds: Int64
        public init(offset: UInt64, length: Int, microseconds: Int64) { self.offset = offset; self.length = length; self.microseconds = microseconds }
    }

    /// How far from a file's end a record may start and still be cut short.
    public static func tailFrom(size: UInt64, snaplen: UInt32) -> UInt64 {
        size > UInt64(pcapRecordHeader) + UInt64(snaplen) ? size - UInt64(pcapRecordHeader) - UInt64(snaplen) - 1 : 0
    }

    static let pcapHeader: UInt64 = 24
    static let pcapRecordHeader = 16

    /// Would the reader give up on this record for what the file's size shows?
    static func unreadable(_ packet: EdgePacket, size: UInt64, snaplen: UInt32) -> Bool {
        if packet.offset < pcapHeader || packet.offset >= size { return true }
        let included = UInt64(min(max(packet.length, 0), Int(snaplen)))
        return packet.offset + UInt64(pcapRecordHeader) + included > size
    }

    public static func summary(sessionID: Int64, counts: [(fileSequence: UInt32?, packets: Int, beforeStart: Int, afterEnd: Int)],
                               files: [File], start: Int64, end: Int64) -> EvidenceCaptureSummary {
        var tally = EvidencePacketTally()
        var before = 0, after = 0
        var perFile: [UInt32: (packets: Int, before: Int, after: Int)] = [:]
        for count in counts {
            guard let sequence = count.fileSequence else { tally.add(.notCaptured, count.packets); continue }
            var sum = perFile[sequence] ?? (0, 0, 0)
            sum.packets += count.packets; sum.before += count.beforeStart; sum.after += count.afterEnd
            perFile[sequence] = sum
        }
        for file in files {
            guard let sum = perFile[file.sequence] else { continue }
            switch file.standing {
            case .missing: tally.add(.captureFileMissing, sum.packets)
            case .unreadable: tally.add(.recordUnreadable, sum.packets)
            case let .readable(size, snaplen, edges):
                let lost = edges.filter { unreadable($0, size: size, snaplen: snaplen) }
                if !lost.isEmpty { tally.add(.recordUnreadable, lost.count) }
                tally.written += sum.packets - lost.count
                before += sum.before - lost.filter { $0.microseconds < start }.count
                after += sum.after - lost.filter { $0.microseconds > end }.count
            }
        }
        return EvidenceCaptureSummary(sessionID: sessionID, packets: tally, beforeStart: before, afterEnd: after)
    }
}
