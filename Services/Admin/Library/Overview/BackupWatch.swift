import Backup
import Contracts
import FileStorage
import Prometheus
import ServiceLifecycle
import Synchronization

/// How the last backup ended, read every `interval`: from `DATA_DIR` (`BackupStatusFile`, written
/// by the launcher's schedule and by `glint backup create` on this machine) or, when snapshots go to
/// a bucket (`BACKUP_S3_URL`), from the bucket, where runs on any machine (a Kubernetes CronJob)
/// record it. For `/health`, the overview, and as gauges in `/metrics`, which an alert can watch.
final class BackupWatch: Service, Sendable {
    /// Where the status is read from.
    enum Source: Sendable {
        case folder(String)
        case bucket(S3Client)
    }

    private let source: Source
    private let interval: Duration
    private let failed: Gauge
    private let lastSuccess: Gauge
    private let last = Mutex<BackupHealth?>(nil)

    convenience init(dataDirectory: String, registry: PrometheusCollectorRegistry) {
        self.init(source: .folder(dataDirectory), registry: registry)
    }

    init(source: Source, registry: PrometheusCollectorRegistry, interval: Duration = .seconds(15)) {
        (self.source, self.interval) = (source, interval)
        failed = registry.makeGauge(
            descriptor: MetricNameDescriptor(metricName: "glint_backup_last_run", unitName: "failed", helpText: "1 when the last backup run failed"))
        lastSuccess = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "glint_backup_last_success_timestamp", unitName: "seconds",
                helpText: "when the last backup that succeeded ended (0: none yet)"))
        if case .folder(let dataDirectory) = source { show(BackupStatusFile.read(in: dataDirectory)) }
    }

    var current: BackupHealth? { last.withLock { $0 } }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await self.read()
                try? await Task.sleep(for: self.interval)
            }
        }
    }

    func read() async {
        switch source {
        case .folder(let dataDirectory):
            show(BackupStatusFile.read(in: dataDirectory))
        case .bucket(let client):
            do {
                show(try await BackupBucket.status(in: client))
            } catch {
                // The bucket not answering is a backup problem too: the next run would fail.
                let known = current
                show(
                    BackupHealth(
                        status: "failed", lastRunAt: known?.lastRunAt ?? 0, lastSnapshot: known?.lastSnapshot, lastSuccessAt: known?.lastSuccessAt,
                        error: "the backup bucket did not answer: \(error)"))
            }
        }
    }

    private func show(_ status: BackupHealth?) {
        last.withLock { $0 = status }
        failed.set(to: status?.status == "failed" ? 1 : 0)
        lastSuccess.set(to: Double(status?.lastSuccessAt ?? 0) / 1000)
    }
}
