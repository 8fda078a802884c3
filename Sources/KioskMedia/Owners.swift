// Owners of one FFmpeg object each (STYLE 5 and 16), and the count of those alive that tests read.
// Each owner frees its object in deinit, so a type made of owners frees whatever it had made when its
// init throws halfway: Swift runs no deinit for a half-built class, but it does release the stored
// properties that were set.
import CFFmpeg
import KioskCore
import KioskSystem

/// The owners alive among those made while a test watched (`LiveOwners.$watching.withValue`), by
/// kind. Each owner counts itself in once it holds its object and out when it frees it, so a test
/// can prove that a failed init freed everything it made. Watching is per task, so tests running side
/// by side do not see each other's owners. In the booth nobody watches: making an owner reads one
/// task-local value, and that is all.
final class LiveOwners: Sendable {
    @TaskLocal static var watching: LiveOwners?

    private let counts = Locked<(live: [String: Int], made: Int)>(([:], 0))

    /// The kinds that have owners alive, with how many.
    var live: [String: Int] { counts.withLock { $0.live.filter { $0.value != 0 } } }
    /// How many owners were made in all.
    var made: Int { counts.withLock { $0.made } }

    fileprivate func add(_ kind: String) {
        counts.withLock {
            $0.live[kind, default: 0] += 1
            $0.made += 1
        }
    }

    fileprivate func remove(_ kind: String) {
        counts.withLock { $0.live[kind, default: 0] -= 1 }
    }
}

/// Counts its owner in and out of the `LiveOwners` watching when the owner was made. Each owner
/// makes its tally last in init, once it holds its object, and keeps it as a stored property: it
/// counts the objects held, from the moment one is held until the owner goes.
struct OwnerTally: ~Copyable {
    private let watcher: LiveOwners?
    private let kind: AnyObject.Type

    init(_ kind: AnyObject.Type) {
        watcher = LiveOwners.watching
        self.kind = kind
        watcher?.add(String(describing: kind))
    }

    deinit { watcher?.remove(String(describing: kind)) }
}

/// FFmpeg structs that one `*_alloc()` call makes and the matching `*_free(&pointer)` frees.
protocol AllocatedStruct {
    /// The `*_alloc()` call, named in the error when it fails.
    static var allocCall: String { get }
    static func alloc() -> UnsafeMutablePointer<Self>?
    static func free(_ pointer: inout UnsafeMutablePointer<Self>?)
}

/// Owns one such struct: a `Packet` (AVPacket) or a `Frame` (AVFrame).
final class Owned<Object: AllocatedStruct> {
    let pointer: UnsafeMutablePointer<Object>
    private let tally: OwnerTally

    /// A blank one.
    init() throws(AVError) {
        guard let object = Object.alloc() else { throw AVError(code: AVError.code(posix: ENOMEM), call: Object.allocCall) }
        pointer = object
        tally = OwnerTally(Owned.self)
    }

    deinit {
        var object: UnsafeMutablePointer<Object>? = pointer
        Object.free(&object)
    }
}

extension AVPacket: AllocatedStruct {
    static let allocCall = "av_packet_alloc"
    static func alloc() -> UnsafeMutablePointer<AVPacket>? { av_packet_alloc() }
    static func free(_ pointer: inout UnsafeMutablePointer<AVPacket>?) { av_packet_free(&pointer) }
}

extension AVFrame: AllocatedStruct {
    static let allocCall = "av_frame_alloc"
    static func alloc() -> UnsafeMutablePointer<AVFrame>? { av_frame_alloc() }
    static func free(_ pointer: inout UnsafeMutablePointer<AVFrame>?) { av_frame_free(&pointer) }
}

/// An AVPacket: the writer's, which every encoded packet passes through, a decoder's, or one on its
/// way from the demuxer to a decoder (`init(moving:)`).
typealias Packet = Owned<AVPacket>

/// `@unchecked Sendable` is sound: a packet moves, it is never shared. The demuxer does not touch it
/// after `PacketQueue.put`, and the one decoder that takes it is then its only user; the writer's
/// and a decoder's never leave their thread. Its tally is set once and counts through a lock.
extension Owned: @unchecked Sendable where Object == AVPacket {}

