import AsyncHTTPClient
import Contracts
import Foundation
import Logging
import NIOCore
import ServiceKit
import ServiceLifecycle
import Synchronization

/// Reads every process's `/health` and `/metrics` every `interval` and keeps the last readings,
/// so the overview shows each one's state, its requests and 5xx answers per second over the last
/// minute, and its request rate over the last ten minutes. Nothing is kept across restarts.
final class ProcessMonitor: Service, Sendable {
    struct Reading: Sendable {
        var at: ContinuousClock.Instant
        var requests: Double
        var errors: Double
    }

    private struct Watched: Sendable {
        var status = "unknown"
        var readings: [Reading] = []
    }

    let interval: Duration
    private let http: HTTPClient
    private let targets: [(ServiceName, String)]
    private let logger: Logger
    private let state = Mutex<[ServiceName: Watched]>([:])
    /// Readings kept per process (ten minutes at the default interval).
    static let kept = 41

    init(http: HTTPClient, configuration: CommonConfiguration, interval: Duration = .seconds(15), logger: Logger) {
        (self.http, self.interval, self.logger) = (http, interval, logger)
        targets = ServiceName.allCases.map { ($0, configuration.url(of: $0)) }
    }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await self.readAll()
                try? await Task.sleep(for: self.interval)
            }
        }
    }

    /// Every process as last read.
    func processes() -> [ProcessHealth] {
        state.withLock { state in
            targets.map { service, _ in
                let watched = state[service] ?? Watched()
                let readings = watched.readings
                var rates: [Double] = []
                for (earlier, later) in zip(readings, readings.dropFirst()) { rates.append(Self.rate(earlier, later, \.requests)) }
                // The last minute: the latest reading against the first one at least a minute older (or the oldest).
                let latest = readings.last
                let base = latest.flatMap { latest in readings.last { latest.at - $0.at >= .seconds(60) } } ?? readings.first
                var perSecond: Double?, errors: Double?
                if let latest, let base, latest.at > base.at {
                    (perSecond, errors) = (Self.rate(base, latest, \.requests), Self.rate(base, latest, \.errors))
                }
                return ProcessHealth(
                    service: service.rawValue, status: watched.status, requestsPerSecond: perSecond, errorsPerSecond: errors, recent: rates)
            }
        }
    }

    func readAll() async {
        await withTaskGroup(of: Void.self) { group in
            for (service, url) in targets {
                group.addTask { await self.read(service, url) }
            }
        }
    }

    private func read(_ service: ServiceName, _ url: String) async {
        var status = "unreachable"
        var reading: Reading?
        do {
            let health = try await http.execute(HTTPClientRequest(url: url + "/health"), timeout: .seconds(3))
            _ = try await health.body.collect(upTo: 64 << 10)
            // The gateway's health is the suite's: a 503 there says a service behind it is down.
            status = health.status == .ok ? "ok" : (service == .gateway ? "degraded" : "failing")
            let metrics = try await http.execute(HTTPClientRequest(url: url + "/metrics"), timeout: .seconds(3))
            let text = String(buffer: try await metrics.body.collect(upTo: 8 << 20))
            let (requests, errors) = Self.requestCounts(text)
            reading = Reading(at: .now, requests: requests, errors: errors)
        } catch {
            logger.debug("process not read", metadata: ["service": "\(service.rawValue)", "error": "\(error)"])
        }
        state.withLock { state in
            var watched = state[service] ?? Watched()
            watched.status = status
            if let reading {
                // A restart starts its counters over: earlier readings no longer compare.
                if let last = watched.readings.last, reading.requests < last.requests { watched.readings.removeAll() }
                watched.readings.append(reading)
                if watched.readings.count > Self.kept { watched.readings.removeFirst(watched.readings.count - Self.kept) }
            }
            state[service] = watched
        }
    }

    /// The sums of `http_requests_total` and of its samples with a 5xx status, from Prometheus text.
    static func requestCounts(_ text: String) -> (requests: Double, errors: Double) {
        var requests = 0.0, errors = 0.0
        for line in text.split(separator: "\n") where line.hasPrefix("http_requests_total") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            requests += value
            if line.contains("status=\"5") { errors += value }
        }
        return (requests, errors)
    }

    private static func rate(_ earlier: Reading, _ later: Reading, _ count: KeyPath<Reading, Double>) -> Double {
        let elapsed = later.at - earlier.at
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        guard seconds > 0 else { return 0 }
        return ((later[keyPath: count] - earlier[keyPath: count]) / seconds * 100).rounded() / 100
    }
}
