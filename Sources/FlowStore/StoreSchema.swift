/// The store's migrations, from an empty file to the current schema. Each runs in one
/// immediate transaction together with the `user_version` it leads to; a migration once
/// shipped is never edited, only followed by another. Documented in docs/store-format.md.
enum StoreSchema {
  /// Written to `PRAGMA application_id`: "TVEV". A SQLite file with another id is not a store.
  static let applicationID: Int32 = 0x5456_4556

  static let migrations: [(version: Int, name: String, sql: String)] = [
    (
      1, "history",
      """
      CREATE TABLE capture_sessions (
          id INTEGER PRIMARY KEY,
          started_at INTEGER NOT NULL
      );
      CREATE TABLE capture_files (
          sequence INTEGER PRIMARY KEY,
          created_at INTEGER NOT NULL
      );
      CREATE TABLE flows (
          id INTEGER PRIMARY KEY,
          session INTEGER NOT NULL REFERENCES capture_sessions(id) ON DELETE CASCADE,
          protocol INTEGER NOT NULL,
          addr_a TEXT NOT NULL, port_a INTEGER NOT NULL,
          addr_b TEXT NOT NULL, port_b INTEGER NOT NULL,
          first_seen INTEGER NOT NULL,
          last_seen INTEGER NOT NULL,
          bytes_out INTEGER NOT NULL DEFAULT 0,
          bytes_in INTEGER NOT NULL DEFAULT 0,
          packet_count INTEGER NOT NULL DEFAULT 0,
          tls_status INTEGER NOT NULL,
          sni TEXT,
          dns_name TEXT,
          dns_other_names TEXT NOT NULL DEFAULT '',
          stream_opening INTEGER,
          client_versions_form INTEGER,
          client_versions TEXT,
          client_alpn TEXT,
          client_alpn_dropped INTEGER,
          client_ech INTEGER,
          server_answer INTEGER,
          server_version INTEGER,
          server_cipher INTEGER,
          server_from_hrr INTEGER,
          server_source INTEGER,
          server_alert INTEGER,
          quic_version INTEGER,
          quic_end INTEGER,
          cert_visibility INTEGER NOT NULL DEFAULT 0,
          cert_absence INTEGER,
          cert_chain_complete INTEGER
      );
      CREATE INDEX flows_first_seen ON flows(first_seen);
      CREATE TABLE flow_certificates (
          flow_id INTEGER NOT NULL REFERENCES flows(id) ON DELETE CASCADE,
          position INTEGER NOT NULL,
          der BLOB NOT NULL,
          PRIMARY KEY (flow_id, position)
      ) WITHOUT ROWID;
      CREATE TABLE packets (
          id INTEGER PRIMARY KEY,
          flow_id INTEGER NOT NULL REFERENCES flows(id) ON DELETE CASCADE,
          ts INTEGER NOT NULL,
          direction INTEGER NOT NULL,
          length INTEGER NOT NULL,
          tcp_flags INTEGER NOT NULL DEFAULT 0,
          file_seq INTEGER NOT NULL DEFAULT 0,
          file_offset INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX packets_flow ON packets(flow_id, ts);
      CREATE INDEX packets_file ON packets(file_seq, file_offset);
      """
    ),
    (
      2, "audit (the spec's schema v6)",
      """
      CREATE TABLE audit_projects (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL,
          bundle_id TEXT,
          catalogue_version TEXT,
          created_at INTEGER NOT NULL
      );
      CREATE TABLE audit_allowlist (
          id INTEGER PRIMARY KEY,
          project_id INTEGER NOT NULL REFERENCES audit_projects(id) ON DELETE CASCADE,
          position INTEGER NOT NULL,
          pattern TEXT NOT NULL,
          note TEXT,
          UNIQUE (project_id, pattern)
      );
      CREATE TABLE audit_sessions (
          id INTEGER PRIMARY KEY,
          project_id INTEGER NOT NULL REFERENCES audit_projects(id) ON DELETE CASCADE,
          kind INTEGER NOT NULL,
          app_version TEXT,
          build_number TEXT,
          device_model TEXT NOT NULL,
          os_version TEXT NOT NULL,
          tool_version TEXT NOT NULL,
          inspection_enabled INTEGER NOT NULL,
          ca_trusted INTEGER NOT NULL,
          started_at INTEGER NOT NULL,
          ended_at INTEGER,
          notes TEXT NOT NULL DEFAULT ''
      );
      CREATE UNIQUE INDEX audit_sessions_single_open
          ON audit_sessions((ended_at IS NULL)) WHERE ended_at IS NULL;
      CREATE TABLE audit_markers (
          id INTEGER PRIMARY KEY,
          session_id INTEGER NOT NULL REFERENCES audit_sessions(id) ON DELETE CASCADE,
          ts INTEGER NOT NULL,
          kind INTEGER NOT NULL,
          label TEXT
      );
      CREATE INDEX audit_markers_session ON audit_markers(session_id, ts);
      ALTER TABLE flows ADD COLUMN audit_session_id INTEGER
          REFERENCES audit_sessions(id) ON DELETE SET NULL;
      CREATE INDEX flows_audit_session ON flows(audit_session_id, first_seen);
      """
    ),
    (
      3, "what a flow's status was decided from; where an imported session's capture came from",
      """
      ALTER TABLE flows ADD COLUMN tls_status_basis INTEGER;
      ALTER TABLE audit_sessions ADD COLUMN capture_sha256 TEXT;
      ALTER TABLE audit_sessions ADD COLUMN capture_file_name TEXT;
      ALTER TABLE audit_sessions ADD COLUMN capture_application TEXT;
      ALTER TABLE audit_sessions ADD COLUMN capture_host TEXT;
      CREATE INDEX audit_sessions_capture ON audit_sessions(capture_sha256);
      """
    ),
    (
      4, "the host of the HTTP CONNECT a flow opened with",
      """
      ALTER TABLE flows ADD COLUMN connect_host TEXT;
      """
    ),
    (
      5, "recorder runs; a connection continued across a session's edge; the names DNS asked",
      """
      ALTER TABLE capture_sessions ADD COLUMN source TEXT;
      ALTER TABLE capture_sessions ADD COLUMN live INTEGER;
      ALTER TABLE capture_sessions ADD COLUMN process_id INTEGER;
      ALTER TABLE capture_sessions ADD COLUMN alive_at INTEGER;
      ALTER TABLE capture_sessions ADD COLUMN ended_at INTEGER;
      ALTER TABLE capture_sessions ADD COLUMN end_kind INTEGER;
      ALTER TABLE capture_sessions ADD COLUMN inspection_log TEXT;
      ALTER TABLE capture_sessions ADD COLUMN inspection_log_state INTEGER;
      ALTER TABLE flows ADD COLUMN continued_from INTEGER REFERENCES flows(id) ON DELETE SET NULL;
      ALTER TABLE flows ADD COLUMN dns_questions TEXT NOT NULL DEFAULT '';
      ALTER TABLE audit_sessions ADD COLUMN recorder_at_end INTEGER;
      ALTER TABLE audit_sessions ADD COLUMN inspection_log_at_end INTEGER;
      """
    ),
    (
      6, "the certificate scenario a session was recorded under",
      """
      ALTER TABLE audit_sessions ADD COLUMN certificate_scenario INTEGER;
      UPDATE audit_sessions SET certificate_scenario = 3 WHERE ca_trusted = 1;
      """
    ),
    (
      7, "TLS parameters: the client's offer and fingerprint, the server's choices, its key",
      """
      ALTER TABLE flows ADD COLUMN client_cipher_suites TEXT;
      ALTER TABLE flows ADD COLUMN client_extensions TEXT;
      ALTER TABLE flows ADD COLUMN client_ja4 TEXT;
      ALTER TABLE flows ADD COLUMN server_group INTEGER;
      ALTER TABLE flows ADD COLUMN server_dh_bits INTEGER;
      ALTER TABLE flows ADD COLUMN server_signature INTEGER;
      ALTER TABLE flows ADD COLUMN server_extensions TEXT;
      ALTER TABLE flows ADD COLUMN server_compression INTEGER;
      ALTER TABLE flows ADD COLUMN cert_key_algorithm TEXT;
      ALTER TABLE flows ADD COLUMN cert_key_bits INTEGER;
      ALTER TABLE flows ADD COLUMN cert_key_curve TEXT;
      ALTER TABLE flows ADD COLUMN cert_signature TEXT;
      ALTER TABLE flows ADD COLUMN cert_key_source INTEGER;
      """
    ),
    (
      8, "the test account's values; what exchanges sent and received",
      """
      CREATE TABLE audit_test_data (
          id INTEGER PRIMARY KEY,
          project_id INTEGER NOT NULL REFERENCES audit_projects(id) ON DELETE CASCADE,
          label TEXT NOT NULL,
          value TEXT NOT NULL,
          category INTEGER NOT NULL,
          added_at INTEGER NOT NULL,
          UNIQUE (project_id, label)
      );
      CREATE TABLE exchanges (
          id INTEGER PRIMARY KEY,
          flow_id INTEGER REFERENCES flows(id) ON DELETE CASCADE,
          audit_session_id INTEGER REFERENCES audit_sessions(id) ON DELETE CASCADE,
          source INTEGER NOT NULL,
          kind INTEGER NOT NULL,
          started_at INTEGER NOT NULL,
          ended_at INTEGER,
          method TEXT NOT NULL,
          scheme TEXT NOT NULL,
          host TEXT NOT NULL,
          port INTEGER,
          target TEXT NOT NULL,
          http_version TEXT NOT NULL,
          from_client INTEGER NOT NULL,
          status INTEGER,
          request_headers BLOB NOT NULL,
          response_headers BLOB NOT NULL,
          request_body BLOB,
          request_sent INTEGER,
          request_sha256 TEXT,
          request_encoding TEXT,
          request_decoding INTEGER,
          request_decoding_reason TEXT,
          request_complete INTEGER,
          response_body BLOB,
          response_sent INTEGER,
          response_sha256 TEXT,
          response_encoding TEXT,
          response_decoding INTEGER,
          response_decoding_reason TEXT,
          response_complete INTEGER
      );
      CREATE INDEX exchanges_flow ON exchanges(flow_id);
      CREATE INDEX exchanges_session ON exchanges(audit_session_id, started_at);
      ALTER TABLE flows ADD COLUMN http_host TEXT;
      """
    ),
    (
      9, "connections that began before the capture; the indexes retention and restarts need",
      """
      ALTER TABLE flows ADD COLUMN began_before_capture INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX flows_continued_from ON flows(continued_from);
      CREATE INDEX flows_ports ON flows(port_a, port_b);
      """
    ),
    (
      10,
      "two different copies of a stream's bytes; inspection-log lines a recorder could not read",
      """
      ALTER TABLE flows ADD COLUMN stream_conflicts TEXT NOT NULL DEFAULT '';
      ALTER TABLE capture_sessions ADD COLUMN inspection_lines_unreadable INTEGER NOT NULL DEFAULT 0;
      """
    ),
    (
      11,
      "the history by when each connection was last seen: retention's cutoff, the activity line",
      """
      CREATE INDEX flows_last_seen ON flows(last_seen);
      """
    ),
    (
      12,
      "server scans: what a scanner found a session's servers to offer, its output kept whole",
      """
      CREATE TABLE server_scans (
          id INTEGER PRIMARY KEY,
          audit_session_id INTEGER NOT NULL REFERENCES audit_sessions(id) ON DELETE CASCADE,
          stored_at INTEGER NOT NULL,
          tool TEXT NOT NULL,
          file_name TEXT NOT NULL,
          sha256 TEXT NOT NULL,
          output BLOB NOT NULL
      );
      CREATE INDEX server_scans_session ON server_scans(audit_session_id, id);
      """
    ),
    (
      13, "whether a TLS server asked for a client certificate and the client sent one",
      """
      ALTER TABLE flows ADD COLUMN client_authentication TEXT;
      """
    ),
    (
      14, "the test log: a recorder run's filter and libpcap, the inspecting proxy's starts",
      """
      ALTER TABLE capture_sessions ADD COLUMN filter TEXT;
      ALTER TABLE capture_sessions ADD COLUMN libpcap TEXT;
      CREATE TABLE proxy_starts (
          id INTEGER PRIMARY KEY,
          capture_session_id INTEGER NOT NULL REFERENCES capture_sessions(id) ON DELETE CASCADE,
          tool TEXT NOT NULL,
          version TEXT,
          options TEXT NOT NULL
      );
      CREATE INDEX proxy_starts_run ON proxy_starts(capture_session_id, id);
      """
    ),
    (
      15, "the packet indexes hold what an export reads of each packet, its row not read",
      """
      DROP INDEX packets_file;
      CREATE INDEX packets_file ON packets(file_seq, file_offset, flow_id, direction);
      DROP INDEX packets_flow;
      CREATE INDEX packets_flow ON packets(flow_id, ts, file_seq, file_offset);
      """
    ),
  ]

  static var currentVersion: Int { migrations.last!.version }
}
