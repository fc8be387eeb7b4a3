// Referenced from C because Swift cannot declare an external variable of the runtime.
#include "concurrency_hook.h"

extern void *swift_task_enqueueGlobal_hook;

void *_Nullable *_Nonnull glint_enqueue_global_hook_slot(void) { return &swift_task_enqueueGlobal_hook; }
