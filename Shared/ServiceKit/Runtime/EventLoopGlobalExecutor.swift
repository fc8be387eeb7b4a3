import CConcurrencyHook
import NIOCore
import NIOPosix

/// Swift's global executor replaced by NIO's event loops: a task runs on the loop that enqueued
/// it (the loop that read the request) instead of crossing to Swift's own pool and back.
///
/// Why not `NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()`:
/// it runs each job *isolated to the loop's serial executor*, so the task's current executor is
/// never the generic one, and every nonisolated `async` function it enters hops "to the generic
/// executor" — a real switch (`swift_task_switch` → enqueue → the loop's next tick) each time.
/// Counted on market-svc (uprobes): 68 switches per `GET /v1/posts/{id}`, six per middleware.
/// Here a job runs with the generic executor and the global concurrent executor as its task
/// executor, which is what a task without a preference asks for: those hops cost nothing.
package enum EventLoopGlobalExecutor {
    private typealias EnqueueHook = @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void

    /// Installs the hook unless another is set; false when one is. Call once, at start, before
    /// the services' loops take work. The slot is the linker's (not `dlsym`'s), so statically
    /// linked release builds get the hook too.
    package static func install() -> Bool {
        let slot = UnsafeMutableRawPointer(glint_enqueue_global_hook_slot()).assumingMemoryBound(to: EnqueueHook?.self)
        guard slot.pointee == nil else { return false }
        slot.pointee = { job, _ in
            // `any()` is the calling loop when called on one of the group's loops: no thread switch.
            MultiThreadedEventLoopGroup.singleton.any().execute {
                job.runSynchronously(on: globalConcurrentExecutor.asUnownedTaskExecutor())
            }
        }
        return true
    }
}
