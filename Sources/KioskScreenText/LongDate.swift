// A day written out as a reader of each language writes it on a card: the film's title card
// (`kiosk-recorder reel --language`). Pure: the day, the month and the year come in as numbers.

extension Language {
    /// The months' names, January first, as they stand inside a date (lower case where the
    /// language writes them so); nil for the languages that write the month as a number.
    private var months: [String]? {
        switch self {
        case .en: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        case .de: ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"]
        case .fr: ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"]
        case .es: ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"]
        case .ja, .zhHans: nil
        }
    }

    /// `day` of `month` (1-12) of `year`, written out: "14 November 2023", "14. November 2023",
    /// "14 novembre 2023" (the 1st as "1er"), "14 de noviembre de 2023", "2023年11月14日".
    public func longDate(day: Int, month: Int, year: Int) -> String {
        guard let months, (1...12).contains(month) else { return "\(year)年\(month)月\(day)日" }
        let name = months[month - 1]
        switch self {
        case .de: return "\(day). \(name) \(year)"
        case .fr: return "\(day == 1 ? "1er" : String(day)) \(name) \(year)"
        case .es: return "\(day) de \(name) de \(year)"
        default: return "\(day) \(name) \(year)"
        }
    }
}
