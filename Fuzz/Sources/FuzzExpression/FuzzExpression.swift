@testable import Remodel
import FuzzSupport

/// Expression parser, type checker, interpreter and SQL compiler.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExpression(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzChecks.expression(Array(UnsafeBufferPointer(start: data, count: count)))
    return 0
}
