// The lines that answer the operator's commands (docs/interface.md, "Closing the booth"): the booth
// closed to guests and open again.

extension KioskEvent {
    /// `boothClosed`, `boothOpened`: no fields.
    static let boothKinds: [Kind] = [
        Kind(name: "boothClosed", fields: { $0 == .boothClosed ? [] : nil }, decode: { _ in .boothClosed }),
        Kind(name: "boothOpened", fields: { $0 == .boothOpened ? [] : nil }, decode: { _ in .boothOpened }),
    ]
}
