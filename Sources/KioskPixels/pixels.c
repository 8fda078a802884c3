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

// The overlay's blend (`--overlay`): per sample t = o + round((255 - a) t / 255), with the rounding
// division by 255 done exactly in 16 bits: x / 255 rounded is (x + 128 + ((x + 128) >> 8)) >> 8 for
// every x up to 255 * 255. The vector loops compute the same thing 32 (AVX2), 16 (SSE2, NEON) at a
// time; the scalar loop finishes each span.
static inline uint8_t blend_sample(uint8_t t, uint8_t o, uint8_t a) {
    uint32_t x = (uint32_t)(255 - a) * t + 128;
    uint32_t sum = o + ((x + (x >> 8)) >> 8);
    return (uint8_t)(sum > 255 ? 255 : sum);
}

#if defined(__aarch64__)
#include <arm_neon.h>
#define KIOSK_NEON_VECTORS 1
#endif

#if defined(KIOSK_X86_VECTORS)
__attribute__((target("avx2"))) KIOSK_UNINSTRUMENTED
static size_t blend_avx2(uint8_t *t, const uint8_t *o, const uint8_t *a, size_t count) {
    const __m256i zero = _mm256_setzero_si256(), ones = _mm256_set1_epi8((char)0xFF), half = _mm256_set1_epi16(128);
    size_t i = 0;
    for (; i + 32 <= count; i += 32) {
        __m256i tv = _mm256_loadu_si256((const __m256i *)(t + i));
        __m256i inv = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(a + i)), ones);
        // Unpacked and packed within each 128-bit half: the order comes back as it was.
        __m256i lo = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_unpacklo_epi8(tv, zero), _mm256_unpacklo_epi8(inv, zero)), half);
        __m256i hi = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_unpackhi_epi8(tv, zero), _mm256_unpackhi_epi8(inv, zero)), half);
        lo = _mm256_srli_epi16(_mm256_add_epi16(lo, _mm256_srli_epi16(lo, 8)), 8);
        hi = _mm256_srli_epi16(_mm256_add_epi16(hi, _mm256_srli_epi16(hi, 8)), 8);
        __m256i kept = _mm256_packus_epi16(lo, hi);
        _mm256_storeu_si256((__m256i *)(t + i), _mm256_adds_epu8(kept, _mm256_loadu_si256((const __m256i *)(o + i))));
    }
    return i;
}
#endif

KIOSK_UNINSTRUMENTED static void blend_run(uint8_t *t, const uint8_t *o, const uint8_t *a, size_t count, int vectors) {
    size_t i = 0;
#if defined(KIOSK_X86_VECTORS)
    if (vectors >= 32) i = blend_avx2(t, o, a, count);
    const __m128i zero = _mm_setzero_si128(), ones = _mm_set1_epi8((char)0xFF), half = _mm_set1_epi16(128);
    for (; vectors >= 16 && i + 16 <= count; i += 16) {
        __m128i tv = _mm_loadu_si128((const __m128i *)(t + i));
        __m128i inv = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(a + i)), ones);
        __m128i lo = _mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(tv, zero), _mm_unpacklo_epi8(inv, zero)), half);
        __m128i hi = _mm_add_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(tv, zero), _mm_unpackhi_epi8(inv, zero)), half);
        lo = _mm_srli_epi16(_mm_add_epi16(lo, _mm_srli_epi16(lo, 8)), 8);
        hi = _mm_srli_epi16(_mm_add_epi16(hi, _mm_srli_epi16(hi, 8)), 8);
        _mm_storeu_si128((__m128i *)(t + i), _mm_adds_epu8(_mm_packus_epi16(lo, hi), _mm_loadu_si128((const __m128i *)(o + i))));
    }
#elif defined(KIOSK_NEON_VECTORS)
    // vmull then vraddhn(x, vrshr(x, 8)): (x + ((x + 128) >> 8) + 128) >> 8, the scalar rounding.
    for (; vectors >= 16 && i + 16 <= count; i += 16) {
        uint8x16_t tv = vld1q_u8(t + i), inv = vmvnq_u8(vld1q_u8(a + i));
        uint16x8_t lo = vmull_u8(vget_low_u8(tv), vget_low_u8(inv));
        uint16x8_t hi = vmull_u8(vget_high_u8(tv), vget_high_u8(inv));
        uint8x16_t kept = vcombine_u8(vraddhn_u16(lo, vrshrq_n_u16(lo, 8)), vraddhn_u16(hi, vrshrq_n_u16(hi, 8)));
        vst1q_u8(t + i, vqaddq_u8(kept, vld1q_u8(o + i)));
    }
#endif
    (void)vectors;
    for (; i < count; i++) t[i] = blend_sample(t[i], o[i], a[i]);
}

KIOSK_UNINSTRUMENTED void kiosk_blend_plane(uint8_t *target, size_t pitch, const uint8_t *over, const uint8_t *alpha, size_t over_pitch,
                                            const kiosk_span *spans, size_t span_count) {
    int vectors = vector_width();
#if defined(KIOSK_NEON_VECTORS)
    // NEON is the baseline of AArch64: the 16-wide loop unless a test caps the width at 1.
    vectors = __atomic_load_n(&vector_limit, __ATOMIC_RELAXED) >= 16 ? 16 : 1;
#endif
    for (size_t s = 0; s < span_count; s++) {
        const kiosk_span span = spans[s];
        size_t at = (size_t)span.row * over_pitch + span.start;
        blend_run(target + (size_t)span.row * pitch + span.start, over + at, alpha + at, span.count, vectors);
    }
}

static inline uint8_t clamp_byte(double v) { return v <= 0 ? 0 : v >= 255 ? 255 : (uint8_t)(v + 0.5); }

