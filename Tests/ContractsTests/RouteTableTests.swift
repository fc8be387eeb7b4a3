import Contracts
import XCTest

final class RouteTableTests: XCTestCase {
    let table = RouteTable.standard

    func testFixedSegmentsWinOverParameters() {
        XCTAssertEqual(table.match(method: "GET", path: "/v1/filters/hot-trend")?.pattern, "/v1/filters/hot-trend")
        XCTAssertEqual(table.match(method: "GET", path: "/v1/filters/6740369b3a36e82f532ec721")?.pattern, "/v1/filters/{filter_id}")
        XCTAssertEqual(table.match(method: "GET", path: "/v1/users/me/profile")?.pattern, "/v1/users/me/profile")
        XCTAssertEqual(table.match(method: "GET", path: "/v1/users/6740369b3a36e82f532ec721/profile")?.pattern, "/v1/users/{user_id}/profile")
    }

    func testBacktracksWhenTheFixedBranchLacksTheMethod() {
        // "users" is a fixed child of /v1/filters, but GET /v1/filters/users is filter id "users".
        XCTAssertEqual(table.match(method: "GET", path: "/v1/filters/users")?.pattern, "/v1/filters/{filter_id}")
    }

    func testOwnersAcrossSharedPrefixes() {
        XCTAssertEqual(table.match(method: "GET", path: "/v1/users/today-author")?.service, .market)
        XCTAssertEqual(table.match(method: "PUT", path: "/v1/users/deviceToken")?.service, .push)
        XCTAssertEqual(table.match(method: "GET", path: "/v1/posts/geolocation")?.service, .geo)
        XCTAssertEqual(table.match(method: "GET", path: "/v1/posts/6740369b3a36e82f532ec721")?.service, .market)
        XCTAssertEqual(table.match(method: "GET", path: "/v1/data/profiles/a/b.jpg")?.service, .auth)
        XCTAssertEqual(table.match(method: "HEAD", path: "/v1/data/chats/x.png")?.service, .chat)
        XCTAssertEqual(table.match(method: "GET", path: "/v1/data/filters/ab12.jpg")?.service, .market)
    }

    func testHeadGoesWhereverGetGoes() {
        for route in RouteTable.publicRoutes where route.method == "GET" {
            let head = table.match(method: "HEAD", path: route.pattern)
            XCTAssertEqual(head?.service, route.service, route.pattern)
            XCTAssertEqual(head?.appKey, route.appKey, route.pattern)
        }
        XCTAssertNil(table.match(method: "HEAD", path: "/v1/users/validation/email"), "POST only")
    }

    func testTrailingAndRepeatedSlashes() {
        XCTAssertEqual(table.match(method: "POST", path: "/v1/users/join/")?.service, .auth)
        XCTAssertEqual(table.match(method: "POST", path: "/v1//users/join")?.service, .auth)
    }

    /// Segments are compared as bytes of the path as given: a slice of a longer string (a
    /// mount's path without its mount) and segments beyond ASCII.
    func testSlicesAndNonASCIISegments() {
        let mounted = "/quotehub/v1/filters/hot-trend"
        XCTAssertEqual(table.match(method: "GET", path: mounted.dropFirst("/quotehub".count))?.pattern, "/v1/filters/hot-trend")
        XCTAssertEqual(table.match(method: "GET", path: "/v1/filters/핫트렌드")?.pattern, "/v1/filters/{filter_id}")
        XCTAssertNil(table.match(method: "GET", path: "/v1/filters/hot-trend/x"))
    }

    func testUnknownPathsAndMethods() {
        XCTAssertNil(table.match(method: "GET", path: "/v1/nothing"))
        XCTAssertNil(table.match(method: "DELETE", path: "/v1/users/join"))
        XCTAssertNil(table.match(method: "GET", path: "/"))
        XCTAssertNil(table.match(method: "GET", path: "/v2/users/join"))
    }

    func testAppKeyRules() {
        XCTAssertEqual(table.match(method: "GET", path: "/socket.io/")?.appKey, .optional)
        XCTAssertEqual(table.match(method: "POST", path: "/socket.io/")?.service, .chat)
        XCTAssertEqual(table.match(method: "POST", path: "/v1/payments/webhook")?.appKey, AppKeyRule.none)
        XCTAssertEqual(table.match(method: "POST", path: "/v1/users/login")?.appKey, .required)
    }

    func testEveryPublicRouteResolvesToItself() {
        for route in RouteTable.publicRoutes {
            let match = table.match(method: route.method, path: Self.path(of: route))
            XCTAssertEqual(match?.pattern, route.pattern, "\(route.method) \(route.pattern)")
            XCTAssertEqual(match?.service, route.service, "\(route.method) \(route.pattern)")
        }
    }

    /// A copy (a front loop's own) answers every path as the table it was copied from.
    func testACopyMatchesAsTheTable() {
        for (original, routes) in [(table, RouteTable.publicRoutes), (RouteTable.mounted[.quotehub]!, RouteTable.quotehubRoutes)] {
            let copy = original.copy()
            for route in routes {
                for method in [route.method, "HEAD", "DELETE"] {
                    let path = Self.path(of: route)
                    XCTAssertEqual(copy.match(method: method, path: path), original.match(method: method, path: path), "\(method) \(path)")
                }
            }
            XCTAssertEqual(copy.match(method: "GET", path: "/nowhere/at/all"), original.match(method: "GET", path: "/nowhere/at/all"))
        }
    }

    /// A path the route's pattern matches.
    private static func path(of route: Route) -> String {
        "/"
            + route.pattern
            .replacingOccurrences(of: "/**", with: "/some/file.jpg")
            .split(separator: "/").map { $0.hasPrefix("{") ? "6740369b3a36e82f532ec721" : String($0) }
            .joined(separator: "/")
    }
}
