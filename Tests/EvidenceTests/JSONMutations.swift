import Foundation
import Sample

/// Documents made from a valid one by replacing, inserting or removing one to three of its bytes
/// with JSON's punctuation: some stay valid, most do not, each in its own way.
enum JSONMutations {
  static func of(_ source: [UInt8], count: Int, seed: UInt64) -> [[UInt8]] {
    var generator = SampleRandom(seed: seed)
    let replacements = Array(#"{}[],:"\ 0.eE-+tn"#.utf8)
    let insertions = Array(#"{}[],:"\"#.utf8)
    return (0..<count).map { n in
      var bytes = source
      for _ in 0...(n % 3) {
        let at = Int(generator.next() % UInt64(bytes.count))
        switch n % 3 {
        case 0: bytes[at] = replacements[Int(generator.next() % UInt64(replacements.count))]
        case 1: bytes.insert(insertions[Int(generator.next() % UInt64(insertions.count))], at: at)
        default: bytes.remove(at: at)
        }
      }
      return bytes
    }
  }
}
