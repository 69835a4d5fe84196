import Audit
import Foundation
import XCTest

@testable import Evidence

/// capture.json's flows and findings.json's findings, read from a parsed tree, read as
/// `JSONDecoder` reads them: the same values, and the same elements refused.
final class VerifiedDocumentsTests: XCTestCase {
  func testCaptureFlowsReadFromATreeAsTheDecoderReadsThem() throws {
    let elements = [
      #"{"id":7,"recorded":3,"written":2,"withoutBytes":{"notCaptured":1,"captureFileMissing":0,"recordUnreadable":0}}"#,
      #"{"id":7}"#,
      #"{"id":7,"recorded":null,"written":null,"withoutBytes":null}"#,
      #"{"id":7.0,"recorded":3e0,"written":2.5}"#,
      #"{"id":"7"}"#,
      #"{"recorded":3}"#,
      #"{"id":7,"withoutBytes":{"notCaptured":1}}"#,
      #"{"id":7,"withoutBytes":{"notCaptured":1,"captureFileMissing":0,"recordUnreadable":"0"}}"#,
      #"{"id":7,"written":99999999999999999999}"#,
      #"{"id":7,"id":8,"written":1}"#,
      #"[7]"#,
      #"null"#,
    ]
    for text in elements {
      let decoded = try? JSONDecoder().decode(VerifiedCapture.Flow.self, from: Data(text.utf8))
      let read = try? VerifiedCapture.Flow(tree: JSONTree.parse(Array(text.utf8)))
      XCTAssertEqual(read == nil, decoded == nil, text)
      XCTAssertEqual(read?.id, decoded?.id, text)
      XCTAssertEqual(read?.recorded, decoded?.recorded, text)
      XCTAssertEqual(read?.written, decoded?.written, text)
      XCTAssertEqual(read?.withoutBytes?.total, decoded?.withoutBytes?.total, text)
      XCTAssertEqual(read?.withoutBytes?.notCaptured, decoded?.withoutBytes?.notCaptured, text)
    }
  }

  func testFindingsReadFromATreeAsTheDecoderReadsThem() throws {
    let elements = [
      #"{"id":"F-1","flowIDs":[1,2,3]}"#,
      #"{"id":"F-1"}"#,
      #"{"id":1,"flowIDs":[1]}"#,
      #"{"id":"F-1","flowIDs":[1,"2"]}"#,
      #"{"id":"F-1","flowIDs":[1,null]}"#,
      #"{"id":"F-1","flowIDs":[1.0,2e1]}"#,
      #"{"id":null,"flowIDs":null}"#,
      #"{}"#,
      #"["F-1"]"#,
    ]
    for text in elements {
      let decoded = try? JSONDecoder().decode(
        VerifiedFindings.Finding.self, from: Data(text.utf8))
      let read = try? VerifiedFindings.Finding(tree: JSONTree.parse(Array(text.utf8)))
      XCTAssertEqual(read == nil, decoded == nil, text)
      XCTAssertEqual(read?.id, decoded?.id, text)
      XCTAssertEqual(read?.flowIDs, decoded?.flowIDs, text)
    }
  }
}
