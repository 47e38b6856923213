@testable import Remodel
import FuzzSupport

/// Core Data's compiled model (`Z_MODELCACHE`): raw DEFLATE, keyed archive, model, model files.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModelCache(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzChecks.modelCache(Array(UnsafeBufferPointer(start: data, count: count)))
    return 0
}
