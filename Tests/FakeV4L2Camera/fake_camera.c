// A fake V4L2 camera as a libv4l2 plugin: it claims regular files that have a `<file>.conf`
// beside them and answers the capture ioctls a UVC camera answers (see README.md beside this file).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <libv4l-plugin.h>
#include <linux/videodev2.h>

#include "fake_camera.h"
#include "fake_camera_internal.h"

typedef enum { BUF_IDLE, BUF_QUEUED, BUF_DONE } buf_state;

typedef struct {
    buf_state state;
    int64_t k;       // the frame this buffer holds (DONE) or is drawn for
    int64_t drawn_k; // the raw frame its bytes hold now, -1 = unknown
} fake_buffer;

/// One open file descriptor on a fake device.
typedef struct {
    pthread_mutex_t lock; // DQBUF sleeps without it, so QBUF from another thread is not blocked
    char path[PATH_MAX];
    fake_config cfg;
    int fd;         // our own O_RDWR descriptor on the backing file, -1 if it could not be opened
    int open_errno; // why not
    bool absent;    // opened inside the unplug window: everything fails with ENODEV
    bool armed;     // fail_after applies
    bool dead;      // unplugged on this descriptor
    // current mode
    int format, size;
    uint32_t fps;
    // buffers: buffer i is at i * buf_len in the file
    uint32_t nbuf;
    size_t buf_len;
    uint8_t *map; // our own mapping of all buffers, MAP_SHARED, so the app's mappings see our writes
    fake_buffer buf[FAKE_MAX_BUFFERS];
    uint32_t queued[FAKE_MAX_BUFFERS], nqueued; // FIFO of empty buffers waiting for a frame
    uint32_t done[FAKE_MAX_BUFFERS], ndone;     // FIFO of filled buffers waiting for DQBUF
    fake_image img;
    // stream
    bool streaming;
    int64_t t0;      // STREAMON time: frame k is due at t0 + k / fps
    int64_t next_k;  // the next frame to come due
    long dequeued;   // frames dequeued on this stream
    int32_t control_values[FAKE_MAX_CONTROLS]; // the controls' current values (from their defaults at open)
} fake_dev;

static int fail(int err) {
    errno = err;
    return -1;
}

static const fake_format *cur_format(const fake_dev *d) { return &d->cfg.formats[d->format]; }
static const fake_size *cur_size(const fake_dev *d) { return &cur_format(d)->sizes[d->size]; }

static int64_t due(const fake_dev *d, int64_t k) { return d->t0 + k * 1000000000 / d->fps; }

/// With `flash=1`, the phase frame k carries if it is a flash frame: the first frame due at or
/// after a whole second of CLOCK_MONOTONIC (one lies in (due(k − 1), due(k)]; frame 0 counts as
/// following a frame one period before STREAMON), in tenths of a millisecond after that second,
/// 0..9999. -1 for every other frame.
static int32_t flash_phase(const fake_dev *d, int64_t k) {
    int64_t t = due(d, k);
    if (!d->cfg.flash || t / 1000000000 == due(d, k - 1) / 1000000000) return -1;
    return (int32_t)(t % 1000000000 / 100000);
}

// ---- formats ----

static const char *description(uint32_t fourcc) {
    switch (fourcc) {
    case V4L2_PIX_FMT_YUYV: return "YUYV 4:2:2";
    case V4L2_PIX_FMT_NV12: return "Y/UV 4:2:0";
    case V4L2_PIX_FMT_YUV420: return "Planar YUV 4:2:0";
    default: return "Motion-JPEG";
    }
}

static int find_format(const fake_config *cfg, uint32_t fourcc) {
    for (int i = 0; i < cfg->nformats; i++)
        if (cfg->formats[i].fourcc == fourcc) return i;
    return -1;
}

/// The supported size nearest to w x h, by uvcvideo's measure (the area the two do not share).
static int nearest_size(const fake_format *f, uint32_t w, uint32_t h) {
    int best = 0;
    uint64_t best_d = UINT64_MAX;
    for (int i = 0; i < f->nsizes; i++) {
        uint64_t fw = f->sizes[i].width, fh = f->sizes[i].height;
        uint64_t common = (fw < w ? fw : w) * (fh < h ? fh : h);
        uint64_t d = fw * fh + (uint64_t)w * h - 2 * common;
        if (d < best_d) best_d = d, best = i;
    }
    return best;
}

