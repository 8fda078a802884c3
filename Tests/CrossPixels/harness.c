// The pixel loops (Sources/KioskPixels) in a program of their own, so that a build for another
// CPU (AArch64: a Raspberry Pi) runs under qemu-user and its bytes are compared with this machine's
// (Tests/KioskCaptureTests/CrossPixelsTests.swift). Files in and out, nothing on stdin.
//   harness yuyv WIDTH HEIGHT PITCH IN OUT   a YUYV picture made 4:2:0: Y, U, V planes, tight
//   harness rows COUNT IN OUT                two rows (COUNT bytes each) through every VideoRange
//                                            loop: luma and chroma rows full to video range, and the
//                                            two rows averaged, with and without the range change
//   harness blend COUNT IN OUT               an overlay's blend over one run: IN holds the picture's,
//                                            the overlay's and the alpha's COUNT samples; OUT the picture
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "KioskPixels.h"

static unsigned char *load(const char *path, size_t count) {
    unsigned char *bytes = malloc(count ? count : 1);
    FILE *f = fopen(path, "rb");
    if (!bytes || !f || fread(bytes, 1, count, f) != count) {
        fprintf(stderr, "harness: cannot read %zu bytes from %s\n", count, path);
        exit(1);
    }
    fclose(f);
    return bytes;
}

static void save(const char *path, const unsigned char *bytes, size_t count) {
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(bytes, 1, count, f) != count || fclose(f) != 0) {
        fprintf(stderr, "harness: cannot write %s\n", path);
        exit(1);
    }
}

int main(int argc, char **argv) {
    if (argc == 7 && strcmp(argv[1], "yuyv") == 0) {
        size_t width = strtoul(argv[2], NULL, 10), height = strtoul(argv[3], NULL, 10), pitch = strtoul(argv[4], NULL, 10);
        unsigned char *source = load(argv[5], pitch * height);
        size_t luma = width * height, chroma = (width / 2) * ((height + 1) / 2);
        unsigned char *out = malloc(luma + 2 * chroma);
        kiosk_yuyv_to_420(source, pitch, width, height, out, width, out + luma, width / 2, out + luma + chroma, width / 2);
        save(argv[6], out, luma + 2 * chroma);
        return 0;
    }
    if (argc == 5 && strcmp(argv[1], "rows") == 0) {
        size_t count = strtoul(argv[2], NULL, 10);
        unsigned char *source = load(argv[3], 2 * count), *out = malloc(5 * count);
        kiosk_luma_row(source, out, count, 1);
        kiosk_chroma_row(source, out + count, count, 1);
        kiosk_chroma_rows(source, source + count, out + 2 * count, count, 1);
        kiosk_chroma_rows(source, source + count, out + 3 * count, count, 0);
        kiosk_luma_row(source, out + 4 * count, count, 0);
        save(argv[4], out, 5 * count);
        return 0;
    }
    if (argc == 5 && strcmp(argv[1], "blend") == 0) {
        size_t count = strtoul(argv[2], NULL, 10);
        unsigned char *in = load(argv[3], 3 * count);
        kiosk_span span = {0, 0, (uint32_t)count};
        kiosk_blend_plane(in, count, in + count, in + 2 * count, count, &span, 1);
        save(argv[4], in, count);
        return 0;
    }
    fprintf(stderr, "usage: harness yuyv WIDTH HEIGHT PITCH IN OUT | harness rows COUNT IN OUT | harness blend COUNT IN OUT\n");
    return 2;
}
