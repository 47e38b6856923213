@testable import Remodel
import FuzzSupport

/// A Transformable value: keyed archive of property-list objects, written back and shown as JSON.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArchive(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzChecks.archive(Array(UnsafeBufferPointer(start: data, count: count)))
    return 0
}