static void fill_pix(struct v4l2_format *fmt, uint32_t fourcc, uint32_t w, uint32_t h) {
    memset(fmt, 0, sizeof *fmt);
    fmt->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    struct v4l2_pix_format *pix = &fmt->fmt.pix;
    pix->width = w;
    pix->height = h;
    pix->pixelformat = fourcc;
    pix->field = V4L2_FIELD_NONE;
    pix->bytesperline = fake_bytesperline(fourcc, w);
    pix->sizeimage = fake_sizeimage(fourcc, w, h);
    if (fourcc == V4L2_PIX_FMT_MJPEG) {
        pix->colorspace = V4L2_COLORSPACE_JPEG;
    } else {
        // What the raw pixels are: BT.601 matrix, limited range (Y 16..235), as from a UVC camera.
        pix->colorspace = V4L2_COLORSPACE_SRGB;
        pix->ycbcr_enc = V4L2_YCBCR_ENC_601;
        pix->quantization = V4L2_QUANTIZATION_LIM_RANGE;
    }
}

/// TRY_FMT's choice: the asked format (else the first one) at the nearest size.
static void try_fmt(const fake_dev *d, const struct v4l2_format *ask, int *format, int *size) {
    int f = find_format(&d->cfg, ask->fmt.pix.pixelformat);
    *format = f < 0 ? 0 : f;
    *size = nearest_size(&d->cfg.formats[*format], ask->fmt.pix.width, ask->fmt.pix.height);
}

static void fill_parm(const fake_dev *d, struct v4l2_streamparm *parm) {
    memset(parm, 0, sizeof *parm);
    parm->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    parm->parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
    parm->parm.capture.timeperframe.numerator = 1;
    parm->parm.capture.timeperframe.denominator = d->fps;
}

/// The supported rate nearest to den/num frames per second (the default rate for 0); ties go up.
static uint32_t nearest_fps(const fake_size *s, uint32_t num, uint32_t den) {
    if (num == 0 || den == 0) return s->fps[0];
    uint32_t best = s->fps[0];
    double want = (double)den / num, best_d = -1;
    for (int i = 0; i < s->nfps; i++) {
        double diff = s->fps[i] > want ? s->fps[i] - want : want - s->fps[i];
        if (best_d < 0 || diff < best_d || (diff == best_d && s->fps[i] > best)) best_d = diff, best = s->fps[i];
    }
    return best;
}

// ---- buffers ----

static bool valid_buffer(const fake_dev *d, const struct v4l2_buffer *b) {
    return b->type == V4L2_BUF_TYPE_VIDEO_CAPTURE && b->memory == V4L2_MEMORY_MMAP && b->index < d->nbuf;
}

/// Which buffers the application has mapped (bit i = buffer i), from /proc/self/maps: a regular
/// file cannot count its mappings the way a driver does, and libv4l2 asks (V4L2_BUF_FLAG_MAPPED)
/// before it lets the app reallocate or change the format.
static uint64_t app_mapped_buffers(const fake_dev *d) {
    uint64_t mask = 0;
    struct stat st;
    if (d->nbuf == 0 || d->fd < 0 || fstat(d->fd, &st) != 0) return 0;
    FILE *maps = fopen("/proc/self/maps", "re");
    if (!maps) return 0;
    char line[PATH_MAX + 256];
    while (fgets(line, sizeof line, maps)) {
        unsigned long start, end, offset, inode;
        unsigned major_, minor_;
        char perms[8];
        int path_at = 0;
        if (sscanf(line, "%lx-%lx %7s %lx %x:%x %lu %n", &start, &end, perms, &offset, &major_, &minor_, &inode,
                   &path_at) < 7 || path_at == 0)
            continue;
        if (start == (unsigned long)(uintptr_t)d->map) continue; // our own
        char *path = line + path_at;
        path[strcspn(path, "\n")] = 0;
        // Either names the file: overlayfs may show the lower inode, a bind mount another path.
        bool same = (inode == st.st_ino && makedev(major_, minor_) == st.st_dev) || strcmp(path, d->path) == 0;
        if (!same) continue;
        for (uint32_t i = 0; i < d->nbuf; i++)
            if (offset < (i + 1) * d->buf_len && offset + (end - start) > i * d->buf_len) mask |= 1ull << i;
    }
    fclose(maps);
    return mask;
}

