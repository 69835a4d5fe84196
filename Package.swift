// swift-tools-version:6.0
import PackageDescription

// Layers, dependencies pointing down only (docs/architecture.md):
//   tunnelvision → TunnelVisionCLI (the only importer of AuditScreens)
//     → Evidence (→ ReportPDF), Record (→ Import), Sample → Capture → FlowStore
//   The core, by stage: Audit (values) ← AuditRules ← AuditWording ← AuditDocuments
//     ← ReportContent; AuditScreens sits beside ReportContent, over the documents. ReportModel is
//     the report's blocks and placed pages: ReportContent makes them, ReportLayout places them,
//     ReportPDF draws them.
//   Crypto (SHA-256, Ed25519), Bytes (integers in bytes) and SystemCalls (Errno) stand alone.
//   C shims at the bottom: CSQLite, CCairoPango, CZlib, CCrypto, CPcap; CChecksum, C of our own (CRC-32).
// Release builds put the code the commands run side by side, so that a process maps the pages of
// that code and not of all that lies beside it (docs/performance.md, "Hot code together"): each
// function in a section of its own, and lld placing first those that Sources/tunnelvision/
// hot-functions.order names (scripts/hot-functions.sh writes it from profiles of the commands);
// and relative relocations packed (DT_RELR, glibc 2.36 on), instead of a 2 MB table kept mapped.
let packageDirectory = String(#filePath.dropLast("Package.swift".count))
let hotCodeTogether: [LinkerSetting] = [
  .unsafeFlags(
    [
      "-use-ld=lld", "-Xlinker",
      "--symbol-ordering-file=\(packageDirectory)Sources/tunnelvision/hot-functions.order",
      "-Xlinker", "--no-warn-symbol-ordering", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
    ], .when(configuration: .release))
]

// CFixedPoint's __snprintf_chk in the executables' dynamic symbols, so that the libraries' calls
// reach it (SwiftPM exports an executable's symbols today; this says it for the one relied on).
let fixedPointFirst: [LinkerSetting] = [
  .unsafeFlags(["-Xlinker", "--export-dynamic-symbol=__snprintf_chk"])
]

let package = Package(
  name: "TunnelVisionEvidence",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "tunnelvision", targets: ["tunnelvision"]),
    .executable(name: "tunnelvision-bench", targets: ["tunnelvision-bench"]),
    // The readers of what comes from outside, for the fuzz targets (Fuzz/, a package of its own).
    .library(
      name: "TunnelVisionReaders",
      targets: ["Audit", "AuditRules", "AuditDocuments", "Crypto", "Import", "Evidence"]),
  ],
  targets: [
    .systemLibrary(
      name: "CSQLite", pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(
      name: "CCairoPango", pkgConfig: "pangocairo fontconfig cairo-pdf",
      providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
    .systemLibrary(
      name: "CPSL", pkgConfig: "libpsl",
      providers: [.apt(["libpsl-dev"])]),
    .systemLibrary(
      name: "CZlib", pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]),
    .systemLibrary(
      name: "CCrypto", pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"])]),
    .systemLibrary(
      name: "CPcap", pkgConfig: "libpcap",
      providers: [.apt(["libpcap-dev"])]),
    .systemLibrary(
      name: "CBrotli", pkgConfig: "libbrotlidec",
      providers: [.apt(["libbrotli-dev"])]),
    .systemLibrary(
      name: "CMaxMindDB", pkgConfig: "libmaxminddb",
      providers: [.apt(["libmaxminddb-dev"])]),

    // CRC-32 by carry-less multiplication, zlib's where the processor has none.
    .target(name: "CChecksum", linkerSettings: [.linkedLibrary("z")]),

    // Integers in bytes, bounds-checked: the one reader and writer of every byte format.
    .target(name: "Bytes"),
    // System calls' errors as values (Errno) and the retry on EINTR: the one shim over Glibc;
    // the calls Glibc's module does not declare, in C.
    .target(name: "CSystemCalls"),
    .target(name: "SystemCalls", dependencies: ["CSystemCalls"]),
    // The value model: flows, sessions, projects, instants, JSON; the store's errors and their words.
    .target(name: "Audit", dependencies: ["SystemCalls"]),
    // Tracker lists read into a table of hosts. Optimised in every build: every command that
    // judges a session reads EasyList and EasyPrivacy (3.4 MB), and the test suite runs hundreds.
    .target(name: "TrackerRules", dependencies: ["Audit"], swiftSettings: [.unsafeFlags(["-O"])]),
    // The rules: checks and findings, the catalogue and verdicts, comparison, the inspection join.
    .target(name: "AuditRules", dependencies: ["Audit", "TrackerRules"]),
    // Every sentence a person reads that more than the command line says: each check's wording.
    .target(name: "AuditWording", dependencies: ["Audit", "AuditRules"]),
    // The bundle's documents: session.json, flows.json/csv, findings.json, capture.json.
    .target(name: "AuditDocuments", dependencies: ["Audit", "AuditRules", "AuditWording"]),
    // The report in stages: a model of blocks and placed pages that knows no bundle; the content
    // (the documents → the model, with the wording); the layout (model + measurer → placed
    // pages); the PDF (placed pages → Cairo/Pango).
    .target(name: "ReportModel"),
    .target(
      name: "ReportContent",
      dependencies: ["Audit", "AuditRules", "AuditWording", "AuditDocuments", "ReportModel"]),
    .target(name: "ReportLayout", dependencies: ["ReportModel"]),
    // The terminal screens: only the command line imports them.
    .target(
      name: "AuditScreens",
      dependencies: ["Audit", "AuditRules", "AuditWording", "AuditDocuments"]),
    // SHA-256 and Ed25519 through OpenSSL's libcrypto.
    .target(name: "Crypto", dependencies: ["CCrypto", "SystemCalls"]),
    // The test account's values found in what exchanges sent: forms, one automaton, places.
    .target(name: "ContentMatching", dependencies: ["Audit", "AuditRules", "Crypto"]),
    .target(name: "FlowStore", dependencies: ["Audit", "AuditRules", "CSQLite"]),
    .target(
      name: "Capture",
      dependencies: [
        "SystemCalls", "Bytes", "Audit", "AuditRules", "AuditWording", "FlowStore", "Crypto",
      ]),
    // printf's fixed-point digits from a double's exact value: what Cairo writes a page with.
    .target(name: "CFixedPoint"),
    .target(
      name: "ReportPDF",
      dependencies: [
        "SystemCalls", "ReportModel", "Crypto", "CCairoPango", "CFixedPoint",
      ]),
    .target(
      name: "Evidence",
      dependencies: [
        "SystemCalls", "Bytes", "Audit", "AuditRules", "AuditWording", "AuditDocuments",
        "ReportModel", "ReportContent", "ReportLayout", "FlowStore", "Capture", "Crypto",
        "ReportPDF", "CZlib", "CChecksum", "CPSL", "ContentMatching", "CMaxMindDB",
      ]),
    .target(
      name: "Sample",
      dependencies: [
        "Bytes", "Audit", "AuditRules", "AuditWording", "FlowStore", "Capture", "Crypto", "Import",
      ]),
    .target(
      name: "Import",
      dependencies: [
        "SystemCalls", "Bytes", "Audit", "AuditRules", "AuditWording", "FlowStore", "Capture",
        "Crypto", "CCrypto", "CZlib", "CBrotli",
      ]),
    // The recorder: packets from libpcap or a capture stream, into the store as they arrive.
    .target(
      name: "Record",
      dependencies: [
        "SystemCalls", "Audit", "AuditRules", "AuditWording", "FlowStore", "Capture", "Import",
        "CPcap",
      ]),
    .target(
      name: "TunnelVisionCLI",
      dependencies: [
        "SystemCalls", "Audit", "AuditRules", "AuditWording", "AuditDocuments", "AuditScreens",
        "ReportPDF", "FlowStore", "Capture", "Crypto", "Evidence", "Sample",
        "Import", "Record", "ContentMatching",
      ]),
    .executableTarget(
      name: "tunnelvision", dependencies: ["TunnelVisionCLI"],
      exclude: ["hot-functions.order"], linkerSettings: hotCodeTogether + fixedPointFirst),
    // The benchmark, beside the product and not in its command tree: `make bench`.
    .target(
      name: "TunnelVisionBench",
      dependencies: [
        "TunnelVisionCLI", "SystemCalls", "Audit", "AuditRules", "AuditWording", "AuditDocuments",
        "AuditScreens", "ReportModel", "ReportPDF", "Bytes", "Capture", "ContentMatching",
        "Crypto",
        "Evidence", "FlowStore", "Sample",
      ]),
    .executableTarget(
      name: "tunnelvision-bench", dependencies: ["TunnelVisionBench", "TunnelVisionCLI"],
      linkerSettings: fixedPointFirst),

    // Helpers the tests share: temporary directories, golden files, external tools.
    .target(
      name: "TestSupport", dependencies: ["Audit", "AuditRules", "AuditWording", "ReportModel"],
      path: "Sources/TestSupport"),
    .testTarget(name: "BytesTests", dependencies: ["Bytes"]),
    .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls"]),
    .testTarget(
      name: "ContentMatchingTests", dependencies: ["ContentMatching", "Audit", "TestSupport"]),
    .testTarget(
      name: "AuditTests",
      dependencies: [
        "Audit", "AuditRules", "AuditWording", "AuditDocuments", "ReportModel", "ReportContent",
        "ReportLayout", "AuditScreens", "TestSupport",
      ], exclude: ["Golden", "Fixtures"]),
    .testTarget(
      name: "FlowStoreTests",
      dependencies: [
        "FlowStore", "Audit", "AuditRules", "AuditWording", "TestSupport", "CSQLite",
      ],
      // Stores written by earlier versions, as SQL (read by path).
      exclude: ["Fixtures"]),
    .testTarget(
      name: "CaptureTests",
      dependencies: [
        "Bytes", "Capture", "Crypto", "FlowStore", "Audit", "AuditRules", "AuditWording",
        "AuditDocuments", "AuditScreens", "Sample", "TestSupport",
      ]),
    .testTarget(
      name: "EvidenceTests",
      dependencies: [
        "Evidence", "CChecksum", "CFixedPoint", "ReportPDF", "ReportModel", "ReportContent",
        "ReportLayout",
        "Capture", "Crypto", "FlowStore", "SystemCalls", "TrackerRules",
        "Audit", "AuditRules", "AuditWording", "AuditDocuments", "AuditScreens", "Sample",
        "TestSupport",
      ], exclude: ["Golden"], linkerSettings: fixedPointFirst),
    .testTarget(
      name: "ImportTests",
      dependencies: [
        "Import", "Capture", "Crypto", "FlowStore", "Audit", "AuditRules", "AuditWording",
        "AuditDocuments", "AuditScreens", "Evidence", "Sample", "TestSupport", "Bytes",
      ],
      // Real captures made for the tests (scripts/make-test-captures.py), read by path.
      exclude: ["Captures"]),
    .testTarget(
      name: "TunnelVisionCLITests",
      dependencies: [
        "TunnelVisionCLI", "FlowStore", "Capture", "Crypto", "Audit", "AuditRules", "AuditWording",
        "AuditDocuments", "AuditScreens", "Sample", "TestSupport", "Bytes", "Record", "SystemCalls",
      ],
      // Traffic: the real exchanges on loopback the recorder's tests record (Python).
      exclude: ["Golden", "Traffic"]),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets where target.type == .regular || target.type == .executable {
  target.swiftSettings =
    (target.swiftSettings ?? [])
    + [.unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release))]
}
