#define _GNU_SOURCE
#include "CSystemCalls.h"

#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int tv_file_status(const char *path, struct tv_file_status *status) {
  struct statx x;
  if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_TYPE | STATX_SIZE | STATX_BTIME, &x) != 0)
    return -1;
  status->size = x.stx_size;
  status->is_regular = S_ISREG(x.stx_mode);
  status->has_birth = (x.stx_mask & STATX_BTIME) != 0;
  status->birth_seconds = x.stx_btime.tv_sec;
  status->birth_nanoseconds = x.stx_btime.tv_nsec;
  return 0;
}

int tv_set_direct_io(int fd, int on) {
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0) return -1;
  return fcntl(fd, F_SETFL, on ? (flags | O_DIRECT) : (flags & ~O_DIRECT));
}

int tv_limit_malloc_arenas(int most) { return mallopt(M_ARENA_MAX, most); }

int tv_map_malloc_allocations_from(size_t bytes) {
  return bytes > INT_MAX ? 0 : mallopt(M_MMAP_THRESHOLD, (int)bytes);
}

int tv_malloc_trim(void) { return malloc_trim(0); }

int tv_malloc_arena_count(void) {
  char *text = NULL;
  size_t size = 0;
  FILE *stream = open_memstream(&text, &size);
  if (stream == NULL) return -1;
  int failed = malloc_info(0, stream);
  fclose(stream);
  int count = 0;
  for (char *at = text; !failed && (at = strstr(at, "<heap nr=")) != NULL; at++) count++;
  free(text);
  return failed ? -1 : count;
}

size_t tv_malloc_in_use(void) {
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}