static void reset_queues(fake_dev *d) {
    for (uint32_t i = 0; i < d->nbuf; i++) d->buf[i].state = BUF_IDLE;
    d->nqueued = d->ndone = 0;
}

static void stop_stream(fake_dev *d) {
    d->streaming = false;
    reset_queues(d);
    fake_image_stop(&d->img);
}

/// Frees the buffers; the file shrinks to nothing unless the app still maps it (a driver keeps
/// mapped buffers alive; truncating them would SIGBUS the app).
static void free_buffers(fake_dev *d) {
    stop_stream(d);
    if (d->nbuf == 0) return;
    bool app_maps = app_mapped_buffers(d) != 0;
    munmap(d->map, d->nbuf * d->buf_len);
    d->map = NULL;
    if (!app_maps && ftruncate(d->fd, 0) != 0)
        fprintf(stderr, FAKE_LOG_PREFIX "%s: ftruncate: %s\n", d->path, strerror(errno));
    flock(d->fd, LOCK_UN);
    fake_image_free(&d->img);
    d->nbuf = 0;
    d->buf_len = 0;
}

static int alloc_buffers(fake_dev *d, uint32_t n) {
    if (d->fd < 0) return d->open_errno;
    // The buffers live in the device file itself, so one descriptor at a time may own them (any
    // process): like vb2, a second one gets EBUSY instead of truncating the first one's buffers.
    if (flock(d->fd, LOCK_EX | LOCK_NB) != 0) return errno == EWOULDBLOCK ? EBUSY : errno;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t size = fake_sizeimage(cur_format(d)->fourcc, cur_size(d)->width, cur_size(d)->height);
    size_t len = (size + page - 1) / page * page;
    // Truncating to zero first gives every buffer fresh zero pages.
    int err = 0;
    uint8_t *map = MAP_FAILED;
    if (ftruncate(d->fd, 0) != 0 || ftruncate(d->fd, (off_t)(n * len)) != 0 ||
        (map = mmap(NULL, n * len, PROT_READ | PROT_WRITE, MAP_SHARED, d->fd, 0)) == MAP_FAILED)
        err = errno;
    else
        err = fake_image_init(&d->img, cur_format(d)->fourcc, cur_size(d)->width, cur_size(d)->height, d->cfg.luma);
    if (!err && d->cfg.clip[0]) err = fake_image_load_clip(&d->img, d->cfg.clip);
    if (err) {
        if (map != MAP_FAILED) munmap(map, n * len);
        flock(d->fd, LOCK_UN);
        return err;
    }
    d->map = map;
    d->nbuf = n;
    d->buf_len = len;
    for (uint32_t i = 0; i < n; i++) d->buf[i] = (fake_buffer){.state = BUF_IDLE, .k = -1, .drawn_k = -1};
    return 0;
}

static void fill_buffer(const fake_dev *d, struct v4l2_buffer *b, uint32_t index, uint32_t extra_flags) {
    memset(b, 0, sizeof *b);
    b->index = index;
    b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    b->memory = V4L2_MEMORY_MMAP;
    b->field = V4L2_FIELD_NONE;
    b->flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC | extra_flags;
    if (d->buf[index].state == BUF_QUEUED) b->flags |= V4L2_BUF_FLAG_QUEUED;
    if (d->buf[index].state == BUF_DONE) b->flags |= V4L2_BUF_FLAG_DONE;
    b->m.offset = (uint32_t)(index * d->buf_len);
    b->length = (uint32_t)d->buf_len;
}

/// Lets the frames due by `now` land in the queued buffers, oldest buffer first, as a driver does.
/// A frame that comes due while no buffer is queued is lost: `sequence` skips it.
static void advance(fake_dev *d, int64_t now) {
    while (d->nqueued > 0 && due(d, d->next_k) <= now) {
        uint32_t b = d->queued[0];
        memmove(d->queued, d->queued + 1, --d->nqueued * sizeof d->queued[0]);
        d->buf[b].state = BUF_DONE;
        d->buf[b].k = d->next_k++;
        d->done[d->ndone++] = b;
    }
    if (d->nqueued == 0 && due(d, d->next_k) <= now) {
        int64_t last = (now - d->t0) * d->fps / 1000000000; // the last frame due by now, give or take one
        while (due(d, last + 1) <= now) last++;
        while (due(d, last) > now) last--;
        d->next_k = last + 1;
    }
}

