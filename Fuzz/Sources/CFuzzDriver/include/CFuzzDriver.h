#include <stddef.h>
#include <stdint.h>
// libFuzzer's driver (compiler-rt, -sanitize=fuzzer): runs the fuzzing loop on a callback.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
