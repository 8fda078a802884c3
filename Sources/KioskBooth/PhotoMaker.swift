// The photo's making (`--photo-button`, the command `photo`), off the UI thread: the camera's thread
// hands its next frame to the photo slot's waiting job (the frame's bytes are shared, not copied: the
// preview and the take's encoder get the same frame as ever, so a photo mid-take costs the take no
// picture); the photo worker makes the JPEG (`PhotoJPEG`: upright, with the overlay) and gives it to
// the file worker, which names and writes it (`TakeStorage.photo`: in an output folder it joins the
// accepted takes and retention runs). What became of it goes to the inbox as the core's `.photo`
// input, which says it and owes its hook (PhotoWait).
import FoundationEssentials
import KioskCapture
import KioskContract
import KioskCore
import KioskMedia
import KioskOptions
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

/// One photo, counted out by the core as `job`, from a camera frame to its file.
struct PhotoMaker: Sendable {
    let job: FileJob
    /// The camera's picture turned upright for the screen's orientation.
    let quarterTurns: Int
    let overlays: OverlayFiles
    let video: Configuration.Video
    let storage: any TakeStorage
    let settings: Configuration.Storage
    /// This run's photos written so far (`{n}` beside `--output`, where there is no counter).
    let written: Int
    let rules: TakeFolder.Retention
    let protected: Set<String>
    /// `--consent`: the consent it is taken under, for the takes' list and the consent log.
    let consent: Consent?

    /// The JPEG of `frame` made on `photos`, then written on `files`; reported to `inbox`.
    func make(_ frame: VideoFrame, photos: any Executor, files: any Executor, inbox: Inbox) {
        photos.async {
            let took = Stopwatch()
            let made: PhotoJPEG.Photo
            do throws(PhotoError) { made = try PhotoJPEG.make(frame, quarterTurns: quarterTurns, overlay: overlays.take(video.overlay, portrait: video.overlayPortrait)) } catch {
                return inbox.post(.input(.photo(.failed(job, message: error.message))))
            }
            Log.info("photo: \(made.size.width)x\(made.size.height) JPEG of \(made.bytes.count) bytes made in \(took.milliseconds) ms")
            files.async {
                // Under consent its choices in the file too (`consent=film`), as a take's tag has them.
                let bytes = consent.map { PhotoJPEG.commented(made.bytes, $0.tag) } ?? made.bytes
                let report: BoothCore.PhotoInput = switch storage.photo(bytes, template: settings.photoTemplate, count: written, mode: settings.fileMode,
                                                                         rules: rules, protected: protected, consent: consent) {
                case let .success((path, retained)): .written(job, path: path, size: made.size, retained: retained)
                case let .failure(error): .failed(job, message: error.message)
                }
                inbox.post(.input(.photo(report)))
            }
        }
    }
}