static int dqbuf(fake_dev *d, struct v4l2_buffer *arg) {
    if (arg->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || arg->memory != V4L2_MEMORY_MMAP) return fail(EINVAL);
    for (;;) {
        if (d->dead) return fail(ENODEV);
        if (!d->streaming) return fail(EINVAL);
        int64_t now = fake_now_ns(), wake;
        if (d->armed && d->cfg.fail_after >= 0 && d->dequeued >= d->cfg.fail_after) {
            // Unplugged when the next frame would have come.
            wake = due(d, d->next_k);
            if (wake <= now) {
                d->dead = true;
                stop_stream(d);
                fake_state_unplug(d->path);
                if (d->cfg.debug) fprintf(stderr, FAKE_LOG_PREFIX "%s: unplugged\n", d->path);
                return fail(ENODEV);
            }
        } else {
            advance(d, now);
            if (d->ndone > 0) break;
            if (d->nqueued == 0) return fail(EAGAIN);
            wake = due(d, d->next_k);
        }
        // Sleep even on an O_NONBLOCK descriptor: poll() on a regular file is always ready, so
        // this is where the frame rate comes from.
        struct timespec ts = {.tv_sec = wake / 1000000000, .tv_nsec = wake % 1000000000};
        pthread_mutex_unlock(&d->lock);
        int err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
        pthread_mutex_lock(&d->lock);
        if (err == EINTR) return fail(EINTR); // as a driver's blocking DQBUF does on a signal
    }

    uint32_t b = d->done[0];
    memmove(d->done, d->done + 1, --d->ndone * sizeof d->done[0]);
    fake_buffer *fb = &d->buf[b];
    fb->state = BUF_IDLE;
    int32_t phase = flash_phase(d, fb->k);
    long used = fake_image_draw(&d->img, d->map + b * d->buf_len, d->buf_len, fb->drawn_k, fb->k, phase);
    // What the buffer holds now, for the next fill; a flash frame's buffer is redrawn whole.
    fb->drawn_k = used < 0 || d->img.fourcc == V4L2_PIX_FMT_MJPEG || phase >= 0 ? -1 : fb->k;
    fill_buffer(d, arg, b, V4L2_BUF_FLAG_MAPPED | (used < 0 ? V4L2_BUF_FLAG_ERROR : 0));
    arg->bytesused = used < 0 ? 0 : (uint32_t)used;
    arg->sequence = (uint32_t)fb->k;
    int64_t t = due(d, fb->k);
    arg->timestamp.tv_sec = t / 1000000000;
    arg->timestamp.tv_usec = t % 1000000000 / 1000;
    // A hostile driver, on request: an index past the app's buffers (but inside libv4l2's own
    // tables, which it reads by that index); the buffer stays with the camera, as a driver's
    // would. A capture time 2^62 s from now, which no 64-bit count of nanoseconds holds.
    if (d->dequeued == d->cfg.bad_index_at) arg->index = FAKE_MAX_BUFFERS - 1;
    if (d->dequeued == d->cfg.bad_stamp_at) arg->timestamp.tv_sec = (time_t)1 << 62;
    d->dequeued++;
    return 0;
}

// ---- ioctls ----

// ---- controls ----

static int find_control(const fake_dev *d, uint32_t id) {
    for (int i = 0; i < d->cfg.ncontrols; i++)
        if (d->cfg.controls[i].id == id) return i;
    return -1;
}

/// QUERYCTRL, with V4L2_CTRL_FLAG_NEXT_CTRL: the control with the next higher id.
static int queryctrl(const fake_dev *d, struct v4l2_queryctrl *q) {
    int found = -1;
    if (q->id & V4L2_CTRL_FLAG_NEXT_CTRL) {
        uint32_t after = q->id & ~(V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND);
        for (int i = 0; i < d->cfg.ncontrols; i++)
            if (d->cfg.controls[i].id > after && (found < 0 || d->cfg.controls[i].id < d->cfg.controls[found].id)) found = i;
    } else {
        found = find_control(d, q->id);
    }
    if (found < 0) return fail(EINVAL);
    const fake_control *c = &d->cfg.controls[found];
    memset(q, 0, sizeof *q);
    q->id = c->id;
    q->type = c->type;
    snprintf((char *)q->name, sizeof q->name, "%s", c->label);
    q->minimum = c->min;
    q->maximum = c->max;
    q->step = c->step;
    q->default_value = c->def;
    if (c->type == V4L2_CTRL_TYPE_BUTTON) q->flags = V4L2_CTRL_FLAG_WRITE_ONLY;
    return 0;
}

