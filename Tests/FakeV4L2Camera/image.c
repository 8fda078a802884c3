// The fake camera's pictures: the frame-number stamp (KioskCore's FrameStamp) over a colour ramp
// with a moving white bar, or a white flash frame with its phase in a second band, in YUYV, NV12
// or YU12, or JPEG-encoded with libavcodec for MJPG.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/videodev2.h>
#include <libavcodec/avcodec.h>
#include <libavutil/frame.h>
#include <libavutil/opt.h>

#include "fake_camera_internal.h"

enum { STAMP_BITS = 16, STAMP_WHITE = 235, STAMP_BLACK = 16, BAR_Y = 235, NEUTRAL = 128 };

/// Where the planes of one picture sit: raw formats in the buffer, MJPG's canvas as I420.
typedef struct {
    int n;
    size_t offset[3], stride[3];
    unsigned bpx_num[3], bpx_den[3]; // bytes per pixel column, as a fraction
    unsigned ysub[3];                // log2 of vertical subsampling
} layout;

static layout layout_of(uint32_t fourcc, uint32_t w, uint32_t h) {
    layout l;
    memset(&l, 0, sizeof l);
    size_t luma = (size_t)w * h;
    switch (fourcc) {
    case V4L2_PIX_FMT_YUYV:
        l = (layout){.n = 1, .offset = {0}, .stride = {2 * w}, .bpx_num = {2}, .bpx_den = {1}};
        break;
    case V4L2_PIX_FMT_NV12:
        l = (layout){.n = 2, .offset = {0, luma}, .stride = {w, w}, .bpx_num = {1, 1}, .bpx_den = {1, 1},
                     .ysub = {0, 1}};
        break;
    default: // YU12, and the I420 canvas MJPG frames are drawn on
        l = (layout){.n = 3, .offset = {0, luma, luma + luma / 4}, .stride = {w, w / 2, w / 2},
                     .bpx_num = {1, 1, 1}, .bpx_den = {1, 2, 2}, .ysub = {0, 1, 1}};
        break;
    }
    return l;
}

uint32_t fake_bytesperline(uint32_t fourcc, uint32_t width) {
    switch (fourcc) {
    case V4L2_PIX_FMT_YUYV: return 2 * width;
    case V4L2_PIX_FMT_MJPEG: return 0;
    default: return width;
    }
}

uint32_t fake_sizeimage(uint32_t fourcc, uint32_t width, uint32_t height) {
    switch (fourcc) {
    case V4L2_PIX_FMT_NV12:
    case V4L2_PIX_FMT_YUV420: return width * height * 3 / 2;
    default: return width * height * 2; // YUYV; and room enough for any JPEG of this size
    }
}

// The picture below the stamp band: a diagonal luma ramp and a chroma ramp (U across, V down),
// so flips and swapped planes show.
static uint8_t ramp_y(const fake_image *img, uint32_t x, uint32_t y) {
    return (uint8_t)(img->base_luma + x * 128 / img->width + y * 64 / img->height);
}
static uint8_t ramp_u(const fake_image *img, uint32_t x) { return (uint8_t)(NEUTRAL - 24 + x * 48 / img->width); }
static uint8_t ramp_v(const fake_image *img, uint32_t y) { return (uint8_t)(NEUTRAL - 24 + y * 48 / img->height); }

static void build_base(fake_image *img, layout l, uint32_t layout_fourcc) {
    uint32_t w = img->width, h = img->height, band = img->band_height;
    for (uint32_t y = 0; y < h; y++) {
        uint8_t *row = img->base + l.offset[0] + y * l.stride[0];
        for (uint32_t x = 0; x < w; x++) {
            uint8_t luma = y < band ? STAMP_BLACK : ramp_y(img, x, y);
            if (layout_fourcc == V4L2_PIX_FMT_YUYV) {
                row[2 * x] = luma;
                // U on even pixels, V on odd ones, both sampled at the pair's first pixel.
                row[2 * x + 1] = y < band ? NEUTRAL : (x % 2 ? ramp_v(img, y) : ramp_u(img, x));
            } else {
                row[x] = luma;
            }
        }
    }
    if (layout_fourcc == V4L2_PIX_FMT_YUYV) return;
    for (uint32_t cy = 0; cy < h / 2; cy++) {
        bool in_band = 2 * cy < band;
        for (uint32_t cx = 0; cx < w / 2; cx++) {
            uint8_t u = in_band ? NEUTRAL : ramp_u(img, 2 * cx), v = in_band ? NEUTRAL : ramp_v(img, 2 * cy);
            if (layout_fourcc == V4L2_PIX_FMT_NV12) {
                uint8_t *row = img->base + l.offset[1] + cy * l.stride[1];
                row[2 * cx] = u;
                row[2 * cx + 1] = v;
            } else {
                img->base[l.offset[1] + cy * l.stride[1] + cx] = u;
                img->base[l.offset[2] + cy * l.stride[2] + cx] = v;
            }
        }
    }
}

