import AsyncHTTPClient
import Contracts
import Foundation
import ServiceKit
import ServiceLifecycle

/// Starts the eight children, waits for each to be healthy, restarts one that dies (with
/// backoff, reset after a stable minute) and on SIGINT/SIGTERM stops them all: SIGTERM first,
/// SIGKILL for any still alive after the grace period.
package actor Supervisor: Service {
    private let plan: LaunchPlan
    private let executable: URL
    private let output: PrefixedOutput
    private let http: HTTPClient
    private var children: [ServiceName: ChildProcess] = [:]
    private var failures: [ServiceName: (count: Int, since: ContinuousClock.Instant)] = [:]
    private var stopping = false

    package init(plan: LaunchPlan, executable: URL, output: PrefixedOutput, http: HTTPClient) {
        self.plan = plan
        self.executable = executable
        self.output = output
        self.http = http
    }

    package func run() async throws {
        try? FileManager.default.createDirectory(atPath: plan.dataDirectory, withIntermediateDirectories: true)
        do {
            // Backends first so the gateway's first health answer is meaningful.
            for service in ServiceName.backends { try start(service) }
            try await waitUntilHealthy(ServiceName.backends)
            try start(.gateway)
            try await waitUntilHealthy([.gateway])
            say("all eight services are healthy; gateway on http://127.0.0.1:\(plan.port(of: .gateway))")
            say("data folder: \(plan.dataDirectory); list app keys with: DATA_DIR=\(plan.dataDirectory) swift run auth-svc apps list")
            try? await gracefulShutdown()
        } catch {
            say("start failed: \(error)")
        }
        await stopAll()
    }

    private func start(_ service: ServiceName) throws {
        let child = try ChildProcess(
            service: service, executable: executable, environment: plan.environment(for: service), output: output,
            onExit: { [weak self] status in Task { await self?.exited(service, status: status) } }
        )
        children[service] = child
        say("started \(service.rawValue) pid \(child.pid) port \(plan.port(of: service))")
    }

    private func exited(_ service: ServiceName, status: Int32) async {
        guard !stopping else { return }
        let now = ContinuousClock.now
        var record = failures[service] ?? (0, now)
        if now - record.since > .seconds(60) { record = (0, now) }
        record.count += 1
        failures[service] = record
        // 100 ms, 200 ms, 400 ms … capped at 5 s: a crash loop must not spin the machine.
        let delay = Duration.milliseconds(min(5000, 100 << min(record.count - 1, 6)))
        say("\(service.rawValue) exited with status \(status); restarting in \(delay)")
        try? await Task.sleep(for: delay)
        guard !stopping else { return }
        do {
            try start(service)
        } catch {
            say("could not restart \(service.rawValue): \(error)")
        }
    }

    private func waitUntilHealthy(_ services: [ServiceName]) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        for service in services {
            while true {
                if await isHealthy(service) { break }
                guard ContinuousClock.now < deadline else { throw LaunchError.unhealthy(service) }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    private func isHealthy(_ service: ServiceName) async -> Bool {
        let request = HTTPClientRequest(url: "http://127.0.0.1:\(plan.port(of: service))/health")
        guard let response = try? await http.execute(request, timeout: .seconds(1)) else { return false }
        _ = try? await response.body.collect(upTo: 1 << 16)
        return response.status.code == 200
    }

    private func stopAll() async {
        stopping = true
        let running = children.values.filter(\.isRunning)
        say("stopping \(running.count) services")
        for child in running { child.signal(SIGTERM) }
        let deadline = ContinuousClock.now + .seconds(10)
        while running.contains(where: \.isRunning), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        for child in running where child.isRunning {
            say("\(child.service.rawValue) did not stop in time; killing it")
            child.signal(SIGKILL)
        }
        say("stopped")
    }

    private func say(_ text: String) {
        output.line(from: "glint", text)
    }

    enum LaunchError: Error, CustomStringConvertible {
        case unhealthy(ServiceName)

        var description: String {
            switch self {
            case .unhealthy(let service): "\(service.rawValue) did not become healthy within 60 s"
            }
        }
    }
}
