import Backup
import Contracts
import Foundation
import Launcher
import ServiceKit
import TestSupport
import XCTest
import ZlibCoding

/// How a snapshot's archive is written while the suite serves: gzipped piece by piece at a pace
/// (`WorkPace`, `BACKUP_CPU_PERCENT`), its manifest read back without inflating the stores.
final class PacedArchiveTests: XCTestCase {
    /// Three megabytes and a half that do not compress to nothing, so zlib works across slices.
    static let store = Data((0..<(3 << 20) + (1 << 19)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })

    static let entries = [
        TarArchive.Entry(name: "manifest.json", bytes: Data(#"{"id":"20261127T040000Z-abcdef"}"#.utf8)),
        TarArchive.Entry(name: "market-svc.sqlite", bytes: store), TarArchive.Entry(name: "empty", bytes: Data()),
    ]

    func testAnArchiveGzippedPieceByPieceReadsBackAsTheJoinedOne() throws {
        let paced = try TarArchive.gzipped(Self.entries, pace: WorkPace(share: 0.9))
        XCTAssertTrue(Gzip.isCompressed(paced))
        XCTAssertLessThan(paced.count, Self.store.count)
        XCTAssertEqual(try TarArchive.decode(try Gzip.decompress(paced)), Self.entries)
        XCTAssertEqual(try Gzip.decompress(paced), try TarArchive.encode(Self.entries))
        XCTAssertEqual(try Gzip.decompress(try Gzip.compress(Data())), Data())
    }

    func testTheFirstEntryIsReadWithoutInflatingTheRest() throws {
        let archive = try TarArchive.gzipped(Self.entries)
        XCTAssertEqual(try TarArchive.firstEntry(ofGzipped: archive), Self.entries[0])
        // Cut far before the store ends: the manifest is still read, the whole is refused.
        let cut = archive.prefix(4096)
        XCTAssertEqual(try TarArchive.firstEntry(ofGzipped: cut), Self.entries[0])
        XCTAssertThrowsError(try Gzip.decompress(cut))
        XCTAssertThrowsError(try TarArchive.firstEntry(ofGzipped: Data("not gzip".utf8)))
        XCTAssertThrowsError(try TarArchive.firstEntry(ofGzipped: archive.prefix(20)))
        XCTAssertEqual(try Gzip.decompressPrefix(try Gzip.compress(Data("short".utf8)), count: 100), Data("short".utf8))
    }

    func testAFolderListsSnapshotsByTheirManifestsSmallOrLarge() async throws {
        let folder = try TestEnvironment.temporaryDirectory() + "/backups"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // A manifest of a few parts, and one of thousands of uploads whose digests do not
        // compress: more than the first read of a file holds.
        let few = BackupManifest(id: "20261127T040000Z-aaaaaa", startedAt: 1, finishedAt: 2, parts: [])
        let many = BackupManifest(
            id: "20261127T050000Z-bbbbbb", startedAt: 3, finishedAt: 4,
            parts: (0..<4000).map {
                BackupManifest.Part(name: "files/posts/\($0).jpg", sha256: BackupManifest.digest(Data("\($0)".utf8)), bytes: $0, takenAt: 3)
            })
        var archives: [Data] = []
        for manifest in [few, many] {
            let bytes = Data(buffer: JSONCoding.encode(manifest))
            let archive = try TarArchive.gzipped([
                TarArchive.Entry(name: "manifest.json", bytes: bytes), TarArchive.Entry(name: "store", bytes: Self.store),
            ])
            try archive.write(to: URL(fileURLWithPath: folder + "/" + manifest.id + Backups.archiveSuffix))
            archives.append(archive)
        }
        XCTAssertThrowsError(try TarArchive.firstEntry(ofGzipped: archives[1].prefix(64 << 10)), "the large manifest is not in the first read")
        let listed = try await Backups.list(in: .folder(folder))
        XCTAssertEqual(listed.map(\.id), [few.id, many.id])
        XCTAssertEqual(listed.last?.parts.count, 4000)
    }

    func testPacedWorkGoesSliceBySliceAndRestsAsLongAsItWorked() throws {
        var slices: [Int] = []
        let began = ContinuousClock.now
        WorkPace(share: 0.5).each([Self.store, Data(), Data("tail".utf8)]) { slice in
            slices.append(slice.count)
            Thread.sleep(forTimeInterval: 0.02)
        }
        XCTAssertEqual(slices, [1 << 20, 1 << 20, 1 << 20, 1 << 19, 4])
        // Five slices of at least 20 ms each, each followed by a rest as long: at least 200 ms.
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - began, .milliseconds(200))
        var joined = Data()
        WorkPace.unpaced.each([Self.store]) { joined.append($0) }
        XCTAssertEqual(joined, Self.store)
    }

    func testTheShareOfACoreIsSetInPercent() throws {
        XCTAssertEqual(try BackupSettings(reader: ConfigReader(environment: [:])).pace.share, 0.25)
        XCTAssertEqual(try BackupSettings(reader: ConfigReader(environment: ["BACKUP_CPU_PERCENT": "100"])).pace.share, 1)
        for refused in ["0", "101", "half"] {
            XCTAssertThrowsError(try BackupSettings(reader: ConfigReader(environment: ["BACKUP_CPU_PERCENT": refused])), refused)
        }
    }
}
