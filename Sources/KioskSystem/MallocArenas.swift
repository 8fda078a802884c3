// glibc's malloc as a long-running booth wants it, set first thing in main, before any thread starts.
//
// Arenas: glibc gives threads malloc arenas of their own, up to 8 per core, and keeps what each one
// freed. The booth starts a writer thread per take, dispatch workers and hooks: measured by
// bench/soak over 500 takes, RSS climbed from 93 to 104-111 MiB in the first 50 takes and stayed
// there, all of it arenas; with two arenas it stays at 92-93 MiB for as long as it runs. The booth's
// threads allocate little each, so two are plenty.
//
// Large blocks: every raw camera frame is a new array (1.8 MiB at 720p YUYV, 4 MiB at 1080p), freed
// once the preview and the writer are done with it. glibc's own rule puts such a block in the heap
// only after one like it was freed, and then gives the heap's top back to the kernel whenever two
// frames' worth lie free there: the next frame faults its pages in afresh, each one zeroed by the
// kernel. Measured on bench/encode-vs-ffmpeg's input (150 frames of 720p YUYV, 4 runs each way,
// interleaved), the writer's process took 19,000-24,000 page faults that way against 6,300 with
// blocks kept, and about 7 % more CPU (1.38 against 1.29 s). So blocks up to 32 MiB (a 4K frame is
// 16.6 MiB) come from the heap, and up to 32 MiB of free heap stays mapped for the next frames: the
// peak is what a take needs anyway, and it is reused, not refaulted. What a take's encoders leave
// behind goes back when the take ends (`giveBack`): bench/soak holds RSS at 73-78 MiB over 500 takes
// (640x480) that way, where keeping blocks alone let it climb from 84 to 126 MiB over 200.
import CLinux

public enum MallocArenas {
    /// Limits malloc to `count` arenas (`mallopt(M_ARENA_MAX)`); call first thing in main, before
    /// any thread starts. `MALLOC_ARENA_MAX` in the environment still wins (glibc reads it first).
    public static func limit(to count: Int32 = 2) {
        _ = clinux_mallopt(CLINUX_M_ARENA_MAX, count)
    }

    /// Bytes below which a block comes from the heap rather than a mapping of its own, and bytes of
    /// free heap kept mapped: glibc's ceiling for the first on 64-bit systems.
    public static let largeBlockBytes: Int32 = 32 << 20

    /// Keeps frames' memory in the heap for reuse (`M_MMAP_THRESHOLD`, `M_TRIM_THRESHOLD`); call
    /// first thing in main. Either set in the environment (`MALLOC_MMAP_THRESHOLD_`,
    /// `MALLOC_TRIM_THRESHOLD_`) leaves glibc's rule as it is.
    public static func keepLargeBlocks(environment: [String: String]) {
        guard environment["MALLOC_MMAP_THRESHOLD_"] == nil, environment["MALLOC_TRIM_THRESHOLD_"] == nil else { return }
        _ = clinux_mallopt(CLINUX_M_MMAP_THRESHOLD, largeBlockBytes)
        _ = clinux_mallopt(CLINUX_M_TRIM_THRESHOLD, largeBlockBytes)
    }

    /// Gives the free memory of every arena back to the kernel (`malloc_trim`), holes below the
    /// top included. With large blocks kept, a take's encoder buffers (libx264's frames, tens of
    /// MiB) come from the heap too and leave holes there when they are freed: bench/soak measured
    /// RSS climbing from 84 to 126 MiB over 200 takes that way. The writer calls this once a take's
    /// encoders and muxer are freed, so a booth waiting for its next guest holds what ready needs.
    /// It takes the arenas' locks in turn: call it off the UI thread.
    public static func giveBack() {
        _ = clinux_malloc_trim(0)
    }

    /// Both, as the booth runs: what `kiosk-recorder` and the benchmarks standing in for it call first.
    public static func configure(environment: [String: String]) {
        if environment["MALLOC_ARENA_MAX"] == nil { limit() }
        keepLargeBlocks(environment: environment)
    }
}
