// The guest's say over their take (`--consent`): the choices the consent screen offers, the switches
// on it (`state`'s `consentChoices`), the consent a take was made under (the outcome's `consent`, the
// consent log's line, the takes' list) and what it allows. A take made without `--consent` has no
// consent at all, and everything is allowed it, as before the option.

/// What the guest may allow, each a switch on the consent screen (`--consent-choice`).
public enum ConsentChoice: String, CaseIterable, Codable, Sendable {
    /// The guest may take the video home: the share page and its QR code.
    case share
    /// It may play on the attract screen's slideshow (and show in the booth's library).
    case slideshow
    /// It may be in the hosts' film (`reel`).
    case film
}

/// The consent screen's switches: each choice offered, on or off; a choice not offered is absent
/// (nil), so `state`'s `consentChoices` names only the choices configured.
public struct ConsentSwitches: Codable, Equatable, Sendable {
    public var share: Bool?
    public var slideshow: Bool?
    public var film: Bool?

    /// The switches of `offered`, all off: the guest turns on what they allow.
    public init(offered: [ConsentChoice]) {
        for choice in offered { self[choice] = false }
    }

    public subscript(choice: ConsentChoice) -> Bool? {
        get {
            switch choice {
            case .share: share
            case .slideshow: slideshow
            case .film: film
            }
        }
        set {
            switch choice {
            case .share: share = newValue
            case .slideshow: slideshow = newValue
            case .film: film = newValue
            }
        }
    }

    /// The choices offered, in the contract's order (share, slideshow, film).
    public var offered: [ConsentChoice] { ConsentChoice.allCases.filter { self[$0] != nil } }
    /// The choices switched on, in the contract's order.
    public var on: [ConsentChoice] { ConsentChoice.allCases.filter { self[$0] == true } }
}

/// `--consent`: what the consent screen offers: its text's `version` (the SHA-256 of the file's bytes,
/// in lowercase hex) and its switches.
public struct ConsentOffer: Equatable, Sendable {
    public var version: String
    public var choices: [ConsentChoice]

    public init(version: String, choices: [ConsentChoice]) {
        self.version = version
        self.choices = ConsentChoice.allCases.filter(choices.contains)
    }
}

/// The consent a take was made under: the text's version the guest saw and the choices they
/// switched on (in the contract's order; none: `[]`). The outcome says it as `consent`.
public struct Consent: Codable, Equatable, Sendable {
    public var version: String
    public var choices: [ConsentChoice]

    public init(version: String, choices: [ConsentChoice]) {
        self.version = version
        self.choices = ConsentChoice.allCases.filter(choices.contains)
    }

    /// Whether a take made under `consent` may be used for `choice`: always without consent (nil: no
    /// `--consent` when it was made), else only when the guest switched it on.
    public static func allows(_ consent: [ConsentChoice]?, _ choice: ConsentChoice) -> Bool {
        consent?.contains(choice) ?? true
    }

    /// The choices as the take's file carries them (its `comment` tag): `consent=share,film`, or
    /// `consent=none`.
    public var tag: String { "consent=" + (choices.isEmpty ? "none" : choices.map(\.rawValue).joined(separator: ",")) }

    /// The choices a file's `comment` tag says (`tag`); nil for a tag that says none (a take made
    /// without `--consent`). A word it does not know allows nothing.
    public static func choices(inTag tag: String?) -> [ConsentChoice]? {
        guard let tag, tag.hasPrefix("consent=") else { return nil }
        let words = tag.dropFirst("consent=".count)
        return words == "none" ? [] : words.split(separator: ",").compactMap { ConsentChoice(rawValue: String($0)) }
    }
}

/// What a `consented` event adds to its inner event's line.
public enum ConsentStamp: Equatable, Sendable {
    /// The outcome's `consent`: the consent its take was made under.
    case take(Consent)
    /// `state`'s `consentChoices`, on the consent screen: its switches as they are.
    case screen(ConsentSwitches)

    var field: KioskEvent.Field {
        switch self {
        case let .take(consent): (.consent, consent)
        case let .screen(switches): (.consentChoices, switches)
        }
    }

    /// The stamp a line carries, if any (a line is read back whole).
    static func read(_ c: KeyedDecodingContainer<KioskEvent.Key>) throws -> ConsentStamp? {
        if let consent = try c.decodeIfPresent(Consent.self, forKey: .consent) { return .take(consent) }
        return try c.decodeIfPresent(ConsentSwitches.self, forKey: .consentChoices).map(ConsentStamp.screen)
    }
}

extension KioskEvent {
    /// The event without its consent (`consented`), as it is without `--consent`.
    public var unconsented: KioskEvent {
        if case let .consented(event, _) = self { return event.unconsented }
        return self
    }
}
