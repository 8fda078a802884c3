// The plugin has no C interface of its own: alsa-lib finds its entry point by name
// (_snd_pcm_kiosk_fake_microphone_open). This header exists for SwiftPM's C target layout.
#pragma once
