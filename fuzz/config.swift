// libFuzzer target: the bytes as a `--config` file, through the option parser. Built and run by
// bench/fuzz.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let parser = OptionParser(readFile: { _ in text })
    _ = try? parser.parse(["--config", "/fuzz.conf", "--windowed"])
    return 0
}
