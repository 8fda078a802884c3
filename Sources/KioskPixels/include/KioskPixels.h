// KioskPixels: the per-sample loops between a camera's decoded picture and the frame the preview
// and the encoder share (KioskMedia's VideoRange calls them). In C, built with -O2 in every build,
// so they run vectorised in debug builds too; and left out of ThreadSanitizer's instrumentation:
// each call reads and writes only buffers its caller owns alone for the call, and an instrumented
// byte loop is some fifty times slower, enough for a 720p camera to drop frames in a TSan run.
#pragma once
#include <stddef.h>
#include <stdint.h>

/// Luma: full range to video range, y' = round(16 + 219 y / 255); or copied when from_full is 0.
void kiosk_luma_row(const uint8_t *source, uint8_t *target, size_t count, int from_full);
/// Chroma: c' = round(128 + 224 (c - 128) / 255); or copied when from_full is 0.
void kiosk_chroma_row(const uint8_t *source, uint8_t *target, size_t count, int from_full);
/// Two chroma rows averaged (rounding half up), then converted when from_full: 4:2:2 to 4:2:0.
void kiosk_chroma_rows(const uint8_t *a, const uint8_t *b, uint8_t *target, size_t count, int from_full);
/// One YUYV row's luma (width samples), and two rows' chroma averaged (width / 2 each of U and V).
void kiosk_yuyv_luma_row(const uint8_t *source, uint8_t *y, size_t width);
void kiosk_yuyv_chroma_rows(const uint8_t *a, const uint8_t *b, uint8_t *u, uint8_t *v, size_t pairs);
/// The widest steps the YUYV loops may take: 32 samples (AVX2, where the CPU has it; the default
/// cap), 16 (SSE2) or 1 (scalar); returns the cap before. Every width gives the same bytes: tests
/// set it to run each path on one machine.
int kiosk_pixels_vector_limit(int limit);
/// A YUYV picture (or a band of one starting on an even row) into planar 4:2:0, a pair of rows at a
/// time: its luma, then its chroma averaged while the pair is still in the cache, so the source is
/// read from memory once. At an odd height the last row's chroma is its own.
void kiosk_yuyv_to_420(const uint8_t *source, size_t pitch, size_t width, size_t height,
                       uint8_t *y, size_t y_pitch, uint8_t *u, size_t u_pitch, uint8_t *v, size_t v_pitch);

/// One run of an overlay's plane that is not fully transparent: `count` samples from `start` in
/// row `row` of that plane (its own sample units: an NV12 chroma row counts Cb and Cr apart).
typedef struct {
    uint32_t row, start, count;
} kiosk_span;

/// An overlay burnt into one plane of a picture, over `span_count` spans: t = o + round((255 - a) t / 255),
/// saturated at 255, where `over` holds the overlay's premultiplied samples and `alpha` its
/// coverage, both with pitch `over_pitch`. AVX2, SSE2 or NEON where there is one (the vector limit
/// applies), else the scalar loop, which gives the same bytes.
void kiosk_blend_plane(uint8_t *target, size_t pitch, const uint8_t *over, const uint8_t *alpha, size_t over_pitch,
                       const kiosk_span *spans, size_t span_count);
/// Straight RGBA made premultiplied in place: each colour times its alpha / 255, rounded.
void kiosk_premultiply(uint8_t *rgba, size_t count);
/// An RGBA picture (width x height, tight) turned into `target` as a player must turn it
/// `quarter_turns` times clockwise to show it as `source` (tight, its size swapped for odd turns).
void kiosk_turn_rgba(const uint8_t *source, size_t width, size_t height, uint8_t *target, int quarter_turns);
/// One plane of samples turned `quarter_turns` times clockwise into `target` (its width and height
/// swapped for odd turns), each sample mapped through `lut` (256 entries; NULL: copied): a photo's
/// stored picture made upright, and video range made full range on the way.
void kiosk_turn_plane(const uint8_t *source, size_t pitch, size_t width, size_t height,
                      uint8_t *target, size_t target_pitch, int quarter_turns, const uint8_t *lut);
/// The runs of each row of a tight alpha plane that hold a non-zero sample, into `spans` (room for
/// height * (width / 2 + 1)); runs nearer than `gap` samples make one. Returns how many.
size_t kiosk_alpha_spans(const uint8_t *alpha, size_t width, size_t height, size_t gap, kiosk_span *spans);
/// An overlay's premultiplied RGBA picture (already the picture's size and orientation) as premultiplied
/// video-range BT.601 planes: luma and its alpha (width x height, pitch width), and chroma and its
/// alpha averaged over each 2x2 block ((width + 1) / 2 x (height + 1) / 2, pitch (width + 1) / 2).
void kiosk_overlay_planes(const uint8_t *rgba, size_t pitch, size_t width, size_t height,
                          uint8_t *y, uint8_t *y_alpha, uint8_t *cb, uint8_t *cr, uint8_t *c_alpha);
/// Two planes' samples interleaved, a b a b …: planar chroma made NV12's (`count` of each).
void kiosk_interleave(const uint8_t *a, const uint8_t *b, uint8_t *target, size_t count);
/// A 32-bit picture (src_w x src_h, at least 2 x 2) stretched into dst_w x dst_h with the bytes
/// SDL's linear scaling gives (SDL_SoftStretchLinear as SDL_BlitScaled runs it with SSE2 or NEON:
/// each of the four bytes weighed alike), in fewer steps. Returns 0, or -1 (nothing written) for
/// sizes SDL refuses or would read past the picture with, or memory it could not get.
int kiosk_stretch_linear(const uint8_t *src, size_t src_pitch, int src_w, int src_h,
                         uint8_t *dst, size_t dst_pitch, int dst_w, int dst_h);
