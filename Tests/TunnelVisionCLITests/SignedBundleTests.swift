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

extension SignedBundleTests {
  /// Found by a reliability run: signature.json was read leniently, an encrypted key waited on a
  /// pass-phrase prompt, and a public key given to --sign failed only once the bundle was built.
  func testSignatureJSONIsReadStrictlyAndAKeyIsCheckedBeforeAnyExport() throws {
    let binary = try TunnelVisionExecutable.url()
    let dir = TemporaryDirectory("signature-strict")
    let store = dir.url.appendingPathComponent("store").path
    XCTAssertEqual(try ExternalTool.run(binary.path, ["sample", "--store", store])?.status, 0)
    let key = dir.url.appendingPathComponent("key.pem").path
    let pub = dir.url.appendingPathComponent("pub.pem").path
    let locked = dir.url.appendingPathComponent("locked.pem").path
    XCTAssertEqual(
      try ExternalTool.run("openssl", ["genpkey", "-algorithm", "ed25519", "-out", key])?.status, 0)
    XCTAssertEqual(
      try ExternalTool.run("openssl", ["pkey", "-in", key, "-pubout", "-out", pub])?.status, 0)
    XCTAssertEqual(
      try ExternalTool.run(
        "openssl", ["pkey", "-in", key, "-aes256", "-passout", "pass:secret", "-out", locked])?
        .status, 0)
    func tv(_ arguments: String...) throws -> (status: Int32, output: String, error: String) {
      try XCTUnwrap(ExternalTool.run(binary.path, ["--store", store] + arguments))
    }
    let never = dir.url.appendingPathComponent("never.zip").path
    let encrypted = try tv("export", "3", "--no-report", "--sign", locked, "-o", never)
    XCTAssertEqual(encrypted.status, 1)
    XCTAssertTrue(encrypted.error.contains("is encrypted with a pass phrase"), encrypted.error)
    let publicOnly = try tv("export", "3", "--no-report", "--sign", pub, "-o", never)
    XCTAssertEqual(publicOnly.status, 1)
    XCTAssertTrue(publicOnly.error.contains("holds only an Ed25519 public key"), publicOnly.error)
    XCTAssertFalse(FileManager.default.fileExists(atPath: never), "refused before any export")
    let locked2 = try tv("verify", never, "--key", locked)
    XCTAssertNotEqual(locked2.status, 0)

    let signed = dir.url.appendingPathComponent("signed.zip").path
    XCTAssertEqual(try tv("export", "3", "--no-report", "--sign", key, "-o", signed).status, 0)
    // #44.7: a key file is one PEM block and nothing more (OpenSSL would read the first and
    // ignore the rest).
    let pubText = try String(contentsOfFile: pub, encoding: .utf8)
    let other = dir.url.appendingPathComponent("other.pem").path
    XCTAssertEqual(
      try ExternalTool.run("openssl", ["genpkey", "-algorithm", "ed25519", "-out", other])?.status,
      0)
    let otherPub = try XCTUnwrap(ExternalTool.run("openssl", ["pkey", "-in", other, "-pubout"]))
      .output
    for (name, text, said) in [
      ("two.pem", pubText + otherPub, "holds 2 PEM blocks"),
      ("trailing.pem", pubText + "and then some\n", "bytes after its PEM block"),
      ("leading.pem", "a note\n" + pubText, "bytes before its PEM block"),
    ] {
      let path = dir.url.appendingPathComponent(name).path
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      let refused = try tv("verify", signed, "--key", path)
      XCTAssertEqual(refused.status, 1, name)
      XCTAssertTrue(refused.error.contains("\(path) is not read as a key: it"), refused.error)
      XCTAssertTrue(refused.error.contains(said), refused.error)
    }
    XCTAssertEqual(try tv("verify", signed, "--key", pub).status, 0, "the key alone still reads")
    // signature.json rewritten in the archive (the manifest untouched, so only it differs).
    let script = #"""
      import zipfile, sys, json
      src, dst, mode = sys.argv[1], sys.argv[2], sys.argv[3]
      z = zipfile.ZipFile(src); data = {i.filename: z.read(i) for i in z.infolist()}
      s = json.loads(data["signature.json"])
      text = None
      if mode == "signs-flows": s["signs"] = "flows.json"
      elif mode == "signs-up": s["signs"] = "../manifest.json"
      elif mode == "signs-missing": del s["signs"]
      elif mode == "extra-key": s["note"] = "trust me"
      elif mode == "twice":
          good = s["signature"]
          text = '{"algorithm": "Ed25519", "publicKey": "%s", "signature": "AAAA", "signature": "%s", "signs": "manifest.json"}' % (s["publicKey"], good)
      elif mode == "empty": text = ""
      data["signature.json"] = (text if text is not None else json.dumps(s)).encode()
      out = zipfile.ZipFile(dst, "w")
      for i in z.infolist(): out.writestr(i, data[i.filename])
      out.close()
      """#
    for mode in ["signs-flows", "signs-up", "signs-missing", "extra-key", "twice", "empty"] {
      let changed = dir.url.appendingPathComponent("\(mode).zip").path
      let run = try XCTUnwrap(ExternalTool.run("python3", ["-c", script, signed, changed, mode]))
      XCTAssertEqual(run.status, 0, run.error)
      for keyArguments in [[], ["--key", pub]] {
        let result = try XCTUnwrap(
          ExternalTool.run(binary.path, ["--store", store, "verify", changed] + keyArguments))
        XCTAssertEqual(result.status, 1, "\(mode) \(keyArguments): \(result.output)")
        XCTAssertFalse(result.output.contains("Every check holds"), "\(mode)")
      }
    }
  }
}
