// One playback on the UI thread, shared by the booth's playing mode, `--play` and the attract
// screen's slideshow: the MoviePlayer, its sound joined to the booth's one audio output (none for
// the slideshow: it never opens the device), and its pictures on the screen.
import KioskCore
import KioskMedia
import KioskSystem
import KioskUI
import KioskContract

final class Playback {
    let path: String
    private let player: MoviePlayer
    private let screen: any BoothScreen
    /// The booth's sound out; nil: silent (the player decodes no sound and no device is opened).
    private let audio: (any BoothAudio)?
    private var audioAttached = false
    private var audioDecided = false
    /// Since the request: the figure the first picture's log line gives.
    private let requested = Stopwatch()
    /// Writes pictures as RGB into the texture where the renderer has no YUV textures.
    private let scaler = PictureScaler()
    private var firstPictureShown = false
    private var firstPictureLogged = false
    private var failedPictures = 0
    /// `--trim`: the review plays only this part of the take (seconds on the player's time line).
    private let range: TrimRange?

    /// What one step of the loop found.
    struct Step {
        /// A new picture went to the screen: draw.
        var newPicture: Bool
        var position: Double
        var duration: Double
        var ended: MoviePlayer.End?
        /// The play the picture belongs to (1, 2, … with `--loop`).
        var play: Int
    }

    /// Starts the player on `path`; the screen shows black until its first picture (`blackFirst`),
    /// or what it shows now (the camera, the slideshow's take before) until then. `audio` nil:
    /// silent.
    init(path: String, screen: any BoothScreen, audio: (any BoothAudio)?, loop: Bool = false, range: TrimRange? = nil,
         blackFirst: Bool = true) {
        self.path = path
        self.range = range
        self.screen = screen
        self.audio = audio
        var options = MoviePlayer.Options()
        options.loop = loop
        player = MoviePlayer(path: path, options: options)
        if blackFirst { screen.beginPlayback() }
        if let range { player.seek(to: range.start) }
        Log.info("playback: pictures go to the \(screen.rendererName) renderer as \(screen.playbackYUVUploads ? "YUV planes" : "RGB")")
    }

    /// Each loop: opens the sound device once the file says what its sound is, and puts the
    /// picture due now on the screen.
    func step() -> Step {
        if !audioDecided, let info = player.info {
            audioDecided = true
            if info.audio != nil, let audio {
                let format = audio.playerFormat()
                if format == nil { Log.info("playback without sound: no audio output") }
                player.attachAudio(format)
                if format != nil {
                    audio.attach(player.audio)
                    audioAttached = true
                }
            } else {
                player.attachAudio(nil)
            }
        }
        let update = player.update()
        var newPicture = false
        if let picture = update.picture {
            do {
                try screen.showPlayback(ScreenPicture(picture, scaler: scaler), rotation: player.info?.rotation ?? 0)
                newPicture = true
                firstPictureShown = true
            } catch {
                // A picture the screen cannot take is skipped; the first few are logged.
                failedPictures += 1
                if failedPictures <= 3 { Log.info("playback: a picture could not be shown, skipped: \(error)") }
            }
        }
        // A trimmed review ends at the trim's end, as the delivered take will.
        let ended = update.ended ?? range.flatMap { update.position >= $0.end ? .end : nil }
        // The picture at the trim's start is the one whose time spans it, which may begin a few
        // milliseconds before it (a live camera's times are not whole frames): the timer reads the
        // trim's start, never the second before it.
        let position = range.map { min(max(update.position, $0.start), $0.end) } ?? update.position
        return Step(newPicture: newPicture, position: position, duration: update.duration, ended: ended, play: update.play)
    }

    /// Call after the screen was presented: the first time after the first picture, logs how long
    /// it took from the request (the figure bench/play-vs-ffplay reads).
    func presented() {
        guard !firstPictureLogged, firstPictureShown else { return }
        firstPictureLogged = true
        let ms = Double(requested.nanoseconds) / 1e6
        Log.info("playback: first picture on screen \(Int(ms.rounded())) ms after the request")
    }

    func setPaused(_ paused: Bool) { player.setPaused(paused) }

    /// Goes to `seconds` from the start (within the trim, with one); the picture there shows at
    /// once, paused or not.
    func seek(to seconds: Double) { player.seek(to: range.map { min(max(seconds, $0.start), $0.end) } ?? seconds) }

    /// Ends the playback: the threads stop, the device closes, the camera's picture is back (or,
    /// `keepingPicture`, its last picture stays until the next playback's first).
    func stop(keepingPicture: Bool = false) {
        if audioAttached { audio?.detach() }
        audioAttached = false
        player.close()
        if !keepingPicture { screen.endPlayback() }
        if player.droppedFrames > 0 { Log.info("playback: \(player.droppedFrames) late pictures skipped") }
        if failedPictures > 3 { Log.info("playback: \(failedPictures) pictures could not be shown in all") }
    }
}
