import Foundation
import TestSupport
import XCTest

/// A signed bundle: a changed file with its manifest recomputed is caught; without a signature
/// nothing can catch that, and verify's last line says so.
final class SignedBundleTests: XCTestCase {
  func testASignedBundleCatchesAChangeWithItsManifestRecomputedAndAnUnsignedOneSaysItCannot()
    throws
  {
    let binary = try TunnelVisionExecutable.url()
    let dir = TemporaryDirectory("signed")
    let store = dir.url.appendingPathComponent("store").path
    XCTAssertEqual(try ExternalTool.run(binary.path, ["sample", "--store", store])?.status, 0)
    let key = dir.url.appendingPathComponent("key.pem").path
    let pub = dir.url.appendingPathComponent("pub.pem").path
    let other = dir.url.appendingPathComponent("other.pem").path
    let otherPub = dir.url.appendingPathComponent("other-pub.pem").path
    for (k, p) in [(key, pub), (other, otherPub)] {
      XCTAssertEqual(
        try ExternalTool.run("openssl", ["genpkey", "-algorithm", "ed25519", "-out", k])?.status, 0)
      XCTAssertEqual(
        try ExternalTool.run("openssl", ["pkey", "-in", k, "-pubout", "-out", p])?.status, 0)
    }
    func tv(_ arguments: String...) throws -> (status: Int32, output: String, error: String) {
      try XCTUnwrap(ExternalTool.run(binary.path, ["--store", store] + arguments))
    }
    let signed = dir.url.appendingPathComponent("signed.zip").path
    let unsigned = dir.url.appendingPathComponent("unsigned.zip").path
    XCTAssertEqual(try tv("export", "3", "--no-report", "--sign", key, "-o", signed).status, 0)
    XCTAssertEqual(try tv("export", "3", "--no-report", "-o", unsigned).status, 0)

    let trusted = try tv("verify", signed, "--key", pub)
    XCTAssertEqual(trusted.status, 0, trusted.output)
    XCTAssertTrue(trusted.output.hasSuffix("Every check holds.\n"), trusted.output)
    let untrusted = try tv("verify", signed)
    XCTAssertEqual(untrusted.status, 0)
    XCTAssertTrue(
      untrusted.output.contains("which was not checked against a key you trust"), untrusted.output)
    let another = try tv("verify", signed, "--key", otherPub)
    XCTAssertEqual(another.status, 1, "another signer")
    XCTAssertTrue(another.output.contains("not by the key given"), another.output)
    XCTAssertFalse(another.output.contains("give verify --key"), "the key was given")
    XCTAssertEqual(try tv("verify", unsigned, "--key", pub).status, 1, "no signature at all")
    let plain = try tv("verify", unsigned)
    XCTAssertTrue(plain.output.hasSuffix("(export --sign KEY signs it).\n"), plain.output)

    // A byte of a packet changed and manifest.json recomputed to fit, signature.json kept.
    let script = #"""
      import zipfile, hashlib, json, sys
      src, dst = sys.argv[1], sys.argv[2]
      z = zipfile.ZipFile(src); data = {i.filename: z.read(i) for i in z.infolist()}
      cap = bytearray(data["capture.pcapng"]); cap[-80] ^= 0xFF; data["capture.pcapng"] = bytes(cap)
      m = json.loads(data["manifest.json"])
      for f in m["files"]:
          f["sha256"] = hashlib.sha256(data[f["name"]]).hexdigest(); f["byteCount"] = len(data[f["name"]])
      data["manifest.json"] = (json.dumps(m, indent=2, sort_keys=True) + "\n").encode()
      out = zipfile.ZipFile(dst, "w")
      for i in z.infolist(): out.writestr(i, data[i.filename])
      out.close()
      """#
    for (source, name) in [(signed, "changed-signed.zip"), (unsigned, "changed-unsigned.zip")] {
      let changed = dir.url.appendingPathComponent(name).path
      let run = try XCTUnwrap(ExternalTool.run("python3", ["-c", script, source, changed]))
      XCTAssertEqual(run.status, 0, run.error)
      let result = try tv("verify", changed, "--key", pub)
      XCTAssertEqual(result.status, 1, name)
      if source == signed {
        XCTAssertTrue(
          result.output.contains("signature.json does not sign this manifest.json"), result.output)
      } else {
        // Without a signature every check still holds, as the last line warns.
        let alone = try tv("verify", changed)
        XCTAssertEqual(alone.status, 0, alone.output)
        XCTAssertTrue(alone.output.contains("The bundle is not signed"), alone.output)
      }
    }
  }
}
