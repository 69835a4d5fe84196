/// The version every session and bundle records.
public enum ToolVersion {
  public static let current = "0.1.0"
  /// What a bundle's `exportedWith` says of this version; verify re-derives only such bundles'
  /// documents byte for byte.
  public static let exportedWith = "tunnelvision \(current)"
}
