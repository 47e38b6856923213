import Foundation
import Testing

@testable import Remodel

/// Models with composite attributes, written as Xcode writes them (`<composite>` elements beside the entities,
/// `attributeType="Composite" composite="Name"`), and the stores the composite tests make of them.
enum CompositeModels {
    /// A `Trip` entity with a composite `place` (a `Place` with a nested `Geo`) and the composite elements.
    static func trip(
        place: String = placeMembers, geo: String = geoMembers, entityExtra: String = "",
        placeAttribute: String =
            #"<attribute name="place" optional="YES" attributeType="Composite" composite="Place"/>"#
    ) -> String {
        """
        <entity name="Trip" representedClassName="Trip">
            <attribute name="name" attributeType="String"/>
            \(placeAttribute)
            \(entityExtra)
        </entity>
        <composite name="Place">
            \(place)
        </composite>
        <composite name="Geo">
            \(geo)
        </composite>
        """
    }

    static let placeMembers = """
        <attribute name="city" attributeType="String" maxValueString="20"/>
        <attribute name="visits" optional="YES" attributeType="Integer 16" minValueString="0"/>
        <attribute name="since" optional="YES" attributeType="Date"/>
        <attribute name="geo" optional="YES" attributeType="Composite" composite="Geo"/>
        """

    static let geoMembers = """
        <attribute name="lat" attributeType="Double"/>
        <attribute name="lon" attributeType="Double"/>
        """

    /// A bundle of one version named `Trips`, written into `folder`.
    static func bundle(_ contents: String, in folder: TemporaryFolder, name: String = "Trips") throws -> ModelBundle {
        let path = try BundleWriting.write(name, in: folder.path, versions: [(name, contents)])
        return try ModelBundle(contentsOf: path)
    }

    /// Two objects: one with every member, nested ones too, one with a nil composite.
    static let seed = """
        {"Trip": [
          {"_pk": 1, "name": "Lyon", "place": {"geo": {"lon": 4.8357, "lat": 45.764}, "city": "Lyon", "visits": 3, "since": "2020-05-01T12:00:00.000Z"}},
          {"_pk": 2, "name": "Home", "place": null}
        ]}
        """

    /// The export of ``seed``: members in the composite's order, the nil one written, the nil composite null.
    static let seedExport = """
        {
          "Trip": [
            {"_pk": 1, "name": "Lyon", "place": {"city": "Lyon", "visits": 3, "since": "2020-05-01T12:00:00.000Z", "geo": {"lat": 45.764, "lon": 4.8357}}},
            {"_pk": 2, "name": "Home", "place": null}
          ]
        }

        """
}
