// Test-only LD_PRELOAD shim (failing_syscalls.c): fdatasync and rename fail, fsync and fdatasync slow, on demand.
#pragma once
/// 1: the shim is linked (for a test to check it was built).
int kiosk_failing_syscalls_loaded(void);
