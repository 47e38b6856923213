/// Rules about composites themselves: what Core Data keeps in one (`NSCompositeAttributeDescription` refuses
/// other members), distinct member names, and no composite inside itself.
enum CompositeRules {
    static func check(_ composite: Composite, in version: ModelVersion, into list: inout DiagnosticList) {
        var names: Set<String> = []
        for member in composite.attributes {
            let what = "member '\(member.name)' of composite '\(composite.name)'"
            if !names.insert(member.name).inserted {
                list.report(
                    .compositeMember,
                    "composite '\(composite.name)' has two members named '\(member.name)'; rename one",
                    at: member.source.location(of: "name"))
            }
            if member.isTransient {
                list.report(
                    .compositeMember,
                    "\(what) is transient, which a composite cannot keep; make the member stored or remove it",
                    at: member.source.location(of: "transient"))
            }
            switch member.type {
            case .objectID:
                list.report(
                    .compositeMember,
                    "\(what) has type \(member.type.rawValue), which a composite cannot keep; choose another type",
                    at: member.source.location(of: "attributeType"))
            case .binary where member.source.attribute("allowsExternalBinaryDataStorage") == "YES":
                list.report(
                    .compositeMember,
                    "\(what) allows external binary data storage, which a composite cannot keep; store it in the row or make it an attribute of the entity",
                    at: member.source.location(of: "allowsExternalBinaryDataStorage"))
            default:
                break
            }
        }
        if let chain = version.compositeCycle(from: composite) {
            let looped = chain.count > 1 && chain.dropLast().contains(chain[chain.count - 1])
            list.report(
                .compositeCycle,
                looped
                    ? "composite '\(composite.name)' contains itself (\(chain.joined(separator: " → "))); a composite value would never end"
                    : "composites nest more than \(ModelVersion.maximumCompositeDepth) deep from '\(composite.name)' (\(chain.joined(separator: " → "))); flatten some of them",
                at: composite.source.location(of: "name"))
        }
    }
}