extension Owned where Object == AVPacket {
    /// Takes the packet's data and leaves `source` empty; nil when out of memory.
    convenience init?(moving source: UnsafeMutablePointer<AVPacket>) {
        try? self.init()
        av_packet_move_ref(pointer, source)
    }

    var bytes: Int { Int(pointer.pointee.size) }
}

/// An AVFrame that one thread fills again and again: an encoder's picture, a decoder's output
/// before it moves on. (A decoded picture handed between threads is a FrameReference: never changed
/// once made.)
typealias Frame = Owned<AVFrame>

/// Owns one AVCodecContext, an encoder's or a decoder's (`avcodec_alloc_context3`,
/// `avcodec_free_context`).
final class CodecContext {
    let pointer: UnsafeMutablePointer<AVCodecContext>
    let codec: UnsafePointer<AVCodec>
    private let tally: OwnerTally

    /// A context for `codec`, to be set up, then opened.
    init(_ codec: UnsafePointer<AVCodec>) throws(AVError) {
        guard let context = avcodec_alloc_context3(codec) else {
            throw AVError(code: AVError.code(posix: ENOMEM), call: "avcodec_alloc_context3")
        }
        self.codec = codec
        pointer = context
        tally = OwnerTally(CodecContext.self)
    }

    /// A context for the encoder of this name (`avcodec_find_encoder_by_name`).
    convenience init(encoderNamed name: String) throws(AVError) {
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw AVError(code: AVError.code(posix: ENOENT), call: "avcodec_find_encoder_by_name(\(name))")
        }
        try self.init(codec)
    }

    /// A context for the decoder of this name (`avcodec_find_decoder_by_name`).
    convenience init(decoderNamed name: String) throws(AVError) {
        guard let codec = avcodec_find_decoder_by_name(name) else {
            throw AVError(code: AVError.code(posix: ENOENT), call: "avcodec_find_decoder_by_name(\(name))")
        }
        try self.init(codec)
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&context)
    }

    /// Opens the codec with these private options, in this order (`avcodec_open2`), naming the codec
    /// when it fails.
    func open(options: [(name: String, value: String)] = []) throws(AVError) {
        var dictionary: OpaquePointer?
        for option in options { av_dict_set(&dictionary, option.name, option.value, 0) }
        let result = avcodec_open2(pointer, codec, &dictionary)
        av_dict_free(&dictionary)
        guard result >= 0 else { throw AVError(code: result, call: "avcodec_open2(\(String(cString: codec.pointee.name)))") }
    }

    /// The codec's name, e.g. "h264", for logs.
    var name: String { String(cString: avcodec_get_name(pointer.pointee.codec_id)) }
}

/// Owns one SwrContext (`swr_alloc_set_opts2`, `swr_init`, `swr_free`): samples from one channel
/// layout, sample format and rate to another.
final class Resampler {
    let pointer: OpaquePointer
    private let tally: OwnerTally

    /// The layouts are only read (FFmpeg 5.1 declares them not const).
    init(from inLayout: UnsafeMutablePointer<AVChannelLayout>, _ inFormat: AVSampleFormat, _ inRate: Int32,
         to outLayout: UnsafeMutablePointer<AVChannelLayout>, _ outFormat: AVSampleFormat, _ outRate: Int32) throws(AVError) {
        var swr: OpaquePointer?
        var result = swr_alloc_set_opts2(&swr, outLayout, outFormat, outRate, inLayout, inFormat, inRate, 0, nil)
        guard result >= 0, let context = swr else { throw AVError(code: result, call: "swr_alloc_set_opts2") }
        result = swr_init(context)
        guard result >= 0 else {
            swr_free(&swr)
            throw AVError(code: result, call: "swr_init")
        }
        pointer = context
        tally = OwnerTally(Resampler.self)
    }

    deinit {
        var context: OpaquePointer? = pointer
        swr_free(&context)
    }
}

// MARK: - The steps of opening a take's `EncodingSession` (each makes one of the owners above), and
// where a test makes one of them fail.

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
