extension DataLoss {
    /// The members of composite values a step drops: a composite attribute carried into one whose composite no
    /// longer has the member (``CompositeReshape/droppedMembers``). Each is a loss of property
    /// `attribute.member` (`place.city`), counted as the objects whose value has the member non-nil.
    static func droppedMembers(by step: MigrationStep, copied: Set<String>) -> [DataLoss] {
        guard !step.source.composites.isEmpty else { return [] }
        var losses: [DataLoss] = []
        for mapping in step.mapping.entities {
            guard let sourceName = mapping.source, !copied.contains(sourceName),
                let sourceEntity = step.source.entity(named: sourceName), !sourceEntity.isAbstract,
                let destinationName = mapping.destination,
                let destinationEntity = step.destination.entity(named: destinationName)
            else { continue }
            for attributeMapping in mapping.attributes {
                guard let from = attributeMapping.sourceAttribute,
                    attributeMapping.value?.text == "$source.\(from)",
                    let before = step.source.attribute(named: from, in: sourceEntity), before.type == .composite,
                    let after = step.destination.attribute(named: attributeMapping.destination, in: destinationEntity),
                    after.type == .composite,
                    !step.destination.hasSameCompositeShape(after, as: before, in: step.source)
                else { continue }
                let reshape = CompositeReshape.plan(from: before, in: step.source, to: after, in: step.destination)
                for member in reshape.reshape.droppedMembers {
                    losses.append(
                        DataLoss(
                            sourceVersion: step.source.name, destinationVersion: step.destination.name,
                            entity: sourceName, property: "\(from).\(member)"))
                }
            }
        }
        return losses
    }
}
