// See include/KioskPixels.h: SDL's linear stretch (SDL_SoftStretchLinear, its SSE2/NEON arithmetic),
// the same bytes in fewer steps. SDL weighs each output pixel's four source pixels with 7-bit
// fractions and keeps the whole product: out = (Σ fh · fw · p) >> 14. An exact sum does not care
// in which order it is taken, so each source row is weighed across once (16-bit sums) and each
// output row is then two of those rows weighed down: a source row serves the two or three output
// rows that use it at an upscale, where SDL weighs it again for each.
#include "KioskPixels.h"
#include <stdlib.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__clang__)
#define KIOSK_UNINSTRUMENTED __attribute__((no_sanitize("thread")))
#else
#define KIOSK_UNINSTRUMENTED
#endif

#define PRECISION 7
#define FRAC_ONE (1 << PRECISION)

// SDL's get_scaler_datas: the first sample's position (16.16 fixed point, pixman's rounding), the
// step, and how many output samples fall before the first source centre or past the last but one.
static void scaler(int src, int dst, int *start, int *step, int *left, int *right) {
    int s = (int)(((uint32_t)src << 16) / (uint32_t)dst);
    int64_t high = (int64_t)s * ((1 << 16) / 2 >> 16), low = (int64_t)s * ((1 << 16) / 2 & 0xFFFF);
    int x0 = (int)(high + ((low + 0x8000) >> 16)) - (1 << 16) / 2;
    *start = x0;
    *step = s;
    *left = *right = 0;
    int sum = x0;
    for (int i = 0; i < dst; i++) {
        if (sum < 0) {
            *left += 1;
        } else if ((int)((uint32_t)sum >> 16) > src - 2) {
            *right += 1;
        }
        sum += s;
    }
}

// For each output sample along one axis: the first of its two source samples and the second's
// weight (0-128); the first's is 128 minus it. Padding reads the edge sample alone.
static void positions(int src, int dst, int *index, int *weight) {
    int start, step, left, right;
    scaler(src, dst, &start, &step, &left, &right);
    int sum = start + left * step;
    for (int i = 0; i < dst; i++) {
        if (i < left) {
            index[i] = 0;
            weight[i] = 0;
        } else if (i >= dst - right) {
            index[i] = src - 2;
            weight[i] = FRAC_ONE;
        } else {
            index[i] = (int)((uint32_t)sum >> 16);
            weight[i] = (int)((uint32_t)(sum >> (16 - PRECISION)) & (FRAC_ONE - 1));
            sum += step;
        }
    }
}

// One source row weighed across into dst_w pixels of four 16-bit sums (at most 128 · 255);
// `weights` holds each output pixel's eight: the first source pixel's four, then the second's.
static KIOSK_UNINSTRUMENTED void across(const uint8_t *row, const int *index, const uint16_t *weights, int dst_w, uint16_t *out) {
    int j = 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    for (; j + 2 <= dst_w; j += 2) {
        __m128i both = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(row + 4 * index[j])),
                                          _mm_loadl_epi64((const __m128i *)(row + 4 * index[j + 1])));
        __m128i first = _mm_mullo_epi16(_mm_unpacklo_epi8(both, zero), _mm_loadu_si128((const __m128i *)(weights + 8 * j)));
        __m128i second = _mm_mullo_epi16(_mm_unpackhi_epi8(both, zero), _mm_loadu_si128((const __m128i *)(weights + 8 * j + 8)));
        __m128i sums = _mm_add_epi16(_mm_unpacklo_epi64(first, second), _mm_unpackhi_epi64(first, second));
        _mm_storeu_si128((__m128i *)(out + 4 * j), sums);
    }
#endif
    for (; j < dst_w; j++) {
        const uint8_t *p = row + 4 * index[j];
        for (int c = 0; c < 4; c++) out[4 * j + c] = (uint16_t)(weights[8 * j] * p[c] + weights[8 * j + 4] * p[4 + c]);
    }
}

