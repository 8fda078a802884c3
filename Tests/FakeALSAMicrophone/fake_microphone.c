// A fake microphone as an alsa-lib external PCM plugin (ioplug), the ALSA counterpart of the fake
// V4L2 camera: the real ALSAMicrophone opens it by name through alsa-lib and reads it with
// snd_pcm_readi, so everything from alsa-lib up is the real code. It captures in real time
// (S16_LE, stereo, 48 kHz, paced by a timerfd) and can stall once the way a starved USB
// microphone's buffer overruns: at frame `stall_at` it delivers nothing for `stall_frames`, then
// reports the overrun (the pointer callback's -EPIPE, which alsa-lib turns into SND_PCM_STATE_XRUN
// and -EPIPE from snd_pcm_readi). A reader that falls a whole buffer behind overruns too. It can
// also be unplugged once: at frame `vanish_at` its state turns SND_PCM_STATE_DISCONNECTED (reads
// fail with -ENODEV, as for a USB microphone pulled out), and opening it fails with -ENODEV until
// `vanish_frames` of time have passed; then it opens again.
//
// Each frame carries its own index since the PCM was opened (left = the low 15 bits, right = the
// next 15), so a test can tell exactly which samples arrived and when they were captured. With
// `beep 1` (the A/V-sync mode, the fake camera's `flash=1` for sound) each frame instead carries a
// 1 kHz beep for the first 100 ms after each whole second of its capture time, silence otherwise.
// `silent 1`: every frame is silence (a muted microphone, a cable pulled out of an interface).
// `skew_ppm N`: its clock runs N millionths fast (or slow, N < 0): it captures rate * (1 + N/1e6)
// frames a second of CLOCK_MONOTONIC while it says `rate`, as a USB microphone's crystal does.
// `unpaced 1`: a stuck driver: every wait returns at once with a period to read.

//
//   pcm_type.kiosk_fake_microphone { lib "/path/libKioskFakeALSAMicrophone.so" }
//   pcm.mic { type kiosk_fake_microphone  stall_at 24000  stall_frames 14400 }
#include <alsa/asoundlib.h>
#include <alsa/pcm_external.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    snd_pcm_ioplug_t io;
    int timer;
    uint64_t origin_ns;       // when frame 0 was captured (the open)
    uint64_t started_ns;      // when the stream last started
    uint64_t start_index;     // the index of the frame captured at started_ns
    uint64_t transferred;     // frames handed to the reader since that start
    long long stall_at;       // the frame index where the device stalls (< 0: never)
    long long stall_frames;   // how long it stalls, in frames
    int stalled;              // the stall happened (once per open)
    long long vanish_at;      // the frame index where it is unplugged (< 0: never)
    long long vanish_frames;  // how long it stays away, in frames
    int gone;                 // this open's device was unplugged
    int beep;                 // frames carry the beep instead of their index
    int silent;               // frames are all zero
    int16_t *file;            // `file`: its frames (stereo S16), played in a loop instead of the index
    uint64_t file_frames;
    long long skew_ppm;       // its clock runs this many millionths fast (> 0) or slow (< 0)
    int unpaced;              // a stuck driver: a period is always there, at once
    long long close_ms;       // a slow driver: closing takes this long
} fake_microphone;

enum { BEEP_HZ = 1000, BEEP_AMPLITUDE = 16384 }; // as the built-in test tone (TestTone.swift)
static const uint64_t beep_ns = 100000000; // each beep's length, from the whole second

// Process-wide, since the reader reopens the device: it vanishes once, and stays away until then.
static int vanished_once;
static uint64_t away_until_ns;

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/// Frames per second as the device really captures them: its nominal rate, off by `skew_ppm`.
/// Frames counted on that clock, with 128-bit products (two minutes at 48 kHz overflow 64 bits).
static uint64_t index_at(const fake_microphone *m, uint64_t ns) {
    unsigned __int128 scaled = (unsigned __int128)(ns - m->origin_ns) * m->io.rate * (uint64_t)(1000000 + m->skew_ppm);
    return (uint64_t)(scaled / 1000000000000000ull);
}

