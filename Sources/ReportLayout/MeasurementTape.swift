import Foundation
import ReportModel

/// The answers a measurer gave while the report's units were first broken, in the order they were
/// asked for, so that breaking the same units again (to draw them) asks no one: the widths as
/// measured, and each line as a range of the text it was cut from. A few bytes a line, where
/// keeping the units themselves would cost their every mark.
final class MeasurementTape {
  private var widths: [CGFloat] = []
  private var lineCounts: [Int32] = []
  /// Each line as where it starts in its text and how many UTF-8 bytes it has; a line that is not
  /// a piece of its text (a measurer may add a hyphen) has a start below zero, -1 - its index in
  /// `literals`. Two arrays of 32-bit numbers: 8 bytes a line.
  private var lineStarts: [Int32] = []
  private var lineLengths: [Int32] = []
  private var literals: [String] = []
  /// Each question's text length, to be sure the replay asks what the recording was asked.
  private var asked: [Int32] = []

  /// Answers as `base` does, noting each answer on the tape.
  struct Recording: EvidenceReportTextMeasuring {
    let base: any EvidenceReportTextMeasuring
    let tape: MeasurementTape

    func lineHeight(of style: EvidenceReportTextStyle) -> CGFloat { base.lineHeight(of: style) }

    func width(of text: String, style: EvidenceReportTextStyle) -> CGFloat {
      let width = base.width(of: text, style: style)
      tape.widths.append(width)
      tape.asked.append(Int32(truncatingIfNeeded: text.utf8.count))
      return width
    }

    func lines(of text: String, style: EvidenceReportTextStyle, width: CGFloat) -> [String] {
      let result = base.lines(of: text, style: style, width: width)
      tape.asked.append(Int32(truncatingIfNeeded: text.utf8.count))
      tape.lineCounts.append(Int32(result.count))
      let utf8 = text.utf8
      var position = utf8.startIndex
      for line in result {
        // A line is the text from where the last one ended, past the spaces and line feeds the break took.
        while position < utf8.endIndex, utf8[position] == 0x20 || utf8[position] == 0x0A,
          !line.utf8.elementsEqual(utf8[position...].prefix(line.utf8.count))
        {
          position = utf8.index(after: position)
        }
        let end = utf8.index(position, offsetBy: line.utf8.count, limitedBy: utf8.endIndex)
        if let end, utf8[position..<end].elementsEqual(line.utf8) {
          tape.lineStarts.append(Int32(utf8.distance(from: utf8.startIndex, to: position)))
          tape.lineLengths.append(Int32(line.utf8.count))
          position = end
        } else {
          tape.lineStarts.append(-1 - Int32(tape.literals.count))
          tape.lineLengths.append(0)
          tape.literals.append(line)
        }
      }
      return result
    }
  }

  /// Answers from the tape, in the order recorded; asked otherwise than recorded, it stops the program.
  final class Replay: EvidenceReportTextMeasuring {
    let base: any EvidenceReportTextMeasuring
    let tape: MeasurementTape
    private var width = 0, count = 0, line = 0, question = 0

    init(_ tape: MeasurementTape, base: any EvidenceReportTextMeasuring) {
      self.tape = tape
      self.base = base
    }

    func lineHeight(of style: EvidenceReportTextStyle) -> CGFloat { base.lineHeight(of: style) }

    private func check(_ text: String) {
      precondition(
        question < tape.asked.count
          && tape.asked[question] == Int32(truncatingIfNeeded: text.utf8.count),
        "the report's units were broken otherwise than when the pages were planned")
      question += 1
    }

    func width(of text: String, style: EvidenceReportTextStyle) -> CGFloat {
      check(text)
      defer { width += 1 }
      return tape.widths[width]
    }

    func lines(of text: String, style: EvidenceReportTextStyle, width: CGFloat) -> [String] {
      check(text)
      let n = Int(tape.lineCounts[count])
      count += 1
      var result: [String] = []
      result.reserveCapacity(n)
      let utf8 = text.utf8
      for _ in 0..<n {
        let start = Int(tape.lineStarts[line])
        if start >= 0 {
          let from = utf8.index(utf8.startIndex, offsetBy: start)
          result.append(
            String(
              decoding: utf8[from..<utf8.index(from, offsetBy: Int(tape.lineLengths[line]))],
              as: UTF8.self))
        } else {
          result.append(tape.literals[-1 - start])
        }
        line += 1
      }
      return result
    }

    /// Whether every answer recorded was given.
    var isAtEnd: Bool { question == tape.asked.count }
  }
}
