import Audit
import Foundation
import TestSupport
import XCTest

@testable import ContentMatching

/// The test account's values found in requests: each form an SDK sends, where it stood, and
/// never a value that was not sent. The expected encodings are made here with Foundation and
/// openssl, not with the matcher's own.
final class ContentMatcherTests: XCTestCase {
  static let email = TestDataValue(
    label: "e-mail", value: "anna.schmidt+test@example-health.de", category: .contact)
  static let adID = TestDataValue(
    label: "advertising ID", value: "38400000-8cf0-11bd-b23e-10b96e40000d", category: .device)
  static let diagnosis = TestDataValue(
    label: "diagnosis", value: "Zöliakie/Sprue", category: .health)
  static let phone = TestDataValue(label: "phone", value: "+49 151 2345 6789", category: .contact)
  static let place = TestDataValue(
    label: "home", value: "52.520008,13.404954", category: .location)
  static let never = TestDataValue(
    label: "insurance number", value: "A123456789", category: .identifier)
  static let values = [email, adID, diagnosis, phone, place, never]

  func exchange(
    target: String = "/v1/collect", headers: [(String, String)] = [], body: String? = nil,
    type: String? = nil
  ) -> HTTPExchange {
    var all = headers.map { HTTPHeader(name: $0.0, value: $0.1) }
    if let type { all.append(HTTPHeader(name: "Content-Type", value: type)) }
    return HTTPExchange(
      source: .proxy, start: Date(timeIntervalSince1970: 0), method: "POST", scheme: "https",
      host: "t.example", target: target, httpVersion: "HTTP/1.1", requestHeaders: all,
      requestBody: body.map {
        HTTPBody(bytes: Data($0.utf8), sentByteCount: $0.utf8.count, sha256: "")
      })
  }

  func found(_ exchange: HTTPExchange) -> Set<String> {
    Set(
      ContentMatcher(values: Self.values).matches(in: exchange).map {
        "\($0.label) \($0.form.rawValue) \($0.place.text)"
      })
  }

  func openssl(_ digest: String, _ text: String) throws -> String {
    let run = try XCTUnwrap(
      ExternalTool.run("openssl", ["dgst", "-" + digest, "-r"], input: Data(text.utf8)))
    return String(run.output.prefix { $0 != " " })
  }

  func testAValueInAJSONBodyIsFoundAtItsPathAndInAnotherCaseAsCaseFolded() {
    let body =
      #"{"user": {"email": "anna.schmidt+test@example-health.de", "n": 1}, "list": ["ANNA.SCHMIDT+TEST@EXAMPLE-HEALTH.DE"]}"#
    XCTAssertEqual(
      found(exchange(body: body, type: "application/json")),
      ["e-mail asIs body $.user.email", "e-mail caseFolded body $.list[0]"])
  }

  func testDigestsOfTheValueAndOfItsNormalisedFormAreFoundInHexOfEitherCase() throws {
    let sha = try openssl("sha256", Self.email.value)
    let md5 = try openssl("md5", Self.email.value).uppercased()
    let phoneDigits = "4915123456789"
    let sha1 = try openssl("sha1", phoneDigits)
    XCTAssertEqual(
      found(exchange(target: "/p?uid=\(sha)&h=\(md5)&x=\(sha1)")),
      ["e-mail sha256 query uid", "e-mail md5 query h", "phone sha1OfNormalised query x"])
  }

