// A fake V4L2 camera as a libv4l2 plugin (see README.md beside this file). Placeholder.
#include "fake_camera.h"
