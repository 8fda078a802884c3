// libFuzzer target: stdin's bytes through the command line splitter and the command parser, the way
// the booth's stdin reader takes them. Built and run by bench/fuzz.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommands(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var splitter = CommandLineSplitter(limit: 1024)
    let parser = CommandParser()
    for piece in splitter.feed(UnsafeBufferPointer(start: data, count: size)) {
        if case let .line(line) = piece { _ = parser.parse(line: line) }
    }
    return 0
}