/// When frame `index` was captured on the plugin's timeline: open + index/rate, to the nanosecond
/// below (`index_at` counts the frames captured by a time, so a frame is delivered from one frame
/// after this on). The reader puts it here too, to within a frame: it takes alsa-lib's status
/// stamp minus (delay + frames read)/rate, and `delay` counts the frames captured by the moment
/// just after the stamp.
static uint64_t capture_ns(const fake_microphone *m, uint64_t index) {
    unsigned __int128 per_second = (unsigned __int128)m->io.rate * (uint64_t)(1000000 + m->skew_ppm);
    return m->origin_ns + (uint64_t)((unsigned __int128)index * 1000000000000000ull / per_second);
}

/// The beep mode's sample for frame `index`: a 1 kHz sine from each whole second of its capture
/// time (starting at phase 0 there) for 100 ms, silence otherwise.
static int16_t beep_sample(const fake_microphone *m, uint64_t index) {
    uint64_t since = capture_ns(m, index) % 1000000000ull;
    if (since >= beep_ns) return 0;
    return (int16_t)lrint(BEEP_AMPLITUDE * sin(2 * M_PI * BEEP_HZ * (double)since / 1e9));
}

/// Frames captured since the start, or -EPIPE for an overrun.
static long long captured(fake_microphone *m) {
    // Unpaced: a period more than the reader has taken is always there, however fast it reads.
    if (m->unpaced) return (long long)(m->io.appl_ptr + m->io.period_size);
    uint64_t position = index_at(m, now_ns()) - m->start_index;
    if (m->vanish_at >= 0 && !vanished_once && (long long)(m->start_index + position) >= m->vanish_at) {
        vanished_once = 1;
        m->gone = 1;
        away_until_ns = now_ns() + (uint64_t)m->vanish_frames * 1000000000ull / m->io.rate;
    }
    if (m->gone) {
        // Unplugged: alsa-lib fails every read and wait with -ENODEV from now on.
        snd_pcm_ioplug_set_state(&m->io, SND_PCM_STATE_DISCONNECTED);
        return (long long)m->transferred;
    }
    if (m->stall_at >= 0 && !m->stalled && (long long)(m->start_index + position) >= m->stall_at) {
        uint64_t at = m->stall_at > (long long)m->start_index ? (uint64_t)m->stall_at - m->start_index : 0;
        if (position < at + (uint64_t)m->stall_frames) {
            position = at; // stalled: nothing new arrives
        } else {
            m->stalled = 1; // the hardware went on writing meanwhile: the buffer overran
            return -EPIPE;
        }
    }
    // A reader a whole buffer behind has lost samples: an overrun, as on real hardware.
    if (position > m->io.appl_ptr + m->io.buffer_size) return -EPIPE;
    return (long long)position;
}

static int fake_start(snd_pcm_ioplug_t *io) {
    fake_microphone *m = io->private_data;
    m->started_ns = now_ns();
    m->start_index = index_at(m, m->started_ns);
    m->transferred = 0;
    // The period on the device's own clock; unpaced, the timer fires every 10 µs (always ready).
    uint64_t period_ns = m->unpaced ? 10000
        : (uint64_t)((unsigned __int128)io->period_size * 1000000000000000ull / ((uint64_t)io->rate * (uint64_t)(1000000 + m->skew_ppm)));
    struct itimerspec every = {
        .it_interval = {(time_t)(period_ns / 1000000000ull), (long)(period_ns % 1000000000ull)},
        .it_value = {(time_t)(period_ns / 1000000000ull), (long)(period_ns % 1000000000ull)},
    };
    return timerfd_settime(m->timer, 0, &every, NULL) == 0 ? 0 : -errno;
}

static int fake_prepare(snd_pcm_ioplug_t *io) {
    fake_microphone *m = io->private_data;
    return m->gone ? -ENODEV : 0;
}

static int fake_stop(snd_pcm_ioplug_t *io) {
    fake_microphone *m = io->private_data;
    struct itimerspec never = {0};
    timerfd_settime(m->timer, 0, &never, NULL);
    return 0;
}

static snd_pcm_sframes_t fake_pointer(snd_pcm_ioplug_t *io) {
    long long position = captured(io->private_data);
    return position < 0 ? position : (snd_pcm_sframes_t)(position % io->buffer_size);
}

