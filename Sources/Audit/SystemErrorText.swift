import Foundation
import SystemCalls

/// An error as the reason in a sentence. The tool's own errors say it themselves; Foundation's
/// file errors are given as the system's words for their cause ("No space left on device"),
/// since their description is a debugging dump (`Error Domain=NSCocoaErrorDomain Code=640 …`)
/// and their localized description a vaguer sentence of its own.
public enum SystemErrorText {
  public static func reason(_ error: Error) -> String {
    let ns = error as NSError
    guard ns.domain == NSCocoaErrorDomain || ns.domain == NSPOSIXErrorDomain else {
      return "\(error)"
    }
    if ns.domain == NSPOSIXErrorDomain { return Errno(rawValue: Int32(ns.code)).description }
    if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return Errno(rawValue: Int32(underlying.code)).description
    }
    if ns.code == NSFileReadNoSuchFileError || ns.code == NSFileNoSuchFileError {
      return "no such file"
    }
    return ns.localizedDescription
  }
}
