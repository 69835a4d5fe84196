#ifndef TV_FIXED_POINT_H
#define TV_FIXED_POINT_H

#include <stddef.h>

/// `value` as printf's "%.<precision>f" writes it in the C locale, into `out` (NUL-terminated,
/// at most `capacity` bytes with the NUL): the length it has, or -1 where this does not format it
/// (not finite, a precision above 18, a magnitude of 2^63 or more) and printf must.
int tv_fixed_point(char *out, size_t capacity, double value, int precision);

/// A fortified snprintf(out, capacity, format, ...) with one double, a precision and a double, or
/// one int: the call a library compiled with _FORTIFY_SOURCE makes, which reaches this target's
/// __snprintf_chk (for the tests, which compare it with glibc's vsnprintf).
int tv_snprintf_double(char *out, size_t capacity, const char *format, double value);
int tv_snprintf_precision_double(char *out, size_t capacity, const char *format, int precision,
                                 double value);
int tv_snprintf_int(char *out, size_t capacity, const char *format, int value);

/// Whether the libraries' fortified snprintf calls reach this target's __snprintf_chk: the
/// executable exports it (else they reach glibc's, with the same digits, more slowly).
int tv_fixed_point_reaches_libraries(void);

#endif