int fake_image_init(fake_image *img, uint32_t fourcc, uint32_t width, uint32_t height, int base_luma) {
    memset(img, 0, sizeof *img);
    img->base_luma = base_luma;
    img->fourcc = fourcc;
    img->width = width;
    img->height = height;
    img->band_height = height / 16 > 8 ? height / 16 : 8;
    img->bar_width = (width / 32 > 8 ? width / 32 : 8) & ~1u;
    img->bar_step = (width / 64 > 2 ? width / 64 : 2) & ~1u;
    img->sizeimage = fake_sizeimage(fourcc, width, height);
    img->canvas_k = -1;

    uint32_t layout_fourcc = fourcc == V4L2_PIX_FMT_MJPEG ? V4L2_PIX_FMT_YUV420 : fourcc;
    layout l = layout_of(layout_fourcc, width, height);
    img->base = malloc(fake_sizeimage(layout_fourcc, width, height));
    for (int i = 0; i < 3; i++) img->rows[i] = malloc(l.stride[0]);
    if (!img->base || !img->rows[0] || !img->rows[1] || !img->rows[2]) {
        fake_image_free(img);
        return ENOMEM;
    }
    // Pattern rows are as wide as plane 0, so a column's byte offset is the same in them.
    for (size_t i = 0; i < l.stride[0]; i++) {
        bool chroma_byte = layout_fourcc == V4L2_PIX_FMT_YUYV && i % 2;
        img->rows[0][i] = chroma_byte ? NEUTRAL : STAMP_WHITE;
        img->rows[1][i] = chroma_byte ? NEUTRAL : STAMP_BLACK;
        img->rows[2][i] = NEUTRAL;
    }
    build_base(img, l, layout_fourcc);
    return 0;
}

/// Reads PATH.index: "kiosk-clip <file size> <count>", then one "<offset> <size>" line per JPEG.
/// 0 when it exists and fits a file of `file_size` bytes (every JPEG inside it); else nonzero, and
/// the caller scans the file.
static int load_clip_index(const char *path, size_t file_size, size_t **offsets, size_t **sizes, size_t *cap, size_t *count) {
    char index_path[4096 + 8];
    snprintf(index_path, sizeof index_path, "%s.index", path);
    FILE *f = fopen(index_path, "re");
    if (!f) return ENOENT;
    unsigned long long declared = 0, entries = 0;
    int err = 0;
    if (fscanf(f, "kiosk-clip %llu %llu", &declared, &entries) != 2 || declared != file_size || entries == 0) err = EINVAL;
    for (unsigned long long k = 0; !err && k < entries; k++) {
        unsigned long long offset, size;
        if (fscanf(f, "%llu %llu", &offset, &size) != 2 || size < 4 || offset > file_size || size > file_size - offset) {
            err = EINVAL;
            break;
        }
        if (*count == *cap) {
            *cap *= 2;
            *offsets = realloc(*offsets, *cap * sizeof **offsets);
            *sizes = realloc(*sizes, *cap * sizeof **sizes);
        }
        (*offsets)[*count] = (size_t)offset;
        (*sizes)[(*count)++] = (size_t)size;
    }
    fclose(f);
    if (err) fprintf(stderr, FAKE_LOG_PREFIX "clip %s: its index does not describe it; scanning the file\n", path);
    return err;
}

