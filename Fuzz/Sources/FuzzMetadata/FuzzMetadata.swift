@testable import Remodel
import FuzzSupport

/// Core Data's store metadata (`Z_METADATA.Z_PLIST`, a binary property list).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMetadata(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzChecks.metadata(Array(UnsafeBufferPointer(start: data, count: count)))
    return 0
}
