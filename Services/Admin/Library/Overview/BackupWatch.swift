import Backup
import Contracts
import Prometheus
import ServiceLifecycle
import Synchronization

/// How the last backup on this machine ended (`BackupStatusFile` in `DATA_DIR`, written by the
/// launcher's schedule and by `glint backup create`), read every `interval`: for `/health`, for
/// the overview and as gauges in `/metrics`, which an alert can watch.
final class BackupWatch: Service, Sendable {
    private let dataDirectory: String
    private let interval: Duration
    private let failed: Gauge
    private let lastSuccess: Gauge
    private let last = Mutex<BackupHealth?>(nil)

    init(dataDirectory: String, registry: PrometheusCollectorRegistry, interval: Duration = .seconds(15)) {
        (self.dataDirectory, self.interval) = (dataDirectory, interval)
        failed = registry.makeGauge(
            descriptor: MetricNameDescriptor(metricName: "glint_backup_last_run", unitName: "failed", helpText: "1 when the last backup run failed"))
        lastSuccess = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "glint_backup_last_success_timestamp", unitName: "seconds",
                helpText: "when the last backup that succeeded ended (0: none yet)"))
        read()
    }

    var current: BackupHealth? { last.withLock { $0 } }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: self.interval)
                self.read()
            }
        }
    }

    func read() {
        let status = BackupStatusFile.read(in: dataDirectory)
        last.withLock { $0 = status }
        failed.set(to: status?.status == "failed" ? 1 : 0)
        lastSuccess.set(to: Double(status?.lastSuccessAt ?? 0) / 1000)
    }
}
