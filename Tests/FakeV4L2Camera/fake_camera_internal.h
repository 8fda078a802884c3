// The fake camera's parts, shared by its .c files: configuration, unplug state, frame drawing.
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FAKE_LOG_PREFIX "kiosk-fake-camera: "

enum {
    FAKE_MAX_FORMATS = 8,
    FAKE_MAX_SIZES = 16,
    FAKE_MAX_RATES = 8,
    FAKE_MIN_BUFFERS = 2,
    FAKE_MAX_BUFFERS = 32, // also libv4l2's V4L2_MAX_NO_FRAMES
};

// ---- configuration (config.c) ----

typedef struct {
    uint32_t width, height;
    uint32_t fps[FAKE_MAX_RATES]; // the first one is the size's default rate
    int nfps;
} fake_size;

typedef struct {
    uint32_t fourcc;
    fake_size sizes[FAKE_MAX_SIZES];
    int nsizes;
} fake_format;

enum { FAKE_MAX_CONTROLS = 16 };

/// One control the camera offers (`control=NAME DEFAULT MIN MAX STEP`): a V4L2 control id, its
/// type and range. Values set are kept per open and logged to `<device>.controls`.
typedef struct {
    uint32_t id;
    uint32_t type;          // V4L2_CTRL_TYPE_*
    const char *conf_name;  // the conf's name (brightness, focus_auto, …)
    const char *label;      // QUERYCTRL's name (Brightness, Focus, Automatic Continuous, …)
    int32_t def, min, max, step;
} fake_control;

typedef struct {
    char card[32];
    char driver[16];
    char bus[32];
    fake_format formats[FAKE_MAX_FORMATS];
    int nformats;
    long fail_after; // frames dequeued on a stream before the camera is unplugged; < 0: never
    long unplug_ms;  // how long new opens fail after the unplug
    long bad_index_at; // frame (dequeued on a stream, from 0) whose buffer index is out of range; < 0: none
    long bad_stamp_at; // frame whose timestamp does not fit in 64-bit nanoseconds; < 0: none
    long bad_width;  // S_FMT and TRY_FMT report this width whatever the mode's; < 0: the mode's
    bool flash;      // A/V-sync mode: the first frame of each whole second is white and carries its phase
    bool debug;      // log every ioctl to stderr
    int luma;        // the picture's base luma (32 unless `luma=`): two cameras told apart by their pictures
    char clip[4096]; // `clip=PATH`: MJPG frames are this file's JPEGs in turn, copied, not drawn
    fake_control controls[FAKE_MAX_CONTROLS];
    int ncontrols;
} fake_config;

/// Reads `conf_path` (key=value lines) over the defaults. Bad lines are reported on stderr and
/// skipped, so a test sees what is wrong while the camera still opens.
void fake_config_load(const char *conf_path, fake_config *cfg);

/// Whether the device at `device_path` can be opened now (the unplug state lives in a file beside
/// it, `<device>.state`, because libv4l2 dlcloses the plugin when a device is closed).
typedef enum {
    FAKE_PLUG_ARMED,    // present; fail_after applies
    FAKE_PLUG_REPLUGGED, // present again after an unplug; fail_after no longer applies
    FAKE_PLUG_ABSENT,   // inside the unplug window: opens fail with ENODEV
} fake_plug;

fake_plug fake_state_check(const char *device_path, long unplug_ms);
/// Records that the device was unplugged now.
void fake_state_unplug(const char *device_path);

int64_t fake_now_ns(void); // CLOCK_MONOTONIC

// ---- frames (image.c) ----

struct AVCodecContext;
struct AVFrame;
struct AVPacket;

/// Everything needed to draw frame k of one mode: a precomputed base picture (stamp band all
/// black, a colour ramp below), and for MJPG a canvas and the encoder. Per frame only the stamp
/// cells whose bit changed and the moving bar's old and new columns are rewritten; a flash frame
/// is drawn whole, and so is the frame after it in the same buffer.
typedef struct {
    uint32_t fourcc, width, height;
    uint32_t band_height, bar_width, bar_step;
    int base_luma;      // the ramp's luma at the top left (config `luma`)
    size_t sizeimage;   // bytes of one raw frame (MJPG: the room given to one JPEG)
    uint8_t *base;      // one frame in the raw layout (MJPG: I420 canvas layout)
    uint8_t *rows[3];   // pattern rows: luma white, luma black, neutral chroma (plane 0 width)
    // MJPG only
    struct AVCodecContext *encoder;
    struct AVFrame *canvas;
    struct AVPacket *packet;
    int64_t canvas_k;   // frame drawn on the canvas, -1 = none or a flash frame
    // `clip=`: the file's JPEGs, read in turn; frame k is JPEG k mod clip_count
    int clip_fd;
    size_t *clip_offsets, *clip_sizes, clip_count;
} fake_image;

/// Sizes for a mode without building anything (for G_FMT / TRY_FMT).
uint32_t fake_bytesperline(uint32_t fourcc, uint32_t width);
uint32_t fake_sizeimage(uint32_t fourcc, uint32_t width, uint32_t height);

/// Logs a control set to `<device>.controls` (`NAME=VALUE` lines), where tests read them.
void fake_controls_log(const char *device_path, const char *name, int32_t value);

/// Builds the base picture for a mode. Returns 0 or an errno.
int fake_image_init(fake_image *img, uint32_t fourcc, uint32_t width, uint32_t height, int base_luma);
/// Opens the MJPG encoder (a no-op for raw formats). Returns 0 or an errno.
int fake_image_start(fake_image *img, uint32_t fps);
/// MJPG only: frames are the JPEGs of `path` (concatenated, as `ffmpeg -f mjpeg` writes them), in
/// turn, instead of drawn ones. Returns 0 or an errno.
int fake_image_load_clip(fake_image *img, const char *path);
/// Frees the encoder only.
void fake_image_stop(fake_image *img);
/// Frees everything.
void fake_image_free(fake_image *img);

/// Draws frame `k` into `dst` (room: `capacity` bytes), which holds frame `drawn_k` already
/// (-1: unknown content, or a flash frame). `phase` < 0 draws an ordinary frame; 0..65535 draws a
/// flash frame: white below the stamp band but for a second band right under it carrying `phase`
/// as the stamp carries the frame number. Returns bytes used, or -1 if a JPEG did not fit or
/// encoding failed.
long fake_image_draw(fake_image *img, uint8_t *dst, size_t capacity, int64_t drawn_k, int64_t k, int32_t phase);
