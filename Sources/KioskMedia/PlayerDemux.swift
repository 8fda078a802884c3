// The player's demux thread at work: the file's packets read into the decoders' queues, the seeks
// asked for carried out between two reads, and a looping file read on from its start (gapless).
import CFFmpeg
import FoundationEssentials
import KioskSystem

extension MoviePlayer {
    /// Reads the file's packets into the decoders' queues until its end, a read error or the
    /// close, then says the end to both queues. `limit` bounds the packets read (the fuzz target's
    /// bound, so it can decode on the same thread). `persistent` (the player): at the end it waits
    /// for a seek (or, looping, reads on from the start), until the close; and each seek asked for
    /// is carried out between two reads.
    static func readPackets(_ opening: Opening, _ core: PlayerCore, limit: Int = .max, persistent: Bool = false) {
        defer {
            core.videoPackets.finish()
            core.audioPackets.finish()
        }
        guard let packet = av_packet_alloc() else {
            core.fail("out of memory")
            core.abortQueues()
            return
        }
        var p: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&p) }
        var read = 0
        // The loop: the file's length (the latest packet end of its first play), the current play's
        // shift, and the serial the decoders run on.
        var latestEnd: Int64?
        var length: Int64?
        var shift: Int64 = 0
        var serial = 0
        var readThisPlay = 0
        var seekedTo: Int64?
        func seek(_ request: SeekRequest) {
            let micro = opening.start.saturatingAdding(request.target) / 1000
            if let error = opening.demuxer.seek(toMicroseconds: micro) { Log.info("player: seek to \(request.target / 1_000_000) ms: \(error)") }
            let boundary = Boundary(serial: request.serial, target: request.target, shift: 0, drainFirst: false)
            core.videoPackets.flush(boundary)
            core.audioPackets.flush(boundary)
            (shift, serial, readThisPlay) = (0, request.serial, 0)
            seekedTo = request.target
        }
        reading: while !core.interruption.isAborted && read < limit {
            if persistent, let request = core.takeSeek() { seek(request); continue }
            var ended = false
            switch opening.demuxer.read(into: packet) {
            case .packet:
                read += 1
                readThisPlay += 1
                let index = packet.pointee.stream_index
                if core.options.loop, length == nil, let end = Self.end(of: packet, opening: opening) {
                    latestEnd = max(latestEnd ?? end, end)
                }
                let queue = index == opening.videoIndex ? core.videoPackets : index == opening.audioIndex ? core.audioPackets : nil
                guard let queue, let moved = Packet(moving: packet) else {
                    av_packet_unref(packet)
                    continue
                }
                if !queue.put(moved) { break reading }
            case .again:
                usleep(5_000)
            case .end:
                ended = true
                if persistent && seekedTo != nil && readThisPlay == 0 {
                    // Driver paranoia: a demuxer that seeks "successfully" past every packet (a
                    // fragmented file's index) is sent to the start; the decoders drop up to the target.
                    seekedTo = nil
                    if opening.demuxer.seek(toMicroseconds: opening.start / 1000) == nil {
                        Log.info("player: the seek found nothing to read; reading from the start to the target")
                        continue reading
                    }
                }
                if persistent && core.options.loop && readThisPlay > 0 {
                    // Gapless: the next play's packets follow this one's, its timestamps one file's
                    // length later; the decoders drain at the boundary and carry on.
                    let played = length ?? max(latestEnd ?? 0, opening.frameLength)
                    length = played
                    shift = shift.saturatingAdding(played)
                    core.loopShifts.withLock { $0.append((serial: serial, shift: shift)) }
                    let boundary = Boundary(serial: serial, target: nil, shift: shift, drainFirst: true)
                    core.videoPackets.append(boundary)
                    core.audioPackets.append(boundary)
                    readThisPlay = 0
                    if opening.demuxer.seek(toMicroseconds: opening.start / 1000) == nil { continue reading }
                    Log.info("player: cannot go back to the start of \(core.path) to loop; ending")
                }
            case let .failed(error):
                ended = true
                // A cut or damaged file: play what came before. A stalled read is a failure.
                if error.code == AVError.code(posix: ETIMEDOUT) {
                    core.status.withLock { $0.readError = "reading \(core.path) timed out (\(error.call))" }
                } else {
                    Log.info("player: \(core.path): \(error); playing what was read")
                }
            }
            guard ended else { continue }
            guard persistent else { break reading }
            // The end: the decoders drain; a seek starts the file anew, the close ends it all.
            core.videoPackets.finish()
            core.audioPackets.finish()
            guard let request = core.waitForSeek() else { break reading }
            seek(request)
        }
    }

    /// Where a packet ends on the player's timeline (ns from the file's start), nil when it does
    /// not say or the sum does not fit.
    private static func end(of packet: UnsafeMutablePointer<AVPacket>, opening: Opening) -> Int64? {
        guard let tb = opening.demuxer.timeBase(of: packet.pointee.stream_index) else { return nil }
        let pts = packet.pointee.pts != kiosk_AV_NOPTS_VALUE() ? packet.pointee.pts : packet.pointee.dts
        guard pts != kiosk_AV_NOPTS_VALUE(), let stamp = pts.checkedAdding(max(packet.pointee.duration, 0)),
              let ns = VideoDecoder.nanoseconds(stamp, tb) else { return nil }
        return ns.checkedSubtracting(opening.start)
    }
}
