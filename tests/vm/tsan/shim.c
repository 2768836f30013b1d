/* Memory intrinsics that LLVM's ThreadSanitizer pass (rustc nightly) calls but gcc 12's libtsan
 * does not export: forwarded to memcpy/memmove/memset, which libtsan intercepts and checks. */
#include <string.h>

void *__tsan_memcpy(void *d, const void *s, size_t n) { return memcpy(d, s, n); }
void *__tsan_memmove(void *d, const void *s, size_t n) { return memmove(d, s, n); }
void *__tsan_memset(void *d, int c, size_t n) { return memset(d, c, n); }
