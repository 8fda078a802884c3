// Test-only LD_PRELOAD shim: makes fdatasync and rename fail, and fsync and fdatasync slow, on
// demand, so the end-to-end tests can show what the recorder does with failures and slow disks this
// machine cannot cause (a disk that stops taking syncs, a rename the file system refuses, an SD card
// that takes its time). Nothing changes unless the test arms it:
//   KIOSK_FAIL_CALLS=fdatasync,rename   which calls may fail
//   KIOSK_FAIL_TRIGGER=/path            they fail with EIO while this file exists
//   KIOSK_SLOW_CALLS=fsync,fdatasync    which calls may be slow
//   KIOSK_SLOW_TRIGGER=/path            each takes KIOSK_SLOW_MS (default 400) longer while it exists
// so a test can let a take start normally and make its end fail, or drag, at the moment it chooses.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kiosk_failing_syscalls.h"

static int armed_by(const char *callsVariable, const char *triggerVariable, const char *call) {
    const char *calls = getenv(callsVariable);
    const char *trigger = getenv(triggerVariable);
    if (calls == NULL || trigger == NULL || strstr(calls, call) == NULL) return 0;
    return access(trigger, F_OK) == 0;
}

static int armed(const char *call) { return armed_by("KIOSK_FAIL_CALLS", "KIOSK_FAIL_TRIGGER", call); }

/// Waits KIOSK_SLOW_MS before `call` when it is armed to be slow.
static void maybe_slow(const char *call) {
    if (!armed_by("KIOSK_SLOW_CALLS", "KIOSK_SLOW_TRIGGER", call)) return;
    const char *ms = getenv("KIOSK_SLOW_MS");
    usleep((useconds_t)(ms != NULL ? atoi(ms) : 400) * 1000);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    maybe_slow("fdatasync");
    if (armed("fdatasync")) {
        errno = EIO;
        return -1;
    }
    return real(fd);
}

int fsync(int fd) {
    static int (*real)(int);
    if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    maybe_slow("fsync");
    return real(fd);
}

int rename(const char *from, const char *to) {
    static int (*real)(const char *, const char *);
    if (real == NULL) real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
    if (armed("rename")) {
        errno = EIO;
        return -1;
    }
    return real(from, to);
}

int kiosk_failing_syscalls_loaded(void) { return 1; }
