#include <stddef.h>
#include <stdint.h>
// libFuzzer's driver (compiler-rt, -sanitize=fuzzer): runs the fuzzing loop on a callback.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
// glibc's memfd_create, which its headers declare only under _GNU_SOURCE: a file in memory for
// the readers under test that take a path.
int memfd_create(const char *name, unsigned int flags);
