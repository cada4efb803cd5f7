// Experiment, not part of @waved/captive-dns: an IPv4 UDP transport that reads up to 64 datagrams per
// recvmmsg(2) and sends the replies with one sendmmsg(2), calling JavaScript once per batch. It shows
// what batching the system calls would buy next to node:dgram (one recvmsg, one sendmsg, one call
// into JavaScript, one Buffer and one rinfo object per datagram). Built and loaded by
// bench/dns/run.mjs when BENCH_BATCH=1; one socket per process.
#define _GNU_SOURCE
#define NAPI_VERSION 8
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <node_api.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <uv.h>

#define BATCH 64
#define SLOT 2048

static int fd = -1;
static uv_poll_t poll_handle;
static napi_env env_;
static napi_ref callback_ref;
// Shared with JavaScript: query bytes in, reply bytes out, and per slot: [0] query length (-1 when
// truncated), [1] source IPv4 (host order), [2] source port, [3] reply length (0: no reply).
static unsigned char *in_bytes, *out_bytes;
static int32_t *meta;
static struct mmsghdr rmsgs[BATCH], smsgs[BATCH];
static struct iovec riov[BATCH], siov[BATCH];
static struct sockaddr_in sources[BATCH];

static void on_readable(uv_poll_t *handle, int status, int events) {
  (void)handle;
  (void)events;
  if (status < 0) return;
  for (int turn = 0; turn < 8; turn++) {  // at most 512 datagrams per wake-up, then let the loop run
    for (int i = 0; i < BATCH; i++) {
      riov[i].iov_base = in_bytes + (size_t)i * SLOT;
      riov[i].iov_len = SLOT;
      memset(&rmsgs[i].msg_hdr, 0, sizeof(struct msghdr));
      rmsgs[i].msg_hdr.msg_iov = &riov[i];
      rmsgs[i].msg_hdr.msg_iovlen = 1;
      rmsgs[i].msg_hdr.msg_name = &sources[i];
      rmsgs[i].msg_hdr.msg_namelen = sizeof(sources[i]);
    }
    int n = recvmmsg(fd, rmsgs, BATCH, MSG_DONTWAIT, NULL);
    if (n <= 0) return;
    for (int i = 0; i < n; i++) {
      int truncated = (rmsgs[i].msg_hdr.msg_flags & MSG_TRUNC) != 0 || sources[i].sin_family != AF_INET;
      meta[i * 4] = truncated ? -1 : (int32_t)rmsgs[i].msg_len;
      meta[i * 4 + 1] = (int32_t)ntohl(sources[i].sin_addr.s_addr);
      meta[i * 4 + 2] = ntohs(sources[i].sin_port);
      meta[i * 4 + 3] = 0;
    }
    napi_handle_scope scope;
    if (napi_open_handle_scope(env_, &scope) != napi_ok) return;
    napi_value callback, recv, argv[1], result;
    napi_get_reference_value(env_, callback_ref, &callback);
    napi_get_undefined(env_, &recv);
    napi_create_int32(env_, n, &argv[0]);
    napi_status called = napi_call_function(env_, recv, callback, 1, argv, &result);
    if (called == napi_pending_exception) {
      napi_value ignored;
      napi_get_and_clear_last_exception(env_, &ignored);  // the batch is dropped, never thrown
    }
    napi_close_handle_scope(env_, scope);
    if (called != napi_ok) return;
    int m = 0;
    for (int i = 0; i < n; i++) {
      int32_t length = meta[i * 4 + 3];
      if (length <= 0 || length > SLOT || meta[i * 4 + 2] == 0) continue;
      siov[m].iov_base = out_bytes + (size_t)i * SLOT;
      siov[m].iov_len = (size_t)length;
      memset(&smsgs[m].msg_hdr, 0, sizeof(struct msghdr));
      smsgs[m].msg_hdr.msg_iov = &siov[m];
      smsgs[m].msg_hdr.msg_iovlen = 1;
      smsgs[m].msg_hdr.msg_name = &sources[i];
      smsgs[m].msg_hdr.msg_namelen = sizeof(sources[i]);
      m++;
    }
    for (int sent = 0; sent < m;) {
      int k = sendmmsg(fd, smsgs + sent, (unsigned)(m - sent), MSG_DONTWAIT);
      if (k > 0) sent += k;
      else if (k < 0 && errno == EINTR) continue;
      else if (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != ENOBUFS) sent++;  // skip it
      else break;  // send buffer full: drop the rest, as a full queue would
    }
    if (n < BATCH) return;
  }
}

// listen(callback, inBytes, outBytes, meta, port) -> bound port; throws on failure.
static napi_value listen_(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  size_t in_len = 0, out_len = 0, meta_len = 0;
  int32_t port = 0;
  if (fd >= 0 || argc < 5 || napi_get_buffer_info(env, argv[1], (void **)&in_bytes, &in_len) != napi_ok ||
      napi_get_buffer_info(env, argv[2], (void **)&out_bytes, &out_len) != napi_ok ||
      napi_get_buffer_info(env, argv[3], (void **)&meta, &meta_len) != napi_ok ||
      napi_get_value_int32(env, argv[4], &port) != napi_ok || in_len < BATCH * SLOT ||
      out_len < BATCH * SLOT || meta_len < BATCH * 16 || port < 0 || port > 65535) {
    napi_throw_error(env, NULL, "listen(callback, inBytes, outBytes, meta, port): bad arguments or already listening");
    return NULL;
  }
  env_ = env;
  napi_create_reference(env, argv[0], 1, &callback_ref);
  fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  struct sockaddr_in address;
  memset(&address, 0, sizeof address);
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons((uint16_t)port);
  socklen_t length = sizeof address;
  uv_loop_t *loop;
  if (fd < 0 || bind(fd, (struct sockaddr *)&address, sizeof address) != 0 ||
      getsockname(fd, (struct sockaddr *)&address, &length) != 0 || napi_get_uv_event_loop(env, &loop) != napi_ok ||
      uv_poll_init_socket(loop, &poll_handle, fd) != 0 || uv_poll_start(&poll_handle, UV_READABLE, on_readable) != 0) {
    napi_throw_error(env, NULL, strerror(errno));
    return NULL;
  }
  napi_value bound;
  napi_create_int32(env, ntohs(address.sin_port), &bound);
  return bound;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "listen", NAPI_AUTO_LENGTH, listen_, NULL, &fn);
  napi_set_named_property(env, exports, "listen", fn);
  return exports;
}