int fake_image_load_clip(fake_image *img, const char *path) {
    if (img->fourcc != V4L2_PIX_FMT_MJPEG) return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < 4) {
        int err = errno ? errno : EINVAL;
        fprintf(stderr, FAKE_LOG_PREFIX "clip %s: %s\n", path, strerror(err));
        if (fd >= 0) close(fd);
        return err;
    }
    // The JPEGs' places: from PATH.index when it describes this file (`kiosk-bench make-clip`
    // writes one, so opening the camera costs nothing), else found by reading the file through a
    // small buffer. Frames are then read with pread into the camera's buffer, so the clip's pages
    // are the page cache's and never the app's (its RSS stays what a real camera's would be).
    size_t n = (size_t)st.st_size, count = 0, cap = 256;
    size_t *offsets = malloc(cap * sizeof *offsets), *sizes = malloc(cap * sizeof *sizes);
    if (load_clip_index(path, n, &offsets, &sizes, &cap, &count) != 0) {
        count = 0;
        enum { CHUNK = 1 << 20 };
        uint8_t *chunk = malloc(CHUNK);
        int prev = -1;            // the byte before this chunk's first
        long start = -1;          // where the open JPEG began (SOI), -1 between JPEGs
        for (size_t at = 0; at < n;) {
            ssize_t got = pread(fd, chunk, CHUNK, (off_t)at);
            if (got <= 0) break;
            for (ssize_t i = 0; i < got; i++) {
                int b = chunk[i];
                // SOI .. EOI, one after the other (ffmpeg's mjpeg muxer writes no thumbnails that would nest them).
                if (prev == 0xFF && b == 0xD8 && start < 0) start = (long)(at + (size_t)i) - 1;
                else if (prev == 0xFF && b == 0xD9 && start >= 0) {
                    if (count == cap) {
                        cap *= 2;
                        offsets = realloc(offsets, cap * sizeof *offsets);
                        sizes = realloc(sizes, cap * sizeof *sizes);
                    }
                    offsets[count] = (size_t)start;
                    sizes[count++] = at + (size_t)i + 1 - (size_t)start;
                    start = -1;
                    b = -1; // an EOI's D9 starts nothing
                }
                prev = b;
            }
            at += (size_t)got;
        }
        free(chunk);
    }
    if (count == 0) {
        fprintf(stderr, FAKE_LOG_PREFIX "clip %s: no JPEG in it\n", path);
        close(fd);
        free(offsets);
        free(sizes);
        return EINVAL;
    }
    img->clip_fd = fd;
    img->clip_offsets = offsets;
    img->clip_sizes = sizes;
    img->clip_count = count;
    return 0;
}

int fake_image_start(fake_image *img, uint32_t fps) {
    if (img->fourcc != V4L2_PIX_FMT_MJPEG || img->encoder || img->clip_count) return 0;
    const AVCodec *codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG);
    if (!codec) {
        fprintf(stderr, FAKE_LOG_PREFIX "libavcodec has no mjpeg encoder\n");
        return ENOSYS;
    }
    AVCodecContext *c = img->encoder = avcodec_alloc_context3(codec);
    img->canvas = av_frame_alloc();
    img->packet = av_packet_alloc();
    if (!c || !img->canvas || !img->packet) goto fail;
    c->width = (int)img->width;
    c->height = (int)img->height;
    c->pix_fmt = AV_PIX_FMT_YUVJ420P;
    c->color_range = AVCOL_RANGE_JPEG;
    c->time_base = (AVRational){1, (int)fps};
    c->thread_count = 1; // the fake's CPU cost stays on the capture thread, where it is measured
    c->flags |= AV_CODEC_FLAG_QSCALE;
    c->global_quality = FF_QP2LAMBDA * 4; // the stamp's big flat cells decode cleanly at this quality
    av_opt_set(c->priv_data, "huffman", "default", 0); // "optimal" costs a second pass per frame
    int err = avcodec_open2(c, codec, NULL);
    if (err < 0) {
        fprintf(stderr, FAKE_LOG_PREFIX "cannot open the mjpeg encoder: %s\n", av_err2str(err));
        goto fail;
    }
    img->canvas->format = AV_PIX_FMT_YUVJ420P;
    img->canvas->width = c->width;
    img->canvas->height = c->height;
    if (av_frame_get_buffer(img->canvas, 0) < 0) goto fail;
    img->canvas_k = -1;
    return 0;
