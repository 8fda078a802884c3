// CSystemd: libsystemd's sd-bus for Swift (logind's sleep inhibitor), plus what Swift cannot
// import from it.
#pragma once
#include <systemd/sd-bus.h>

// SD_BUS_ERROR_NULL is a compound-literal macro: the empty error a call fills in.
static inline sd_bus_error kiosk_SD_BUS_ERROR_NULL(void) { return (sd_bus_error)SD_BUS_ERROR_NULL; }
