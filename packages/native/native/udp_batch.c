// The batch UDP transport (IPv4; used by @waved/captive-dns): reads up to BATCH datagrams with one
// recvmmsg(2), calls JavaScript once for the whole batch, and sends the replies with one sendmmsg(2).
// Every socket is its own `Transport` (no static state), so a process may run several servers.
//
// Shared with JavaScript, per transport: `in` (BATCH slots of SLOT bytes: the queries), `out` (BATCH
// slots of SLOT bytes: the replies), and `meta` (int32). For slot i: meta[4i] query length (-1 when
// the datagram did not fit the slot), meta[4i+1] source IPv4 (host order), meta[4i+2] source port,
// meta[4i+3] reply length written by JavaScript (0: no reply). A reply goes to the IPv4 address and
// port in meta[4i+1] and meta[4i+2]: the source, unless JavaScript rewrote them (a DHCP server answers
// 255.255.255.255:68 or a relay, not the source). After the slots, counters the
// JavaScript side reads in stats(): send errors, receive errors, exceptions out of the callback, and
// the errno of the last send or receive error.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "waved_native.h"

#define BATCH 64
#define SLOT 4096
#define TURNS 8 /* at most TURNS * BATCH datagrams per wake-up, then the event loop runs */
#define META_SLOTS (BATCH * 4)
#define META_SEND_ERRORS (META_SLOTS + 0)
#define META_RECV_ERRORS (META_SLOTS + 1)
#define META_CALLBACK_ERRORS (META_SLOTS + 2)
#define META_LAST_ERRNO (META_SLOTS + 3)
#define META_LENGTH (META_SLOTS + 4)
#define UDP_BATCH_REUSEADDR 1
#define UDP_BATCH_BROADCAST 2
#define UDP_BATCH_NO_IDLE_METRICS 4

typedef struct {
  int fd;
  int polling;       // uv_poll_start succeeded and close() has not run
  int handle_open;   // uv_poll_init succeeded and its close callback has not run yet
  int js_alive;      // the wrapping JavaScript object has not been finalized
  int closed;
  int metrics_cleared;  // counted in quiet_loops: this transport keeps the loop's idle-time metrics off
  uv_loop_t *loop;
  napi_env env;
  napi_ref callback;
  napi_ref buffers[3];
  napi_async_context async;
  uv_poll_t poll;
  unsigned char *in;
  unsigned char *out;
  int32_t *meta;
  struct mmsghdr rmsgs[BATCH];
  struct mmsghdr smsgs[BATCH];
  struct iovec riov[BATCH];
  struct iovec siov[BATCH];
  struct sockaddr_in sources[BATCH];
  struct sockaddr_in targets[BATCH];
} Transport;

static void maybe_free(Transport *t) {
  if (!t->js_alive && !t->handle_open) free(t);
}

static void on_poll_closed(uv_handle_t *handle) {
  Transport *t = (Transport *)handle->data;
  t->handle_open = 0;
  maybe_free(t);
}

static void env_cleanup(void *arg);

// Node configures its event loop with UV_METRICS_IDLE_TIME (for performance.eventLoopUtilization()),
// and libuv then starts every blocking wait with an extra epoll_pwait(0) that returns nothing when
// the loop is idle: two calls into the kernel per wake-up instead of one. libuv has no call to turn
// the option off; since libuv 1.39 (Node 14.10) it is a bit of the first field, `flags`, of the
// loop's `internal_fields`, which is what this returns (NULL for any other libuv major version).
static unsigned int *loop_option_flags(uv_loop_t *loop) {
  unsigned int v = uv_version();
  if (loop == NULL || loop->internal_fields == NULL || v < ((1u << 16) | (39u << 8)) || v >= (2u << 16)) return NULL;
  return (unsigned int *)loop->internal_fields;
}

// Loops whose metrics transports turned off: how many such transports are open on each, and whether
// the metrics were on before the first (then the last one to close turns them back on). Worker
// threads have loops of their own, hence the lock.
#define MAX_QUIET_LOOPS 16
static struct {
  uv_loop_t *loop;
  int open;
  int were_on;
} quiet_loops[MAX_QUIET_LOOPS];
static pthread_mutex_t quiet_lock = PTHREAD_MUTEX_INITIALIZER;

