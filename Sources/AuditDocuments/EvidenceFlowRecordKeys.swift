import Audit
import AuditRules
import AuditWording

/// The keys of a flow of flows.json, one enum an object, declared once: the record is written
/// (`EvidenceFlowRecord.write`) and read back (`EvidenceFlowRecord.Decoded`) through them.
extension EvidenceFlowRecord {
  public enum Key: String, CodingKey, CaseIterable, Sendable {
    case alsoContactedInBaseline, beganBeforeCapture, bytesIn, bytesOut, captureRun,
      clientAuthentication, clientTLS,
      connectHost,
      continuedFrom, dnsName, dnsOtherNames, dnsQuestions, durationSeconds, findingIDs
    case firstSeen, httpHost, id, lastSeen, name, openedIn, packetCount, peers, `protocol`, quic,
      registrableDomain,
      serverCertificate
    case serverKey, serverTLS, sni, streamConflicts, streamOpening, tlsStatus, tlsStatusBasis
  }
  public enum ConflictKey: String, CodingKey, CaseIterable, Sendable {
    case firstByte, from, lastByte
  }
  public enum ClientKey: String, CodingKey, CaseIterable, Sendable {
    case alpn, cipherSuites, droppedALPNCount, encryptedClientHello, extensions, ja4, versions,
      versionsForm
  }
  public enum NameKey: String, CodingKey, CaseIterable, Sendable { case origin, text }
  public enum OpeningKey: String, CodingKey, CaseIterable, Sendable { case flowID, session }
  public enum PeerKey: String, CodingKey, CaseIterable, Sendable {
    case address, port, registration
  }
  public enum RegistrationKey: String, CodingKey, CaseIterable, Sendable {
    case asn, country, organisation
  }
  public enum QUICKey: String, CodingKey, CaseIterable, Sendable { case end, version, versionValue }
  public enum CertificateKey: String, CodingKey, CaseIterable, Sendable {
    case absence, chain, chainIsComplete, visibility
  }
  public enum ServerKey: String, CodingKey, CaseIterable, Sendable {
    case alert, answer, cipherSuite, compressionMethod, dhPrimeBits, extensions,
      fromHelloRetryRequest, group, signatureScheme, source, version, versionValue
  }
  public enum ServerKeyKey: String, CodingKey, CaseIterable, Sendable {
    case algorithm, bits, curve, signature, source
  }
}

extension JSONWriter {
  /// A member's key given by one of the record's key enums.
  public mutating func key<K: CodingKey>(_ key: K) { self.key(key.stringValue) }
}
