// CALSA: ALSA's PCM API for Swift, plus what Swift cannot import from it.
#pragma once
#include <alsa/asoundlib.h>

// SND_PCM_FORMAT_S16 is an alias macro that picks the host's byte order.
static inline snd_pcm_format_t kiosk_SND_PCM_FORMAT_S16(void) { return SND_PCM_FORMAT_S16; }

#include <stdarg.h>
#include <stdio.h>

// alsa-lib writes its own error lines ("ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM x")
// raw to stderr unless a handler is set, and the handler is variadic, which Swift cannot write:
// this one formats each message and hands the text to `kiosk_alsa_sink`, set by
// `kiosk_alsa_capture_errors` (KioskCapture's ALSAMessages).
typedef void (*kiosk_alsa_sink_t)(const char *function, const char *message);
static kiosk_alsa_sink_t kiosk_alsa_sink = 0;

static void kiosk_alsa_error_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)err;
    char text[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    if (kiosk_alsa_sink) kiosk_alsa_sink(function ? function : "", text);
}

static inline void kiosk_alsa_capture_errors(kiosk_alsa_sink_t sink) {
    kiosk_alsa_sink = sink;
    snd_lib_error_set_handler(kiosk_alsa_error_handler);
}