void kiosk_premultiply(uint8_t *rgba, size_t count) {
    for (size_t i = 0; i < count; i++, rgba += 4) {
        for (int c = 0; c < 3; c++) {
            uint32_t x = (uint32_t)rgba[c] * rgba[3] + 128;
            rgba[c] = (uint8_t)((x + (x >> 8)) >> 8);
        }
    }
}

void kiosk_turn_rgba(const uint8_t *source, size_t width, size_t height, uint8_t *target, int quarter_turns) {
    const uint32_t *d = (const uint32_t *)source;
    uint32_t *s = (uint32_t *)target;
    int k = ((quarter_turns % 4) + 4) % 4;
    // The target is what a player turns `k` times clockwise to show the source: its size is the
    // source's, swapped for an odd k.
    size_t tw = k % 2 ? height : width, th = k % 2 ? width : height;
    for (size_t y = 0; y < th; y++) {
        for (size_t x = 0; x < tw; x++) {
            size_t sx = x, sy = y;
            if (k == 1) { sx = th - 1 - y; sy = x; }
            else if (k == 2) { sx = tw - 1 - x; sy = th - 1 - y; }
            else if (k == 3) { sx = y; sy = tw - 1 - x; }
            uint32_t v;
            memcpy(&v, d + sy * width + sx, 4);
            memcpy(s + y * tw + x, &v, 4);
        }
    }
}

void kiosk_turn_plane(const uint8_t *source, size_t pitch, size_t width, size_t height,
                      uint8_t *target, size_t target_pitch, int quarter_turns, const uint8_t *lut) {
    int k = ((quarter_turns % 4) + 4) % 4;
    uint8_t identity[256];
    if (!lut) {
        for (int i = 0; i < 256; i++) identity[i] = (uint8_t)i;
        lut = identity;
    }
    // In 32x32 tiles (a quarter turn writes the source's rows as the target's columns: a tile's
    // rows and columns both stay in the cache); source (x, y) lands at the target's (tx, ty).
    const size_t tile = 32;
    for (size_t by = 0; by < height; by += tile) {
        size_t ey = by + tile < height ? by + tile : height;
        for (size_t bx = 0; bx < width; bx += tile) {
            size_t ex = bx + tile < width ? bx + tile : width;
            for (size_t y = by; y < ey; y++) {
                const uint8_t *row = source + y * pitch;
                for (size_t x = bx; x < ex; x++) {
                    size_t tx = x, ty = y;
                    if (k == 1) { tx = height - 1 - y; ty = x; }
                    else if (k == 2) { tx = width - 1 - x; ty = height - 1 - y; }
                    else if (k == 3) { tx = y; ty = width - 1 - x; }
                    target[ty * target_pitch + tx] = lut[row[x]];
                }
            }
        }
    }
}

// BT.601 in video range, premultiplied: a sample at coverage a is a/255 of the colour's own sample,
// so that t = o + (1 - a) t is the straight blend a c + (1 - a) t. The input is premultiplied RGBA.
void kiosk_overlay_planes(const uint8_t *rgba, size_t pitch, size_t width, size_t height,
                          uint8_t *y, uint8_t *y_alpha, uint8_t *cb, uint8_t *cr, uint8_t *c_alpha) {
    for (size_t row = 0; row < height; row++) {
        const uint8_t *p = rgba + row * pitch;
        for (size_t x = 0; x < width; x++, p += 4) {
            y[row * width + x] = clamp_byte((16.0 * p[3] + 65.481 * p[0] + 128.553 * p[1] + 24.966 * p[2]) / 255);
            y_alpha[row * width + x] = p[3];
        }
    }
    size_t cw = (width + 1) / 2, ch = (height + 1) / 2;
    for (size_t row = 0; row < ch; row++) {
        for (size_t x = 0; x < cw; x++) {
            // The block's premultiplied colour and coverage, averaged (an odd edge repeats its sample).
            double r = 0, g = 0, b = 0, a = 0;
            for (size_t dy = 0; dy < 2; dy++) {
                for (size_t dx = 0; dx < 2; dx++) {
                    size_t sy = 2 * row + dy < height ? 2 * row + dy : height - 1, sx = 2 * x + dx < width ? 2 * x + dx : width - 1;
                    const uint8_t *q = rgba + sy * pitch + 4 * sx;
                    r += q[0]; g += q[1]; b += q[2]; a += q[3];
                }
            }
            r /= 4; g /= 4; b /= 4; a /= 4;
            cb[row * cw + x] = clamp_byte((128 * a - 37.797 * r - 74.203 * g + 112.0 * b) / 255);
            cr[row * cw + x] = clamp_byte((128 * a + 112.0 * r - 93.786 * g - 18.214 * b) / 255);
            c_alpha[row * cw + x] = clamp_byte(a);
        }
    }
}

size_t kiosk_alpha_spans(const uint8_t *alpha, size_t width, size_t height, size_t gap, kiosk_span *spans) {
    size_t n = 0;
    for (size_t row = 0; row < height; row++) {
        const uint8_t *a = alpha + row * width;
        size_t x = 0;
        while (x < width) {
            while (x < width && a[x] == 0) x++;
            if (x == width) break;
            size_t start = x, end = x;
            // A run ends after `gap` transparent samples in a row: a shorter gap is blended through.
            while (x < width && x - end <= gap) {
                if (a[x] != 0) end = x + 1;
                x++;
            }
            spans[n++] = (kiosk_span){(uint32_t)row, (uint32_t)start, (uint32_t)(end - start)};
            x = end;
        }
    }
    return n;
}

void kiosk_interleave(const uint8_t *a, const uint8_t *b, uint8_t *target, size_t count) {
    for (size_t i = 0; i < count; i++) {
        target[2 * i] = a[i];
        target[2 * i + 1] = b[i];
    }
}