static void idle_metrics_off(Transport *t, uv_loop_t *loop) {
  unsigned int *flags = loop_option_flags(loop);
  if (flags == NULL) return;
  pthread_mutex_lock(&quiet_lock);
  int free_slot = -1;
  for (int i = 0; i < MAX_QUIET_LOOPS; i++) {
    if (quiet_loops[i].loop == loop) {
      quiet_loops[i].open++;
      t->metrics_cleared = 1;
      t->loop = loop;
      pthread_mutex_unlock(&quiet_lock);
      return;
    }
    if (quiet_loops[i].loop == NULL && free_slot < 0) free_slot = i;
  }
  if (free_slot >= 0) {  // more than MAX_QUIET_LOOPS loops at once: the metrics stay on for the rest
    quiet_loops[free_slot].loop = loop;
    quiet_loops[free_slot].open = 1;
    quiet_loops[free_slot].were_on = (*flags & (unsigned int)UV_METRICS_IDLE_TIME) != 0;
    *flags &= ~(unsigned int)UV_METRICS_IDLE_TIME;
    t->metrics_cleared = 1;
    t->loop = loop;
  }
  pthread_mutex_unlock(&quiet_lock);
}

static void idle_metrics_restore(Transport *t) {
  if (!t->metrics_cleared) return;
  t->metrics_cleared = 0;
  pthread_mutex_lock(&quiet_lock);
  for (int i = 0; i < MAX_QUIET_LOOPS; i++) {
    if (quiet_loops[i].loop != t->loop) continue;
    if (--quiet_loops[i].open == 0) {
      unsigned int *flags = loop_option_flags(t->loop);
      if (flags != NULL && quiet_loops[i].were_on) *flags |= (unsigned int)UV_METRICS_IDLE_TIME;
      quiet_loops[i].loop = NULL;
    }
    break;
  }
  pthread_mutex_unlock(&quiet_lock);
}

// Stops polling and closes the socket. `with_js`: the environment can still take napi calls.
static void shut(Transport *t, int with_js) {
  if (t->closed) return;
  t->closed = 1;
  if (t->polling) {
    uv_poll_stop(&t->poll);
    t->polling = 0;
  }
  if (t->fd >= 0) {
    close(t->fd);
    t->fd = -1;
  }
  if (t->handle_open && !uv_is_closing((uv_handle_t *)&t->poll)) uv_close((uv_handle_t *)&t->poll, on_poll_closed);
  idle_metrics_restore(t);
  if (with_js) {
    napi_remove_env_cleanup_hook(t->env, env_cleanup, t);
    if (t->callback) napi_delete_reference(t->env, t->callback);
    for (int i = 0; i < 3; i++)
      if (t->buffers[i]) napi_delete_reference(t->env, t->buffers[i]);
    if (t->async) napi_async_destroy(t->env, t->async);
  }
  t->callback = NULL;
  t->async = NULL;
  for (int i = 0; i < 3; i++) t->buffers[i] = NULL;
}

static void env_cleanup(void *arg) {
  Transport *t = (Transport *)arg;
  shut(t, 0);  // the environment is going away: release the socket, leave the references
}

// Points receive header i at its slot and source. Done for every header once when the transport
// opens, then only for the headers a recvmmsg filled: a wake-up with one datagram touches one header,
// not all BATCH of them.
static void reset_receive(Transport *t, int i) {
  t->riov[i].iov_base = t->in + (size_t)i * SLOT;
  t->riov[i].iov_len = SLOT;
  memset(&t->rmsgs[i].msg_hdr, 0, sizeof(struct msghdr));
  t->rmsgs[i].msg_hdr.msg_iov = &t->riov[i];
  t->rmsgs[i].msg_hdr.msg_iovlen = 1;
  t->rmsgs[i].msg_hdr.msg_name = &t->sources[i];
  t->rmsgs[i].msg_hdr.msg_namelen = sizeof(struct sockaddr_in);
}