// Two weighed rows weighed down into one output row: (w1 · a + w · b) >> 14, four bytes a pixel.
static KIOSK_UNINSTRUMENTED void down(const uint16_t *a, const uint16_t *b, int w, size_t count, uint8_t *out) {
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i weights = _mm_set1_epi32((int)(((uint32_t)w << 16) | (uint32_t)(FRAC_ONE - w)));
    for (; i + 16 <= count; i += 16) {
        __m128i a0 = _mm_loadu_si128((const __m128i *)(a + i)), b0 = _mm_loadu_si128((const __m128i *)(b + i));
        __m128i a1 = _mm_loadu_si128((const __m128i *)(a + i + 8)), b1 = _mm_loadu_si128((const __m128i *)(b + i + 8));
        __m128i s0 = _mm_srli_epi32(_mm_madd_epi16(_mm_unpacklo_epi16(a0, b0), weights), 2 * PRECISION);
        __m128i s1 = _mm_srli_epi32(_mm_madd_epi16(_mm_unpackhi_epi16(a0, b0), weights), 2 * PRECISION);
        __m128i s2 = _mm_srli_epi32(_mm_madd_epi16(_mm_unpacklo_epi16(a1, b1), weights), 2 * PRECISION);
        __m128i s3 = _mm_srli_epi32(_mm_madd_epi16(_mm_unpackhi_epi16(a1, b1), weights), 2 * PRECISION);
        _mm_storeu_si128((__m128i *)(out + i), _mm_packus_epi16(_mm_packs_epi32(s0, s1), _mm_packs_epi32(s2, s3)));
    }
#endif
    for (; i < count; i++) out[i] = (uint8_t)(((uint32_t)(FRAC_ONE - w) * a[i] + (uint32_t)w * b[i]) >> (2 * PRECISION));
}

KIOSK_UNINSTRUMENTED int kiosk_stretch_linear(const uint8_t *src, size_t src_pitch, int src_w, int src_h,
                                              uint8_t *dst, size_t dst_pitch, int dst_w, int dst_h) {
    if (src_w < 2 || src_h < 2 || dst_w < 1 || dst_h < 1 || src_w > 0xFFFF || src_h > 0xFFFF || dst_w > 0xFFFF || dst_h > 0xFFFF) {
        return -1;
    }
    int *table = malloc(sizeof(int) * 2 * ((size_t)dst_w + (size_t)dst_h));
    uint16_t *rows = malloc(sizeof(uint16_t) * 16 * (size_t)dst_w);
    if (!table || !rows) {
        free(table);
        free(rows);
        return -1;
    }
    uint16_t *weights = rows + 8 * (size_t)dst_w;
    int *column = table, *column_weight = table + dst_w, *row = table + 2 * dst_w, *row_weight = row + dst_h;
    positions(src_w, dst_w, column, column_weight);
    positions(src_h, dst_h, row, row_weight);
    for (int j = 0; j < dst_w; j++) {
        for (int c = 0; c < 4; c++) {
            weights[8 * j + c] = (uint16_t)(FRAC_ONE - column_weight[j]);
            weights[8 * j + 4 + c] = (uint16_t)column_weight[j];
        }
    }
    // The two source rows weighed last (their numbers, -1: none), kept while output rows use them.
    uint16_t *held[2] = {rows, rows + 4 * (size_t)dst_w};
    int held_row[2] = {-1, -1};
    for (int i = 0; i < dst_h; i++) {
        int need[2] = {row[i], row[i] + 1};
        for (int k = 0; k < 2; k++) {
            if (held_row[0] == need[k] || held_row[1] == need[k]) continue;
            // Into the slot that does not hold the other row this output row needs.
            int slot = held_row[0] == need[1 - k] ? 1 : 0;
            across(src + (size_t)need[k] * src_pitch, column, weights, dst_w, held[slot]);
            held_row[slot] = need[k];
        }
        const uint16_t *a = held_row[0] == need[0] ? held[0] : held[1], *b = held_row[0] == need[1] ? held[0] : held[1];
        down(a, b, row_weight[i], 4 * (size_t)dst_w, dst + (size_t)i * dst_pitch);
    }
    free(table);
    free(rows);
    return 0;
}
