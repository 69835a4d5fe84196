#define _GNU_SOURCE
#include "CSystemCalls.h"

#include <fcntl.h>
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
