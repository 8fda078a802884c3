// The fake V4L2 camera is a libv4l2 plugin: it exports `libv4l2_plugin` and nothing else.
#pragma once