static void count_error(Transport *t, int slot, int error) {
  t->meta[slot]++;
  t->meta[META_LAST_ERRNO] = error;
}

static void send_replies(Transport *t, int n) {
  int m = 0;
  for (int i = 0; i < n; i++) {
    int32_t length = t->meta[i * 4 + 3];
    int32_t port = t->meta[i * 4 + 2];
    if (length <= 0 || length > SLOT || port <= 0 || port > 65535) continue;
    t->siov[m].iov_base = t->out + (size_t)i * SLOT;
    t->siov[m].iov_len = (size_t)length;
    memset(&t->smsgs[m].msg_hdr, 0, sizeof(struct msghdr));
    t->smsgs[m].msg_hdr.msg_iov = &t->siov[m];
    t->smsgs[m].msg_hdr.msg_iovlen = 1;
    // The destination JavaScript left in meta (the source as received, or what it wrote instead).
    t->targets[m].sin_family = AF_INET;
    t->targets[m].sin_addr.s_addr = htonl((uint32_t)t->meta[i * 4 + 1]);
    t->targets[m].sin_port = htons((uint16_t)t->meta[i * 4 + 2]);
    t->smsgs[m].msg_hdr.msg_name = &t->targets[m];
    t->smsgs[m].msg_hdr.msg_namelen = sizeof(struct sockaddr_in);
    m++;
  }
  for (int sent = 0; sent < m;) {
    int k = sendmmsg(t->fd, t->smsgs + sent, (unsigned)(m - sent), MSG_DONTWAIT);
    if (k > 0) {
      sent += k;
    } else if (k < 0 && errno == EINTR) {
      continue;
    } else if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS)) {
      // The send queue is full: these replies are dropped, as a full queue drops them, and counted.
      for (; sent < m; sent++) count_error(t, META_SEND_ERRORS, errno);
    } else {
      // The first remaining message failed (say, no route to its source): count it, go on.
      count_error(t, META_SEND_ERRORS, k < 0 ? errno : EIO);
      sent++;
    }
  }
}

static void on_readable(uv_poll_t *handle, int status, int events) {
  (void)events;
  Transport *t = (Transport *)handle->data;
  if (t->closed) return;
  if (status < 0) {
    count_error(t, META_RECV_ERRORS, -status);
    return;
  }
  for (int turn = 0; turn < TURNS && !t->closed; turn++) {
    int n = recvmmsg(t->fd, t->rmsgs, BATCH, MSG_DONTWAIT, NULL);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) count_error(t, META_RECV_ERRORS, errno);
      return;
    }
    if (n == 0) return;
    for (int i = 0; i < n; i++) {
      struct msghdr *h = &t->rmsgs[i].msg_hdr;
      // A source that is not IPv4 cannot happen on an AF_INET socket; it would read as port 0.
      int sourced = h->msg_namelen >= sizeof(struct sockaddr_in) && t->sources[i].sin_family == AF_INET;
      t->meta[i * 4] = (h->msg_flags & MSG_TRUNC) == 0 ? (int32_t)t->rmsgs[i].msg_len : -1;
      t->meta[i * 4 + 1] = sourced ? (int32_t)ntohl(t->sources[i].sin_addr.s_addr) : 0;
      t->meta[i * 4 + 2] = sourced ? ntohs(t->sources[i].sin_port) : 0;
      t->meta[i * 4 + 3] = 0;
      // The kernel wrote back only these n headers (name length, flags): ready them for the next call.
      reset_receive(t, i);
    }
    napi_env env = t->env;
    napi_handle_scope scope;
    if (napi_open_handle_scope(env, &scope) != napi_ok) return;
    napi_value callback, recv, argv[1], result;
    napi_status called = napi_generic_failure;
    if (napi_get_reference_value(env, t->callback, &callback) == napi_ok && callback != NULL &&
        napi_get_global(env, &recv) == napi_ok && napi_create_int32(env, n, &argv[0]) == napi_ok) {
      called = napi_make_callback(env, t->async, recv, callback, 1, argv, &result);
    }
    if (called != napi_ok) {
      bool pending = false;
      napi_is_exception_pending(env, &pending);
      if (pending) {
        napi_value ignored;
        napi_get_and_clear_last_exception(env, &ignored);  // the batch is dropped, never thrown
      }
      t->meta[META_CALLBACK_ERRORS]++;
    }
    napi_close_handle_scope(env, scope);
    if (called != napi_ok || t->closed) return;  // the callback may have closed the transport
    send_replies(t, n);
    if (n < BATCH) return;
  }
}

