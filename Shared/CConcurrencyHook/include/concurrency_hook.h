#ifndef GLINT_CONCURRENCY_HOOK_H
#define GLINT_CONCURRENCY_HOOK_H

/// The address of the Swift runtime's `swift_task_enqueueGlobal_hook`, resolved by the linker:
/// `dlsym` finds it only when the runtime is a shared library, and release images link it
/// statically (`--static-swift-stdlib`), where the symbol is not exported.
void *_Nullable *_Nonnull glint_enqueue_global_hook_slot(void);

#endif
