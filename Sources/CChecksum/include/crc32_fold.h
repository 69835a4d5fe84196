#ifndef TUNNELVISION_CRC32_FOLD_H
#define TUNNELVISION_CRC32_FOLD_H

#include <stddef.h>
#include <stdint.h>

/// CRC-32 (ISO-HDLC, the one ZIP uses) of `count` bytes at `bytes`, continuing `crc` (0 to start),
/// as zlib's crc32() computes it. On processors with carry-less multiplication (PCLMULQDQ) the
/// bulk of the bytes is folded sixty-four at a time; elsewhere, and for the last few bytes, zlib
/// computes it.
uint32_t tunnelvision_crc32(uint32_t crc, const void *bytes, size_t count);

/// Whether the folding path is used on this processor (for the tests, which check both paths).
int tunnelvision_crc32_folds(void);

/// zlib's own computation, for comparison.
uint32_t tunnelvision_crc32_zlib(uint32_t crc, const void *bytes, size_t count);

#endif
