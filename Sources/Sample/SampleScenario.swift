import Audit
import AuditRules
import AuditWording
import Capture
import Foundation

public struct SampleOptions: Sendable, Hashable {
  public var seed: UInt64 = 1
  /// Flows, packets and capture bytes of the 2.4.0 session: nil keeps the archetypes alone.
  public var flows: Int?
  public var packets: Int?
  public var captureBytes: Int?
  /// The largest sample written: ten times the reference workload (20 000 flows, 400 000 packets,
  /// 229 MB), what this machine kind holds with room to spare. Past it a count would overflow
  /// or the writer would take gigabytes of memory.
  public static let maximumFlows = 200_000
  public static let maximumPackets = 4_000_000
  public static let maximumCaptureBytes = 2_290_000_000

  public init(seed: UInt64 = 1, flows: Int? = nil, packets: Int? = nil, captureBytes: Int? = nil) {
    self.seed = seed
    self.flows = flows
    self.packets = packets
    self.captureBytes = captureBytes
  }
}

/// The "Example Health" project: a baseline and the audit sessions 2.3.1 (180) and 2.4.0 (187),
/// with flows that exercise every row of the findings and release-diff tables; and a second
/// project with an empty allowlist and no consent marker.
public enum SampleScenario {
  public static let projectName = "Example Health"
  public static let epoch = Date(timeIntervalSince1970: 1_791_190_800)  // 2026-10-05T08:00:00Z
  public static let allowlist: [(String, String?)] = [
    ("api.example-health.de", "backend"),
    ("*.example-health.de", "own services"),
    ("*.example-cdn.net", "images and fonts"),
    ("crash.example.org", "crash reporting"),
    ("auth.example-id.com", "sign-in"),
  ]
  public static let archetypeFlowCount = 35

  static func at(_ day: Int, _ hour: Int, _ minute: Int, _ second: Double = 0) -> Date {
    epoch.addingTimeInterval(Double(day * 86_400 + (hour - 8) * 3600 + minute * 60) + second)
  }

  static let device = AuditEnvironment(
    deviceModel: "Pixel 8 (shiba)", osVersion: "Android 15 (AP4A.250105.002)", toolVersion: "0.1.0")

  public static func plan(_ options: SampleOptions) -> SamplePlan {
    // The sessions in this order: each draws on the same seeded maker.
    var make = SampleFlowMaker(seed: options.seed)
    let entries = allowlist.map {
      AllowlistEntry(pattern: try! DomainPattern(parsing: $0.0), note: $0.1)
    }
    let health = AuditProjectDraft(
      name: projectName, bundleIdentifier: "de.example.health", catalogueVersion: nil,
      allowlist: entries)

    let baseline = baselineSession(&make)
    let earlier = earlierSession(&make)
    let later = laterSession(&make, options)
    let (diary, diarySession) = diaryProject(&make)

    return SamplePlan(
      projects: [
        SampleProject(
          draft: health, createdAt: at(0, 8, 30), sessions: [baseline, earlier, later],
          testData: SampleExchanges.testData),
        SampleProject(draft: diary, createdAt: at(1, 13, 50), sessions: [diarySession]),
      ], seed: options.seed)
  }

  /// Day 0, 09:00–09:10, inspection off.
  private static func baselineSession(_ make: inout SampleFlowMaker) -> SampleSession {
    let b0 = at(0, 9, 0)
    var baseline = SampleSession(
      kind: .baseline, environment: device, inspection: .off,
      notes: "Recorded before installing Example Health.", start: b0, end: at(0, 9, 10),
      markers: [], flows: [])
    baseline.flows = [
      make.tls(
        sni: "connectivitycheck.example-os.com", start: b0.addingTimeInterval(20),
        answer: .serverHello(.tls13)),
      make.dns(
        query: "time.example-os.com", answers: [.a(make.serverAddress("time.example-os.com"))],
        start: b0.addingTimeInterval(40)),
      make.tls(
        sni: "api.example-health.de", start: b0.addingTimeInterval(90),
        answer: .serverHello(.tls13), status: .inspected),
    ]
    baseline.afterwards = [
      make.tls(sni: "weather.example-news.com", start: at(0, 9, 30), answer: .serverHello(.tls13))
    ]

    return baseline
  }

