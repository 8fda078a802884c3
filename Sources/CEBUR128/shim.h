// CEBUR128: libebur128, the EBU R128 / ITU-R BS.1770 loudness meter (integrated loudness, true
// peak), for Swift. The take's loudness at its hand-over (KioskMedia's LoudnessMeter).
#pragma once
#include <ebur128.h>
