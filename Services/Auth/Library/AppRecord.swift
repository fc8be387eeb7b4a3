import Contracts
import Foundation
import GRDB

/// A row of `app`: one registered client app (API key + compatibility profile).
struct AppRecord: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "app"

    var id: String
    var name: String
    var apiKey: String
    var profile: Dialect
    var refreshWithAccessTokenOnly: Bool
    var emptyAuthErrorBodies: Bool
    var socketAuthOptional: Bool
    var createdAt: Int64
    /// Apple "Services ID"/bundle ids accepted as `aud` of identity tokens, comma-separated.
    var appleClientIDs: String = ""
    /// The Kakao app id whose tokens this app accepts.
    var kakaoAppID: String = ""

    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, name, profile
        case apiKey = "api_key"
        case refreshWithAccessTokenOnly = "refresh_with_access_token_only"
        case emptyAuthErrorBodies = "empty_auth_error_bodies"
        case socketAuthOptional = "socket_auth_optional"
        case createdAt = "created_at"
        case appleClientIDs = "apple_client_ids"
        case kakaoAppID = "kakao_app_id"
    }

    var appleAudiences: [String] {
        appleClientIDs.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    typealias Columns = CodingKeys

    var info: AppInfo {
        AppInfo(
            appID: id, name: name, profile: profile,
            flags: AppFlags(
                refreshWithAccessTokenOnly: refreshWithAccessTokenOnly,
                emptyAuthErrorBodies: emptyAuthErrorBodies,
                socketAuthOptional: socketAuthOptional
            )
        )
    }
}

extension Dialect: DatabaseValueConvertible {}
