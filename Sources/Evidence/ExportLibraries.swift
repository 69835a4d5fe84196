import AuditDocuments
import AuditWording
import CMaxMindDB
import CPSL
import Crypto
import ReportPDF

/// The libraries this exporter links, with the versions they state at run time: the test log's
/// rows only the exporting machine can give.
enum ExportLibraries {
  static func stated(publicSuffixList: Bool, addressDatabases: Bool) -> [EvidenceTestLog.Tool] {
    var tools: [EvidenceTestLog.Tool] = []
    func add(_ name: String, _ version: String?, _ use: String) {
      tools.append(EvidenceTestLog.Tool(name: name, version: version, stage: .libraries, use: use))
    }
    if publicSuffixList {
      add("libpsl", psl_get_version().map { String(cString: $0) }, TestLogWording.libpslUse)
    }
    add("OpenSSL", CryptoLibrary.version, TestLogWording.opensslUse)
    add("Cairo", EvidenceReportPDF.cairoVersion, TestLogWording.cairoUse)
    add("Pango", EvidenceReportPDF.pangoVersion, TestLogWording.pangoUse)
    if addressDatabases {
      add("libmaxminddb", MMDB_lib_version().map { String(cString: $0) }, TestLogWording.maxmindUse)
    }
    return tools
  }
}
