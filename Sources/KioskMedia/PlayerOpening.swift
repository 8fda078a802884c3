// Opening a movie for the player: the file (`Demuxer`), the decoders of its best picture and sound
// streams, and what the file says of itself (its length, size, turn and codecs). Runs on the
// demux thread first (MoviePlayer.swift), and in the fuzz target.
import CFFmpeg
import KioskCore
import KioskSystem

extension MoviePlayer {
    /// The file as `open` left it: its demuxer, the decoders of its best streams that opened, and
    /// what it says about itself.
    struct Opening {
        let demuxer: Demuxer
        var video: VideoDecoder?
        var audio: AudioDecoder?
        let info: Info
        /// The streams whose packets go to `video` and `audio` (the others are discarded unread).
        let videoIndex: Int32?
        let audioIndex: Int32?
        /// The file's start on its streams' clocks, in nanoseconds: placed at 0.
        let start: Int64
        /// How long a picture lasts when the file does not say (its frame rate's, else 1/30 s).
        let frameLength: Int64
    }

    /// Opens the file (`Demuxer`) and the decoders of its best picture and sound streams
    /// (`av_find_best_stream`), and reads what it says of itself. Nil, with the failure set on
    /// `core`, when it will not open or holds nothing this player can decode.
    static func open(_ core: PlayerCore) -> Opening? {
        let demuxer: Demuxer
        do {
            demuxer = try Demuxer(path: core.path, interruption: core.interruption, timeout: Int64(core.options.readTimeout * 1e9))
        } catch {
            core.fail(core.interruption.isAborted ? "closed" : cannotOpen(core.path, error))
            return nil
        }
        let videoStream = demuxer.bestStream(AVMEDIA_TYPE_VIDEO)
        let audioStream = demuxer.bestStream(AVMEDIA_TYPE_AUDIO, related: videoStream?.pointee.index ?? -1)
        var video: VideoDecoder?
        var audio: AudioDecoder?
        if let videoStream {
            do {
                video = try VideoDecoder(stream: videoStream, threads: core.options.decoderThreads, maxPixels: core.options.maxPixels)
            } catch {
                Log.info("player: no picture: \(error)")
            }
        }
        if let audioStream {
            do { audio = try AudioDecoder(stream: audioStream) } catch { Log.info("player: no sound: \(error)") }
        }
        guard video != nil || audio != nil else {
            core.fail("\(core.path) has no picture or sound this player can decode")
            return nil
        }
        var info = Info(duration: demuxer.duration.map { Double($0) / 1e9 }, videoSize: nil, rotation: 0, audio: nil,
                        videoCodec: video?.codecName, audioCodec: audio?.codecName)
        var frameLength: Int64 = 1_000_000_000 / 30
        if let videoStream, video != nil {
            let p = videoStream.pointee.codecpar.pointee
            if p.width > 0 && p.height > 0 { info.videoSize = Size(width: Int(p.width), height: Int(p.height)) }
            info.rotation = Self.rotation(of: videoStream)
            let rate = videoStream.pointee.avg_frame_rate
            if rate.num > 0 && rate.den > 0, Double(rate.num) / Double(rate.den) >= 1, Double(rate.num) / Double(rate.den) <= 1000 {
                frameLength = Int64(1e9 * Double(rate.den) / Double(rate.num))
            }
        }
        if let audioStream, audio != nil {
            let p = audioStream.pointee.codecpar.pointee
            info.audio = AudioTrack(sampleRate: Int(p.sample_rate), channels: Int(p.ch_layout.nb_channels))
        }
        demuxer.keep(only: [videoStream, audioStream].compactMap { s in s.map { $0.pointee.index } })
        return Opening(demuxer: demuxer, video: video, audio: audio, info: info,
                       videoIndex: video != nil ? videoStream?.pointee.index : nil,
                       audioIndex: audio != nil ? audioStream?.pointee.index : nil,
                       start: demuxer.startTime ?? 0, frameLength: frameLength)
    }

    /// Why `path` does not open as a movie (`Demuxer`: the file, its container, its streams' info),
    /// said as the player says it; nil when it opens. `--play` asks before it starts, so that a file
    /// that is missing or no movie is an error without a `playbackStarted` before it; the player
    /// opens the file again (its header twice: milliseconds).
    public static func openingProblem(_ path: String) -> String? {
        do {
            _ = try Demuxer(path: path, interruption: Interruption(), timeout: Int64(Options().readTimeout * 1e9))
            return nil
        } catch {
            return cannotOpen(path, error)
        }
    }

    static func cannotOpen(_ path: String, _ error: AVError) -> String { "cannot open \(path): \(error.text) (\(error.call))" }

    /// The stream's display matrix as SDL's clockwise angle (0 when there is none or it is not a rotation);
    /// the share poster is turned by it too.
    static func rotation(of stream: UnsafeMutablePointer<AVStream>) -> Double {
        var size: Int = 0
        guard let side = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 9 * 4 else { return 0 }
        let angle = side.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
        guard angle.isFinite else { return 0 }
        let clockwise = (-angle).truncatingRemainder(dividingBy: 360)
        let normal = clockwise < 0 ? clockwise + 360 : clockwise
        return normal >= 359.999 ? 0 : normal
    }
}
