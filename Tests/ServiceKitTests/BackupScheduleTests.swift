import Backup
import Contracts
import XCTest

/// `BACKUP_SCHEDULE`'s forms and the times they name (UTC), and the status file a run leaves.
final class BackupScheduleTests: XCTestCase {
    /// 2026-11-27T03:30:15Z.
    static let now = GlintDate.milliseconds(from: "2026-11-27T03:30:15.000Z")!

    func testEachFormNamesItsNextTime() throws {
        func next(_ text: String) throws -> String {
            GlintDate.string(fromMilliseconds: try XCTUnwrap(BackupSchedule(text), text).next(after: Self.now))
        }
        XCTAssertEqual(try next("hourly"), "2026-11-27T04:00:00.000Z")
        XCTAssertEqual(try next("daily 04:00"), "2026-11-27T04:00:00.000Z")
        XCTAssertEqual(try next("daily 03:30"), "2026-11-28T03:30:00.000Z", "the time itself has passed (by 15 s): tomorrow's")
        XCTAssertEqual(try next("every 6h"), "2026-11-27T06:00:00.000Z")
        XCTAssertEqual(try next("every 15m"), "2026-11-27T03:45:00.000Z")
        XCTAssertEqual(try next("every 10s"), "2026-11-27T03:30:20.000Z")
        XCTAssertEqual(try next("Daily 23:59"), "2026-11-27T23:59:00.000Z")
        let due = try XCTUnwrap(BackupSchedule("daily 04:00")).next(after: Self.now)
        XCTAssertEqual(BackupSchedule("daily 04:00")?.next(after: due), due + 86_400_000, "strictly after: the next day's")
    }

    func testMalformedSchedulesAreRefused() {
        for text in [
            "", "weekly", "daily", "daily 4:00", "daily 24:00", "daily 04:60", "every", "every 0m", "every 7m", "every 5d", "every -1h",
            "hourly 5",
        ] {
            XCTAssertNil(BackupSchedule(text), text)
        }
        XCTAssertEqual(BackupSchedule("every 6h")?.description, "every 21600s")
        XCTAssertEqual(BackupSchedule("daily 04:05")?.description, "daily 04:05")
    }

    func testARunsEndIsRecordedAndAFailureKeepsTheLastSuccess() throws {
        let folder = NSTemporaryDirectory() + "backup-status-" + ObjectID.generate()
        XCTAssertNil(BackupStatusFile.read(in: folder), "no run yet")
        try BackupStatusFile.record(in: folder, snapshot: "20261127T040000Z-abc123", error: nil, at: 1000)
        XCTAssertEqual(
            BackupStatusFile.read(in: folder),
            BackupHealth(status: "ok", lastRunAt: 1000, lastSnapshot: "20261127T040000Z-abc123", lastSuccessAt: 1000))
        try BackupStatusFile.record(in: folder, snapshot: nil, error: "disk full", at: 2000)
        XCTAssertEqual(
            BackupStatusFile.read(in: folder),
            BackupHealth(status: "failed", lastRunAt: 2000, lastSnapshot: "20261127T040000Z-abc123", lastSuccessAt: 1000, error: "disk full"))
    }
}
