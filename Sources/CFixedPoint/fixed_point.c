// Cairo writes every coordinate of a PDF page through snprintf("%f") (and "%.*f", "%.18f",
// "%d"): glibc converts each double with multi-precision arithmetic, an eighth of drawing the
// report. The same digits come from the double's exact value in 128-bit integers; calls this
// formats itself are answered here, every other call goes to glibc unchanged. The executable
// exports its symbols, so this __snprintf_chk is the one the libraries' fortified snprintf
// calls reach.
#define _GNU_SOURCE
#include "fixed_point.h"

#include <dlfcn.h>
#include <fenv.h>
#include <langinfo.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern int __vsnprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *format,
                           va_list ap);
extern void __chk_fail(void) __attribute__((noreturn));

static const uint64_t powers_of_ten[19] = {
    1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL,
    1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL,
    100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
    1000000000000000000ULL};

/// Copies `text` (`length` bytes) as snprintf would into `capacity` bytes; returns `length`.
static int emit(char *out, size_t capacity, const char *text, int length) {
  if (capacity > 0) {
    size_t n = (size_t)length < capacity - 1 ? (size_t)length : capacity - 1;
    memcpy(out, text, n);
    out[n] = 0;
  }
  return length;
}

/// `value`'s decimal digits at `out`; how many.
static int decimal(char *out, uint64_t value) {
  char digits[20];
  int count = 0;
  do {
    digits[count++] = (char)('0' + value % 10);
    value /= 10;
  } while (value > 0);
  for (int i = 0; i < count; i++) out[i] = digits[count - 1 - i];
  return count;
}

int tv_fixed_point(char *out, size_t capacity, double value, int precision) {
  if (precision < 0 || precision > 18) return -1;
  uint64_t bits;
  memcpy(&bits, &value, sizeof bits);
  int negative = (int)(bits >> 63);
  int biased = (int)((bits >> 52) & 0x7ff);
  uint64_t mantissa = bits & ((1ULL << 52) - 1);
  if (biased == 0x7ff) return -1;
  int exponent;
  if (biased == 0) {
    exponent = -1074;
  } else {
    mantissa |= 1ULL << 52;
    exponent = biased - 1075;
  }
  // value * 10^precision = mantissa * 10^precision * 2^exponent, rounded to an integer as
  // printf rounds (to nearest, a tie to even).
  unsigned __int128 scaled;
  if (exponent >= 0) {
    if (exponent > 10) return -1;
    scaled = ((unsigned __int128)mantissa << exponent) * powers_of_ten[precision];
  } else {
    unsigned __int128 product = (unsigned __int128)mantissa * powers_of_ten[precision];
    int shift = -exponent;
    if (shift >= 128) {
      scaled = 0;  // the product is below 2^113: the value is below one half
    } else {
      scaled = product >> shift;
      unsigned __int128 rest = product - (scaled << shift);
      unsigned __int128 half = (unsigned __int128)1 << (shift - 1);
      if (rest > half || (rest == half && (scaled & 1))) scaled += 1;
    }
  }
  uint64_t whole = (uint64_t)(scaled / powers_of_ten[precision]);
  uint64_t fraction = (uint64_t)(scaled % powers_of_ten[precision]);
  char text[48];
  int at = 0;
  if (negative) text[at++] = '-';
  at += decimal(text + at, whole);
  if (precision > 0) {
    text[at++] = '.';
    for (int i = precision - 1; i >= 0; i--) {
      text[at + i] = (char)('0' + fraction % 10);
      fraction /= 10;
    }
    at += precision;
  }
  return emit(out, capacity, text, at);
}

/// Whether printf writes digits here as `tv_fixed_point` does: a full stop for the decimal point
/// (it writes the locale's), rounding to nearest (it rounds in the current mode).
static int formats_as_here(void) {
  // nl_langinfo reads the current locale's decimal point as localeconv does, without filling
  // localeconv's whole structure for each of the draw's numbers (a tenth of their cost).
  const char *point = nl_langinfo(RADIXCHAR);
  return point[0] == '.' && point[1] == 0 && fegetround() == FE_TONEAREST;
}

int __snprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *format, ...) {
  if (slen < maxlen) __chk_fail();
  va_list ap;
  va_start(ap, format);
  int written = -1;
  if (format[0] == '%') {
    if (format[1] == 'f' && format[2] == 0) {
      va_list copy;
      va_copy(copy, ap);
      double value = va_arg(copy, double);
      va_end(copy);
      if (formats_as_here()) written = tv_fixed_point(s, maxlen, value, 6);
    } else if (format[1] == '.' && format[2] == '*' && format[3] == 'f' && format[4] == 0) {
      va_list copy;
      va_copy(copy, ap);
      int precision = va_arg(copy, int);
      double value = va_arg(copy, double);
      va_end(copy);
      if (formats_as_here()) written = tv_fixed_point(s, maxlen, value, precision);
    } else if (format[1] == '.' && format[2] >= '0' && format[2] <= '9') {
      int precision = format[2] - '0';
      int at = 3;
      if (format[3] >= '0' && format[3] <= '9') precision = precision * 10 + (format[at++] - '0');
      if (format[at] == 'f' && format[at + 1] == 0) {
        va_list copy;
        va_copy(copy, ap);
        double value = va_arg(copy, double);
        va_end(copy);
        if (formats_as_here()) written = tv_fixed_point(s, maxlen, value, precision);
      }
    } else if (format[1] == 'd' && format[2] == 0) {
      va_list copy;
      va_copy(copy, ap);
      int value = va_arg(copy, int);
      va_end(copy);
      char text[16];
      int at = 0;
      if (value < 0) text[at++] = '-';
      at += decimal(text + at, value < 0 ? 0u - (unsigned int)value : (unsigned int)value);
      written = emit(s, maxlen, text, at);
    }
  }
  if (written < 0) written = __vsnprintf_chk(s, maxlen, flag, slen, format, ap);
  va_end(ap);
  return written;
}

int tv_snprintf_double(char *out, size_t capacity, const char *format, double value) {
  return __snprintf_chk(out, capacity, 1, capacity, format, value);
}

int tv_snprintf_precision_double(char *out, size_t capacity, const char *format, int precision,
                                 double value) {
  return __snprintf_chk(out, capacity, 1, capacity, format, precision, value);
}

int tv_snprintf_int(char *out, size_t capacity, const char *format, int value) {
  return __snprintf_chk(out, capacity, 1, capacity, format, value);
}

int tv_fixed_point_reaches_libraries(void) {
  return dlsym(RTLD_DEFAULT, "__snprintf_chk") == (void *)__snprintf_chk;
}
