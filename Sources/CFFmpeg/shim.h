// CFFmpeg: libavformat, libavcodec, libavutil, libswscale and libswresample for Swift, plus the
// macros Swift cannot import from them.
#pragma once
#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/hwcontext.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
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
