// CTurboJPEG: libjpeg-turbo's TurboJPEG API, the camera's MJPEG decoder (KioskMedia's CameraJPEGDecoder).
#pragma once
#include <turbojpeg.h>
