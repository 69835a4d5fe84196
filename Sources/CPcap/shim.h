#include <pcap/pcap.h>
#include <poll.h>
#include <stdio.h>
#include <sys/types.h>

/* glibc's fopencookie, a GNU extension the Swift module of stdio.h leaves out: a FILE whose
   reads call a function, for libpcap to read a stream the recorder passes on. Declared under a
   name of its own so that it cannot clash with a declaration some other header shows. */
typedef struct {
  ssize_t (*read)(void *cookie, char *buffer, size_t size);
  ssize_t (*write)(void *cookie, const char *buffer, size_t size);
  int (*seek)(void *cookie, long long *offset, int whence);
  int (*close)(void *cookie);
} tv_cookie_functions;

FILE *tv_fopencookie(void *cookie, const char *mode, tv_cookie_functions functions)
    __asm__("fopencookie");