static int querymenu(const fake_dev *d, struct v4l2_querymenu *m) {
    int i = find_control(d, m->id);
    if (i < 0 || d->cfg.controls[i].type != V4L2_CTRL_TYPE_MENU) return fail(EINVAL);
    const fake_control *c = &d->cfg.controls[i];
    if ((int64_t)m->index < c->min || (int64_t)m->index > c->max) return fail(EINVAL);
    static const char *exposure[] = {"Auto Mode", "Manual Mode", "Shutter Priority Mode", "Aperture Priority Mode"};
    static const char *led[] = {"Off", "Flash", "Torch"};
    const char *name = c->id == V4L2_CID_EXPOSURE_AUTO ? exposure[m->index & 3] : m->index < 3 ? led[m->index] : "?";
    memset(m->name, 0, sizeof m->name);
    snprintf((char *)m->name, sizeof m->name, "%s", name);
    return 0;
}

/// S/TRY_EXT_CTRLS: every id must exist (else EINVAL with error_idx); integers are clamped to the
/// range and rounded to the step as the kernel does, a menu index outside it is EINVAL. Set values
/// are logged to `<device>.controls`, a button's press as NAME=1.
static int ext_controls(fake_dev *d, struct v4l2_ext_controls *all, bool set) {
    for (uint32_t n = 0; n < all->count; n++) {
        int i = find_control(d, all->controls[n].id);
        if (i < 0) { all->error_idx = n; return fail(EINVAL); }
        const fake_control *c = &d->cfg.controls[i];
        int32_t v = all->controls[n].value;
        if (c->type == V4L2_CTRL_TYPE_MENU && (v < c->min || v > c->max)) { all->error_idx = n; return fail(EINVAL); }
        if (c->type == V4L2_CTRL_TYPE_INTEGER || c->type == V4L2_CTRL_TYPE_BOOLEAN) {
            if (v < c->min) v = c->min;
            if (v > c->max) v = c->max;
            if (c->step > 1) v = c->min + (v - c->min + c->step / 2) / c->step * c->step;
            all->controls[n].value = v;
        }
    }
    if (!set) return 0;
    for (uint32_t n = 0; n < all->count; n++) {
        int i = find_control(d, all->controls[n].id);
        const fake_control *c = &d->cfg.controls[i];
        int32_t v = c->type == V4L2_CTRL_TYPE_BUTTON ? 1 : all->controls[n].value;
        if (c->type != V4L2_CTRL_TYPE_BUTTON) d->control_values[i] = v;
        fake_controls_log(d->path, c->conf_name, v);
    }
    return 0;
}