  /// 2.3.1 (180): day 0, 10:00–10:20, inspection on, CA not trusted.
  private static func earlierSession(_ make: inout SampleFlowMaker) -> SampleSession {
    let s1 = at(0, 10, 0)
    var earlier = SampleSession(
      kind: .audit(AppRelease(version: "2.3.1", build: "180")), environment: device,
      inspection: InspectionConditions(inspectionEnabled: true, caTrusted: false),
      notes: "Onboarding, sign-in, a week of steps synced.", start: s1, end: at(0, 10, 20),
      markers: [
        (.consentGiven, s1.addingTimeInterval(60)), (.loggedIn, s1.addingTimeInterval(120)),
        (.loggedOut, s1.addingTimeInterval(1100)),
      ], flows: [])
    func t1(_ s: Double) -> Date { s1.addingTimeInterval(s) }
    earlier.flows = [
      make.tls(sni: "api.example-health.de", start: t1(30), answer: .serverHello(.tls13)),
      make.tls(sni: "images.example-cdn.net", start: t1(70), answer: .serverHello(.tls13)),
      make.tls(sni: "telemetry.example-ads.net", start: t1(80), answer: .serverHello(.tls12)),
      make.tls(
        sni: "config.example-health.de", start: t1(90), answer: .serverHello(.tls12, cipher: 0xc02f)
      ),
      make.tls(
        sni: "sync.example-health.de", start: t1(100), answer: .upstream(.tls12), status: .inspected
      ),
      make.tls(
        sni: "experimental.example-health.de", start: t1(110),
        answer: .serverHello(.tls12, cipher: 0xc02f)),
      make.tls(
        sni: "auth.example-id.com", start: t1(130), answer: .serverHello(.tls12, cipher: 0xc02f)),
      make.tls(
        sni: "files.example-health.de", start: t1(140), answer: .serverHello(.tls12, cipher: 0xc02f)
      ),
      make.tls(
        sni: "legacy-api.example-health.de", start: t1(150),
        answer: .serverHello(.tls12, cipher: 0xc02f)),
      make.tls(sni: "tracker.example-old.net", start: t1(160), answer: .serverHello(.tls13)),
      make.tls(sni: "static.example-cdn.net", start: t1(170), answer: .serverHello(.tls13)),
      make.quic(
        sni: "push.example-health.de", start: t1(180), version: QUICReading.version1,
        serverAnswers: false),
      make.tls(
        sni: nil, dns: "a.example-cdn.net", dnsOthers: ["b.example-cdn.net"], start: t1(190),
        answer: .serverHello(.tls13)),
      make.unreadTCP(name: nil, start: t1(200)),
    ]
    earlier.afterwards = [
      make.tls(sni: "weather.example-news.com", start: at(0, 10, 40), answer: .serverHello(.tls13))
    ]

    return earlier
  }

  /// 2.4.0 (187): day 1, 10:00–10:30, inspection on, CA trusted; two consent markers.
  private static func laterSession(_ make: inout SampleFlowMaker, _ options: SampleOptions)
    -> SampleSession
  {
    let s2 = at(1, 10, 0)
    var later = SampleSession(
      kind: .audit(AppRelease(version: "2.4.0", build: "187")), environment: device,
      inspection: InspectionConditions(inspectionEnabled: true, caTrusted: true),
      notes: "Fresh install. Consent given twice: the banner, then the health-data screen.",
      start: s2, end: at(1, 10, 30),
      markers: [
        (.consentGiven, s2.addingTimeInterval(60)), (.consentGiven, s2.addingTimeInterval(120)),
        (.loggedIn, s2.addingTimeInterval(180)),
        (.custom("Synced the step counter"), s2.addingTimeInterval(600)),
        (.loggedOut, s2.addingTimeInterval(1700)),
      ], flows: [])
    func t2(_ s: Double) -> Date { s2.addingTimeInterval(s) }
    let readings = laterReadings(&make, start: s2)
    later.flows = laterFlows(&make, readings, start: s2)
    later.flows.sort { $0.start < $1.start }
    if let flows = options.flows, flows > later.flows.count {
      let bulkFlows = flows - later.flows.count
      let archetypePackets = later.flows.reduce(0) { $0 + $1.packets.count }
      let packets = max(bulkFlows * 8, (options.packets ?? bulkFlows * 20) - archetypePackets)
      let bytes = options.captureBytes ?? packets * 600
      later.bulk = SampleBulk(flows: bulkFlows, packets: packets, captureBytes: bytes)
      later.end = max(later.end, s2.addingTimeInterval(Double(bulkFlows) * 0.1 + 400))
      later.markers[4].1 = later.end.addingTimeInterval(-60)
    }

    return later
  }

