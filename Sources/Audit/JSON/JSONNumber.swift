import Foundation

/// A number of a document Foundation's JSONSerialization read, taken only if it was written as
/// one: Foundation hands `true` and `false` over as numbers that `as? Int` accepts (1 and 0).
public enum JSONNumber {
  public static func integer(_ value: Any?) -> Int? {
    guard let number = number(value) else { return nil }
    let double = number.doubleValue
    guard double.rounded() == double, abs(double) < 9.0e15 else { return nil }
    return number.intValue
  }

  public static func double(_ value: Any?) -> Double? { number(value)?.doubleValue }

  private static func number(_ value: Any?) -> NSNumber? {
    guard let number = value as? NSNumber, !(value is String) else { return nil }
    // A boolean is kept as a char: objCType "c". No JSON number is read as one.
    return String(cString: number.objCType) == "c" ? nil : number
  }
}
