import CSystemCalls

/// How the process's threads share malloc's memory.
public enum MallocArenas {
  /// Every thread allocates from one arena. An export or a verify hands its work between two
  /// cores and the queues that write behind them; with an arena each, what one thread frees stays
  /// resident for that thread alone. Called before any thread but the main one starts.
  public static func useOne() { _ = tv_use_one_malloc_arena() }

  /// The arenas the process has now; nil when glibc does not say.
  public static var count: Int? {
    let count = tv_malloc_arena_count()
    return count < 0 ? nil : Int(count)
  }
}
