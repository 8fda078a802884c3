// The fake camera's configuration (`<device>.conf`) and its unplug state (`<device>.state`).
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/videodev2.h>

#include "fake_camera_internal.h"

int64_t fake_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static const struct {
    const char *name;
    uint32_t fourcc;
} known_fourccs[] = {
    {"YUYV", V4L2_PIX_FMT_YUYV},
    {"NV12", V4L2_PIX_FMT_NV12},
    {"YU12", V4L2_PIX_FMT_YUV420},
    {"MJPG", V4L2_PIX_FMT_MJPEG},
};

// The defaults describe a USB2 UVC camera: raw 720p only at 10 fps, MJPEG at 30.
static const char *const default_formats[] = {
    "YUYV 640x480@30/15 352x288@30 1280x720@10",
    "NV12 640x480@30/15 1280x720@10",
    "MJPG 640x480@30 1280x720@30",
};

static char *trim(char *s) {
    while (*s == ' ' || *s == '\t') s++;
    char *end = s + strlen(s);
    while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n')) end--;
    *end = 0;
    return s;
}

/// Parses "FOURCC WxH@fps[/fps...] ..." into `f`. Returns NULL or what is wrong.
static const char *parse_format(const char *text, fake_format *f) {
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", text);
    memset(f, 0, sizeof *f);
    char *save = NULL;
    char *word = strtok_r(buf, " \t", &save);
    if (!word) return "empty format";
    for (size_t i = 0; i < sizeof known_fourccs / sizeof known_fourccs[0]; i++)
        if (strcmp(word, known_fourccs[i].name) == 0) f->fourcc = known_fourccs[i].fourcc;
    if (!f->fourcc) return "unknown FOURCC (YUYV, NV12, YU12 or MJPG)";
    while ((word = strtok_r(NULL, " \t", &save))) {
        if (f->nsizes == FAKE_MAX_SIZES) return "too many sizes";
        fake_size *s = &f->sizes[f->nsizes];
        char *p = word, *end;
        unsigned long w = strtoul(p, &end, 10);
        if (end == p || *end != 'x') return "size is not WxH@fps";
        p = end + 1;
        unsigned long h = strtoul(p, &end, 10);
        if (end == p || *end != '@') return "size is not WxH@fps";
        if (w < 16 || h < 16 || w > 8192 || h > 8192 || w % 2 || h % 2)
            return "width and height must be even, 16..8192";
        s->width = (uint32_t)w;
        s->height = (uint32_t)h;
        do {
            p = end + 1;
            unsigned long fps = strtoul(p, &end, 10);
            if (end == p || fps < 1 || fps > 1000) return "fps must be 1..1000";
            if (s->nfps == FAKE_MAX_RATES) return "too many rates";
            s->fps[s->nfps++] = (uint32_t)fps;
        } while (*end == '/');
        if (*end) return "unexpected text after the rates";
        f->nsizes++;
    }
    if (f->nsizes == 0) return "a format needs at least one WxH@fps";
    return NULL;
}

/// The controls a conf may offer, by name.
static const fake_control known_controls[] = {
    {V4L2_CID_BRIGHTNESS, V4L2_CTRL_TYPE_INTEGER, "brightness", "Brightness", 0, 0, 0, 1},
    {V4L2_CID_EXPOSURE_AUTO, V4L2_CTRL_TYPE_MENU, "exposure_auto", "Auto Exposure", 3, 0, 3, 1},
    {V4L2_CID_EXPOSURE_ABSOLUTE, V4L2_CTRL_TYPE_INTEGER, "exposure_absolute", "Exposure Time, Absolute", 0, 0, 0, 1},
    {V4L2_CID_AUTO_WHITE_BALANCE, V4L2_CTRL_TYPE_BOOLEAN, "white_balance_auto", "White Balance, Automatic", 1, 0, 1, 1},
    {V4L2_CID_WHITE_BALANCE_TEMPERATURE, V4L2_CTRL_TYPE_INTEGER, "white_balance_temperature", "White Balance Temperature", 0, 0, 0, 1},
    {V4L2_CID_FOCUS_AUTO, V4L2_CTRL_TYPE_BOOLEAN, "focus_auto", "Focus, Automatic Continuous", 1, 0, 1, 1},
    {V4L2_CID_FOCUS_ABSOLUTE, V4L2_CTRL_TYPE_INTEGER, "focus_absolute", "Focus, Absolute", 0, 0, 0, 1},
    {V4L2_CID_AUTO_FOCUS_START, V4L2_CTRL_TYPE_BUTTON, "auto_focus_start", "Auto Focus, Start", 0, 0, 0, 0},
    {V4L2_CID_FLASH_LED_MODE, V4L2_CTRL_TYPE_MENU, "flash_led_mode", "LED Mode", 0, 0, 2, 1},
};

