import Contracts
import FileStorage
import Foundation
import Launcher
import NIOCore
import TestSupport
import XCTest

/// Files removed while a snapshot runs are in it: a store copied before their removal may point at them.
final class BackupRemovedFilesTests: XCTestCase {
    func testFilesRemovedSinceTheSnapshotBeganAreTakenUnderTheirNames() async throws {
        let folder = try TestEnvironment.temporaryDirectory()
        let backend = LocalFileBackend(dataDirectory: folder, deleteAfter: .seconds(3600))
        let kind = try XCTUnwrap(ImageKind.forFileName("a.png"))
        for name in ["kept.png", "old.png", "late.png"] {
            try await backend.write(FileKey(service: .market, appID: "app", area: "posts", name: name), ByteBuffer(string: name), kind: kind)
        }
        await backend.remove(FileKey(service: .market, appID: "app", area: "posts", name: "old.png"))
        while GlintDate.nowMilliseconds() <= (try XCTUnwrap(Self.removals(folder).last)) {}
        let started = GlintDate.nowMilliseconds()
        await backend.remove(FileKey(service: .market, appID: "app", area: "posts", name: "late.png"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/files/posts/late.png"), "no longer served")

        let (entries, parts) = try Backups.uploadedFiles(in: folder, since: started)
        XCTAssertEqual(parts.map(\.name), ["files/posts/kept.png", "files/posts/late.png"], "removed before the snapshot began: not in it")
        XCTAssertEqual(entries.map { String(decoding: $0.bytes, as: UTF8.self) }, ["kept.png", "late.png"])

        // Past the delay the sweep deletes them; before it, nothing.
        let early = try await backend.sweep()
        XCTAssertEqual(early, 0)
        let late = try await backend.sweep(now: GlintDate.nowMilliseconds() + 3_600_001)
        XCTAssertEqual(late, 2)
        XCTAssertEqual(Self.removals(folder), [])
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/files/posts/kept.png"))
    }

    /// When each removal happened, oldest first.
    static func removals(_ folder: String) -> [Int64] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/files/" + LocalFileBackend.deletedFolder)) ?? []).compactMap { Int64($0) }
            .sorted()
    }
}
