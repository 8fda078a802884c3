// The packet queue between the player's demuxer and a decoder, at the interleavings of a seek that
// the end-to-end seek tests meet only now and then: the UI's drop of the old position's packets
// running before, between or after the demuxer's flush and the decoder's take of the boundary.
import CFFmpeg
import Testing
@testable import KioskMedia

@Suite("Player packet queue")
struct PacketQueueTests {
    /// A packet that says which it is by its pts.
    func packet(_ pts: Int64) throws -> Packet {
        let p = try Packet()
        p.pointer.pointee.pts = pts
        return p
    }

    /// What the decoder takes until the queue has nothing: pts for packets, "b<serial>" for boundaries.
    func takeAll(_ queue: PacketQueue) -> [String] {
        var taken: [String] = []
        while queue.count > 0 {
            switch queue.take() {
            case let .packet(p): taken.append("\(p.pointer.pointee.pts)")
            case let .boundary(b): taken.append("b\(b.serial)")
            case .end: taken.append("end")
            case .closed: taken.append("closed")
            }
        }
        return taken
    }

    func seek(_ serial: Int) -> Boundary { Boundary(serial: serial, target: 0, shift: 0, drainFirst: false) }

    @Test("the UI's drop before the demuxer takes the seek: the old position's packets go")
    func dropFirst() throws {
        let queue = PacketQueue(maxPackets: 100, maxBytes: 1 << 20)
        for pts in [60, 61, 62] as [Int64] { #expect(queue.put(try packet(pts))) }
        queue.drop(before: 1)
        #expect(queue.count == 0)
        queue.flush(seek(1))
        #expect(queue.put(try packet(30)))
        #expect(takeAll(queue) == ["b1", "30"])
    }

    @Test("the drop after the demuxer queued the seek's boundary and its first packets: they stay")
    func dropAfterFlush() throws {
        let queue = PacketQueue(maxPackets: 100, maxBytes: 1 << 20)
        #expect(queue.put(try packet(60)))
        queue.flush(seek(1))
        for pts in [30, 31] as [Int64] { #expect(queue.put(try packet(pts))) }
        queue.drop(before: 1)
        #expect(takeAll(queue) == ["b1", "30", "31"])
    }

    @Test("the drop after the decoder took the seek's boundary: the new position's packets stay (they were lost, and the next key frame showed)")
    func dropAfterBoundaryTaken() throws {
        let queue = PacketQueue(maxPackets: 100, maxBytes: 1 << 20)
        #expect(queue.put(try packet(60)))
        queue.flush(seek(1))
        guard case let .boundary(b) = queue.take() else { Issue.record("the boundary first"); return }
        #expect(b.serial == 1)
        for pts in [30, 31, 32] as [Int64] { #expect(queue.put(try packet(pts))) }
        queue.drop(before: 1)
        #expect(takeAll(queue) == ["30", "31", "32"])
        // The next seek's drop, asked for before its flush, does throw them away.
        #expect(queue.put(try packet(33)))
        queue.drop(before: 2)
        #expect(queue.count == 0)
    }
}