static snd_pcm_sframes_t fake_transfer(snd_pcm_ioplug_t *io, const snd_pcm_channel_area_t *areas,
                                       snd_pcm_uframes_t offset, snd_pcm_uframes_t size) {
    fake_microphone *m = io->private_data;
    for (snd_pcm_uframes_t i = 0; i < size; i++) {
        uint64_t index = m->start_index + m->transferred + i;
        int16_t values[2] = {(int16_t)(index & 0x7fff), (int16_t)((index >> 15) & 0x7fff)};
        if (m->file_frames) {
            values[0] = m->file[2 * (index % m->file_frames)];
            values[1] = m->file[2 * (index % m->file_frames) + 1];
        }
        if (m->beep) values[0] = values[1] = beep_sample(m, index);
        if (m->silent) values[0] = values[1] = 0;
        for (unsigned channel = 0; channel < io->channels && channel < 2; channel++) {
            const snd_pcm_channel_area_t *a = &areas[channel];
            char *sample = (char *)a->addr + (a->first + a->step * (offset + i)) / 8;
            memcpy(sample, &values[channel], sizeof(int16_t));
        }
    }
    m->transferred += size;
    return (snd_pcm_sframes_t)size;
}

static int fake_delay(snd_pcm_ioplug_t *io, snd_pcm_sframes_t *delay) {
    long long position = captured(io->private_data);
    if (position < 0) return (int)position;
    *delay = (snd_pcm_sframes_t)(position - (long long)io->appl_ptr);
    return 0;
}

static int fake_poll_revents(snd_pcm_ioplug_t *io, struct pollfd *pfd, unsigned int nfds, unsigned short *revents) {
    fake_microphone *m = io->private_data;
    uint64_t expirations;
    if (nfds == 1 && (pfd[0].revents & POLLIN)) {
        (void)!read(m->timer, &expirations, sizeof expirations);
        *revents = POLLIN;
    } else {
        *revents = 0;
    }
    return 0;
}

static int fake_close(snd_pcm_ioplug_t *io) {
    fake_microphone *m = io->private_data;
    if (m->close_ms > 0) {
        struct timespec pause = {m->close_ms / 1000, (m->close_ms % 1000) * 1000000};
        while (nanosleep(&pause, &pause) < 0 && errno == EINTR) {}
    }
    close(m->timer);
    free(m->file);
    free(m);
    return 0;
}

static const snd_pcm_ioplug_callback_t callbacks = {
    .start = fake_start,
    .stop = fake_stop,
    .prepare = fake_prepare,
    .pointer = fake_pointer,
    .transfer = fake_transfer,
    .delay = fake_delay,
    .poll_revents = fake_poll_revents,
    .close = fake_close,
};

