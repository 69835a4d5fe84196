#include <stdint.h>
#include <stddef.h>

// What the store reads of a file in its capture directory, by statx(2) without following a
// symbolic link: glibc declares statx only under _GNU_SOURCE, which Swift's Glibc module lacks.
struct tv_file_status {
  uint64_t size;
  int64_t birth_seconds;
  uint32_t birth_nanoseconds;
  // Whether the file system keeps a birth time (ext4, xfs and btrfs do; tmpfs before Linux 5.x not).
  int has_birth;
  int is_regular;
};

// 0, or -1 with errno set.
int tv_file_status(const char *path, struct tv_file_status *status);

// Turns direct I/O (O_DIRECT: writes go from the caller's buffer to the device, past the page
// cache) on or off for an open file: 0, or -1 with errno set (EINVAL where the file system has no
// direct I/O). O_DIRECT is declared only under _GNU_SOURCE.
int tv_set_direct_io(int fd, int on);

// Has the process's threads allocate from at most `most` malloc arenas (mallopt M_ARENA_MAX, at
// least 1): glibc otherwise gives each thread that allocates an arena of its own, whose freed memory
// no other thread reuses. 1 when set, 0 when not. mallopt is declared in <malloc.h>, which Swift's
// Glibc module leaves out.
int tv_limit_malloc_arenas(int most);

// Has malloc map each allocation of `bytes` or more apart (mallopt M_MMAP_THRESHOLD, which also
// stops glibc raising the threshold as such blocks are freed), so that freeing one gives its pages
// back at once. 1 when set, 0 when not.
int tv_map_malloc_allocations_from(size_t bytes);

// Gives the pages of freed memory malloc keeps back to the system (malloc_trim(0)); 1 when any
// were given back.
int tv_malloc_trim(void);

// How many malloc arenas the process has (malloc_info's heaps), or -1 when it cannot be read.
int tv_malloc_arena_count(void);

// The bytes malloc has handed out and not had back (mallinfo2's uordblks and hblkhd): what the
// process holds, apart from what freed memory malloc keeps.
size_t tv_malloc_in_use(void);