  func testEncodedFormsAreFoundWhereTheyStood() throws {
    let percent = try XCTUnwrap(
      Self.email.value.addingPercentEncoding(
        withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~"))))
    let adID64 = Data(Self.adID.value.utf8).base64EncodedString()
    // Inside a longer encoding: a JSON blob with the ID 15 bytes in (16 bytes in, the URL-safe
    // alphabet).
    let blob = Data(#"{"a":1,"adid":"\#(Self.adID.value)"}"#.utf8).base64EncodedString()
    let shifted = Data(#"{"a":12,"adid":"\#(Self.adID.value)"}"#.utf8).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    let hex = Data(Self.never.value.utf8).map { String(format: "%02X", $0) }.joined()
    XCTAssertEqual(
      found(
        exchange(
          target: "/e?mail=\(percent)",
          headers: [
            ("X-Adid", adID64), ("Cookie", "_ga=GA1.2; blob=\(blob)"), ("X-Ins", hex),
            ("X-Blob", shifted),
          ])),
      [
        "e-mail percentEncoded query mail", "advertising ID base64 header X-Adid",
        "advertising ID base64 cookie blob", "insurance number hex header X-Ins",
        "advertising ID base64 header X-Blob",
      ])
  }

  func testAFormBodyAJSONEscapeAndAMultipartPartAreRead() {
    XCTAssertEqual(
      found(
        exchange(
          body: "a=1&note=Z%C3%B6liakie%2FSprue&tel=%2B49+151+2345+6789",
          type: "application/x-www-form-urlencoded")),
      ["diagnosis percentEncoded body note", "phone formEncoded body tel"])
    XCTAssertEqual(
      found(exchange(body: #"{"d": "Z\u00f6liakie\/Sprue"}"#, type: "application/json")),
      ["diagnosis jsonEscaped body $.d"])
    let multipart =
      "--XyZ\r\nContent-Disposition: form-data; name=\"profile\"\r\n\r\nphone +49 151 2345 6789\r\n--XyZ\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nnothing\r\n--XyZ--\r\n"
    XCTAssertEqual(
      found(exchange(body: multipart, type: "multipart/form-data; boundary=XyZ")),
      ["phone asIs body profile"])
  }

  func testNearMissesAreNeverFound() throws {
    let offByOne = "anna.schmidt+test@example-health.dd"
    let prefix = "anna.schmidt+test@example-heal"
    let longer = "A1234567890"
    let other64 = Data("38400000-8cf0-11bd-b23e-10b96e40000e".utf8).base64EncodedString()
    let otherSHA = try openssl("sha256", "anna.schmidt+test@example-health.dee")
    let body =
      #"{"a": "\#(offByOne)", "b": "\#(prefix)", "c": "\#(longer)", "d": "x\#(Self.never.value)", "e": "\#(other64)", "f": "\#(otherSHA)", "g": "Zöliakie", "lat": 52.5301, "lon": 13.404954}"#
    XCTAssertEqual(found(exchange(body: body, type: "application/json")), [])
  }

  func testCoordinatesAreFoundWithinTheToleranceBothTogether() {
    XCTAssertEqual(
      found(
        exchange(body: #"{"loc": {"lat": 52.5203, "lng": 13.4052}}"#, type: "application/json")),
      ["home coordinates body $.loc.lat"])
    XCTAssertEqual(
      found(exchange(target: "/geo?ll=52.52,13.40")), [],
      "13.40 is 0.005° from 13.404954: outside")
    XCTAssertEqual(found(exchange(target: "/geo?ll=52.5201,0.0")), [], "the latitude alone")
  }

  func testAValueNotPlantedIsNotFoundAndAnEmptyRequestHasNothing() {
    XCTAssertEqual(found(exchange(target: "/", body: "")), [])
    let only = ContentMatcher(values: [])
    XCTAssertEqual(only.matches(in: exchange(body: Self.email.value)), [])
  }

  /// The automaton against a search of each pattern alone, over random bytes from a small
  /// alphabet (so that patterns overlap and recur).
  func testTheAutomatonFindsWhatASearchForEachPatternAloneFinds() {
    var seed: UInt64 = 7
    func next() -> UInt64 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return seed >> 33
    }
    let alphabet = Array("abAB.-".utf8)
    for _ in 0..<200 {
      let patterns = (0..<Int(1 + next() % 6)).map { _ in
        (0..<Int(1 + next() % 4)).map { _ in alphabet[Int(next() % 4)] | 0x20 }
      }
      let text = (0..<Int(next() % 60)).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }
      let automaton = PatternAutomaton(patterns: patterns)
      var hits: [String] = []
      text.withUnsafeBufferPointer { bytes in
        automaton.scan(bytes) { hits.append("\($0)@\($1)") }
      }
      var expected: [String] = []
      let folded = text.map(PatternAutomaton.fold)
      for (index, pattern) in patterns.enumerated() where pattern.count <= folded.count {
        for start in 0...(folded.count - pattern.count)
        where Array(folded[start..<start + pattern.count]) == pattern {
          expected.append("\(index)@\(start + pattern.count)")
        }
      }
      XCTAssertEqual(hits.sorted(), expected.sorted(), "\(patterns) in \(text)")
    }
  }
}
