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
// themselves, so on x86-64 (SSE2 is part of the baseline) 16 luma samples or 16 chroma pairs go
// per step: luma is the low byte of each 16-bit lane, chroma the high byte; _mm_avg_epu8 is
// (a + b + 1) >> 1, the scalar loop's rounding. The scalar loops finish each row (and are the
// whole of it elsewhere).
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

KIOSK_UNINSTRUMENTED void kiosk_yuyv_luma_row(const uint8_t *source, uint8_t *y, size_t width) {
    size_t x = 0;
#if defined(__SSE2__)
    const __m128i low = _mm_set1_epi16(0x00FF);
    for (; x + 16 <= width; x += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(source + 2 * x));
        __m128i b = _mm_loadu_si128((const __m128i *)(source + 2 * x + 16));
        _mm_storeu_si128((__m128i *)(y + x), _mm_packus_epi16(_mm_and_si128(a, low), _mm_and_si128(b, low)));
    }
#endif
    for (; x < width; x++) y[x] = source[2 * x];
}

KIOSK_UNINSTRUMENTED void kiosk_yuyv_chroma_rows(const uint8_t *a, const uint8_t *b, uint8_t *u, uint8_t *v, size_t pairs) {
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i low = _mm_set1_epi16(0x00FF);
    for (; i + 16 <= pairs; i += 16) {
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
