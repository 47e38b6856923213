@testable import Remodel
import FuzzSupport

/// Mapping file reader, expressions type-checked against the Library sample.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMapping(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzChecks.mapping(Array(UnsafeBufferPointer(start: data, count: count)))
    return 0
}
