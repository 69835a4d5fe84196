// swift-tools-version:6.0
// libFuzzer targets for every reader of what comes from outside, built apart from the product
// (the product's build and flags are unchanged): `make fuzz`, docs/fuzzing.md.
//   swift build --package-path Fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
import PackageDescription

// Each target's entry is `<Target>_main` (SwiftPM points an executable's main there), which
// hands its `LLVMFuzzerTestOneInput` to libFuzzer's driver.
let targets: [(name: String, reads: String)] = [
  ("FuzzCapture", "pcap and pcapng, every packet dissected"),
  ("FuzzBundle", "an evidence bundle, as verify reads it"),
  ("FuzzInspectionLog", "mitmproxy's log"),
  ("FuzzCatalogue", "a requirement catalogue"),
  ("FuzzJSON", "the strict JSON reader"),
  ("FuzzKey", "a PEM key"),
  ("FuzzSessionRecord", "session.json read back"),
  ("FuzzTrackerList", "a tracker list: Adblock rules or a hosts file"),
  ("FuzzHAR", "a HAR file"),
  ("FuzzHTTP1", "HTTP/1 from a TCP stream in the clear"),
  ("FuzzContentDecoder", "a body's Content-Encoding: gzip, deflate, br"),
  ("FuzzTestsslReport", "testssl.sh's JSON, each server judged"),
  ("FuzzAddressDatabase", "a MaxMind DB address database, through libmaxminddb"),
]

let package = Package(
  name: "TunnelVisionFuzz",
  products: targets.map { .executable(name: $0.name, targets: [$0.name]) },
  dependencies: [.package(name: "tunnelvision", path: "..")],
  targets: [
    .target(name: "CFuzzDriver", path: "Sources/CFuzzDriver"),
    .target(name: "FuzzSupport", dependencies: ["CFuzzDriver"], path: "Sources/FuzzSupport"),
  ]
    + targets.map { target in
      .executableTarget(
        name: target.name,
        dependencies: [
          "FuzzSupport", .product(name: "TunnelVisionReaders", package: "tunnelvision"),
        ],
        path: "Sources/\(target.name)")
    }
)
