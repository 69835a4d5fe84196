import CSystemCalls

/// How the process's threads share malloc's memory.
public enum MallocArenas {
  /// Threads allocate from at most `most` arenas. With one, an export or a verify that hands its
  /// work between two cores and the queues writing behind them keeps no arena's freed memory for
  /// one thread alone; with an arena each, threads allocating at once do not wait on each other's
  /// lock. Called before any thread but the main one allocates: glibc settles the limit then.
  public static func limit(to most: Int) {
    _ = tv_limit_malloc_arenas(Int32(clamping: max(most, 1)))
  }

  /// Gives the pages of memory freed and kept by malloc back to the system: a phase that freed
  /// much before one that allocates anew leaves the next one's pages to be touched afresh.
  public static func trim() { _ = tv_malloc_trim() }

  /// The arenas the process has now; nil when glibc does not say.
  public static var count: Int? {
    let count = tv_malloc_arena_count()
    return count < 0 ? nil : Int(count)
  }

  /// The bytes malloc has handed out and not had back, in all arenas.
  public static var bytesInUse: Int { Int(tv_malloc_in_use()) }
}
