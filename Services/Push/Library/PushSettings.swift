import Foundation
import ServiceKit
import Storage

/// push-svc's own environment variables.
package enum PushSettings {
    package static let fcmURL = ConfigVariable("PUSH_FCM_URL", default: "https://fcm.googleapis.com", "FCM HTTP v1 base URL")
    package static let fcmServiceAccount = ConfigVariable(
        "PUSH_FCM_SERVICE_ACCOUNT_FILE", default: "",
        "Firebase service-account JSON (project_id, client_email, private_key, token_uri); empty = no FCM delivery"
    )
    package static let fcmUserTopics = ConfigVariable(
        "PUSH_FCM_USER_TOPICS", default: "false", "also send each user's pushes to the FCM topic user_<user_id>")
    package static let apnsURL = ConfigVariable("PUSH_APNS_URL", default: "https://api.push.apple.com", "APNs base URL (HTTP/2 over TLS)")
    package static let apnsKeyFile = ConfigVariable("PUSH_APNS_KEY_FILE", default: "", "APNs auth key (.p8, ES256); empty = no APNs delivery")
    package static let apnsKeyID = ConfigVariable("PUSH_APNS_KEY_ID", default: "", "APNs auth key id")
    package static let apnsTeamID = ConfigVariable("PUSH_APNS_TEAM_ID", default: "", "Apple developer team id")
    package static let apnsTopic = ConfigVariable("PUSH_APNS_TOPIC", default: "", "the app's bundle id (apns-topic)")
    package static let apnsTrustedCA = ConfigVariable(
        "PUSH_APNS_CA_FILE", default: "", "extra CA certificate (PEM) to trust for APNs (tests and simulators only)")

    package static let databaseURL = ConfigVariable.databaseURL("PUSH", service: "push-svc")

    package static var all: [ConfigVariable] {
        [fcmURL, fcmServiceAccount, fcmUserTopics, apnsURL, apnsKeyFile, apnsKeyID, apnsTeamID, apnsTopic, apnsTrustedCA, databaseURL]
    }
}