SND_PCM_PLUGIN_DEFINE_FUNC(kiosk_fake_microphone) {
    (void)root;
    long long stall_at = -1, stall_frames = 0, vanish_at = -1, vanish_frames = 0, skew_ppm = 0, close_ms = 0;
    int beep = 0, silent = 0, unpaced = 0;
    const char *file = NULL;
    snd_config_iterator_t i, next;
    snd_config_for_each(i, next, conf) {
        snd_config_t *entry = snd_config_iterator_entry(i);
        const char *id;
        if (snd_config_get_id(entry, &id) < 0) continue;
        if (!strcmp(id, "comment") || !strcmp(id, "type") || !strcmp(id, "hint")) continue;
        long value;
        if (!strcmp(id, "stall_at") && snd_config_get_integer(entry, &value) == 0) { stall_at = value; continue; }
        if (!strcmp(id, "stall_frames") && snd_config_get_integer(entry, &value) == 0) { stall_frames = value; continue; }
        if (!strcmp(id, "vanish_at") && snd_config_get_integer(entry, &value) == 0) { vanish_at = value; continue; }
        if (!strcmp(id, "vanish_frames") && snd_config_get_integer(entry, &value) == 0) { vanish_frames = value; continue; }
        if (!strcmp(id, "close_ms") && snd_config_get_integer(entry, &value) == 0 && value >= 0 && value <= 60000) {
            close_ms = value;
            continue;
        }
        if (!strcmp(id, "file") && snd_config_get_string(entry, &file) == 0) continue;
        if (!strcmp(id, "beep") && (beep = snd_config_get_bool(entry)) >= 0) continue;
        if (!strcmp(id, "silent") && (silent = snd_config_get_bool(entry)) >= 0) continue;
        if (!strcmp(id, "unpaced") && (unpaced = snd_config_get_bool(entry)) >= 0) continue;
        if (!strcmp(id, "skew_ppm") && snd_config_get_integer(entry, &value) == 0 && value > -100000 && value < 100000) {
            skew_ppm = value;
            continue;
        }
        SNDERR("kiosk_fake_microphone: unknown field %s", id);
        return -EINVAL;
    }
    if (stream != SND_PCM_STREAM_CAPTURE) return -EINVAL;
    if (vanished_once && now_ns() < away_until_ns) return -ENODEV; // still unplugged

    fake_microphone *m = calloc(1, sizeof *m);
    if (!m) return -ENOMEM;
    m->timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (m->timer < 0) {
        free(m);
        return -errno;
    }
    m->origin_ns = now_ns();
    if (file) {
        // Raw S16LE stereo at 48 kHz (ffmpeg -f s16le -ac 2 -ar 48000), read whole.
        FILE *f = fopen(file, "rb");
        long bytes = -1;
        if (f && fseek(f, 0, SEEK_END) == 0) bytes = ftell(f);
        if (bytes >= 4 && fseek(f, 0, SEEK_SET) == 0 && (m->file = malloc((size_t)bytes)) &&
            fread(m->file, 1, (size_t)bytes, f) == (size_t)bytes) {
            m->file_frames = (uint64_t)bytes / 4;
        }
        if (f) fclose(f);
        if (!m->file_frames) {
            SNDERR("kiosk_fake_microphone: cannot read the file %s", file);
            free(m->file);
            close(m->timer);
            free(m);
            return -EINVAL;
        }
    }
    m->stall_at = stall_at;
    m->stall_frames = stall_frames;
    m->vanish_at = vanish_at;
    m->vanish_frames = vanish_frames;
    m->beep = beep;
    m->silent = silent;
    m->skew_ppm = skew_ppm;
    m->unpaced = unpaced;
    m->close_ms = close_ms;
    m->io.version = SND_PCM_IOPLUG_VERSION;
    m->io.name = "KioskRecorder fake microphone";
    m->io.callback = &callbacks;
    m->io.private_data = m;
    m->io.poll_fd = m->timer;
    m->io.poll_events = POLLIN;
    m->io.flags = SND_PCM_IOPLUG_FLAG_MONOTONIC;
    int err = snd_pcm_ioplug_create(&m->io, name, stream, mode);
    if (err < 0) {
        close(m->timer);
        free(m->file);
        free(m);
        return err;
    }
    static const unsigned int accesses[] = {SND_PCM_ACCESS_RW_INTERLEAVED};
    static const unsigned int formats[] = {SND_PCM_FORMAT_S16_LE};
    // The limits of a USB microphone (the kernel's snd-usb-audio: up to 1024 periods, 1 MiB).
    if ((err = snd_pcm_ioplug_set_param_list(&m->io, SND_PCM_IOPLUG_HW_ACCESS, 1, accesses)) < 0 ||
        (err = snd_pcm_ioplug_set_param_list(&m->io, SND_PCM_IOPLUG_HW_FORMAT, 1, formats)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&m->io, SND_PCM_IOPLUG_HW_CHANNELS, 2, 2)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&m->io, SND_PCM_IOPLUG_HW_RATE, 48000, 48000)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&m->io, SND_PCM_IOPLUG_HW_PERIOD_BYTES, 256, 65536)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&m->io, SND_PCM_IOPLUG_HW_PERIODS, 2, 1024)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&m->io, SND_PCM_IOPLUG_HW_BUFFER_BYTES, 512, 1024 * 1024)) < 0) {
        snd_pcm_ioplug_delete(&m->io);
        return err;
    }
    *pcmp = m->io.pcm;
    return 0;
}

SND_PCM_PLUGIN_SYMBOL(kiosk_fake_microphone);