/// `NAME [DEFAULT MIN MAX STEP]`: a known control with the range given (menus, booleans and
/// buttons keep their own range when none is given).
static const char *parse_control(char *value, fake_config *cfg) {
    if (cfg->ncontrols == FAKE_MAX_CONTROLS) return "too many controls";
    char *name = strtok(value, " \t");
    if (!name) return "control needs a name";
    const fake_control *known = NULL;
    for (size_t i = 0; i < sizeof known_controls / sizeof known_controls[0]; i++)
        if (strcmp(name, known_controls[i].conf_name) == 0) known = &known_controls[i];
    if (!known) return "unknown control (brightness, exposure_auto, exposure_absolute, white_balance_auto, "
                       "white_balance_temperature, focus_auto, focus_absolute, auto_focus_start, flash_led_mode)";
    fake_control c = *known;
    long n[4];
    int count = 0;
    for (char *word; count < 4 && (word = strtok(NULL, " \t")); count++) {
        char *end;
        n[count] = strtol(word, &end, 10);
        if (end == word || *end) return "control values must be whole numbers: DEFAULT MIN MAX STEP";
    }
    if (count != 0 && count != 4) return "control takes NAME or NAME DEFAULT MIN MAX STEP";
    if (count == 4) {
        c.def = (int32_t)n[0], c.min = (int32_t)n[1], c.max = (int32_t)n[2], c.step = (int32_t)n[3];
        if (c.min > c.max || c.def < c.min || c.def > c.max) return "control needs MIN <= DEFAULT <= MAX";
    }
    cfg->controls[cfg->ncontrols++] = c;
    return NULL;
}

static void set_defaults(fake_config *cfg) {
    memset(cfg, 0, sizeof *cfg);
    snprintf(cfg->card, sizeof cfg->card, "Kiosk Fake Camera");
    snprintf(cfg->driver, sizeof cfg->driver, "kiosk-fake");
    snprintf(cfg->bus, sizeof cfg->bus, "usb-kiosk-fake-1");
    cfg->fail_after = -1;
    cfg->unplug_ms = 1500;
    cfg->bad_index_at = -1;
    cfg->bad_stamp_at = -1;
    cfg->bad_width = -1;
    cfg->luma = 32;
    for (size_t i = 0; i < sizeof default_formats / sizeof default_formats[0]; i++)
        parse_format(default_formats[i], &cfg->formats[cfg->nformats++]);
}

static bool parse_long(const char *v, long min, long *out) {
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || end == v || *end || n < min) return false;
    *out = n;
    return true;
}

void fake_config_load(const char *conf_path, fake_config *cfg) {
    set_defaults(cfg);
    FILE *file = fopen(conf_path, "re");
    if (!file) {
        fprintf(stderr, FAKE_LOG_PREFIX "%s: %s; using the defaults\n", conf_path, strerror(errno));
        return;
    }
    fake_format formats[FAKE_MAX_FORMATS];
    int nformats = 0;
    char line[1024];
    for (int lineno = 1; fgets(line, sizeof line, file); lineno++) {
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        char *s = trim(line);
        if (!*s) continue;
        char *eq = strchr(s, '=');
        const char *error = NULL;
        if (!eq) {
            error = "expected key=value";
        } else {
            *eq = 0;
            char *key = trim(s), *value = trim(eq + 1);
            if (strcmp(key, "card") == 0) {
                snprintf(cfg->card, sizeof cfg->card, "%s", value);
            } else if (strcmp(key, "driver") == 0) {
                snprintf(cfg->driver, sizeof cfg->driver, "%s", value);
            } else if (strcmp(key, "bus") == 0) {
                snprintf(cfg->bus, sizeof cfg->bus, "%s", value);
            } else if (strcmp(key, "format") == 0) {
                if (nformats == FAKE_MAX_FORMATS) error = "too many format lines";
                else if (!(error = parse_format(value, &formats[nformats]))) nformats++;
            } else if (strcmp(key, "fail_after") == 0) {
                if (!parse_long(value, 0, &cfg->fail_after)) error = "fail_after must be a number >= 0";
            } else if (strcmp(key, "unplug_ms") == 0) {
                if (!parse_long(value, 0, &cfg->unplug_ms)) error = "unplug_ms must be a number >= 0";
            } else if (strcmp(key, "bad_index_at") == 0) {
                if (!parse_long(value, 0, &cfg->bad_index_at)) error = "bad_index_at must be a number >= 0";
            } else if (strcmp(key, "bad_stamp_at") == 0) {
                if (!parse_long(value, 0, &cfg->bad_stamp_at)) error = "bad_stamp_at must be a number >= 0";
            } else if (strcmp(key, "bad_width") == 0) {
                if (!parse_long(value, 0, &cfg->bad_width)) error = "bad_width must be a number >= 0";
            } else if (strcmp(key, "flash") == 0) {
                cfg->flash = strcmp(value, "0") != 0;
            } else if (strcmp(key, "control") == 0) {
                error = parse_control(value, cfg);
            } else if (strcmp(key, "clip") == 0) {
                snprintf(cfg->clip, sizeof cfg->clip, "%s", value);
            } else if (strcmp(key, "luma") == 0) {
                long luma;
                if (!parse_long(value, 16, &luma) || luma > 40) error = "luma must be 16..40";
                else cfg->luma = (int)luma;
            } else if (strcmp(key, "debug") == 0) {
                cfg->debug = strcmp(value, "0") != 0;
            } else {
                error = "unknown key (card, driver, bus, format, fail_after, unplug_ms, bad_index_at, bad_stamp_at, bad_width, flash, control, luma, clip, debug)";
            }
        }
        if (error) fprintf(stderr, FAKE_LOG_PREFIX "%s:%d: %s; line ignored\n", conf_path, lineno, error);
    }
    fclose(file);
    if (nformats > 0) {
        memcpy(cfg->formats, formats, sizeof formats);
        cfg->nformats = nformats;
    }
}

