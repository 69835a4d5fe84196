#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
// XN_FLAG_RFC2253 is a macro of macros Swift cannot import: RFC 2253, UTF-8 left as it is.
static inline unsigned long ccrypto_name_flags(void) { return XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB; }
#include <openssl/x509v3.h>
#include <openssl/bio.h>
#include <openssl/ec.h>
#include <openssl/err.h>
