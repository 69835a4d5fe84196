import Foundation
import TestSupport
import XCTest

/// One open session across processes: the store's rule has to hold when two `tunnelvision`
/// processes race to start one, not only inside one process.
final class OpenSessionRaceTests: XCTestCase {
    func testProcessesRacingToStartASessionLeaveExactlyOneOpen() throws {
        let binary = try TunnelVisionBinary.url()
        let dir = TemporaryDirectory("race")
        let store = dir.url.appendingPathComponent("store").path
        for name in ["A", "B", "C", "D"] {
            XCTAssertEqual(try ExternalTool.run(binary.path, ["project", "new", name, "--store", store])?.status, 0)
        }
        // Eight processes at once, two per project.
        var processes: [(Process, Pipe)] = []
        for i in 0..<8 {
            let process = Process()
            process.executableURL = binary
            process.arguments = ["session", "start", ["A", "B", "C", "D"][i % 4], "--version", "1.\(i)", "--build", "\(i)", "--store", store]
            let err = Pipe()
            process.standardError = err
            process.standardOutput = Pipe()
            processes.append((process, err))
        }
        for (process, _) in processes { try process.run() }
        var statuses: [Int32] = []
        var errors: [String] = []
        for (process, err) in processes {
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            statuses.append(process.terminationStatus)
            if process.terminationStatus != 0 { errors.append(text) }
        }
        XCTAssertEqual(statuses.filter { $0 == 0 }.count, 1, "\(statuses) \(errors)")
        XCTAssertEqual(statuses.filter { $0 == 1 }.count, 7, "\(statuses) \(errors)")
        for text in errors { XCTAssertTrue(text.contains("is recording, and only one session can record at a time"), text) }
        let open = try XCTUnwrap(ExternalTool.run("sqlite3", [store + "/history.sqlite", "SELECT count(*) FROM audit_sessions WHERE ended_at IS NULL"]))
        XCTAssertEqual(open.output.trimmingCharacters(in: .whitespacesAndNewlines), "1")
    }
}

/// The built `tunnelvision` executable, beside the test bundle.
enum TunnelVisionBinary {
    static func url() throws -> URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("tunnelvision")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        throw NSError(domain: "TunnelVisionBinary", code: 1, userInfo: [NSLocalizedDescriptionKey:
            "the tunnelvision executable is not built beside the tests; run 'swift build' before 'swift test' (make test does)"])
    }
}

/// Exports running at once from separate processes: each works in a directory of its own, so
/// none clears another's files and every bundle comes out whole.
final class ConcurrentExportTests: XCTestCase {
    func testFourExportsRunningAtOnceEachWriteAWholeBundle() throws {
        let binary = try TunnelVisionBinary.url()
        let dir = TemporaryDirectory("concurrent-export")
        let store = dir.url.appendingPathComponent("store").path
        XCTAssertEqual(try ExternalTool.run(binary.path, ["sample", "--store", store])?.status, 0)
        var processes: [(Process, Pipe, String)] = []
        for i in 0..<4 {
            let bundle = dir.url.appendingPathComponent("bundle-\(i).zip").path
            let process = Process()
            process.executableURL = binary
            process.arguments = ["export", i % 2 == 0 ? "2" : "3", "-o", bundle, "--no-report", "--at", "2026-10-09T10:00:00Z", "--store", store]
            let err = Pipe()
            process.standardError = err
            process.standardOutput = Pipe()
            processes.append((process, err, bundle))
        }
        for (process, _, _) in processes { try process.run() }
        for (process, err, bundle) in processes {
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, text)
            let test = try XCTUnwrap(ExternalTool.run("unzip", ["-t", bundle]))
            XCTAssertEqual(test.status, 0, test.output)
            XCTAssertTrue(test.output.contains("No errors detected"), test.output)
        }
        // The two exports of one session at one instant are the same bytes.
        let digests = try processes.map { try XCTUnwrap(ExternalTool.run("sha256sum", [$0.2])).output.prefix(64) }
        XCTAssertEqual(digests[0], digests[2])
        XCTAssertEqual(digests[1], digests[3])
        XCTAssertNotEqual(digests[0], digests[1])
    }

    func testExportsRacingToOneDestinationLeaveOneWholeBundleAndNoPartialFiles() throws {
        let binary = try TunnelVisionBinary.url()
        let dir = TemporaryDirectory("same-destination")
        let store = dir.url.appendingPathComponent("store").path
        XCTAssertEqual(try ExternalTool.run(binary.path, ["sample", "--store", store])?.status, 0)
        let out = dir.url.appendingPathComponent("out", isDirectory: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let bundle = out.appendingPathComponent("bundle.zip").path
        let reference = dir.url.appendingPathComponent("reference.zip").path
        let arguments = ["export", "3", "--no-report", "--at", "2026-10-09T10:00:00Z", "--store", store, "-o"]
        XCTAssertEqual(try ExternalTool.run(binary.path, arguments + [reference])?.status, 0)
        let processes = try (0..<4).map { _ -> (Process, Pipe) in
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments + [bundle]
            let err = Pipe()
            process.standardError = err
            process.standardOutput = Pipe()
            try process.run()
            return (process, err)
        }
        for (process, err) in processes {
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, text)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: bundle)), try Data(contentsOf: URL(fileURLWithPath: reference)))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path), ["bundle.zip"])
    }

    func testADestinationThatCannotBeReplacedIsNamedAndKept() throws {
        let binary = try TunnelVisionBinary.url()
        let dir = TemporaryDirectory("unreplaceable")
        let store = dir.url.appendingPathComponent("store").path
        XCTAssertEqual(try ExternalTool.run(binary.path, ["sample", "--store", store])?.status, 0)
        // A directory with something in it where the bundle should go: rename(2) cannot replace it.
        let destination = dir.url.appendingPathComponent("bundle.zip", isDirectory: true)
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        try Data("kept".utf8).write(to: destination.appendingPathComponent("inside"))
        let result = try XCTUnwrap(ExternalTool.run(binary.path, ["export", "3", "--no-report", "--store", store, "-o", destination.path]))
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.error.contains("bundle.zip could not be put in place in \(dir.url.path)"), result.error)
        XCTAssertTrue(result.error.contains("Nothing was left behind"), result.error)
        XCTAssertEqual(try String(contentsOf: destination.appendingPathComponent("inside"), encoding: .utf8), "kept")
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: dir.url.path)), ["store", "bundle.zip"])
    }

}
