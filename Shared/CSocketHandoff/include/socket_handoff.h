#ifndef GLINT_SOCKET_HANDOFF_H
#define GLINT_SOCKET_HANDOFF_H

#include <stddef.h>
#include <sys/types.h>

/// Sends `bytes` and the descriptor `fd` (SCM_RIGHTS) as one message on the Unix socket
/// `channel`. Returns 0, or -errno.
int glint_handoff_send(int channel, int fd, const void *bytes, size_t length);

/// Receives one message on the Unix socket `channel`: its bytes into `buffer` and the
/// descriptor it carried into `*fd` (-1 when none). Returns the byte count, 0 at the end of the
/// stream, or -errno.
ssize_t glint_handoff_receive(int channel, int *fd, void *buffer, size_t capacity);

#endif
