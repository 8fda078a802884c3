// Test-only LD_PRELOAD shim: makes fdatasync and rename fail on demand, so the end-to-end tests can
// show what the recorder does with failures this machine cannot cause (a disk that stops taking
// syncs, a rename the file system refuses). Nothing fails unless the test arms it:
//   KIOSK_FAIL_CALLS=fdatasync,rename   which calls may fail
//   KIOSK_FAIL_TRIGGER=/path            they fail with EIO while this file exists
// so a test can let a take start normally and make its end fail at the moment it chooses.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kiosk_failing_syscalls.h"

static int armed(const char *call) {
    const char *calls = getenv("KIOSK_FAIL_CALLS");
    const char *trigger = getenv("KIOSK_FAIL_TRIGGER");
    if (calls == NULL || trigger == NULL || strstr(calls, call) == NULL) return 0;
    return access(trigger, F_OK) == 0;
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    if (armed("fdatasync")) {
        errno = EIO;
        return -1;
    }
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