fail:
    fake_image_stop(img);
    return ENOMEM;
}

void fake_image_stop(fake_image *img) {
    avcodec_free_context(&img->encoder);
    av_frame_free(&img->canvas);
    av_packet_free(&img->packet);
    img->canvas_k = -1;
}

void fake_image_free(fake_image *img) {
    fake_image_stop(img);
    if (img->clip_count) close(img->clip_fd);
    free(img->clip_offsets);
    free(img->clip_sizes);
    free(img->base);
    for (int i = 0; i < 3; i++) free(img->rows[i]);
    memset(img, 0, sizeof *img);
    img->canvas_k = -1;
}

/// Copies `len` bytes at byte column `col` of rows row0..row0+rows-1 from `src` to `dst`; a
/// `src_stride` of 0 repeats one pattern row.
static void copy_rect(uint8_t *dst, size_t dst_stride, const uint8_t *src, size_t src_stride, size_t col,
                      size_t len, uint32_t row0, uint32_t rows) {
    for (uint32_t r = row0; r < row0 + rows; r++) memcpy(dst + r * dst_stride + col, src + r * src_stride + col, len);
}

static uint32_t bar_x(const fake_image *img, int64_t k) {
    return (uint32_t)((uint64_t)k * img->bar_step % (img->width - img->bar_width + 1)) & ~1u;
}

/// Draws (from the pattern rows) or erases (from the base) the bar at `x` in every plane.
static void paint_bar(const fake_image *img, layout l, uint8_t *const dst[3], const size_t dst_stride[3], uint32_t x,
                      bool draw) {
    for (int p = 0; p < l.n; p++) {
        uint32_t row0 = (img->band_height + (1u << l.ysub[p]) - 1) >> l.ysub[p];
        uint32_t rows = (img->height >> l.ysub[p]) - row0;
        size_t col = (size_t)x * l.bpx_num[p] / l.bpx_den[p];
        size_t len = (size_t)img->bar_width * l.bpx_num[p] / l.bpx_den[p];
        if (draw)
            copy_rect(dst[p], dst_stride[p], img->rows[p == 0 ? 0 : 2], 0, col, len, row0, rows);
        else
            copy_rect(dst[p], dst_stride[p], img->base + l.offset[p], l.stride[p], col, len, row0, rows);
    }
}

/// Rewrites the cells of the stamp band that starts at row `row0` whose bit differs between
/// `old_bits` (what the band shows now) and `new_bits`. Only luma changes: the band's chroma is
/// neutral in the base picture and in a flash frame.
static void draw_cells(const fake_image *img, layout l, uint8_t *const dst[3], const size_t dst_stride[3],
                       uint32_t old_bits, uint32_t new_bits, uint32_t row0) {
    for (int i = 0; i < STAMP_BITS; i++) {
        int bit = STAMP_BITS - 1 - i;
        if (!(((old_bits ^ new_bits) >> bit) & 1)) continue;
        size_t x0 = (size_t)i * img->width / STAMP_BITS, x1 = (size_t)(i + 1) * img->width / STAMP_BITS;
        const uint8_t *pattern = img->rows[(new_bits >> bit) & 1 ? 0 : 1];
        copy_rect(dst[0], dst_stride[0], pattern, 0, x0 * l.bpx_num[0], (x1 - x0) * l.bpx_num[0], row0,
                  img->band_height);
    }
}

/// Turns a frame whose stamp band is drawn into a flash frame: white below the band (Y 235, chroma
/// neutral everywhere), but for a second band right under the first that carries `phase`.
static void draw_flash(const fake_image *img, layout l, uint8_t *const dst[3], const size_t dst_stride[3],
                       uint32_t phase) {
    uint32_t band = img->band_height;
    copy_rect(dst[0], dst_stride[0], img->rows[0], 0, 0, (size_t)img->width * l.bpx_num[0] / l.bpx_den[0], band,
              img->height - band);
    for (int p = 1; p < l.n; p++)
        copy_rect(dst[p], dst_stride[p], img->rows[2], 0, 0, (size_t)img->width * l.bpx_num[p] / l.bpx_den[p], 0,
                  img->height >> l.ysub[p]);
    // Every cell differs from its complement, so every cell is written.
    draw_cells(img, l, dst, dst_stride, ~phase & 0xffff, phase & 0xffff, band);
}

