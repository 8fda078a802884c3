// The library (`--library`), carried out: the machine says `listLibrary` on `openLibrary`; the file
// worker lists the takes (LibraryListing) and posts them back; the machine's library room
// (LibraryRoom) then shows them.
import KioskContract
import KioskCore
import KioskMedia
import KioskSystem

extension Booth {
    /// Lists the library on the file worker (`libraryListed` follows).
    func listLibrary() {
        let (folder, mode) = ((storage as? FolderStorage)?.folder, config.storage.fileMode)
        fileJob { TakeLibrary.listing(folder, mode: mode) }
    }

    /// The library closed: its thumbnails (pixels and textures) go, and the heap gives the memory
    /// back on the file worker (`malloc_trim` takes the arenas' locks: never on the UI thread).
    func releaseLibrary() {
        screen.setLibraryPictures([:])
        shared.files.async { MallocArenas.giveBack() }
    }

    /// The file worker's listing, to the machine.
    func libraryListed(_ listed: [TakeLibrary.Take], leftOut: Int) {
        let jpegs = Dictionary(listed.compactMap { take in take.jpeg.map { (take.path, $0) } }) { _, last in last }
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
