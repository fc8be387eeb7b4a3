import Contracts
import ServiceKit

/// Stored walks → API.md's walk answers.
enum WalkRenderer {
    static func walk(_ record: WalkRecord) throws -> WalkAnswer {
        let path: [[Double]] = try JSONText.decode(record.path).orThrow()
        return WalkAnswer(
            walkID: record.id, title: record.title, postID: record.postID, distanceM: record.distanceM, durationS: record.durationS,
            calories: record.calories, startedAt: GlintDate.string(fromMilliseconds: record.startedAt),
            endedAt: GlintDate.string(fromMilliseconds: record.endedAt),
            bbox: WalkBoundingBox(
                minLatitude: record.minLatitude, minLongitude: record.minLongitude, maxLatitude: record.maxLatitude,
                maxLongitude: record.maxLongitude),
            path: path.map { WalkPathPoint(latitude: $0[0], longitude: $0[1], timestamp: GlintDate.string(fromMilliseconds: Int64($0[2]))) },
            startAddress: record.startAddress, createdAt: GlintDate.string(fromMilliseconds: record.createdAt)
        )
    }
}