/// Brings planes `dst` from frame `drawn_k` (-1: unknown, or a flash frame) to frame `k` (a flash
/// frame if `phase` >= 0), touching only what differs. A flash frame is drawn whole: it differs
/// from its neighbours nearly everywhere.
static void draw_planes(const fake_image *img, layout l, uint8_t *const dst[3], const size_t dst_stride[3],
                        int64_t drawn_k, int64_t k, int32_t phase) {
    if (phase >= 0) drawn_k = -1;
    uint32_t old_bits = 0;
    if (drawn_k < 0) {
        for (int p = 0; p < l.n; p++)
            copy_rect(dst[p], dst_stride[p], img->base + l.offset[p], l.stride[p], 0,
                      (size_t)img->width * l.bpx_num[p] / l.bpx_den[p], 0, img->height >> l.ysub[p]);
    } else {
        old_bits = (uint32_t)drawn_k & 0xffff;
    }
    draw_cells(img, l, dst, dst_stride, old_bits, (uint32_t)k & 0xffff, 0);
    if (phase >= 0) {
        draw_flash(img, l, dst, dst_stride, (uint32_t)phase);
        return;
    }
    uint32_t x = bar_x(img, k);
    if (drawn_k >= 0) {
        uint32_t old_x = bar_x(img, drawn_k);
        if (old_x == x) return;
        paint_bar(img, l, dst, dst_stride, old_x, false);
    }
    paint_bar(img, l, dst, dst_stride, x, true);
}

static long encode(fake_image *img, uint8_t *dst, size_t capacity, int64_t k, int32_t phase) {
    AVFrame *canvas = img->canvas;
    if (av_frame_make_writable(canvas) < 0) return -1;
    layout l = layout_of(V4L2_PIX_FMT_YUV420, img->width, img->height);
    uint8_t *planes[3] = {canvas->data[0], canvas->data[1], canvas->data[2]};
    size_t strides[3] = {(size_t)canvas->linesize[0], (size_t)canvas->linesize[1], (size_t)canvas->linesize[2]};
    draw_planes(img, l, planes, strides, img->canvas_k, k, phase);
    img->canvas_k = phase >= 0 ? -1 : k; // after a flash the next frame is drawn whole
    canvas->pts = k;
    canvas->quality = img->encoder->global_quality;
    long size = -1;
    if (avcodec_send_frame(img->encoder, canvas) < 0) return -1;
    if (avcodec_receive_packet(img->encoder, img->packet) == 0) {
        if ((size_t)img->packet->size <= capacity) {
            memcpy(dst, img->packet->data, (size_t)img->packet->size);
            size = img->packet->size;
        }
        av_packet_unref(img->packet);
    }
    return size;
}

long fake_image_draw(fake_image *img, uint8_t *dst, size_t capacity, int64_t drawn_k, int64_t k, int32_t phase) {
    if (img->fourcc == V4L2_PIX_FMT_MJPEG && img->clip_count) {
        size_t i = (size_t)(k % (int64_t)img->clip_count);
        if (img->clip_sizes[i] > capacity) return -1;
        ssize_t got = pread(img->clip_fd, dst, img->clip_sizes[i], (off_t)img->clip_offsets[i]);
        return got == (ssize_t)img->clip_sizes[i] ? (long)got : -1;
    }
    if (img->fourcc == V4L2_PIX_FMT_MJPEG) return img->encoder ? encode(img, dst, capacity, k, phase) : -1;
    if (capacity < img->sizeimage) return -1;
    layout l = layout_of(img->fourcc, img->width, img->height);
    uint8_t *planes[3] = {dst + l.offset[0], dst + l.offset[1], dst + l.offset[2]};
    draw_planes(img, l, planes, l.stride, drawn_k, k, phase);
    return (long)img->sizeimage;
}
