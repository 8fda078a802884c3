// The photo (`--photo-button`, the command `photo`): the camera's next picture at its
// capture size, upright, with the overlay, as a JPEG. The machine says `takePhoto` (no change of
// mode); the UI thread leaves a request in the photo slot and flashes the screen with the shutter's
// sound. The camera's thread hands its next frame to the photo worker (the frame's bytes are shared,
// not copied: the preview and the take's encoder get the same frame as ever, so a photo mid-take
// costs the take no picture); the worker makes the JPEG (`PhotoJPEG`) and gives it to the file
// worker, which names and writes it (`TakeStorage.photo`: in an output folder it joins the accepted
// takes and retention runs) and reports back. Its hook is then owed like an accepted take's.
import FoundationEssentials
import KioskContract
import KioskCore
import KioskMedia
import KioskStorage
import KioskSystem

/// The next camera frame's taker, set by the UI thread when a photo is asked for and taken (once)
/// by the camera's thread.
/// The job is kept in a struct, never as `Locked`'s value itself (see WakeCall: a closure held
/// directly is rewrapped in a thunk on every access).
final class PhotoSlot: Sendable {
    private struct Job: Sendable { let run: @Sendable (VideoFrame) -> Void }
    private let job = Locked<Job?>(nil)
    func set(_ j: @escaping @Sendable (VideoFrame) -> Void) { job.withLock { $0 = Job(run: j) } }
    /// The job waiting for a frame (it is no longer waiting after this), or nil.
    func take() -> (@Sendable (VideoFrame) -> Void)? { job.withLock { j in defer { j = nil }; return j?.run } }
    /// Called on the camera's thread with each frame: hands it to the waiting job, if any.
    func offer(_ frame: VideoFrame) { take()?(frame) }
}

/// The photo's room on the UI thread (its timing is the core's: PhotoWait).
struct PhotoState {
    /// Photos written in this run (`{n}` beside `--output`, where there is no counter).
    var count = 0
}

/// A photo made and written, or why not, with the file job the core counted out for it.
public struct PhotoOutcome: Sendable {
    let job: FileJob
    let result: Result<(path: String, size: Size, events: [KioskEvent]), PhotoError>
}

extension Booth {
    /// The shutter (the core let it through, one at a time, and counted it out as `job`): the next
    /// frame goes to the photo worker; the screen flashes (the core's PhotoWait), the shutter sounds.
    func takePhoto(orientation: Orientation, job: FileJob) {
        let turns = DisplayTransform(physical: screen.outputSize, orientation: orientation)
            .cameraQuarterTurns(mount: config.capture.cameraRotation)
        let (inbox, files, photos, storage, overlays, video) = (inbox, shared.files, shared.photos, storage, parts.overlays, config.video)
        let (template, count, mode, rules, protected) = (config.storage.photoTemplate, takes.photo.count, config.storage.fileMode,
                                                        retention, core.jobs.protectedTakes)
        shared.photoSlot.set { frame in
            photos.async {
                let took = Stopwatch()
                let made: PhotoJPEG.Photo
                do throws(PhotoError) { made = try PhotoJPEG.make(frame, quarterTurns: turns, overlay: overlays.take(video.overlay, portrait: video.overlayPortrait)) } catch {
                    return inbox.post(.photoDone(PhotoOutcome(job: job, result: .failure(error))))
                }
                Log.info("photo: \(made.size.width)x\(made.size.height) JPEG of \(made.bytes.count) bytes made in "
                         + "\(took.milliseconds) ms")
                files.async {
                    let written = storage.photo(made.bytes, template: template, count: count, mode: mode, rules: rules, protected: protected)
                    inbox.post(.photoDone(PhotoOutcome(job: job, result: written.map { ($0.path, made.size, $0.events) })))
                }
            }
        }
        parts.audio.play(.shutter)
    }

    /// The core's `.withdrawPhoto`: no frame took the request in time (the camera stopped or was
    /// lost); unless one took it meanwhile (the photo is then on its way), it is withdrawn and said.
    func withdrawPhoto(_ job: FileJob) {
        guard shared.photoSlot.take() != nil else { return }
        photoDone(PhotoOutcome(job: job, result: .failure(PhotoError("no picture from the camera within \(PhotoWait.waitLimit / 1_000_000_000) s"))))
    }

    /// The photo is written (`photoTaken`, then what retention did, and its hook is owed) or failed.
    func photoDone(_ outcome: PhotoOutcome) {
        feed(.fileDone(outcome.job))
        switch outcome.result {
        case let .success((path, size, retained)):
            takes.photo.count += 1
            Log.info("photo: \(path) (\(size.width)x\(size.height))")
            events.emit(.photoTaken(path: path, width: size.width, height: size.height))
            retained.forEach(events.emit)
            // With `--share-dir` its hook waits for its share folder, as a take's does.
            if config.share.folder != nil { sharePhoto(path, size: size) } else { hookOwed(photo: path, share: nil) }
        case let .failure(error):
            Log.info("photo: \(error.message)")
            events.emit(.error(code: .photoFailed, message: error.message))
        }
    }
}
