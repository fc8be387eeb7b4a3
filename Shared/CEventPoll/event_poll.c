#include "event_poll.h"

#include <sys/prctl.h>

int glint_epoll_ctl(int poll, int operation, int descriptor, uint32_t events, uint64_t data) {
    struct epoll_event event = {.events = events, .data = {.u64 = data}};
    return epoll_ctl(poll, operation, descriptor, &event);
}

int glint_epoll_wait(int poll, uint32_t *flags, uint64_t *data, int capacity, int timeout) {
    struct epoll_event events[64];
    if (capacity > 64) capacity = 64;
    int count = epoll_wait(poll, events, capacity, timeout);
    for (int i = 0; i < count; i++) {
        flags[i] = events[i].events;
        data[i] = events[i].data.u64;
    }
    return count;
}

void glint_name_thread(const char *name) {
    prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}
