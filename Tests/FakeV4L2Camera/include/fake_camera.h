// The fake V4L2 camera: a libv4l2 plugin for tests (README.md beside this folder's sources).
//
// libv4l2 dlopens every *.so in its plugin folder and looks up `libv4l2_plugin`; run a test
// under Tests/FakeV4L2Camera/with-fake-camera to put this library there, privately.
#pragma once

struct libv4l_dev_ops;

/// The plugin's entry points (see <libv4l-plugin.h>). It claims a file descriptor only when it
/// is a regular file with `<file>.conf` beside it.
extern const struct libv4l_dev_ops libv4l2_plugin;