static napi_value throw_errno(napi_env env, const char *syscall, int error, const char *address, int port) {
  char detail[96];
  snprintf(detail, sizeof detail, "%s:%d", address, port);
  return waved_throw_errno(env, syscall, error, detail);
}

static void finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  Transport *t = (Transport *)data;
  shut(t, env != NULL);
  t->js_alive = 0;
  maybe_free(t);
}

static napi_status add_buffer(napi_env env, Transport *t, napi_value object, const char *name, size_t size,
                              void **data, int index) {
  napi_value buffer;
  napi_status st = napi_create_buffer(env, size, data, &buffer);
  if (st != napi_ok) return st;
  memset(*data, 0, size);
  st = napi_create_reference(env, buffer, 1, &t->buffers[index]);
  if (st != napi_ok) return st;
  return napi_set_named_property(env, object, name, buffer);
}

// udpBatchOpen(address: string, port: number, onBatch: (n: number) => void, flags?: number)
//   -> { port, fd, inBytes, outBytes, meta, batch, slot }; throws an Error with an errno code on failure.
// flags: UDP_BATCH_REUSEADDR (SO_REUSEADDR before bind), UDP_BATCH_BROADCAST (SO_BROADCAST),
// UDP_BATCH_NO_IDLE_METRICS (the loop's idle-time metrics off while the transport is open).
napi_value waved_udp_batch_open(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return NULL;
  int32_t flags = 0;
  napi_valuetype flags_type = napi_undefined;
  if (argc >= 4 && (napi_typeof(env, argv[3], &flags_type) != napi_ok ||
                    (flags_type != napi_undefined && napi_get_value_int32(env, argv[3], &flags) != napi_ok) ||
                    (flags & ~(UDP_BATCH_REUSEADDR | UDP_BATCH_BROADCAST | UDP_BATCH_NO_IDLE_METRICS)) != 0)) {
    napi_throw_type_error(env, "ERR_INVALID_ARG_VALUE",
                          "udpBatchOpen flags: REUSEADDR (1) | BROADCAST (2) | NO_IDLE_METRICS (4)");
    return NULL;
  }
  char address[64];
  size_t address_length = 0;
  int32_t port = -1;
  napi_valuetype callback_type = napi_undefined;
  if (argc < 3 || napi_get_value_string_utf8(env, argv[0], address, sizeof address, &address_length) != napi_ok ||
      napi_get_value_int32(env, argv[1], &port) != napi_ok || port < 0 || port > 65535 ||
      napi_typeof(env, argv[2], &callback_type) != napi_ok || callback_type != napi_function) {
    napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE",
                          "udpBatchOpen(address: string, port: number, onBatch: function, flags?: number)");
    return NULL;
  }
  struct sockaddr_in bind_to;
  memset(&bind_to, 0, sizeof bind_to);
  bind_to.sin_family = AF_INET;
  bind_to.sin_port = htons((uint16_t)port);
  if (inet_pton(AF_INET, address, &bind_to.sin_addr) != 1) {
    napi_throw_type_error(env, "ERR_INVALID_ARG_VALUE", "address must be an IPv4 literal");
    return NULL;
  }

  Transport *t = (Transport *)calloc(1, sizeof(Transport));
  if (t == NULL) {
    napi_throw_error(env, "ENOMEM", "cannot allocate the UDP transport");
    return NULL;
  }
  t->fd = -1;
  t->env = env;
  t->js_alive = 1;
  t->poll.data = t;

  t->fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (t->fd < 0) {
    int error = errno;
    free(t);
    return throw_errno(env, "socket", error, address, port);
  }
  int one = 1;
  if (((flags & UDP_BATCH_REUSEADDR) && setsockopt(t->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0) ||
      ((flags & UDP_BATCH_BROADCAST) && setsockopt(t->fd, SOL_SOCKET, SO_BROADCAST, &one, sizeof one) != 0)) {
    int error = errno;
    close(t->fd);
    free(t);
    return throw_errno(env, "setsockopt", error, address, port);
  }
  struct sockaddr_in bound = bind_to;
  socklen_t bound_length = sizeof bound;
  if (bind(t->fd, (struct sockaddr *)&bind_to, sizeof bind_to) != 0 ||
      getsockname(t->fd, (struct sockaddr *)&bound, &bound_length) != 0) {
    int error = errno;
    close(t->fd);
    free(t);
    return throw_errno(env, "bind", error, address, port);
  }

  napi_value object, resource_name, bound_port, fd_value, batch, slot;
  uv_loop_t *loop = NULL;
  void *in = NULL, *out = NULL, *meta = NULL;
  if (napi_create_object(env, &object) != napi_ok ||
      add_buffer(env, t, object, "inBytes", (size_t)BATCH * SLOT, &in, 0) != napi_ok ||
      add_buffer(env, t, object, "outBytes", (size_t)BATCH * SLOT, &out, 1) != napi_ok ||
      add_buffer(env, t, object, "meta", META_LENGTH * sizeof(int32_t), &meta, 2) != napi_ok ||
      napi_create_reference(env, argv[2], 1, &t->callback) != napi_ok ||
      napi_create_string_utf8(env, "waved-native:udp-batch", NAPI_AUTO_LENGTH, &resource_name) != napi_ok ||
      napi_async_init(env, NULL, resource_name, &t->async) != napi_ok ||
      napi_get_uv_event_loop(env, &loop) != napi_ok) {
    shut(t, 1);
    free(t);
    bool pending = false;
    napi_is_exception_pending(env, &pending);
    if (!pending) napi_throw_error(env, "ENOMEM", "cannot set up the UDP transport");
    return NULL;
  }
  t->in = (unsigned char *)in;
  t->out = (unsigned char *)out;
  t->meta = (int32_t *)meta;
  for (int i = 0; i < BATCH; i++) reset_receive(t, i);

  int rc = uv_poll_init_socket(loop, &t->poll, t->fd);
  if (rc == 0) {
    t->handle_open = 1;
    rc = uv_poll_start(&t->poll, UV_READABLE, on_readable);
  }
  if (rc != 0) {
    shut(t, 1);
    t->js_alive = 0;
    maybe_free(t);  // freed now, or by on_poll_closed
    napi_throw_error(env, uv_err_name(rc), uv_strerror(rc));
    return NULL;
  }
  t->polling = 1;
  if (flags & UDP_BATCH_NO_IDLE_METRICS) idle_metrics_off(t, loop);
  napi_add_env_cleanup_hook(env, env_cleanup, t);

  if (napi_create_int32(env, ntohs(bound.sin_port), &bound_port) != napi_ok ||
      napi_set_named_property(env, object, "port", bound_port) != napi_ok ||
      napi_create_int32(env, t->fd, &fd_value) != napi_ok || napi_set_named_property(env, object, "fd", fd_value) != napi_ok ||
      napi_create_int32(env, BATCH, &batch) != napi_ok || napi_set_named_property(env, object, "batch", batch) != napi_ok ||
      napi_create_int32(env, SLOT, &slot) != napi_ok || napi_set_named_property(env, object, "slot", slot) != napi_ok ||
      napi_wrap(env, object, t, finalize, NULL, NULL) != napi_ok) {
    shut(t, 1);
    t->js_alive = 0;
    maybe_free(t);
    return NULL;
  }
  return object;
}

// udpBatchClose(handle): stops polling and closes the socket; safe to call more than once.
napi_value waved_udp_batch_close(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  Transport *t = NULL;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
      napi_unwrap(env, argv[0], (void **)&t) != napi_ok || t == NULL) {
    napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", "udpBatchClose(handle) takes what udpBatchOpen() returned");
    return NULL;
  }
  shut(t, 1);
  return NULL;
}
