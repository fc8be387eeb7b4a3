#ifndef GLINT_EVENT_POLL_H
#define GLINT_EVENT_POLL_H

#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

// What the gateway's front loops need of the kernel.

/// epoll, with the event's data as one integer: `struct epoll_event` is packed on x86_64, which
/// Swift reads field by field at a cost per event.
int glint_epoll_ctl(int poll, int operation, int descriptor, uint32_t events, uint64_t data);

/// Waits up to `timeout` ms for at most `capacity` (≤ 64) events, each written as its flags and data.
int glint_epoll_wait(int poll, uint32_t *_Nonnull flags, uint64_t *_Nonnull data, int capacity, int timeout);

/// Names the calling thread for the kernel (at most 15 bytes are kept): what `top -H`, `perf` and
/// `/proc/<pid>/task/<tid>/comm` show for a front loop.
void glint_name_thread(const char *_Nonnull name);

#endif
