// The steps of opening a take's `EncodingSession`, and where a test makes one of them fail.
import FoundationEssentials
import Glibc
extension EncodingSession {
    /// The steps of `init`, in order: an owner made, a stream added, the header written. A test names
    /// one (`init(settings:failingAfter:)`) to make the init throw right after it, as the next call
    /// failing would, and checks that everything made so far was freed.
    enum Step: CaseIterable, Sendable {
        case file, ioContext, muxer, packet, videoEncoder, videoPicture, videoStream
        case audioEncoder, audioFrame, resampler, audioFIFO, audioStream, header
    }
}

/// Where a test makes `EncodingSession.init` fail: right after one step. The booth names none; then
/// a step costs one comparison.
struct InjectedFailure {
    let after: EncodingSession.Step?

    func check(_ step: EncodingSession.Step) throws(AVError) {
        if step == after { throw AVError(code: AVError.code(posix: ECANCELED), call: "the step after \(step) (a failure injected by a test)") }
    }
}
