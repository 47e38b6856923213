import Remodel

/// The parts of a derived attribute (`NSDerivedAttributeDescription`) and of a composite attribute
/// (`NSCompositeAttributeDescription`, type code 2100) beyond what every attribute has. Each is read into
/// the compiled model by a function of its own, for the model features that give them their meaning.
extension CompiledModelDecoder {
    /// A derived attribute's expression: the field holding an `NSExpression` (Core Data's key is not
    /// documented; every object field whose class is an expression is looked at), read as its text into
    /// ``CompiledModel/Attribute/derivationExpression``. An expression of a class Remodel does not read is
    /// noted in ``CompiledModel/Attribute/unreadClasses``, not taken for damage.
    func derivation(of object: ArchivedObject, into attribute: inout CompiledModel.Attribute, in entity: String)
        throws(Failure)
    {
        for key in object.fields.keys.sorted() where key != "NSEntity" {
            guard case .object(let part)? = try value(object, key), part.className.hasSuffix("Expression") else {
                continue
            }
            switch ArchivedExpressionText.expression(.object(part)) {
            case .text(let text):
                try Self.checkWritable(text, what: "attribute \(entity).\(attribute.name)'s derivation")
                attribute.derivationExpression = text
            case .unread(let className):
                attribute.unreadClasses.append(className)
            case .damaged(let problem):
                throw Failure(message: "attribute \(entity).\(attribute.name)'s derivation: \(problem)")
            }
            return
        }
    }
}
