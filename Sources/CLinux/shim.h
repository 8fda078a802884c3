// CLinux: the GNU parts of glibc that Swift's Glibc module leaves out: it is built without
// _GNU_SOURCE, so pipe2 (a pipe made close-on-exec in one step) and pthread_setname_np are
// missing from it. Also adjtimex (sys/timex.h), to ask whether the wall clock is synchronised. This header defines it before its includes, which this module parses afresh.
#pragma once
#define _GNU_SOURCE 1
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>
#include <sys/timex.h>
