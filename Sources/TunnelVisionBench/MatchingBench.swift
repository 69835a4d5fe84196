import Audit
import ContentMatching
import Foundation

/// The content matching's own cost, in this process: a workload of exchanges with JSON bodies
/// (20,000 and 200 MB at scale 1), searched for twenty planted values and for one. The pass is one
/// pass over each body whatever the number of values, so the two times should be close.
struct MatchingBench {
  struct Figures {
    var exchanges = 0
    var bodyBytes = 0
    var patterns = (twenty: 0, one: 0)
    var seconds = (twenty: 0.0, one: 0.0)
    var matches = (twenty: 0, one: 0)

    var megabytesPerSecond: Double { Double(bodyBytes) / 1e6 / max(seconds.twenty, 1e-9) }
    var ratio: Double { seconds.twenty / max(seconds.one, 1e-9) }
  }

  /// Twenty values of the kinds an assessor plants; the first is the one of the single run.
  static let values: [TestDataValue] =
    [
      TestDataValue(label: "e-mail", value: "lea.tester@example.org", category: .contact),
      TestDataValue(label: "name", value: "Lea Tester", category: .contact),
      TestDataValue(label: "phone", value: "+49 151 23456789", category: .contact),
      TestDataValue(label: "birth date", value: "1987-04-12", category: .identifier),
      TestDataValue(label: "insurance number", value: "A123456780", category: .identifier),
      TestDataValue(label: "diagnosis", value: "E11.9 Diabetes mellitus Typ 2", category: .health),
      TestDataValue(label: "weight", value: "71.4 kg", category: .health),
      TestDataValue(
        label: "advertising ID", value: "38400000-8cf0-11bd-b23e-10b96e40000d", category: .device),
      TestDataValue(label: "Android ID", value: "9774d56d682e549c", category: .device),
    ]
    + (1...11).map {
      TestDataValue(
        label: "value \($0)", value: "planted-value-\($0)-\($0 * 7919)", category: .other)
    }

  /// `count` exchanges of about `bodyBytes / count` bytes each, from a pool of bodies that carry a
  /// planted value now and then, as real traffic does.
  static func workload(exchanges count: Int, bodyBytes: Int) -> [HTTPExchange] {
    let size = max(256, bodyBytes / max(count, 1))
    var random: UInt64 = 0x2545_F491_4F6C_DD1D
    func next() -> UInt64 {
      random ^= random << 13
      random ^= random >> 7
      random ^= random << 17
      return random
    }
    let words = ["steps", "pulse", "event", "screen", "session", "value", "id", "ts", "ok", "name"]
    let pool: [Data] = (0..<64).map { index in
      var text = "{\"events\":["
      while text.utf8.count < size {
        let word = words[Int(next() % UInt64(words.count))]
        text += "{\"\(word)\":\"\(String(next(), radix: 36))\",\"n\":\(next() % 100_000)},"
      }
      if index % 16 == 0 { text += "{\"user\":\"\(values[index % values.count].value)\"}," }
      text += "{}]}"
      return Data(text.utf8)
    }
    let start = Date(timeIntervalSince1970: 1_791_370_800)
    return (0..<count).map { i in
      HTTPExchange(
        source: .proxy, start: start.addingTimeInterval(Double(i) / 100), method: "POST",
        scheme: "https", host: "api.example-health.de", port: 443,
        target: "/v1/events?session=\(i)&uid=\(String(i * 2_654_435_761, radix: 16))",
        httpVersion: "HTTP/2.0",
        requestHeaders: [
          HTTPHeader(name: "content-type", value: "application/json"),
          HTTPHeader(name: "cookie", value: "_ga=GA1.2.\(i); sid=\(i * 31)"),
        ],
        requestBody: HTTPBody(
          bytes: pool[i % pool.count], sentByteCount: pool[i % pool.count].count, sha256: ""))
    }
  }

  static func measure(exchanges count: Int, bodyBytes: Int) -> Figures {
    let exchanges = workload(exchanges: count, bodyBytes: bodyBytes)
    var figures = Figures()
    figures.exchanges = exchanges.count
    figures.bodyBytes = exchanges.reduce(0) { $0 + ($1.requestBody?.bytes.count ?? 0) }
    for (index, planted) in [values, [values[0]]].enumerated() {
      let matcher = ContentMatcher(values: planted)
      let start = Date()
      var found = 0
      for exchange in exchanges { found += matcher.matches(in: exchange).count }
      let seconds = Date().timeIntervalSince(start)
      if index == 0 {
        (figures.patterns.twenty, figures.seconds.twenty, figures.matches.twenty) =
          (matcher.patternCount, seconds, found)
      } else {
        (figures.patterns.one, figures.seconds.one, figures.matches.one) =
          (matcher.patternCount, seconds, found)
      }
    }
    return figures
  }
}
