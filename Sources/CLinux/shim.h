// CLinux: the GNU parts of glibc that Swift's Glibc module leaves out: it is built without
// _GNU_SOURCE, so pipe2 (a pipe made close-on-exec in one step), pthread_setname_np and accept4
// (a connection taken close-on-exec in one step) are missing from it; so are adjtimex (whether the
// wall clock is synchronised) and mallopt. This header defines it before its includes, which this
// module parses afresh.
#pragma once
#define _GNU_SOURCE 1
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

// accept4 under a name of its own, with plain pointer types: <sys/socket.h> parsed with _GNU_SOURCE
// declares its address argument as a transparent union Swift cannot pass, and its fd_set differs
// from the Glibc module's, so this module declares the one call instead of including the header.
extern int clinux_accept4(int fd, void *address, unsigned int *length, int flags) __asm__("accept4");

// adjtimex and mallopt the same way, without <sys/timex.h> (it brings <sys/select.h>, whose fd_set
// under _GNU_SOURCE clashes with other modules') and <malloc.h>. adjtimex reads a struct timex
// (208 bytes on glibc's 64-bit targets): pass a zeroed buffer at least that big; 5 is TIME_ERROR.
extern int clinux_adjtimex(void *timex) __asm__("adjtimex");
extern int clinux_mallopt(int parameter, int value) __asm__("mallopt");
extern int clinux_malloc_trim(size_t pad) __asm__("malloc_trim");
// getrandom(2) the same way: <sys/random.h> is not in the Glibc module. The share folders' tokens
// (KioskSystem's ShareToken) come from it.
extern ssize_t clinux_getrandom(void *buffer, size_t length, unsigned int flags) __asm__("getrandom");
// posix_spawn_file_actions_addclosefrom_np (glibc 2.34) the same way: a child started by the tests'
// launcher gets no descriptor of the test runner's beyond its first three (Foundation's Process
// closed them; a file another test was writing, held open by a child, made its exec ETXTBSY).
extern int clinux_spawn_addclosefrom(void *actions, int from) __asm__("posix_spawn_file_actions_addclosefrom_np");
#define CLINUX_TIME_ERROR 5
#define CLINUX_M_ARENA_MAX (-8)
#define CLINUX_M_TRIM_THRESHOLD (-1)
#define CLINUX_M_MMAP_THRESHOLD (-3)

// Where the stack stands at a call: this function's own frame (it is never inlined), for tests that
// check a call runs at the same depth every time. Not the address of a local: AddressSanitizer may
// keep locals in frames of its own on the heap.
static inline __attribute__((noinline)) unsigned long clinux_frame_address(void) {
    return (unsigned long)__builtin_frame_address(0);
}