  /// The 2.4.0 session's flows, as the consent markers fall: before the first, between the two,
  /// after.
  private static func laterFlows(
    _ make: inout SampleFlowMaker, _ readings: LaterReadings, start s2: Date
  ) -> [SampleFlow] {
    func t2(_ s: Double) -> Date { s2.addingTimeInterval(s) }
    return [
      readings.longLived,
      // Before the first consent marker.
      make.tls(
        sni: "telemetry.example-ads.net", start: t2(10),
        answer: .serverHello(.tls10, cipher: 0x002f), status: .notInspectable),
      make.dns(
        query: "api.example-health.de",
        answers: [
          .cname("edge.example-health.de"), .a(make.serverAddress("api.example-health.de")),
        ], start: t2(5)),
      readings.beacon,
      // Between the two.
      readings.config,
      // After.
      make.tls(
        sni: "images.example-cdn.net", start: t2(130),
        answer: .serverHello(.tls12, cipher: 0xc02f, certificate: readings.chainCert)),
      make.tls(
        sni: "old-gateway.example-health.de", start: t2(140), answer: .upstream(.tls11),
        status: .inspected),
      readings.sync,
      make.tls(
        sni: "auth.example-id.com", start: t2(160),
        offer: ClientTLSOffer(versionsForm: .upTo, versions: [.tls12], alpn: ["http/1.1"]),
        answer: .upstream(.tls12), status: .notInspectable),
      make.tls(
        sni: "experimental.example-health.de", start: t2(170),
        answer: .serverHello(TLSProtocolVersion(rawValue: 0x7f1c))),
      make.tls(sni: "blocked.example-ads.net", start: t2(175), answer: .alert(40)),
      make.tls(
        sni: "files.example-health.de", start: t2(176), answer: .serverHello(.tls12, cipher: 0xc02f)
      ),
      // Another TLS client than the device's own (one the app brings along): its own offer.
      make.tls(
        sni: "files.example-health.de", start: t2(177), answer: .serverHello(.tls13),
        cipherSuites: [0x1303, 0x1301, 0x1302, 0xcca9, 0xcca8, 0xc02b, 0xc02f]),
      make.quic(
        sni: "video.example-cdn.net", start: t2(180), version: QUICReading.version1,
        serverAnswers: true, v6: true),
      make.quic(
        sni: "maps.example-maps.com", start: t2(185), version: QUICReading.version2,
        serverAnswers: true),
      make.quic(
        sni: "push.example-health.de", start: t2(190), version: QUICReading.version1,
        serverAnswers: false),
      make.quic(
        sni: "quic-lab.example-health.de", start: t2(195), version: 0xff00_001d, serverAnswers: true
      ),
      make.unreadTCP(name: nil, start: t2(200)),
      readings.legacy,
      make.http(
        host: "cdn-fallback.example-cdn.net", start: t2(215), port: 443, path: "/img/avatar.png"),
      make.unrecognised(dns: "chat.example-health.de", start: t2(220)),
      make.dns(
        query: "static.example-cdn.net",
        answers: [.a(make.serverAddress("static.example-cdn.net"))], start: t2(225)),
      make.unreadUDP(dns: "turn.example-health.de", start: t2(227)),
      make.icmp(to: "9.9.9.9", start: t2(230)),
      make.tls(sni: nil, start: t2(240), answer: .serverHello(.tls13)),
      make.tls(
        sni: nil, start: t2(245),
        offer: ClientTLSOffer(
          versionsForm: .listed, versions: [.tls13], alpn: ["h2"], encryptedClientHello: true),
        answer: .serverHello(.tls13), addressName: "ech.example-cdn.net"),
      make.tls(
        sni: nil, dns: "a.example-cdn.net", dnsOthers: ["b.example-cdn.net"], start: t2(250),
        answer: .serverHello(.tls13)),
      make.tls(
        sni: nil, dns: "static.example-cdn.net", dnsOthers: ["ads.example-tracker.com"],
        start: t2(260), answer: .serverHello(.tls13)),
      make.tls(
        sni: nil, dns: "pixel.example-tracker.com", dnsOthers: ["fonts.example-cdn.net"],
        start: t2(270), answer: .serverHello(.tls13)),
      make.tls(
        sni: nil, dns: "metrics.example-analytics.io",
        dnsOthers: ["collector.example-analytics.io"], start: t2(280), answer: .serverHello(.tls13)),
      make.tls(
        sni: nil, dns: "uploads.example-health.de", start: t2(290), answer: .serverHello(.tls13)),
      readings.notInspectableNoName,
      readings.missing, readings.cutShort, readings.uncaptured,
    ]
  }

