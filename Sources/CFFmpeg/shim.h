// CFFmpeg: libavformat, libavcodec, libavfilter (loaded on demand: avfilter_on_demand.h), libavutil, libswscale and libswresample for Swift, plus the
// macros Swift cannot import from them.
#pragma once
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include "avfilter_on_demand.h"
#include <libavutil/audio_fifo.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/hwcontext.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/sha.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>

// AVERROR(e) and AVERROR_EOF are macros (a negation and an MKTAG expansion).
static inline int kiosk_AVERROR(int posixError) { return AVERROR(posixError); }
static inline int kiosk_AVERROR_EOF(void) { return AVERROR_EOF; }
static inline int kiosk_AVERROR_EAGAIN(void) { return AVERROR(EAGAIN); }
// FFERRTAG codes: an interrupt callback's abort, a missing decoder, a corrupt file.
static inline int kiosk_AVERROR_EXIT(void) { return AVERROR_EXIT; }
static inline int kiosk_AVERROR_DECODER_NOT_FOUND(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int kiosk_AVERROR_STREAM_NOT_FOUND(void) { return AVERROR_STREAM_NOT_FOUND; }
static inline int kiosk_AVERROR_INVALIDDATA(void) { return AVERROR_INVALIDDATA; }
// AV_NOPTS_VALUE is a cast of UINT64_C(0x8000000000000000).
static inline int64_t kiosk_AV_NOPTS_VALUE(void) { return AV_NOPTS_VALUE; }
// LIBAVCODEC_VERSION_INT (AV_VERSION_INT expansion) names the headers we built against.
static inline unsigned kiosk_LIBAVCODEC_VERSION_INT(void) { return LIBAVCODEC_VERSION_INT; }

// FFmpeg's own log callback writes a line's "[h264_v4l2m2m @ 0x…] " prefix and its text in separate
// writes, straight to stderr: another thread's line could land between them (CI's log once read
// "[h264_v4l2m2m @ 0x555e…] kiosk-recorder: text: en (English)…"), and a stderr nobody reads would
// block the caller. This callback formats the text (av_log_format_line2, its prefix state per thread
// as FFmpeg keeps it), gathers a line given in parts per thread, and hands each whole line to `sink`
// (the booth's own stderr writer, which never blocks). Control characters become '?' as in
// FFmpeg's own callback: a hostile file's metadata cannot steer the terminal or the journal.
static inline int kiosk_av_log_line(char *line, int size, void *object, int level, const char *format, va_list arguments,
                                    int *printPrefix) {
    av_log_format_line2(object, level, format, arguments, line, size, printPrefix);
    int length = 0;
    for (char *c = line; *c; c++, length++) {
        if ((unsigned char)*c < 0x08 || ((unsigned char)*c > 0x0D && (unsigned char)*c < 0x20)) *c = '?';
    }
    return length;
}

typedef void (*kiosk_av_log_sink_t)(const char *line, int length);
// (A function's static: a header's own static variable is not emitted for Swift's importer.)
static inline kiosk_av_log_sink_t *kiosk_av_log_sink(void) {
    static kiosk_av_log_sink_t sink;
    return &sink;
}

static void kiosk_av_log_whole_line(void *object, int level, const char *format, va_list arguments) {
    kiosk_av_log_sink_t sink = *kiosk_av_log_sink();
    if (level > av_log_get_level() || !sink) return;
    static _Thread_local int printPrefix = 1;
    static _Thread_local char line[2048];
    static _Thread_local int held;
    held += kiosk_av_log_line(line + held, (int)sizeof line - held, object, level, format, arguments, &printPrefix);
    if (held == 0) return;
    // A line goes out at its newline, or when the buffer is full (its end cut, a newline added).
    if (line[held - 1] != '\n' && held < (int)sizeof line - 2) return;
    if (line[held - 1] != '\n') line[held++] = '\n';
    sink(line, held);
    held = 0;
}

static inline void kiosk_av_log_whole_lines(kiosk_av_log_sink_t sink) {
    *kiosk_av_log_sink() = sink;
    av_log_set_callback(kiosk_av_log_whole_line);
}
