// See include/KioskPixels.h. The constants are exact for every 8-bit value (a test checks all 256).
#include "KioskPixels.h"
#include <string.h>

#if defined(__clang__)
#define KIOSK_UNINSTRUMENTED __attribute__((no_sanitize("thread")))
#else
#define KIOSK_UNINSTRUMENTED
#endif

static inline uint8_t luma(uint32_t y) { return (uint8_t)((y * 56282u + 1081360u) >> 16); }
static inline uint8_t chroma(uint32_t c) { return (uint8_t)((c * 57567u + 1052741u) >> 16); }

KIOSK_UNINSTRUMENTED void kiosk_luma_row(const uint8_t *source, uint8_t *target, size_t count, int from_full) {
    if (!from_full) {
        memcpy(target, source, count);
        return;
    }
    for (size_t i = 0; i < count; i++) target[i] = luma(source[i]);
}

KIOSK_UNINSTRUMENTED void kiosk_chroma_row(const uint8_t *source, uint8_t *target, size_t count, int from_full) {
    if (!from_full) {
        memcpy(target, source, count);
        return;
    }
    for (size_t i = 0; i < count; i++) target[i] = chroma(source[i]);
}

KIOSK_UNINSTRUMENTED void kiosk_chroma_rows(const uint8_t *a, const uint8_t *b, uint8_t *target, size_t count, int from_full) {
    if (from_full) {
        for (size_t i = 0; i < count; i++) target[i] = chroma(((uint32_t)a[i] + b[i] + 1) >> 1);
    } else {
        for (size_t i = 0; i < count; i++) target[i] = (uint8_t)(((uint32_t)a[i] + b[i] + 1) >> 1);
    }
}

// YUYV's samples are interleaved (Y0 U Y1 V): compilers do not vectorise the strided loops by
// themselves, so on x86-64 32 luma samples or 32 chroma pairs go per step with AVX2 when the CPU
// has it (a quarter less time than SSE2 for a 1080p frame from memory, over a third less in bands
// in the cache: `kiosk-bench convert-yuyv`), then 16 with SSE2 (part of the baseline), and the
// scalar loops finish each row (and are the whole of it elsewhere). Luma is the low byte of each 16-bit lane, chroma the high byte;
// avg_epu8 is (a + b + 1) >> 1, the scalar loop's rounding.
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define KIOSK_X86_VECTORS 1
#endif

static int vector_limit = 32;  // read and written only with __atomic builtins

int kiosk_pixels_vector_limit(int limit) {
    return __atomic_exchange_n(&vector_limit, limit, __ATOMIC_RELAXED);
}

/// How wide the steps may be here: the cap, and what this CPU has.
static inline int vector_width(void) {
    int limit = __atomic_load_n(&vector_limit, __ATOMIC_RELAXED);
#if defined(KIOSK_X86_VECTORS)
    if (limit >= 32 && __builtin_cpu_supports("avx2")) return 32;
    return limit >= 16 ? 16 : 1;
#else
    return 1;
#endif
}

#if defined(KIOSK_X86_VECTORS)
// AVX2's packs work within each 128-bit half, so each step's result is put back in order with one
// permute: luma's 8-sample quarters come out 0 2 1 3; chroma's 4-pair eighths 0 2 4 6 1 3 5 7.
__attribute__((target("avx2"))) KIOSK_UNINSTRUMENTED
static size_t yuyv_luma_avx2(const uint8_t *source, uint8_t *y, size_t width) {
    const __m256i low = _mm256_set1_epi16(0x00FF);
    size_t x = 0;
    for (; x + 32 <= width; x += 32) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(source + 2 * x));
        __m256i b = _mm256_loadu_si256((const __m256i *)(source + 2 * x + 32));
        __m256i packed = _mm256_packus_epi16(_mm256_and_si256(a, low), _mm256_and_si256(b, low));
        _mm256_storeu_si256((__m256i *)(y + x), _mm256_permute4x64_epi64(packed, _MM_SHUFFLE(3, 1, 2, 0)));
    }
    return x;
}

