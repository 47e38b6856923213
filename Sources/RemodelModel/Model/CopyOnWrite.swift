/// A value kept in one shared box and copied only when written while another holder shares it. The model's
/// entities and properties keep their fields so: planning a long history copies them out of every version
/// again and again, and each copy then retains one object instead of a dozen fields; two copies of one value
/// compare equal without comparing their fields.
struct CopyOnWrite<Value: Hashable & Sendable>: Hashable, Sendable {
    private final class Box: @unchecked Sendable {
        // Written only through the one `CopyOnWrite` that holds it (`value`'s `_modify`): never while shared.
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    private var box: Box

    init(_ value: Value) { box = Box(value) }

    /// The value; writing it first copies the box when another holder shares it.
    var value: Value {
        get { box.value }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
            yield &box.value
        }
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.box === rhs.box || lhs.box.value == rhs.box.value }

    func hash(into hasher: inout Hasher) { box.value.hash(into: &hasher) }
}
