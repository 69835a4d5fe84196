import CPcap
import Capture
import Foundation

/// Where the recorder's packets come from.
public enum PacketSource: Sendable, Hashable {
  /// A network interface, captured live (`any` for all of them).
  case interface(String)
  /// A pcap or pcapng file or stream; "-" is standard input.
  case file(String)

  /// How status lines and the store's claim name it.
  public var name: String {
    switch self {
    case .interface(let name): return name
    case .file("-"): return "standard input"
    case .file(let path): return path
    }
  }

  public var isLive: Bool { if case .interface = self { return true } else { return false } }
}

/// Why a capture could not be opened or stopped reading: libpcap's own words, with what was asked.
public struct PacketCaptureError: Error, Sendable, Hashable {
  public enum Step: Sendable, Hashable { case open, filter, read }
  public let step: Step
  public let source: PacketSource
  public let message: String
}

/// One libpcap handle, live or on a file or stream: frames handed over as they arrive. The link
/// layer is left on: the analyser strips it, as it does for an import.
public final class PacketCapture: @unchecked Sendable {
  private let handle: OpaquePointer
  public let source: PacketSource
  /// The link type of every frame.
  public let linkType: UInt32

  /// The version of the libpcap that reads the packets, as it states it.
  public static var libraryVersion: String { String(cString: pcap_lib_version()) }

  /// Opens the source; a filter (BPF, as tcpdump's) is compiled by libpcap.
  public init(_ source: PacketSource, snaplen: Int32, filter: String?) throws(PacketCaptureError) {
    self.source = source
    var errors = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE) + 1)
    func failed(_ step: PacketCaptureError.Step, _ text: String) -> PacketCaptureError {
      PacketCaptureError(step: step, source: source, message: text)
    }
    let opened: OpaquePointer?
    switch source {
    case .interface(let name):
      guard let p = pcap_create(name, &errors) else {
        throw failed(.open, Self.text(errors))
      }
      pcap_set_snaplen(p, snaplen)
      pcap_set_promisc(p, 1)
      // Each packet as it comes, not in blocks the kernel fills for up to the timeout: what a
      // recorder killed has read but not written is then at most its hold for time order.
      pcap_set_immediate_mode(p, 1)
      pcap_set_timeout(p, 100)
      pcap_set_buffer_size(p, 32 << 20)
      let status = pcap_activate(p)
      if status < 0 {
        let detail = String(cString: pcap_geterr(p))
        let text = String(cString: pcap_statustostr(status))
        pcap_close(p)
        throw failed(.open, detail.isEmpty ? text : detail)
      }
      opened = p
    case .file(let path):
      switch LiftedCaptureStream.open(path) {
      case .failure(let error): throw failed(.open, error.reason)
      case .success(let file):
        // libpcap closes the file with the handle, or here when it refuses it.
        opened = pcap_fopen_offline_with_tstamp_precision(
          file, UInt32(PCAP_TSTAMP_PRECISION_MICRO), &errors)
        if opened == nil {
          fclose(file)
          throw failed(.open, Self.text(errors))
        }
      }
    }
    handle = opened!
    // DLT values; the dissector reads the few that differ from LINKTYPE ones (12, 14: raw IP).
    linkType = UInt32(pcap_datalink(handle))
    if let filter {
      var program = bpf_program()
      // Thrown from here on, the handle is closed by deinit.
      guard pcap_compile(handle, &program, filter, 1, PCAP_NETMASK_UNKNOWN) == 0 else {
        throw failed(.filter, String(cString: pcap_geterr(handle)))
      }
      defer { pcap_freecode(&program) }
      guard pcap_setfilter(handle, &program) == 0 else {
        throw failed(.filter, String(cString: pcap_geterr(handle)))
      }
    }
  }

  deinit { pcap_close(handle) }

  /// libpcap's message in its error buffer.
  private static func text(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// How the reading ended.
  public enum End: Sendable, Hashable {
    /// The file or stream ended.
    case ended
    /// `stop()` was called.
    case stopped
    case failed(PacketCaptureError)
  }

  /// Reads until the source ends, fails or `stop()` is called, handing each frame over on this
  /// thread.
  public func run(_ body: (DecodedFrame) -> Void) -> End {
    let linkType = self.linkType
    return withoutActuallyEscaping(body) { body in
      var context = Context(linkType: linkType, body: body)
      let result = withUnsafeMutablePointer(to: &context) { pointer in
        pcap_loop(
          handle, -1,
          { user, header, bytes in
            guard let user, let header, let bytes else { return }
            let context = UnsafeMutableRawPointer(user).assumingMemoryBound(to: Context.self)
            let h = header.pointee
            let frame = DecodedFrame(
              microseconds: CaptureTimestamp.microseconds(
                seconds: Int64(h.ts.tv_sec), fraction: Int64(h.ts.tv_usec), perSecond: 1_000_000),
              linkType: context.pointee.linkType,
              data: Array(UnsafeBufferPointer(start: bytes, count: Int(h.caplen))),
              originalLength: h.len)
            context.pointee.body(frame)
          }, UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: UInt8.self))
      }
      switch result {
      case 0: return .ended
      case PCAP_ERROR_BREAK: return .stopped
      default:
        return .failed(
          PacketCaptureError(
            step: .read, source: source, message: String(cString: pcap_geterr(handle))))
      }
    }
  }

  private struct Context {
    let linkType: UInt32
    let body: (DecodedFrame) -> Void
  }

  /// Makes `run` return (from another thread or a signal's handler).
  public func stop() { pcap_breakloop(handle) }

  /// What the kernel and the interface counted, on a live capture: packets received, dropped by
  /// the kernel for want of buffer, dropped by the interface.
  public struct Statistics: Sendable, Hashable {
    public let received: UInt32
    public let droppedByKernel: UInt32
    public let droppedByInterface: UInt32
  }

  public func statistics() -> Statistics? {
    guard source.isLive else { return nil }
    var stats = pcap_stat()
    guard pcap_stats(handle, &stats) == 0 else { return nil }
    return Statistics(
      received: stats.ps_recv, droppedByKernel: stats.ps_drop, droppedByInterface: stats.ps_ifdrop)
  }
}
