/// An Xcode mapping model (`Name.xcmappingmodel/xcmapping.xml`) as written,
/// before it is matched to a bundle: where it says its two models are, and its
/// entity mappings with their attribute and relationship mappings, each with
/// its position in the file.
package struct XcodeMappingModel: Sendable {
    /// Text of an `<attribute>` element of the file, with where it is written.
    package struct Text: Sendable {
        package var value: String
        /// The element's `<`.
        var location: SourceLocation
        /// The text as written, for positions inside it.
        var written: XMLNode.Attribute?

        /// The position of a character of the text (0-based, in Unicode scalars).
        func location(atOffset offset: Int) -> SourceLocation {
            written?.location(atDecodedOffset: offset) ?? location
        }

        /// The position of the text's first character.
        package var start: SourceLocation { location(atOffset: 0) }
    }

    /// One of the two models: its path as recorded and its archived snapshot (base64).
    package struct Model: Sendable {
        package var path: Text?
        var snapshot: Text?

        /// The version folder's name the path ends with, without `.xcdatamodel`.
        var versionName: String? {
            guard let last = components.last, last.hasSuffix(".xcdatamodel") else { return nil }
            return String(last.dropLast(".xcdatamodel".count))
        }

        /// The bundle's name the path names (`…/Name.xcdatamodeld/…`), without `.xcdatamodeld`.
        package var bundleName: String? {
            guard components.count >= 2, components[components.count - 2].hasSuffix(".xcdatamodeld") else { return nil }
            return String(components[components.count - 2].dropLast(".xcdatamodeld".count))
        }

        private var components: [String] {
            (path?.value ?? "").split(separator: "/").map(String.init)
        }
    }

    /// An attribute or relationship mapping.
    struct PropertyMapping: Sendable {
        /// The destination property (`name`).
        var name: Text
        /// The decoded `valueexpressiondata`; nil when the mapping has none (the default, `$source.name`).
        var expression: XcodeExpression?
        /// Why `valueexpressiondata` could not be decoded.
        var expressionProblem: String?
        /// The `valueexpressiondata` element, or the mapping's `<object>` when it has none.
        var expressionLocation: SourceLocation
        /// The mapping's `<object>`.
        var location: SourceLocation
    }

    /// An entity mapping (`XDDEVENTITYMAPPING`).
    struct EntityMapping: Sendable {
        var source: Text?
        var destination: Text?
        /// `sourcefilterpredicatestring`: an `NSPredicate` format string.
        var filter: Text?
        /// `migrationpolicyclassname`, when not empty.
        var policyClass: Text?
        /// `mappingnumber`: the order Xcode lists it in.
        var number: Int
        var attributes: [PropertyMapping]
        var relationships: [PropertyMapping]
        /// The `<object>`.
        var location: SourceLocation
        /// Its name as expressions refer to it (`destinationInstancesForEntityMappingNamed:`): the stored `name`, else Xcode's `SourceToDestination`.
        var name: String

        /// Whether it says more than inference would: a policy, a filter or an explicit expression.
        var isExplicit: Bool {
            policyClass != nil || filter != nil
                || (attributes + relationships).contains { $0.expression != nil || $0.expressionProblem != nil }
        }
    }

    /// The `xcmapping.xml` file.
    var path: String
    /// The `XDDEVMAPPINGMODEL` object.
    package var location: SourceLocation
    package var source: Model
    package var destination: Model
    /// In the order the mapping model lists them.
    var entities: [EntityMapping]
}
