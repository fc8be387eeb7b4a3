import Backup
import Contracts
import ServiceLifecycle

/// Takes a snapshot at every time `schedule` names while the suite runs, then keeps the newest
/// `keep` (`Backups.run`, which records how each run ended for admin-svc to report).
package struct BackupScheduler: Service {
    let settings: BackupSettings
    let schedule: BackupSchedule
    let dataDirectory: String
    let say: @Sendable (String) -> Void

    package init(settings: BackupSettings, schedule: BackupSchedule, dataDirectory: String, say: @escaping @Sendable (String) -> Void) {
        (self.settings, self.schedule, self.dataDirectory, self.say) = (settings, schedule, dataDirectory, say)
    }

    package func run() async throws {
        say("backups \(schedule) (UTC) into \(settings.store(dataDirectory: dataDirectory).description), keeping \(settings.keep)")
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let now = GlintDate.nowMilliseconds()
                do {
                    try await Task.sleep(for: .milliseconds(schedule.next(after: now) - now))
                } catch {
                    return
                }
                await round()
            }
        }
    }

    /// One snapshot, then the oldest beyond `keep` removed.
    package func round() async {
        do {
            let taken = try await Backups.run(
                from: settings.sources(dataDirectory: dataDirectory), into: settings.store(dataDirectory: dataDirectory), keep: settings.keep)
            let bytes = taken.manifest.parts.map(\.bytes).reduce(0, +)
            say(
                "backup \(taken.manifest.id) taken (\(taken.manifest.parts.count) parts, \(bytes) bytes)"
                    + (taken.removed.isEmpty ? "" : "; removed \(taken.removed.joined(separator: ", "))"))
        } catch {
            say("backup failed: \(error)")
        }
    }
}
