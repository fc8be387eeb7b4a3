import Contracts
import FileStorage
import Hummingbird
import ServiceKit

/// §1 profiles, search, follow, block, reports, attendance and profile image files.
struct ProfileRoutes: Sendable {
    let profiles: ProfileService
    let images: FileStore

    func register(public group: ServiceApplication.Group, protected: ServiceApplication.Group) {
        images.registerServing(on: group)
        protected.get("/v1/users/me/profile") { _, context -> ProfileAnswer in
            let user = try context.requireUser()
            return try await profiles.profile(of: user.userID, appID: user.appID, requestID: context.requestID)
        }
        protected.put("/v1/users/me/profile") { request, context -> ProfileAnswer in
            let user = try context.requireUser()
            if MultipartForm.isMultipart(request) {
                let form = try await MultipartForm.read(request, limits: .uploads)
                try await profiles.update(user, ProfileUpdate(form: form), image: form.files(named: "profile").first)
            } else {
                try await profiles.update(user, try await request.decode(as: ProfileUpdate.self, context: context), image: nil)
            }
            return try await profiles.profile(of: user.userID, appID: user.appID, requestID: context.requestID)
        }
        protected.get("/v1/users/search") { request, context -> DataList<UserInfo> in
            try await profiles.search(nick: request.uri.queryParameters["nick"].map(String.init), appID: try context.requireUser().appID)
        }
        protected.get("/v1/users/{user_id}/profile") { _, context -> ProfileAnswer in
            let target = try AccountRules.userID(try context.parameters.require("user_id"))
            return try await profiles.profile(of: target, appID: try context.requireUser().appID, requestID: context.requestID)
        }
        protected.post("/v1/follow/{user_id}") { _, context -> FollowAnswer in
            try await profiles.follow(try context.requireUser(), target: try context.parameters.require("user_id"), on: true)
        }
        protected.delete("/v1/follow/{user_id}") { _, context -> FollowAnswer in
            try await profiles.follow(try context.requireUser(), target: try context.parameters.require("user_id"), on: false)
        }
        protected.post("/v1/users/{user_id}/block") { _, context -> BlockAnswer in
            try await profiles.block(try context.requireUser(), target: try context.parameters.require("user_id"), on: true)
        }
        protected.delete("/v1/users/{user_id}/block") { _, context -> BlockAnswer in
            try await profiles.block(try context.requireUser(), target: try context.parameters.require("user_id"), on: false)
        }
        protected.post("/v1/reports") { request, context -> ReportAnswer in
            try await profiles.report(try context.requireUser(), try await request.decode(as: ReportRequest.self, context: context))
        }
        protected.post("/v1/users/attendance") { _, context -> AttendanceAnswer in
            try await profiles.attend(try context.requireUser())
        }
    }
}
