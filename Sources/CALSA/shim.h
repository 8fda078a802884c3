// CALSA: ALSA's PCM API for Swift, plus what Swift cannot import from it.
#pragma once
#include <alsa/asoundlib.h>

// SND_PCM_FORMAT_S16 is an alias macro that picks the host's byte order.
static inline snd_pcm_format_t kiosk_SND_PCM_FORMAT_S16(void) { return SND_PCM_FORMAT_S16; }
