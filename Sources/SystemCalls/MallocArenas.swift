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

  /// Each allocation of `bytes` or more is mapped apart and its pages given back when it is
  /// freed. Left to glibc, the threshold rises to the size of each such block freed, and later
  /// ones go into the heap: a large array freed there (a grown copy's old buffer, a sorted copy)
  /// leaves a hole the heap keeps resident, and the peak follows how the holes fell rather than
  /// what is held.
  public static func mapApart(from bytes: Int) {
    _ = tv_map_malloc_allocations_from(max(bytes, 0))
  }

  /// The size from which a command's allocations are mapped apart (`mapApart(from:)`): a
  /// mebibyte. The documents' writers' buffers, a quarter of one each, stay in the heap.
  public static let mappedApartFrom = 1 << 20

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
