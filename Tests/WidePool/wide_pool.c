// Test-only LD_PRELOAD shim for the test runner alone (kiosk/test): it tells the process it has
// KIOSK_TEST_POOL_WIDTH processors (kiosk/test sets 8; 6 without it), so that Swift's cooperative
// pool, which libdispatch makes as wide as the processors it sees, runs that many tests at once.
//
// Why: most end-to-end tests spend their time waiting for a kiosk-recorder in real time (a 3 s take
// takes 3 s), blocked in their waits. With a pool as wide as this machine's 2 cores, two such waits
// fill it and the rest queue: the whole run took twice as long with the CPU half idle.
//
// What it changes: pthread_getaffinity_np (libdispatch's count of active processors) and
// sysconf(_SC_NPROCESSORS_ONLN / _CONF). Nothing else: libavcodec and x264 count processors with
// sched_getaffinity, which it leaves alone, so the encoders a test runs in process keep their threads.
// It takes LD_PRELOAD out of the environment as it loads, so no process the tests start inherits it:
// each kiosk-recorder sees the real machine.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>
#include "kiosk_wide_pool.h"

static int pool_width(void) {
    const char *value = getenv("KIOSK_TEST_POOL_WIDTH");
    int width = value ? atoi(value) : 6;
    return width >= 1 && width <= 64 ? width : 6;
}

int pthread_getaffinity_np(pthread_t thread, size_t size, cpu_set_t *set) {
    (void)thread;
    CPU_ZERO_S(size, set);
    for (int i = 0; i < pool_width(); i++) CPU_SET_S(i, size, set);
    return 0;
}

long sysconf(int name) {
    static long (*real)(int);
    if (name == _SC_NPROCESSORS_ONLN || name == _SC_NPROCESSORS_CONF) return pool_width();
    if (!real) real = (long (*)(int))dlsym(RTLD_NEXT, "sysconf");
    return real(name);
}

__attribute__((constructor)) static void forget_preload(void) { unsetenv("LD_PRELOAD"); }

int kiosk_wide_pool_width(void) { return pool_width(); }
