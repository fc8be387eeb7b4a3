import Backup
import Contracts
import Foundation
import Hummingbird
import Launcher
import NIOCore
import ServiceKit
import Simulators
import TestSupport
import XCTest

/// `Deploy/k8s/`: every setting each process reads is set by its manifest (ConfigMaps, Secrets,
/// its own `env`) and nothing else is; probes, ports and the gateway's list of chat-svc pods agree
/// with the code; Kubernetes' own schemas and `kubectl apply --dry-run=client` accept the files.
final class KubernetesManifestTests: XCTestCase {
    static let directory = DeploymentFilesTests.root.appendingPathComponent("Deploy/k8s")

    static func files() throws -> [String] {
        try [directory, directory.appendingPathComponent("examples")].flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }.sorted()
                .map { folder.appendingPathComponent($0).path }
        }
    }

    /// Every document, read by PyYAML (the test virtualenv's).
    static func documents() async throws -> [[String: Any]] {
        let process = try RunningProcess(
            url: try ChatThroughGatewayTests.python(), name: "manifests",
            arguments: [DeploymentFilesTests.root.appendingPathComponent("Tests/IntegrationTests/Python/manifests.py").path] + files(),
            environment: ProcessInfo.processInfo.environment
        )
        let status = try await process.exitStatus()
        XCTAssertEqual(status, 0, process.transcript)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(process.transcript.utf8)) as? [[String: Any]])
    }

    private static func named(_ documents: [[String: Any]], _ kind: String) -> [String: [String: Any]] {
        Dictionary(documents.filter { $0["kind"] as? String == kind }.map { (($0["metadata"] as? [String: Any])?["name"] as? String ?? "", $0) }) {
            a, _ in a
        }
    }

    func testEverySettingAProcessReadsIsSetByItsManifestAndNothingElse() async throws {
        let documents = try await Self.documents()
        let configMaps = Self.named(documents, "ConfigMap").mapValues { $0["data"] as? [String: String] ?? [:] }
        let secrets = Self.named(documents, "Secret").mapValues { $0["stringData"] as? [String: String] ?? [:] }
        let workloads = Self.named(documents, "Deployment").merging(Self.named(documents, "StatefulSet")) { a, _ in a }
        let services = Self.named(documents, "Service")
        for service in ServiceName.allCases {
            let workload = try XCTUnwrap(workloads[service.rawValue], "\(service.rawValue) has a Deployment or StatefulSet")
            let pod = try XCTUnwrap(((workload["spec"] as? [String: Any])?["template"] as? [String: Any])?["spec"] as? [String: Any])
            let container = try XCTUnwrap((pod["containers"] as? [[String: Any]])?.first)
            XCTAssertEqual(container["command"] as? [String], [service.rawValue], "\(service.rawValue) runs its own executable")
            var settings: [String: String] = [:]
            for source in container["envFrom"] as? [[String: Any]] ?? [] {
                if let name = (source["configMapRef"] as? [String: Any])?["name"] as? String {
                    settings.merge(try XCTUnwrap(configMaps[name], "ConfigMap \(name)")) { $1 }
                }
                if let name = (source["secretRef"] as? [String: Any])?["name"] as? String {
                    settings.merge(try XCTUnwrap(secrets[name], "Secret \(name) (examples/secrets.yaml)")) { $1 }
                }
            }
            for variable in container["env"] as? [[String: Any]] ?? [] {
                settings[try XCTUnwrap(variable["name"] as? String)] = variable["value"] as? String ?? ""
            }
            // Set by `glint` for its children only: a container has no launcher.
            let reads = Set(ServiceCatalog.variables(for: service).map(\.name)).subtracting([CommonSettings.parentPID.name])
            XCTAssertEqual(reads.subtracting(settings.keys).sorted(), [], "\(service.rawValue) reads these; its manifest sets none of them")
            XCTAssertEqual(Set(settings.keys).subtracting(reads).sorted(), [], "\(service.rawValue)'s manifest sets these; the code never reads them")
            XCTAssertEqual(settings["PORT"], String(service.defaultPort))
            XCTAssertEqual(settings["HOST"], "0.0.0.0", "reachable from other pods")
            XCTAssertEqual((container["ports"] as? [[String: Any]])?.first?["containerPort"] as? Int, service.defaultPort)

            let readiness = try XCTUnwrap(container["readinessProbe"] as? [String: Any], "\(service.rawValue) readiness")
            let liveness = try XCTUnwrap(container["livenessProbe"] as? [String: Any], "\(service.rawValue) liveness")
            for probe in [readiness, liveness] {
                if service == .gateway {
                    // The gateway's /health is the whole suite's: its own port stands for it.
                    XCTAssertNotNil(probe["tcpSocket"], "gateway probes")
                } else {
                    XCTAssertEqual((probe["httpGet"] as? [String: Any])?["path"] as? String, "/health", "\(service.rawValue) probes /health")
                }
            }
            let exposed = try XCTUnwrap(services[service.rawValue], "a Service named \(service.rawValue), as the URLs say")
            XCTAssertEqual(
                ((exposed["spec"] as? [String: Any])?["ports"] as? [[String: Any]])?.first?["port"] as? Int,
                service.defaultPort == 8080 ? 80 : service.defaultPort)
            for (name, value) in settings where name.hasSuffix("_SVC_URL") && !(service == .gateway && name == ServiceName.chat.urlVariable) {
                let target = try XCTUnwrap(ServiceName.allCases.first { $0.urlVariable == name })
                XCTAssertEqual(value, "http://\(target.rawValue):\(target.defaultPort)")
            }
        }

        // The gateway names every chat-svc pod the autoscaler may make, by the StatefulSet's names.
        let gatewayChat = try XCTUnwrap(configMaps["glint-gateway"]?[ServiceName.chat.urlVariable]).split(separator: ",").map(String.init)
        let autoscaler = try XCTUnwrap(Self.named(documents, "HorizontalPodAutoscaler")["chat-svc"]?["spec"] as? [String: Any])
        let chatSet = try XCTUnwrap(workloads["chat-svc"]?["spec"] as? [String: Any])
        XCTAssertEqual(
            gatewayChat,
            (0..<(try XCTUnwrap(autoscaler["maxReplicas"] as? Int))).map {
                "http://chat-svc-\($0).\(chatSet["serviceName"] as? String ?? ""):\(ServiceName.chat.defaultPort)"
            })
        XCTAssertEqual(workloads["chat-svc"]?["kind"] as? String, "StatefulSet")
        for scaled in ["gateway", "chat-svc", "market-svc"] {
            XCTAssertNotNil(Self.named(documents, "HorizontalPodAutoscaler")[scaled], "\(scaled) autoscales")
        }
        // auth-svc's replicas share their keys: the files its settings name are in a mounted Secret.
        let auth = try XCTUnwrap(configMaps["glint-auth-svc"])
        for key in ["AUTH_SIGNING_KEY_FILE", "AUTH_SEALING_KEY_FILE"] { XCTAssertTrue(auth[key]?.hasPrefix("/keys/") == true, key) }
        let authPod = try XCTUnwrap(((workloads["auth-svc"]?["spec"] as? [String: Any])?["template"] as? [String: Any])?["spec"] as? [String: Any])
        let keys = (authPod["volumes"] as? [[String: Any]])?.first {
            (($0["secret"] as? [String: Any])?["secretName"] as? String) == "glint-auth-keys"
        }
        let keysMount = ((authPod["containers"] as? [[String: Any]])?.first?["volumeMounts"] as? [[String: Any]])?.first {
            $0["mountPath"] as? String == "/keys"
        }
        XCTAssertEqual(keysMount?["name"] as? String, try XCTUnwrap(keys?["name"] as? String))
    }

    /// The nightly CronJob dumps every database a service's manifest names, asks geo-svc (on its
    /// own volume) for a copy, writes into the bucket admin-svc reads the status from, and sets
    /// nothing `glint backup` does not read.
    func testTheBackupCronJobDumpsEveryDatabaseIntoTheBucket() async throws {
        let documents = try await Self.documents()
        let configMaps = Self.named(documents, "ConfigMap").mapValues { $0["data"] as? [String: String] ?? [:] }
        let secrets = Self.named(documents, "Secret").mapValues { $0["stringData"] as? [String: String] ?? [:] }
        let job = try XCTUnwrap(Self.named(documents, "CronJob")["glint-backup"])
        let jobTemplate = try XCTUnwrap((job["spec"] as? [String: Any])?["jobTemplate"] as? [String: Any])
        let pod = try XCTUnwrap(((jobTemplate["spec"] as? [String: Any])?["template"] as? [String: Any])?["spec"] as? [String: Any])
        let container = try XCTUnwrap((pod["containers"] as? [[String: Any]])?.first)
        XCTAssertEqual((container["command"] as? [String])?.prefix(3), ["glint", "backup", "create"])
        var settings: Set<String> = []
        for source in container["envFrom"] as? [[String: Any]] ?? [] {
            if let name = (source["configMapRef"] as? [String: Any])?["name"] as? String { settings.formUnion(try XCTUnwrap(configMaps[name]).keys) }
            if let name = (source["secretRef"] as? [String: Any])?["name"] as? String { settings.formUnion(try XCTUnwrap(secrets[name]).keys) }
        }
        for variable in container["env"] as? [[String: Any]] ?? [] {
            let name = try XCTUnwrap(variable["name"] as? String)
            settings.insert(name)
            if let reference = (variable["valueFrom"] as? [String: Any])?["secretKeyRef"] as? [String: Any] {
                let secret = try XCTUnwrap(reference["name"] as? String), key = try XCTUnwrap(reference["key"] as? String)
                XCTAssertNotNil(secrets[secret]?[key], "\(name) comes from \(secret).\(key), which exists")
            }
            if let reference = (variable["valueFrom"] as? [String: Any])?["configMapKeyRef"] as? [String: Any] {
                let map = try XCTUnwrap(reference["name"] as? String), key = try XCTUnwrap(reference["key"] as? String)
                XCTAssertNotNil(configMaps[map]?[key], "\(name) comes from \(map).\(key), which exists")
            }
        }
        let databases = Set(secrets.values.flatMap(\.keys).filter { $0.hasSuffix("_DATABASE_URL") })
        XCTAssertFalse(databases.isEmpty)
        XCTAssertEqual(databases.subtracting(settings).sorted(), [], "every database the services are given is dumped")
        let reads = Set(
            (BackupSettings.all + BackupSettings.asking).map(\.name)
                + ServiceName.allCases.compactMap { ServiceCatalog.databaseURLVariable(for: $0)?.name })
        XCTAssertTrue(settings.isSuperset(of: BackupSettings.asking.map(\.name)), "geo-svc is asked for its store")
        XCTAssertEqual(settings.subtracting(reads).sorted(), [], "set, never read by glint backup")
        XCTAssertTrue(settings.isSuperset(of: BackupBucket.all.map(\.name)), "into the bucket")
    }

    func testKubernetesSchemasAcceptTheManifests() async throws {
        let validator = try ChatThroughGatewayTests.python().deletingLastPathComponent().appendingPathComponent("kubernetes-validate")
        let process = try RunningProcess(
            url: validator, name: "kubernetes-validate", arguments: ["--strict", "--quiet"] + Self.files(),
            environment: ProcessInfo.processInfo.environment)
        let status = try await process.exitStatus(within: .seconds(120))
        XCTAssertEqual(status, 0, process.transcript)
    }

    /// kubectl's client-side dry run needs an API server to learn the kinds from: a stand-in
    /// answers discovery and "not found" for every object, so each one is a create.
    func testKubectlAppliesTheManifestsInADryRun() async throws {
        guard let kubectl = ["/usr/bin/kubectl", "/usr/local/bin/kubectl"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("kubectl is not installed (Debian has no package of it); the schema check above still ran")
        }
        let server = try await LiveServer.start(try Self.discovery())
        defer { Task { await server.stop() } }
        let config = try TestEnvironment.temporaryDirectory() + "/kubeconfig"
        try """
        apiVersion: v1
        kind: Config
        clusters: [{name: stand-in, cluster: {server: "\(server.url)"}}]
        contexts: [{name: stand-in, context: {cluster: stand-in, user: stand-in, namespace: glint}}]
        current-context: stand-in
        users: [{name: stand-in, user: {}}]
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let folder = Self.directory.path
        let process = try RunningProcess(
            url: URL(fileURLWithPath: kubectl), name: "kubectl",
            arguments: ["--kubeconfig", config, "apply", "--dry-run=client", "--validate=false", "-f", folder, "-f", folder + "/examples"],
            environment: ProcessInfo.processInfo.environment
        )
        let status = try await process.exitStatus(within: .seconds(120))
        XCTAssertEqual(status, 0, process.transcript)
        let documents = try await Self.documents()
        let created = process.transcript.split(separator: "\n").filter { $0.hasSuffix(" created (dry run)") }
        XCTAssertEqual(created.count, documents.count, process.transcript)
    }

    /// What kubectl asks before a client-side dry run: the API's groups and their kinds.
    private static func discovery() throws -> Router<BasicRequestContext> {
        let verbs = ["create", "delete", "get", "list", "patch", "update", "watch"]
        func resources(_ groupVersion: String, _ kinds: [(String, String)]) -> [String: Any] {
            [
                "kind": "APIResourceList", "groupVersion": groupVersion,
                "resources": kinds.map { name, kind in
                    ["name": name, "singularName": kind.lowercased(), "namespaced": true, "kind": kind, "verbs": verbs]
                },
            ]
        }
        let groups: [(String, String)] = [("apps", "v1"), ("autoscaling", "v2"), ("batch", "v1")]
        let answers: [String: Any] = [
            "/api": [
                "kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": [["clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1"]],
            ],
            "/apis": [
                "kind": "APIGroupList", "apiVersion": "v1",
                "groups": groups.map { group, version in
                    let preferred = ["groupVersion": group + "/" + version, "version": version]
                    return ["name": group, "versions": [preferred], "preferredVersion": preferred] as [String: Any]
                },
            ],
            "/api/v1": resources(
                "v1",
                [("configmaps", "ConfigMap"), ("secrets", "Secret"), ("services", "Service"), ("persistentvolumeclaims", "PersistentVolumeClaim")]),
            "/apis/apps/v1": resources("apps/v1", [("deployments", "Deployment"), ("statefulsets", "StatefulSet")]),
            "/apis/autoscaling/v2": resources("autoscaling/v2", [("horizontalpodautoscalers", "HorizontalPodAutoscaler")]),
            "/apis/batch/v1": resources("batch/v1", [("cronjobs", "CronJob")]),
        ]
        let encoded = try answers.mapValues { try JSONSerialization.data(withJSONObject: $0) }
        let notFound = try JSONSerialization.data(withJSONObject: [
            "kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "NotFound", "code": 404,
        ])
        let router = Router()
        router.get("**") { request, _ -> Response in
            let found = encoded[request.uri.path]
            return Response(
                status: found == nil ? .notFound : .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: found ?? notFound)))
        }
        return router
    }
}
