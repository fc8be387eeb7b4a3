// The C side of handing a connection from one process to another: the control-message macros
// (CMSG_*) that build and read an SCM_RIGHTS message are not callable from Swift.
#include "socket_handoff.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

int glint_handoff_send(int channel, int fd, const void *bytes, size_t length) {
    struct iovec part = { .iov_base = (void *)bytes, .iov_len = length };
    union {
        char space[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof(control));
    struct msghdr message = {
        .msg_iov = &part, .msg_iovlen = 1,
        .msg_control = control.space, .msg_controllen = sizeof(control.space),
    };
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &fd, sizeof(int));
    ssize_t sent;
    do {
        sent = sendmsg(channel, &message, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    if (sent < 0) return -errno;
    return (size_t)sent == length ? 0 : -EMSGSIZE;
}

ssize_t glint_handoff_receive(int channel, int *fd, void *buffer, size_t capacity) {
    *fd = -1;
    struct iovec part = { .iov_base = buffer, .iov_len = capacity };
    union {
        char space[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    struct msghdr message = {
        .msg_iov = &part, .msg_iovlen = 1,
        .msg_control = control.space, .msg_controllen = sizeof(control.space),
    };
    ssize_t received;
    do {
        received = recvmsg(channel, &message, MSG_CMSG_CLOEXEC);
    } while (received < 0 && errno == EINTR);
    if (received < 0) return -errno;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_RIGHTS && header->cmsg_len == CMSG_LEN(sizeof(int))) {
            memcpy(fd, CMSG_DATA(header), sizeof(int));
        }
    }
    if (message.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
        // A message that did not fit is refused whole; its descriptor must not leak.
        if (*fd >= 0) close(*fd);
        *fd = -1;
        return -EMSGSIZE;
    }
    return received;
}
