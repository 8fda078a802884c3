// The library (`--library`): the machine says `listLibrary` on `openLibrary`; the file
// worker lists the output folder's accepted takes that decode, newest first, making each one's
// thumbnail once beside it (KioskMedia's TakeLibrary), and posts them back; the machine's library
// room (LibraryRoom) then shows them. The UI thread never reads a take itself.
import FoundationEssentials
import KioskContract
import KioskCore
import KioskMedia
import KioskSystem

extension Booth {
    /// Lists the library on the file worker (`libraryListed` follows).
    func listLibrary() {
        // `--library` needs `--output-dir` (OptionParser.validate): without a folder, an empty library.
        let folder = (storage as? FolderStorage)?.folder
        let mode = config.storage.fileMode
        fileJob {
            let took = Stopwatch()
            let (listed, leftOut) = folder.map { TakeLibrary.list($0, mode: mode) } ?? ([], 0)
            Log.info("library: \(listed.count) takes listed in \(took.milliseconds) ms"
                     + (leftOut > 0 ? "; \(leftOut) older ones left out (it shows the newest \(TakeLibrary.shown))" : ""))
            // Probing and thumbnailing hundreds of takes leaves freed blocks in the worker's arena
            // (large blocks are kept: MallocArenas); given back now, not only when the library closes.
            MallocArenas.giveBack()
            return .listed(.library(listed, leftOut: leftOut))
        }
    }

    /// The library closed: its thumbnails (pixels and textures) go, and the heap gives the memory
    /// back on the file worker (`malloc_trim` takes the arenas' locks: never on the UI thread).
    func releaseLibrary() {
        screen.setLibraryPictures([:])
        shared.files.async { MallocArenas.giveBack() }
    }

    /// The file worker's listing, to the machine.
    func libraryListed(_ listed: [TakeLibrary.Take], leftOut: Int) {
        var jpegs: [String: [UInt8]] = [:]
        for take in listed { jpegs[take.path] = take.jpeg }
        screen.setLibraryThumbnails(jpegs, decode: TakeLibrary.picture(ofJPEG:))
        tell(.libraryListed(listed.map { LibraryEntry(path: $0.path, duration: $0.duration) }, leftOut: leftOut))
    }

    /// A tap on the library's grid (a finger, or the `tap` command): the take under it, picked.
    /// Returns false when the library's grid is not on screen (the tap is then the usual one).
    func tapLibrary(at logical: Point) -> Bool {
        guard case let .library(room) = machine.state, room.picked == nil else { return false }
        let entries = room.entries ?? []
        if let index = screen.libraryIndex(atLogical: logical, count: entries.count), index < entries.count {
            tell(.pick(path: entries[index].path))
        }
        return true
    }
}
