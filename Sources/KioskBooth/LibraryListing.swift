// The library's listing (`--library`), made on the file worker: the output folder's accepted takes
// that decode, newest first, each one's thumbnail made once beside it (TakeLibrary). The UI thread
// never reads a take itself.
import KioskMedia
import KioskStorage
import KioskSystem

extension TakeLibrary {
    /// The listing of `folder` as the file job's report (`--library` needs `--output-dir`:
    /// OptionParser.validate; without a folder, an empty library).
    static func listing(_ folder: TakeFolder?, mode: Int) -> BoothMessage {
        let took = Stopwatch()
        let (listed, leftOut) = folder.map { list($0, mode: mode) } ?? ([], 0)
        Log.info("library: \(listed.count) takes listed in \(took.milliseconds) ms"
                 + (leftOut > 0 ? "; \(leftOut) older ones left out (it shows the newest \(shown))" : ""))
        // Probing and thumbnailing hundreds of takes leaves freed blocks in the worker's arena
        // (large blocks are kept: MallocArenas); given back now, not only when the library closes.
        MallocArenas.giveBack()
        return .listed(.library(listed, leftOut: leftOut))
    }
}
