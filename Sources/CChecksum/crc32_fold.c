// CRC-32 by carry-less multiplication: four 128-bit lanes of the input are multiplied forward
// by x^512 mod P and added to the next 64 bytes, then folded into one lane, then reduced to 32
// bits (Barrett). The method is Gopal et al., "Fast CRC Computation for Generic Polynomials
// Using PCLMULQDQ Instruction" (Intel, 2009); the constants are the bit-reflected powers of x
// modulo the CRC-32 polynomial 0x104C11DB7 that the paper's method calls for.

#include "crc32_fold.h"

#include <zlib.h>

#if defined(__x86_64__)
#include <immintrin.h>

// x^(4*128+32) and x^(4*128-32) mod P: one step of the four-lane fold.
static const uint64_t fourLanes[2] = { 0x154442bd4, 0x1c6e41596 };
// x^(128+32) and x^(128-32) mod P: one lane onto the next.
static const uint64_t oneLane[2] = { 0x1751997d0, 0x0ccaa009e };
// x^64 mod P: 96 bits onto 64.
static const uint64_t toSixtyFour = 0x163cd6124;
// P itself and floor(x^64 / P), for the Barrett reduction.
static const uint64_t barrett[2] = { 0x1db710641, 0x1f7011641 };

__attribute__((target("pclmul,sse4.1")))
static inline __m128i foldOnto(__m128i lane, __m128i constants, __m128i next) {
    __m128i low = _mm_clmulepi64_si128(lane, constants, 0x00);
    __m128i high = _mm_clmulepi64_si128(lane, constants, 0x11);
    return _mm_xor_si128(_mm_xor_si128(low, high), next);
}

/// `state` is the running remainder (zlib's crc, inverted); `count` ≥ 64 and a multiple of 16.
__attribute__((target("pclmul,sse4.1")))
static uint32_t fold(const unsigned char *p, size_t count, uint32_t state) {
    __m128i a = _mm_xor_si128(_mm_loadu_si128((const __m128i *)p), _mm_cvtsi32_si128((int)state));
    __m128i b = _mm_loadu_si128((const __m128i *)(p + 16));
    __m128i c = _mm_loadu_si128((const __m128i *)(p + 32));
    __m128i d = _mm_loadu_si128((const __m128i *)(p + 48));
    p += 64;
    count -= 64;

    const __m128i four = _mm_loadu_si128((const __m128i *)fourLanes);
    for (; count >= 64; p += 64, count -= 64) {
        a = foldOnto(a, four, _mm_loadu_si128((const __m128i *)p));
        b = foldOnto(b, four, _mm_loadu_si128((const __m128i *)(p + 16)));
        c = foldOnto(c, four, _mm_loadu_si128((const __m128i *)(p + 32)));
        d = foldOnto(d, four, _mm_loadu_si128((const __m128i *)(p + 48)));
    }

    const __m128i one = _mm_loadu_si128((const __m128i *)oneLane);
    __m128i x = foldOnto(a, one, b);
    x = foldOnto(x, one, c);
    x = foldOnto(x, one, d);
    for (; count >= 16; p += 16, count -= 16) {
        x = foldOnto(x, one, _mm_loadu_si128((const __m128i *)p));
    }

    // 128 bits → 96: the low half multiplied by x^(128-32)'s constant, added to the high half.
    x = _mm_xor_si128(_mm_clmulepi64_si128(x, one, 0x10), _mm_srli_si128(x, 8));
    // 96 → 64.
    const __m128i low32 = _mm_setr_epi32(-1, 0, -1, 0);
    x = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x, low32), _mm_cvtsi64_si128((long long)toSixtyFour), 0x00),
                      _mm_srli_si128(x, 4));
    // 64 → 32 (Barrett): q = low32(x)·µ, r = x + low32(q)·P; the remainder is r's second word.
    const __m128i pm = _mm_loadu_si128((const __m128i *)barrett);
    __m128i q = _mm_and_si128(_mm_clmulepi64_si128(_mm_and_si128(x, low32), pm, 0x10), low32);
    x = _mm_xor_si128(x, _mm_clmulepi64_si128(q, pm, 0x00));
    return (uint32_t)_mm_extract_epi32(x, 1);
}

// -1 until asked; threads asking at once compute the same answer.
static int folds = -1;

int tunnelvision_crc32_folds(void) {
    int known = __atomic_load_n(&folds, __ATOMIC_RELAXED);
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
        __atomic_store_n(&folds, known, __ATOMIC_RELAXED);
    }
    return known;
}

uint32_t tunnelvision_crc32(uint32_t crc, const void *bytes, size_t count) {
    const unsigned char *p = bytes;
    if (count >= 64 && tunnelvision_crc32_folds()) {
        size_t bulk = count & ~(size_t)15;
        crc = ~fold(p, bulk, ~crc);
        p += bulk;
        count -= bulk;
    }
    return tunnelvision_crc32_zlib(crc, p, count);
}

#else

int tunnelvision_crc32_folds(void) { return 0; }

uint32_t tunnelvision_crc32(uint32_t crc, const void *bytes, size_t count) {
    return tunnelvision_crc32_zlib(crc, bytes, count);
}

#endif

uint32_t tunnelvision_crc32_zlib(uint32_t crc, const void *bytes, size_t count) {
    const unsigned char *p = bytes;
    // zlib takes its length as a 32-bit uInt: a GiB at a time.
    while (count > 0) {
        uInt piece = count > 0x40000000 ? 0x40000000 : (uInt)count;
        crc = (uint32_t)crc32((uLong)crc, p, piece);
        p += piece;
        count -= piece;
    }
    return crc;
}
