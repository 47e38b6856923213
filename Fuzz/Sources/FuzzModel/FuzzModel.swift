@testable import Remodel
import FuzzSupport

/// Model file reader + validator. Oracle: nothing crashes, and a model that
/// validates with no errors gets a store layout whose SQL SQLite accepts.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModel(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzChecks.model(Array(UnsafeBufferPointer(start: data, count: count)))
    return 0
}
