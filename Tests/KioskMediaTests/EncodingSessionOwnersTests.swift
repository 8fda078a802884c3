// A take that cannot start frees everything it had made. EncodingSession.init is made to fail after
// each of its steps (a failure injected by the test) and for real reasons, while the owners of the
// FFmpeg objects (and the file) it makes are counted in and out (LiveOwners).
import Testing
@testable import KioskMedia
import KioskCore

@Suite("Encoding session: a failed start frees what it made")
struct EncodingSessionOwnersTests {
    /// Runs `body`, counting the owners it makes. Only this test's task is watched: takes written by
    /// tests running alongside are not counted.
    func watching(_ body: () throws -> Void) rethrows -> LiveOwners {
        let owners = LiveOwners()
        try LiveOwners.$watching.withValue(owners) { try body() }
        return owners
    }

    func settings(_ name: String, size: Size = Size(width: 320, height: 240), audio: (Int, Int)? = (48000, 1)) -> MovieSettings {
        MovieSettings(outputPath: scratch("owners-\(name)").appendingPathComponent("take.mov").path, videoSize: size, fps: 30,
                      audio: audio)
    }

    /// The owners made up to and including each step: file, IOContext, Muxer, two Packets (the one
    /// the encoders fill and the video packet held for its length, HeldVideoPacket), the video
    /// encoder's CodecContext and two Frames (its own picture, and the one lending a camera frame's
    /// bytes), the audio encoder's CodecContext, Frame, Resampler and AudioFIFO. Adding a stream and
    /// writing the header make none.
    static let madeBy: [EncodingSession.Step: Int] = [
        .file: 1, .ioContext: 2, .muxer: 3, .packet: 5, .videoEncoder: 6, .videoPicture: 8, .videoStream: 8,
        .audioEncoder: 9, .audioFrame: 10, .resampler: 11, .audioFIFO: 12, .audioStream: 12, .header: 12,
    ]

    @Test("A failed EncodingSession.init at each step leaks nothing", arguments: EncodingSession.Step.allCases)
    func failingStep(step: EncodingSession.Step) throws {
        var thrown: AVError?
        let owners = watching {
            do throws(AVError) {
                _ = try EncodingSession(settings: settings("\(step)"), failingAfter: step)
                Issue.record("the session started")
            } catch {
                thrown = error
            }
        }
        let error = try #require(thrown)
        #expect(error.call.contains("after \(step)"), "\(error)")
        // The failure came where it was asked for: everything up to that step had been made.
        #expect(owners.made == Self.madeBy[step], "\(owners.made) owners made")
        #expect(owners.live.isEmpty, "alive after a failure after \(step): \(owners.live)")
    }

    @Test("a session that took sound and a picture and finished frees everything, its converter too")
    func wholeTake() throws {
        let size = Size(width: 320, height: 240)
        let owners = try watching {
            let session = try EncodingSession(settings: settings("whole", size: size))
            #expect(session.encode(tone(at: 5_000_000_000)) == .ok)
            #expect(session.encode(picture(size, number: 0, timestamp: 5_000_000_000)) == .ok)
            session.finish()
            #expect(session.hasVideo)
        }
        // The picture (video-range yuv420p of the movie's size) is lent to libx264, not converted:
        // no Scaler, and the frame it holds is let go.
        #expect(owners.made == 14, "the twelve of the start, the fragments' syncer and the frame lent: \(owners.made)")
        #expect(owners.live.isEmpty, "\(owners.live)")
    }

    /// Starts that fail for real, with the call that fails and the owners made by then.
    enum RealFailure: CaseIterable, CustomTestStringConvertible {
        /// The folder is not there: the file does not open.
        case missingFolder
        /// libx264 takes 4:2:0 pictures of even sizes only: avcodec_open2 refuses 321x241.
        case oddSize
        /// An encoder that is not there, then libx264 as the fallback, which refuses the size too.
        case unknownEncoderThenOddSize
        /// FFmpeg's AAC encoder has no 12345 Hz.
        case oddSampleRate

        var testDescription: String { "\(self)" }
    }

    @Test("a start that fails for real frees what it made", arguments: RealFailure.allCases)
    func realFailure(_ failure: RealFailure) throws {
        var settings = settings("real-\(failure)")
        let call: String, made: Int
        switch failure {
        case .missingFolder:
            settings.outputPath = "/nonexistent/folder/take.mov"
            (call, made) = ("open(/nonexistent/folder/take.mov)", 0)
        case .oddSize:
            settings.videoSize = Size(width: 321, height: 241)
            (call, made) = ("avcodec_open2(libx264)", 6)
        case .unknownEncoderThenOddSize:
            settings.videoEncoder = "no-such-encoder"
            settings.videoSize = Size(width: 321, height: 241)
            (call, made) = ("avcodec_open2(libx264)", 6)
        case .oddSampleRate:
            settings.audio = (12345, 1)
            (call, made) = ("avcodec_open2(aac)", 9)
        }
        var thrown: AVError?
        let owners = watching {
            do throws(AVError) {
                _ = try EncodingSession(settings: settings)
                Issue.record("the session started")
            } catch {
                thrown = error
            }
        }
        #expect(try #require(thrown).call == call)
        #expect(owners.made == made, "\(owners.made) owners made")
        #expect(owners.live.isEmpty, "\(owners.live)")
    }
}
