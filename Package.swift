// swift-tools-version:6.0
import PackageDescription

// Layers, dependencies pointing down only (docs/architecture.md):
//   tunnelvision → TunnelVisionCLI → Evidence (→ ReportPDF), Record (→ Import), Sample
//     → Capture → FlowStore → Audit (pure)
//   Bytes (integers in bytes) and SystemCalls (Errno) depend on nothing.
//   C shims at the bottom: CSQLite, CCairoPango, CZlib, CCrypto, CPcap; CChecksum, C of our own (CRC-32).
let package = Package(
  name: "TunnelVisionEvidence",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "tunnelvision", targets: ["tunnelvision"])
  ],
  targets: [
    .systemLibrary(
      name: "CSQLite", pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(
      name: "CCairoPango", pkgConfig: "pangocairo fontconfig cairo-pdf",
      providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
    .systemLibrary(
      name: "CZlib", pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]),
    .systemLibrary(
      name: "CCrypto", pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"])]),
    .systemLibrary(
      name: "CPcap", pkgConfig: "libpcap",
      providers: [.apt(["libpcap-dev"])]),

    // CRC-32 by carry-less multiplication, zlib's where the processor has none.
    .target(name: "CChecksum", linkerSettings: [.linkedLibrary("z")]),

    // Integers in bytes, bounds-checked: the one reader and writer of every byte format.
    .target(name: "Bytes"),
    // System calls' errors as values (Errno) and the retry on EINTR: the one shim over Glibc.
    .target(name: "SystemCalls"),
    .target(name: "Audit", dependencies: ["SystemCalls"]),
    .target(name: "FlowStore", dependencies: ["Audit", "CSQLite"]),
    .target(
      name: "Capture", dependencies: ["SystemCalls", "Bytes", "Audit", "FlowStore", "CCrypto"]),
    .target(name: "ReportPDF", dependencies: ["SystemCalls", "Audit", "Capture", "CCairoPango"]),
    .target(
      name: "Evidence",
      dependencies: [
        "SystemCalls",
        "Bytes", "Audit", "FlowStore", "Capture", "ReportPDF", "CZlib", "CChecksum", "CCrypto",
      ]),
    .target(name: "Sample", dependencies: ["Bytes", "Audit", "FlowStore", "Capture"]),
    .target(name: "Import", dependencies: ["Bytes", "Audit", "FlowStore", "Capture", "CCrypto"]),
    // The recorder: packets from libpcap or a capture stream, into the store as they arrive.
    .target(
      name: "Record",
      dependencies: ["SystemCalls", "Audit", "FlowStore", "Capture", "Import", "CPcap"]),
    .target(
      name: "TunnelVisionCLI",
      dependencies: [
        "SystemCalls", "Audit", "FlowStore", "Capture", "Evidence", "Sample", "Import", "Record",
      ]),
    .executableTarget(name: "tunnelvision", dependencies: ["TunnelVisionCLI"]),

    // Helpers the tests share: temporary directories, golden files, external tools.
    .target(name: "TestSupport", dependencies: ["Audit"], path: "Sources/TestSupport"),
    .testTarget(name: "BytesTests", dependencies: ["Bytes"]),
    .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls"]),
    .testTarget(name: "AuditTests", dependencies: ["Audit", "TestSupport"], exclude: ["Golden"]),
    .testTarget(name: "FlowStoreTests", dependencies: ["FlowStore", "Audit", "TestSupport"]),
    .testTarget(
      name: "CaptureTests",
      dependencies: ["Bytes", "Capture", "FlowStore", "Audit", "Sample", "TestSupport"]),
    .testTarget(
      name: "EvidenceTests",
      dependencies: [
        "Evidence", "CChecksum", "ReportPDF", "Capture", "FlowStore", "Audit", "Sample",
        "TestSupport",
      ], exclude: ["Golden"]),
    .testTarget(
      name: "ImportTests",
      dependencies: [
        "Import", "Capture", "FlowStore", "Audit", "Evidence", "Sample", "TestSupport", "Bytes",
      ],
      // Real captures made for the tests (scripts/make-test-captures.py), read by path.
      exclude: ["Captures"]),
    .testTarget(
      name: "TunnelVisionCLITests",
      dependencies: [
        "TunnelVisionCLI", "FlowStore", "Capture", "Audit", "Sample", "TestSupport", "Bytes",
        "Record",
      ],
      // Traffic: the real exchanges on loopback the recorder's tests record (Python).
      exclude: ["Golden", "Traffic"]),
  ],
  swiftLanguageModes: [.v6]
)
