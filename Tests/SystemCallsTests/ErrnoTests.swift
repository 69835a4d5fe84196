import Glibc
import SystemCalls
import XCTest

final class ErrnoTests: XCTestCase {
  func testACallThatFailsAnswersTheErrorItSetInTheSystemsWords() {
    let opened = valueOrErrno { open("/nonexistent/tunnelvision", O_RDONLY) }
    XCTAssertEqual(opened, .failure(.noSuchFileOrDirectory))
    XCTAssertEqual(opened.errorText, "No such file or directory")
    XCTAssertEqual(Errno(rawValue: ENOSPC).description, "No space left on device")
  }

  func testACallInterruptedBySignalIsRetriedUnlessAskedNotTo() {
    var calls = 0
    let interruptedOnce = { () -> Int32 in
      calls += 1
      if calls == 1 {
        errno = EINTR
        return -1
      }
      return 7
    }
    XCTAssertEqual(valueOrErrno(interruptedOnce), .success(7))
    XCTAssertEqual(calls, 2)
    calls = 0
    XCTAssertEqual(valueOrErrno(retryOnInterrupt: false, interruptedOnce), .failure(.interrupted))
    XCTAssertEqual(calls, 1)
  }

  func testASuccessfulCallAnswersItsValue() {
    var fds: [Int32] = [0, 0]
    XCTAssertEqual(nothingOrErrno { pipe(&fds) }.map { true }, .success(true))
    let wrote = valueOrErrno { write(fds[1], "abc", 3) }
    XCTAssertEqual(wrote, .success(3))
    close(fds[0])
    close(fds[1])
  }
}