__attribute__((target("avx2"))) KIOSK_UNINSTRUMENTED
static size_t yuyv_chroma_avx2(const uint8_t *a, const uint8_t *b, uint8_t *u, uint8_t *v, size_t pairs) {
    const __m256i low = _mm256_set1_epi16(0x00FF);
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    size_t i = 0;
    for (; i + 32 <= pairs; i += 32) {
        __m256i uv[2];
        for (int half = 0; half < 2; half++) {
            const uint8_t *pa = a + 4 * i + 64 * half, *pb = b + 4 * i + 64 * half;
            __m256i ra = _mm256_packus_epi16(_mm256_srli_epi16(_mm256_loadu_si256((const __m256i *)pa), 8),
                                             _mm256_srli_epi16(_mm256_loadu_si256((const __m256i *)(pa + 32)), 8));
            __m256i rb = _mm256_packus_epi16(_mm256_srli_epi16(_mm256_loadu_si256((const __m256i *)pb), 8),
                                             _mm256_srli_epi16(_mm256_loadu_si256((const __m256i *)(pb + 32)), 8));
            uv[half] = _mm256_avg_epu8(ra, rb);
        }
        __m256i us = _mm256_packus_epi16(_mm256_and_si256(uv[0], low), _mm256_and_si256(uv[1], low));
        __m256i vs = _mm256_packus_epi16(_mm256_srli_epi16(uv[0], 8), _mm256_srli_epi16(uv[1], 8));
        _mm256_storeu_si256((__m256i *)(u + i), _mm256_permutevar8x32_epi32(us, order));
        _mm256_storeu_si256((__m256i *)(v + i), _mm256_permutevar8x32_epi32(vs, order));
    }
    return i;
}
#endif

KIOSK_UNINSTRUMENTED void kiosk_yuyv_luma_row(const uint8_t *source, uint8_t *y, size_t width) {
    size_t x = 0;
    int vectors = vector_width();
#if defined(KIOSK_X86_VECTORS)
    if (vectors >= 32) x = yuyv_luma_avx2(source, y, width);
    const __m128i low = _mm_set1_epi16(0x00FF);
    for (; vectors >= 16 && x + 16 <= width; x += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(source + 2 * x));
        __m128i b = _mm_loadu_si128((const __m128i *)(source + 2 * x + 16));
        _mm_storeu_si128((__m128i *)(y + x), _mm_packus_epi16(_mm_and_si128(a, low), _mm_and_si128(b, low)));
    }
#endif
    (void)vectors;
    for (; x < width; x++) y[x] = source[2 * x];
}

KIOSK_UNINSTRUMENTED void kiosk_yuyv_chroma_rows(const uint8_t *a, const uint8_t *b, uint8_t *u, uint8_t *v, size_t pairs) {
    size_t i = 0;
    int vectors = vector_width();
#if defined(KIOSK_X86_VECTORS)
    if (vectors >= 32) i = yuyv_chroma_avx2(a, b, u, v, pairs);
    const __m128i low = _mm_set1_epi16(0x00FF);
    for (; vectors >= 16 && i + 16 <= pairs; i += 16) {
        __m128i uv[2];
        for (int half = 0; half < 2; half++) {
            const uint8_t *pa = a + 4 * i + 32 * half, *pb = b + 4 * i + 32 * half;
            // Each row's 8 pairs as U V U V …, then the two rows averaged.
            __m128i ra = _mm_packus_epi16(_mm_srli_epi16(_mm_loadu_si128((const __m128i *)pa), 8),
                                          _mm_srli_epi16(_mm_loadu_si128((const __m128i *)(pa + 16)), 8));
            __m128i rb = _mm_packus_epi16(_mm_srli_epi16(_mm_loadu_si128((const __m128i *)pb), 8),
                                          _mm_srli_epi16(_mm_loadu_si128((const __m128i *)(pb + 16)), 8));
            uv[half] = _mm_avg_epu8(ra, rb);
        }
        _mm_storeu_si128((__m128i *)(u + i), _mm_packus_epi16(_mm_and_si128(uv[0], low), _mm_and_si128(uv[1], low)));
        _mm_storeu_si128((__m128i *)(v + i), _mm_packus_epi16(_mm_srli_epi16(uv[0], 8), _mm_srli_epi16(uv[1], 8)));
    }
#endif
    (void)vectors;
    for (; i < pairs; i++) {
        u[i] = (uint8_t)(((uint32_t)a[4 * i + 1] + b[4 * i + 1] + 1) >> 1);
        v[i] = (uint8_t)(((uint32_t)a[4 * i + 3] + b[4 * i + 3] + 1) >> 1);
    }
}

KIOSK_UNINSTRUMENTED void kiosk_yuyv_to_420(const uint8_t *source, size_t pitch, size_t width, size_t height,
                                            uint8_t *y, size_t y_pitch, uint8_t *u, size_t u_pitch, uint8_t *v, size_t v_pitch) {
    for (size_t row = 0; 2 * row < height; row++) {
        const uint8_t *top = source + 2 * row * pitch;
        const uint8_t *bottom = 2 * row + 1 < height ? top + pitch : top;
        kiosk_yuyv_luma_row(top, y + 2 * row * y_pitch, width);
        if (bottom != top) kiosk_yuyv_luma_row(bottom, y + (2 * row + 1) * y_pitch, width);
        kiosk_yuyv_chroma_rows(top, bottom, u + row * u_pitch, v + row * v_pitch, width / 2);
    }
}