// ---- unplug state ----
//
// `<device>.state` holds the monotonic time of the unplug and the identity (inode, mtime) of the
// conf it belongs to, so writing a fresh conf re-arms fail_after without deleting stale state.

static bool conf_identity(const char *device_path, unsigned long long *ino, long long *mtime_ns) {
    char conf[PATH_MAX + 8];
    snprintf(conf, sizeof conf, "%s.conf", device_path);
    struct stat st;
    if (stat(conf, &st) != 0) return false;
    *ino = (unsigned long long)st.st_ino;
    *mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    return true;
}

fake_plug fake_state_check(const char *device_path, long unplug_ms) {
    char path[PATH_MAX + 8];
    snprintf(path, sizeof path, "%s.state", device_path);
    FILE *file = fopen(path, "re");
    if (!file) return FAKE_PLUG_ARMED;
    long long at = 0, mtime = 0, conf_mtime = 0;
    unsigned long long ino = 0, conf_ino = 0;
    int n = fscanf(file, "unplugged_at_ns=%lld conf_ino=%llu conf_mtime_ns=%lld", &at, &ino, &mtime);
    fclose(file);
    if (n != 3 || !conf_identity(device_path, &conf_ino, &conf_mtime) || ino != conf_ino || mtime != conf_mtime)
        return FAKE_PLUG_ARMED; // stale state from another conf
    int64_t now = fake_now_ns();
    // A time in the future comes from before a reboot: the window is long over.
    if (at <= now && now < at + (int64_t)unplug_ms * 1000000) return FAKE_PLUG_ABSENT;
    return FAKE_PLUG_REPLUGGED;
}

void fake_state_unplug(const char *device_path) {
    unsigned long long ino = 0;
    long long mtime = 0;
    if (!conf_identity(device_path, &ino, &mtime)) return;
    char path[PATH_MAX + 8], tmp[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s.state", device_path);
    snprintf(tmp, sizeof tmp, "%s.state.%d", device_path, (int)getpid());
    FILE *file = fopen(tmp, "we");
    if (!file) {
        fprintf(stderr, FAKE_LOG_PREFIX "cannot write %s: %s\n", tmp, strerror(errno));
        return;
    }
    fprintf(file, "unplugged_at_ns=%lld conf_ino=%llu conf_mtime_ns=%lld\n", (long long)fake_now_ns(), ino, mtime);
    // Written whole, then renamed: a concurrent open never reads half a state.
    if (fclose(file) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, FAKE_LOG_PREFIX "cannot write %s: %s\n", path, strerror(errno));
        unlink(tmp);
    }
}

void fake_controls_log(const char *device_path, const char *name, int32_t value) {
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s.controls", device_path);
    FILE *file = fopen(path, "ae");
    if (!file) {
        fprintf(stderr, FAKE_LOG_PREFIX "cannot write %s: %s\n", path, strerror(errno));
        return;
    }
    fprintf(file, "%s=%d\n", name, (int)value);
    fclose(file);
}
