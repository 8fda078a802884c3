// glibc gives threads malloc arenas of their own, up to 8 per core, and keeps what each one freed.
// The booth starts a writer thread per take, dispatch workers and hooks: measured by bench/soak over
// 500 takes, RSS climbed from 93 to 104-111 MiB in the first 50 takes and stayed there, all of it
// arenas; with two arenas it stays at 92-93 MiB for as long as it runs. The booth's threads
// allocate little each (frames come from pools and FFmpeg's own buffers), so two are plenty.
import CLinux

public enum MallocArenas {
    /// Limits malloc to `count` arenas (`mallopt(M_ARENA_MAX)`); call first thing in main, before
    /// any thread starts. `MALLOC_ARENA_MAX` in the environment still wins (glibc reads it first).
    public static func limit(to count: Int32 = 2) {
        _ = clinux_mallopt(CLINUX_M_ARENA_MAX, count)
    }
}
