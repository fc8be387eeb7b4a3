import Contracts
import Foundation
import ServiceKit

extension GatewayPolicy {
    /// What one thread keeps of its own for the requests it decides (each front loop has one), so
    /// that deciding a request writes less of what the other loop's core holds: the route tables,
    /// the apps its requests named, copied out of the shared key cache, and request ids from a
    /// series of its own (the metrics, the rate limiter and the request log stay shared). Copies of
    /// an `AppInfo` taken from the shared cache took and dropped references to the same strings on
    /// both cores, eight per request, and the cache's lock and the process's id counter were two
    /// more lines both cores wrote (Benchmarks/README, session 45). Not `Sendable`: one thread's.
    final class Local {
        private struct Kept {
            var app: AppInfo
            var expires: ContinuousClock.Instant
            /// The shared cache's `forgetting` before this was read from it.
            var forgetting: Int
        }

        /// Apps and mounts one loop meets are few; past this many, it starts over.
        static let maxEntries = 256

        /// The policy's tables, copied (`RouteTable.copy`).
        let routes: RouteTable
        let mountedRoutes: [Dialect: RouteTable]
        private var byKey: [String: Kept] = [:]
        private var byMount: [String: Kept] = [:]
        private var ids = ObjectID.Series()
        /// Request ids carry whole seconds: the wall clock is read at most once a second.
        private var seconds: UInt32 = 0
        private var secondsRead: ContinuousClock.Instant?

        init(_ policy: GatewayPolicy) {
            routes = policy.routes.copy()
            mountedRoutes = policy.mountedRoutes.mapValues { $0.copy() }
        }

        /// `AppKeyCache.cached`, from this thread's copy while the shared entry would still be there.
        func app(forKey key: String, in apps: AppKeyCache, now: ContinuousClock.Instant) -> AppInfo?? {
            Self.app(key, from: &byKey, in: apps, now: now) { apps.cachedUntil(key, now: now) }
        }

        /// `AppKeyCache.cachedMount`, the same way.
        func app(forMount mount: Substring, in apps: AppKeyCache, now: ContinuousClock.Instant) -> AppInfo?? {
            let mount = String(mount)
            return Self.app(mount, from: &byMount, in: apps, now: now) { apps.cachedMountUntil(mount, now: now) }
        }

        /// The offered id when it is taken, else the next of this thread's series.
        func requestID(offered: String?, now: ContinuousClock.Instant) -> String {
            RequestIDMiddleware.requestID(offered: offered) {
                if secondsRead.map({ now - $0 >= .seconds(1) }) ?? true {
                    seconds = UInt32(truncatingIfNeeded: Int64(Date().timeIntervalSince1970))
                    secondsRead = now
                }
                return ids.next(seconds: seconds)
            }
        }

        private static func app(
            _ name: String, from kept: inout [String: Kept], in apps: AppKeyCache, now: ContinuousClock.Instant,
            shared: () -> (app: AppInfo?, expires: ContinuousClock.Instant)?
        ) -> AppInfo?? {
            // Read before the shared entry is: a copy of what the cache forgets meanwhile is not used.
            let forgetting = apps.forgetting
            if let found = kept[name], found.forgetting == forgetting, found.expires > now { return .some(found.app) }
            guard let (app, expires) = shared() else { return nil }
            // Unknown keys are refused (NIO's path answers those); only apps are worth a copy.
            guard let app else { return .some(nil) }
            if kept.count >= maxEntries { kept.removeAll(keepingCapacity: true) }
            let copy = app.ownCopy()
            kept[name] = Kept(app: copy, expires: expires, forgetting: forgetting)
            return .some(copy)
        }
    }
}

extension AppInfo {
    /// The same app in strings of this thread's own making: a copy's references are then
    /// counted on storage no other core touches.
    fileprivate func ownCopy() -> AppInfo {
        func fresh(_ string: String) -> String { String(decoding: Array(string.utf8), as: UTF8.self) }
        return AppInfo(appID: fresh(appID), name: fresh(name), profile: profile, flags: flags, mount: mount.map(fresh))
    }
}