  /// The 2.4.0 session's flows that carry more than a handshake, made before the others.
  private struct LaterReadings {
    let longLived, missing, cutShort, uncaptured, notInspectableNoName, beacon, config, sync,
      legacy: SampleFlow
    /// The chain the images host presents (made first: the maker's draws keep their order).
    let chainCert: [Data]
  }

  private static func laterReadings(_ make: inout SampleFlowMaker, start s2: Date) -> LaterReadings
  {
    func t2(_ s: Double) -> Date { s2.addingTimeInterval(s) }
    let chainCert = [make.certificate(620), make.certificate(540)]
    var longLived = make.tls(
      sni: "api.example-health.de", start: s2.addingTimeInterval(-20), answer: .serverHello(.tls13),
      status: .inspected, exchanges: 6)
    longLived.beginsBeforeSession = true
    for i in longLived.packets.indices where longLived.packets[i].offset > 0.5 {
      longLived.packets[i].offset += 25
    }
    var missing = make.tls(
      sni: "uploads.example-health.de", start: t2(400), answer: .serverHello(.tls13),
      status: .inspected)
    missing.fate = .fileRemoved
    var cutShort = make.tls(
      sni: "cdn2.example-cdn.net", start: t2(410), answer: .serverHello(.tls13), status: .inspected)
    cutShort.fate = .lastRecordCutShort
    var uncaptured = make.tls(
      sni: "api.example-health.de", start: t2(420), answer: .serverHello(.tls13), status: .inspected
    )
    uncaptured.fate = .notCaptured
    var notInspectableNoName = make.tls(
      sni: nil, dns: "vault.example-health.de", start: t2(330), answer: .serverHello(.tls13),
      status: .notInspectable)
    notInspectableNoName.flow.dnsOtherNames = []
    // What the proxy and the capture read: the test account's values, found or not.
    var beacon = make.tls(
      sni: "collect.example-ads.net", start: t2(20), answer: .serverHello(.tls13),
      status: .inspected)
    beacon.exchanges = [SampleExchanges.beacon(host: "collect.example-ads.net", at: t2(20))]
    var config = make.tls(
      sni: "config.example-health.de", start: t2(90), answer: .serverHello(.tls13, hrr: true),
      status: .inspected)
    config.exchanges = [SampleExchanges.config(host: "config.example-health.de", at: t2(90))]
    var sync = make.tls(
      sni: "sync.example-health.de", start: t2(150), answer: .upstream(.tls13), status: .inspected)
    sync.exchanges = [SampleExchanges.record(host: "sync.example-health.de", at: t2(150))]
    var legacy = make.http(host: "legacy.example-health.de", start: t2(210))
    legacy.exchanges = [
      SampleExchanges.measurements(
        host: "legacy.example-health.de", path: "/v1/measurements", at: t2(210))
    ]
    return LaterReadings(
      longLived: longLived, missing: missing, cutShort: cutShort, uncaptured: uncaptured,
      notInspectableNoName: notInspectableNoName, beacon: beacon, config: config, sync: sync,
      legacy: legacy, chainCert: chainCert)
  }

