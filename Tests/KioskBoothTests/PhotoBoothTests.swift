// The photo in the booth library, with twins at its boundary (issue 34): the shutter's sound and the
// flash at the press, the camera's next frame to the photo (the take's writer still gets every one),
// `photoTaken` with the frame's size, and a photo no frame comes for given up after 2 s.
import Foundation
import KioskBooth
import KioskContract
import KioskCore
import Testing

@Suite("the photo in the booth, with twins", .serialized)
struct PhotoBoothTests {
    /// The events emitted so far, read back.
    func decoded(_ h: BoothHarness) -> [KioskEvent] { h.events.received.compactMap { try? EventEncoder().decode(line: $0) } }

    @Test("mid-take: the shutter sound and the flash at once; the next frame becomes a JPEG beside the take, photoTaken at its size; the writer gets every frame")
    func midTake() throws {
        let h = BoothHarness(configFile: "photo-button = yes\n")
        #expect(h.startTake())
        let writer = try #require(h.writer)
        h.turn()
        #expect(h.screen.rendered.last??.buttons == [.stop, .photo])
        h.send(.press(.photo))
        h.turn()
        #expect(h.audio.played == [.begin, .shutter])
        #expect(h.screen.rendered.last??.flash != nil, "the flash is drawn")
        for n in 1...3 { h.camera.send(sequence: UInt32(n)) }
        #expect(writer.frames == 3, "the photo costs the take no picture")
        #expect(h.step(until: { h.events.names.contains("photoTaken") }), "\(h.events.names)")
        guard case let .photoTaken(path, width, height)? = decoded(h).first(where: { $0.name == "photoTaken" }) else {
            Issue.record("no photoTaken")
            return
        }
        #expect(width == h.camera.info.size.width && height == h.camera.info.size.height)
        #expect(path.hasPrefix(h.folder + "/photo-") && path.hasSuffix("-1.jpg"), "\(path)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.prefix(3) == [0xFF, 0xD8, 0xFF] && bytes.suffix(2) == [0xFF, 0xD9], "a whole JPEG")
        #expect(h.booth.machine.mode == .recording)
    }

    @Test("no frame comes (the camera stopped): photoFailed after 2 s (virtual: VirtualTimeTests.photoWait times it), and the next photo is taken")
    func noFrame() throws {
        let clock = VirtualClock()
        let h = BoothHarness.photoPressed(clock: clock)
        // A second press while the first waits is refused.
        h.send(.press(.photo))
        #expect(h.step(until: { h.events.names.count == 2 }))
        #expect(h.events.names == ["ready", "error"])
        clock.advance(seconds: 2.1)
        #expect(h.step(until: { h.events.names.count == 3 }))
        guard case let .error(code, message)? = decoded(h).last else {
            Issue.record("\(h.events.names)")
            return
        }
        #expect(code == .photoFailed, "\(message)")
        h.send(.press(.photo))
        h.turn()
        h.camera.send(sequence: 1)
        #expect(h.step(until: { h.events.names.contains("photoTaken") }), "\(h.events.names)")
    }
}
