// The review's file work, carried out as the core says: `--loudness`'s copy leveled ahead and
// `--trim`'s pictures (TakeFinishing); the cut and the leveling themselves run in the hand-over.
import KioskCore
import KioskSystem

extension Booth {
    /// The core's `.file(.levelAhead)`: the take's leveled copy made on the file worker.
    func levelAhead(_ path: String, to target: Double) {
        let leveling = shared.leveling
        onFiles {
            leveling.prepare(path, to: target)
            return []
        }
    }

    /// The core's `.file(.trimPictures)`: the finished take's pictures for the trimmer.
    func askTrimPictures(of path: String) {
        shared.trimPictures.ask(path, inbox: inbox)
    }

    /// The pictures came: shown while the trimmer that asked for them is still up.
    func trimPicturesDone(serial: Int, _ pictures: [RGBPicture]) {
        guard shared.trimPictures.isLatest(serial), machine.trimmerView != nil else { return }
        do { try screen.setTrimPictures(pictures) } catch { Log.info("trimmer: its pictures cannot be shown: \(error)") }
        needsDraw = true
    }

    /// The take left the review (Retake, Use Video): its pictures go, and any still coming are dropped.
    func dropTrimPictures() {
        shared.trimPictures.drop()
        try? screen.setTrimPictures([])
    }
}