  /// A second project, its allowlist not written yet, and a session without a consent marker.
  private static func diaryProject(_ make: inout SampleFlowMaker) -> (
    AuditProjectDraft, SampleSession
  ) {
    let diary = AuditProjectDraft(
      name: "Example Diary", bundleIdentifier: "de.example.diary", catalogueVersion: nil,
      allowlist: [])
    let d0 = at(1, 14, 0)
    var diarySession = SampleSession(
      kind: .audit(AppRelease(version: "1.0.0", build: "12")), environment: device,
      inspection: .off,
      notes: "", start: d0, end: at(1, 14, 5), markers: [(.loggedIn, d0.addingTimeInterval(30))],
      flows: [])
    diarySession.flows = [
      make.tls(
        sni: "api.example-diary.de", start: d0.addingTimeInterval(10), answer: .serverHello(.tls13)),
      make.tls(
        sni: "tracker.example-ads.net", start: d0.addingTimeInterval(20),
        answer: .serverHello(.tls12, cipher: 0xc02f)),
    ]

    return (diary, diarySession)
  }

  /// The i-th bulk flow of a workload: TLS 1.3 to one of many hosts, some unlisted, half inspected.
  static func bulkFlow(_ index: Int, of bulk: SampleBulk, start: Date, maker: inout SampleFlowMaker)
    -> SampleFlow
  {
    let hosts = max(20, bulk.flows / 10)
    let host = index % hosts
    let name = host % 5 == 4 ? "t\(host).tracker-\(host % 97).net" : "node\(host).example-cdn.net"
    let status: TLSInspectionStatus = host % 2 == 0 ? .inspected : .notInspectable
    let per = bulk.packets / bulk.flows + (index < bulk.packets % bulk.flows ? 1 : 0)
    let exchanges = max(1, (per - 7) / 2)
    // Size the records so that the session's capture comes near `captureBytes`: what is left per
    // flow after its handshake, teardown and record headers, shared by its data packets.
    let fixedPerFlow = 7 * 16 + 3 * 40 + 2 * 40 + 330 + 140
    let perFlow = bulk.captureBytes / max(1, bulk.flows)
    let recordSize = max(32, (perFlow - fixedPerFlow) / (2 * exchanges) - 16 - 40 - 5)
    var flow = maker.tls(
      sni: name, start: start, answer: .serverHello(.tls13), status: status, exchanges: 0)
    var tail = flow.packets.suffix(2)
    flow.packets.removeLast(2)
    var clock = flow.packets.last?.offset ?? 0.06
    for _ in 0..<exchanges {
      clock += 0.01
      flow.packets.append(
        SamplePacket(
          offset: clock, outbound: true, tcpFlags: SampleFlowMaker.pushAck,
          payload: .tlsRecord(recordSize / 2 + maker.random.below(recordSize))))
      clock += 0.01
      flow.packets.append(
        SamplePacket(
          offset: clock, outbound: false, tcpFlags: SampleFlowMaker.pushAck,
          payload: .tlsRecord(recordSize / 2 + maker.random.below(recordSize))))
    }
    if (per - 7) % 2 == 1 && per > 8 {
      clock += 0.01
      flow.packets.append(
        SamplePacket(
          offset: clock, outbound: false, tcpFlags: SampleFlowMaker.pushAck,
          payload: .tlsRecord(recordSize / 2 + maker.random.below(recordSize))))
    }
    for i in tail.indices { tail[i].offset = clock + 0.02 * Double(i - tail.startIndex + 1) }
    flow.packets += tail
    return flow
  }
}
