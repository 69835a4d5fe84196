import Foundation
import ReportModel

/// The report's pages made on a thread of their own, a few ahead of the one drawn: the drawing
/// (cairo's) is the longest step of an export's end, and making a page's units again from the
/// measurements taped (`EvidenceReportLayout`) need not wait for it. The footers, which Pango
/// measures, are made on the drawing thread: Pango's context is not to be used by two threads.
enum PagesAhead {
  /// Each page of `layout`, footed, handed to `body` in order on the calling thread.
  static func forEach(
    of layout: some EvidenceReportPages, ahead: Int = 2, _ body: (EvidenceReportPage) -> Void
  ) {
    let channel = Channel(capacity: ahead)
    let made = Made(layout)
    let maker = Thread {
      made.layout.forEachUnfootedPage { channel.put($0) }
      channel.close()
    }
    maker.name = "tunnelvision report pages"
    maker.start()
    while let page = channel.take() { body(page.footed(layout.footer(ofPage: page.number))) }
  }

  /// The layout as the making thread reads it: its plan and tape, never written once laid out.
  private final class Made: @unchecked Sendable {
    let layout: any EvidenceReportPages
    init(_ layout: any EvidenceReportPages) { self.layout = layout }
  }

  /// Pages handed from the making thread to the drawing one, no more than `capacity` waiting.
  private final class Channel: @unchecked Sendable {
    private let condition = NSCondition()
    private var pages: [EvidenceReportPage] = []
    private var closed = false
    let capacity: Int

    init(capacity: Int) { self.capacity = max(1, capacity) }

    func put(_ page: EvidenceReportPage) {
      condition.lock()
      while pages.count >= capacity { condition.wait() }
      pages.append(page)
      condition.broadcast()
      condition.unlock()
    }

    func close() {
      condition.lock()
      closed = true
      condition.broadcast()
      condition.unlock()
    }

    /// The next page, or nil once the last was taken.
    func take() -> EvidenceReportPage? {
      condition.lock()
      defer { condition.unlock() }
      while pages.isEmpty && !closed { condition.wait() }
      guard !pages.isEmpty else { return nil }
      condition.broadcast()
      return pages.removeFirst()
    }
  }
}
