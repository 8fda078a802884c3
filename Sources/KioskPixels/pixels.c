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

KIOSK_UNINSTRUMENTED void kiosk_yuyv_luma_row(const uint8_t *source, uint8_t *y, size_t width) {
    for (size_t x = 0; x < width; x++) y[x] = source[2 * x];
}

KIOSK_UNINSTRUMENTED void kiosk_yuyv_chroma_rows(const uint8_t *a, const uint8_t *b, uint8_t *u, uint8_t *v, size_t pairs) {
    for (size_t i = 0; i < pairs; i++) {
        u[i] = (uint8_t)(((uint32_t)a[4 * i + 1] + b[4 * i + 1] + 1) >> 1);
        v[i] = (uint8_t)(((uint32_t)a[4 * i + 3] + b[4 * i + 3] + 1) >> 1);
    }
}