static int do_ioctl(fake_dev *d, unsigned long request, void *arg) {
    if (d->absent || d->dead) return fail(ENODEV);
    switch (request) {
    case VIDIOC_QUERYCAP: {
        struct v4l2_capability *cap = arg;
        memset(cap, 0, sizeof *cap);
        snprintf((char *)cap->driver, sizeof cap->driver, "%s", d->cfg.driver);
        snprintf((char *)cap->card, sizeof cap->card, "%s", d->cfg.card);
        snprintf((char *)cap->bus_info, sizeof cap->bus_info, "%s", d->cfg.bus);
        cap->version = (6u << 16) | (1u << 8);
        cap->device_caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
        cap->capabilities = cap->device_caps | V4L2_CAP_DEVICE_CAPS;
        return 0;
    }
    case VIDIOC_ENUM_FMT: {
        struct v4l2_fmtdesc *f = arg;
        uint32_t index = f->index;
        if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || index >= (uint32_t)d->cfg.nformats) return fail(EINVAL);
        uint32_t fourcc = d->cfg.formats[index].fourcc;
        memset(f, 0, sizeof *f);
        f->index = index;
        f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        f->flags = fourcc == V4L2_PIX_FMT_MJPEG ? V4L2_FMT_FLAG_COMPRESSED : 0;
        snprintf((char *)f->description, sizeof f->description, "%s", description(fourcc));
        f->pixelformat = fourcc;
        return 0;
    }
    case VIDIOC_ENUM_FRAMESIZES: {
        struct v4l2_frmsizeenum *s = arg;
        uint32_t index = s->index, fourcc = s->pixel_format;
        int f = find_format(&d->cfg, fourcc);
        if (f < 0 || index >= (uint32_t)d->cfg.formats[f].nsizes) return fail(EINVAL);
        memset(s, 0, sizeof *s);
        s->index = index;
        s->pixel_format = fourcc;
        s->type = V4L2_FRMSIZE_TYPE_DISCRETE;
        s->discrete.width = d->cfg.formats[f].sizes[index].width;
        s->discrete.height = d->cfg.formats[f].sizes[index].height;
        return 0;
    }
    case VIDIOC_ENUM_FRAMEINTERVALS: {
        struct v4l2_frmivalenum *iv = arg;
        uint32_t index = iv->index, fourcc = iv->pixel_format, w = iv->width, h = iv->height;
        int f = find_format(&d->cfg, fourcc);
        if (f < 0) return fail(EINVAL);
        const fake_format *fmt = &d->cfg.formats[f];
        for (int i = 0; i < fmt->nsizes; i++) {
            const fake_size *s = &fmt->sizes[i];
            if (s->width != w || s->height != h) continue;
            if (index >= (uint32_t)s->nfps) return fail(EINVAL);
            memset(iv, 0, sizeof *iv);
            iv->index = index;
            iv->pixel_format = fourcc;
            iv->width = w;
            iv->height = h;
            iv->type = V4L2_FRMIVAL_TYPE_DISCRETE;
            iv->discrete.numerator = 1;
            iv->discrete.denominator = s->fps[index];
            return 0;
        }
        return fail(EINVAL);
    }
    case VIDIOC_G_FMT: {
        struct v4l2_format *fmt = arg;
        if (fmt->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return fail(EINVAL);
        fill_pix(fmt, cur_format(d)->fourcc, cur_size(d)->width, cur_size(d)->height);
        return 0;
    }
    case VIDIOC_TRY_FMT:
    case VIDIOC_S_FMT: {
        struct v4l2_format *fmt = arg;
        if (fmt->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return fail(EINVAL);
        int f, s;
        try_fmt(d, fmt, &f, &s);
        if (request == VIDIOC_S_FMT) {
            if (d->nbuf > 0) return fail(EBUSY); // as vb2: no format change while buffers exist
            d->format = f;
            d->size = s;
            d->fps = d->cfg.formats[f].sizes[s].fps[0]; // a new size starts at its default rate, as UVC
        }
        const fake_size *size = &d->cfg.formats[f].sizes[s];
        fill_pix(fmt, d->cfg.formats[f].fourcc, size->width, size->height);
        if (d->cfg.bad_width >= 0) fmt->fmt.pix.width = (uint32_t)d->cfg.bad_width; // a hostile driver's answer
        return 0;
    }
    case VIDIOC_G_PARM:
    case VIDIOC_S_PARM: {
        struct v4l2_streamparm *parm = arg;
        if (parm->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return fail(EINVAL);
        if (request == VIDIOC_S_PARM) {
            if (d->streaming) return fail(EBUSY);
            d->fps = nearest_fps(cur_size(d), parm->parm.capture.timeperframe.numerator,
                                 parm->parm.capture.timeperframe.denominator);
        }
        fill_parm(d, parm);
        return 0;
    }
    case VIDIOC_REQBUFS: {
        struct v4l2_requestbuffers *req = arg;
        if (req->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || req->memory != V4L2_MEMORY_MMAP) return fail(EINVAL);
        if (d->streaming) return fail(EBUSY);
        if (app_mapped_buffers(d)) return fail(EBUSY);
        uint32_t n = req->count;
        free_buffers(d);
        if (n > 0) {
            n = n < FAKE_MIN_BUFFERS ? FAKE_MIN_BUFFERS : n > FAKE_MAX_BUFFERS ? FAKE_MAX_BUFFERS : n;
            int err = alloc_buffers(d, n);
            if (err) return fail(err);
        }
        memset(req, 0, sizeof *req);
        req->count = n;
        req->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        req->memory = V4L2_MEMORY_MMAP;
        req->capabilities = V4L2_BUF_CAP_SUPPORTS_MMAP;
        return 0;
    }
    case VIDIOC_QUERYBUF: {
        struct v4l2_buffer *b = arg;
        if (!valid_buffer(d, b)) return fail(EINVAL);
        uint32_t index = b->index;
        fill_buffer(d, b, index, (app_mapped_buffers(d) >> index) & 1 ? V4L2_BUF_FLAG_MAPPED : 0);
        return 0;
    }
    case VIDIOC_QBUF: {
        struct v4l2_buffer *b = arg;
        if (!valid_buffer(d, b) || d->buf[b->index].state != BUF_IDLE) return fail(EINVAL);
        uint32_t index = b->index;
        if (d->streaming) advance(d, fake_now_ns()); // frames due before this QBUF cannot land in it
        d->buf[index].state = BUF_QUEUED;
        d->queued[d->nqueued++] = index;
        fill_buffer(d, b, index, V4L2_BUF_FLAG_MAPPED);
        return 0;
    }
    case VIDIOC_DQBUF: return dqbuf(d, arg);
    case VIDIOC_STREAMON: {
        if (*(const int *)arg != V4L2_BUF_TYPE_VIDEO_CAPTURE || d->nbuf == 0) return fail(EINVAL);
        if (d->streaming) return 0;
        int err = fake_image_start(&d->img, d->fps);
        if (err) return fail(err);
        d->streaming = true;
        d->t0 = fake_now_ns();
        d->next_k = 0;
        d->dequeued = 0;
        return 0;
    }
    case VIDIOC_STREAMOFF:
        if (*(const int *)arg != V4L2_BUF_TYPE_VIDEO_CAPTURE) return fail(EINVAL);
        stop_stream(d);
        return 0;
    // One camera input, as UVC has; no controls, no standards.
    case VIDIOC_ENUMINPUT: {
        struct v4l2_input *in = arg;
        if (in->index != 0) return fail(EINVAL);
        memset(in, 0, sizeof *in);
        snprintf((char *)in->name, sizeof in->name, "Camera 1");
        in->type = V4L2_INPUT_TYPE_CAMERA;
        return 0;
    }
    case VIDIOC_G_INPUT: *(int *)arg = 0; return 0;
    case VIDIOC_S_INPUT: return *(const int *)arg == 0 ? 0 : fail(EINVAL);
    case VIDIOC_QUERYCTRL: return queryctrl(d, arg);
    case VIDIOC_QUERYMENU: return querymenu(d, arg);
    case VIDIOC_G_CTRL: {
        struct v4l2_control *c = arg;
        int i = find_control(d, c->id);
        if (i < 0) return fail(EINVAL);
        c->value = d->control_values[i];
        return 0;
    }
    case VIDIOC_S_CTRL: {
        struct v4l2_control *c = arg;
        struct v4l2_ext_control one = {.id = c->id, .value = c->value};
        struct v4l2_ext_controls all = {.count = 1, .controls = &one};
        int r = ext_controls(d, &all, true);
        c->value = one.value;
        return r;
    }
    case VIDIOC_G_EXT_CTRLS: {
        struct v4l2_ext_controls *all = arg;
        for (uint32_t n = 0; n < all->count; n++) {
            int i = find_control(d, all->controls[n].id);
            if (i < 0) { all->error_idx = n; return fail(EINVAL); }
            all->controls[n].value = d->control_values[i];
        }
        return 0;
    }
    case VIDIOC_S_EXT_CTRLS: return ext_controls(d, arg, true);
    case VIDIOC_TRY_EXT_CTRLS: return ext_controls(d, arg, false);
    case VIDIOC_QUERY_EXT_CTRL: return fail(EINVAL); // QUERYCTRL answers for the camera's simple controls
    default: return fail(ENOTTY);
    }
}

static const char *ioctl_name(unsigned long request) {
    switch (request) {
#define NAME(r) \
    case r: return #r;
        NAME(VIDIOC_QUERYCAP) NAME(VIDIOC_ENUM_FMT) NAME(VIDIOC_ENUM_FRAMESIZES) NAME(VIDIOC_ENUM_FRAMEINTERVALS)
        NAME(VIDIOC_G_FMT) NAME(VIDIOC_S_FMT) NAME(VIDIOC_TRY_FMT) NAME(VIDIOC_G_PARM) NAME(VIDIOC_S_PARM)
        NAME(VIDIOC_REQBUFS) NAME(VIDIOC_QUERYBUF) NAME(VIDIOC_QBUF) NAME(VIDIOC_DQBUF) NAME(VIDIOC_STREAMON)
        NAME(VIDIOC_STREAMOFF) NAME(VIDIOC_ENUMINPUT) NAME(VIDIOC_G_INPUT) NAME(VIDIOC_S_INPUT)
        NAME(VIDIOC_QUERYCTRL) NAME(VIDIOC_QUERY_EXT_CTRL) NAME(VIDIOC_G_CTRL) NAME(VIDIOC_S_CTRL)
        NAME(VIDIOC_ENUMSTD) NAME(VIDIOC_G_STD) NAME(VIDIOC_CROPCAP) NAME(VIDIOC_G_SELECTION)
#undef NAME
    default: return NULL;
    }
}

static int fake_ioctl(void *priv, int fd, unsigned long int request, void *arg) {
    (void)fd;
    fake_dev *d = priv;
    pthread_mutex_lock(&d->lock);
    int result = do_ioctl(d, request, arg);
    int err = errno;
    bool debug = d->cfg.debug;
    pthread_mutex_unlock(&d->lock);
    if (debug && request != VIDIOC_DQBUF && request != VIDIOC_QBUF) {
        const char *name = ioctl_name(request);
        if (name) fprintf(stderr, FAKE_LOG_PREFIX "%s -> %s\n", name, result ? strerror(err) : "ok");
        else fprintf(stderr, FAKE_LOG_PREFIX "ioctl 0x%lx -> %s\n", request, result ? strerror(err) : "ok");
    }
    errno = err;
    return result;
}

// ---- plugin entry points ----

static void *fake_init(int fd) {
    // Claim only a regular file with a .conf beside it: real devices pass through untouched.
    char link[64], path[PATH_MAX], conf[PATH_MAX + 8];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    struct stat st;
    if (n <= 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return NULL;
    path[n] = 0;
    snprintf(conf, sizeof conf, "%s.conf", path);
    if (access(conf, F_OK) != 0) return NULL;

    fake_dev *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    pthread_mutex_init(&d->lock, NULL);
    snprintf(d->path, sizeof d->path, "%s", path);
    fake_config_load(conf, &d->cfg);
    for (int i = 0; i < d->cfg.ncontrols; i++) d->control_values[i] = d->cfg.controls[i].def;
    fake_plug plug = fake_state_check(path, d->cfg.unplug_ms);
    d->absent = plug == FAKE_PLUG_ABSENT;
    d->armed = plug == FAKE_PLUG_ARMED;
    // Our own descriptor: the app's may be read-only, and its flags are not ours to depend on.
    d->fd = open(path, O_RDWR | O_CLOEXEC);
    d->open_errno = d->fd < 0 ? errno : 0;
    d->fps = cur_size(d)->fps[0];
    if (d->cfg.debug)
        fprintf(stderr, FAKE_LOG_PREFIX "%s: claimed fd %d%s\n", path, fd,
                d->absent ? " (unplugged: opens fail for now)" : d->armed ? "" : " (replugged)");
    return d;
}

static void fake_close(void *priv) {
    fake_dev *d = priv;
    free_buffers(d);
    if (d->fd >= 0) close(d->fd);
    pthread_mutex_destroy(&d->lock);
    free(d);
}

// libv4l2 emulates read() through the streaming ioctls when a plugin has a read op and the
// device has no V4L2_CAP_READWRITE; this one is only reached if libv4l2 passes a read through.
static ssize_t fake_read(void *priv, int fd, void *buffer, size_t n) {
    (void)priv, (void)fd, (void)buffer, (void)n;
    errno = EINVAL;
    return -1;
}

__attribute__((visibility("default"))) const struct libv4l_dev_ops libv4l2_plugin = {
    .init = fake_init,
    .close = fake_close,
    .ioctl = fake_ioctl,
    .read = fake_read,
    .write = NULL,
    // reserved1..7 are NULL, as the plugin API asks.
};
