// CV4L2: libv4l2 and linux/videodev2.h for Swift, plus what Swift cannot import from them.
#pragma once
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <libv4l2.h>
#include <linux/videodev2.h>

// v4l2_ioctl is variadic; Swift cannot call variadic C functions.
static inline int kiosk_v4l2_ioctl(int fd, unsigned long request, void *arg) {
    return v4l2_ioctl(fd, request, arg);
}

// VIDIOC_* are _IOR/_IOWR expansions (sizeof, shifts): not importable as constants.
static inline unsigned long kiosk_VIDIOC_QUERYCAP(void) { return VIDIOC_QUERYCAP; }
static inline unsigned long kiosk_VIDIOC_ENUM_FMT(void) { return VIDIOC_ENUM_FMT; }
static inline unsigned long kiosk_VIDIOC_ENUM_FRAMESIZES(void) { return VIDIOC_ENUM_FRAMESIZES; }
static inline unsigned long kiosk_VIDIOC_ENUM_FRAMEINTERVALS(void) { return VIDIOC_ENUM_FRAMEINTERVALS; }
static inline unsigned long kiosk_VIDIOC_S_FMT(void) { return VIDIOC_S_FMT; }
static inline unsigned long kiosk_VIDIOC_S_PARM(void) { return VIDIOC_S_PARM; }
static inline unsigned long kiosk_VIDIOC_REQBUFS(void) { return VIDIOC_REQBUFS; }
static inline unsigned long kiosk_VIDIOC_QUERYBUF(void) { return VIDIOC_QUERYBUF; }
static inline unsigned long kiosk_VIDIOC_QBUF(void) { return VIDIOC_QBUF; }
static inline unsigned long kiosk_VIDIOC_DQBUF(void) { return VIDIOC_DQBUF; }
static inline unsigned long kiosk_VIDIOC_STREAMON(void) { return VIDIOC_STREAMON; }
static inline unsigned long kiosk_VIDIOC_STREAMOFF(void) { return VIDIOC_STREAMOFF; }
static inline unsigned long kiosk_VIDIOC_QUERYCTRL(void) { return VIDIOC_QUERYCTRL; }
static inline unsigned long kiosk_VIDIOC_QUERYMENU(void) { return VIDIOC_QUERYMENU; }
static inline unsigned long kiosk_VIDIOC_G_CTRL(void) { return VIDIOC_G_CTRL; }
static inline unsigned long kiosk_VIDIOC_S_EXT_CTRLS(void) { return VIDIOC_S_EXT_CTRLS; }

// V4L2_PIX_FMT_* are v4l2_fourcc(...) expansions: not importable as constants.
static inline uint32_t kiosk_V4L2_PIX_FMT_YUYV(void) { return V4L2_PIX_FMT_YUYV; }
static inline uint32_t kiosk_V4L2_PIX_FMT_NV12(void) { return V4L2_PIX_FMT_NV12; }
static inline uint32_t kiosk_V4L2_PIX_FMT_YUV420(void) { return V4L2_PIX_FMT_YUV420; }
static inline uint32_t kiosk_V4L2_PIX_FMT_MJPEG(void) { return V4L2_PIX_FMT_MJPEG; }

// MAP_FAILED is a cast macro ((void *)-1).
static inline void *kiosk_MAP_FAILED(void) { return MAP_FAILED; }
