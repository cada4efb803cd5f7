// @waved/native: the system calls Node does not expose, as one N-API addon (no V8 or Node internals,
// so one build serves every Node with N-API 8). Exports:
//   setsockopt(fd, level, name, value: int | Buffer)        -> undefined
//   getsockopt(fd, level, name, size)                       -> Buffer (the bytes the kernel wrote)
//   unixSocket()                                            -> fd (AF_UNIX SOCK_DGRAM, non-blocking)
//   unixBind(fd, path: Buffer) / unixConnect(fd, path: Buffer)
//   unixSend(fd, data: Buffer, path: Buffer | null)         -> bytes sent
//   unixRecv(fd, buffer: Buffer)                            -> [length, from: Buffer] | null (EAGAIN)
//   closeFd(fd)
//   watch(fd, onReadable: () => void)                       -> handle; unwatch(handle)
//   udpBatchOpen(...) / udpBatchClose(...)                  (udp_batch.c)
//   arpSet(fd, device: Buffer, address: int, hardware: Buffer, offset: int)
//                                                           (ioctl SIOCSARP; address in host order)
// A failed system call throws an Error with `code` = the errno name (ENOENT, EAGAIN, ...) and
// `syscall` set. Paths are raw bytes: a leading NUL byte names the abstract namespace.
#define _GNU_SOURCE
#include "waved_native.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_OPTION_BYTES 256
#define MAX_DATAGRAM (256 * 1024)

napi_value waved_throw_errno(napi_env env, const char *syscall, int error, const char *detail) {
  int uv_error = uv_translate_sys_error(error);
  const char *name = uv_err_name(uv_error);
  char message[320];
  if (detail != NULL && detail[0] != '\0')
    snprintf(message, sizeof message, "%s %s (%s): %s", syscall, name, detail, strerror(error));
  else
    snprintf(message, sizeof message, "%s %s: %s", syscall, name, strerror(error));
  napi_value code, text, err, call, number;
  if (napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &code) != napi_ok ||
      napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &text) != napi_ok ||
      napi_create_error(env, code, text, &err) != napi_ok) {
    napi_throw_error(env, name, message);
    return NULL;
  }
  if (napi_create_string_utf8(env, syscall, NAPI_AUTO_LENGTH, &call) == napi_ok)
    napi_set_named_property(env, err, "syscall", call);
  if (napi_create_int32(env, -error, &number) == napi_ok) napi_set_named_property(env, err, "errno", number);
  napi_throw(env, err);
  return NULL;
}

napi_value waved_throw_type(napi_env env, const char *message) {
  napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", message);
  return NULL;
}

static int get_int(napi_env env, napi_value value, int32_t *out) {
  napi_valuetype type;
  if (napi_typeof(env, value, &type) != napi_ok || type != napi_number) return 0;
  return napi_get_value_int32(env, value, out) == napi_ok;
}

static int get_buffer(napi_env env, napi_value value, void **data, size_t *length) {
  bool is_buffer = false;
  if (napi_is_buffer(env, value, &is_buffer) != napi_ok || !is_buffer) return 0;
  return napi_get_buffer_info(env, value, data, length) == napi_ok;
}

static int is_nullish(napi_env env, napi_value value) {
  napi_valuetype type;
  return napi_typeof(env, value, &type) == napi_ok && (type == napi_null || type == napi_undefined);
}

static napi_value undefined(napi_env env) {
  napi_value u;
  napi_get_undefined(env, &u);
  return u;
}

// setsockopt(fd, level, name, value: int | Buffer)
static napi_value set_option(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  int32_t fd, level, name, number;
  void *data = NULL;
  size_t length = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 4 || !get_int(env, argv[0], &fd) ||
      !get_int(env, argv[1], &level) || !get_int(env, argv[2], &name))
    return waved_throw_type(env, "setsockopt(fd: int, level: int, name: int, value: int | Buffer)");
  if (get_int(env, argv[3], &number)) {
    data = &number;
    length = sizeof number;
  } else if (!get_buffer(env, argv[3], &data, &length) || length > MAX_OPTION_BYTES) {
    return waved_throw_type(env, "setsockopt value must be an int32 or a Buffer of at most 256 bytes");
  }
  if (setsockopt(fd, level, name, data, (socklen_t)length) != 0) return waved_throw_errno(env, "setsockopt", errno, NULL);
  return undefined(env);
}

// getsockopt(fd, level, name, size) -> Buffer
static napi_value get_option(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  int32_t fd, level, name, size;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 4 || !get_int(env, argv[0], &fd) ||
      !get_int(env, argv[1], &level) || !get_int(env, argv[2], &name) || !get_int(env, argv[3], &size) || size < 1 ||
      size > MAX_OPTION_BYTES)
    return waved_throw_type(env, "getsockopt(fd: int, level: int, name: int, size: 1..256)");
  unsigned char bytes[MAX_OPTION_BYTES];
  memset(bytes, 0, sizeof bytes);
  socklen_t length = (socklen_t)size;
  if (getsockopt(fd, level, name, bytes, &length) != 0) return waved_throw_errno(env, "getsockopt", errno, NULL);
  if (length > (socklen_t)size) length = (socklen_t)size;
  napi_value out;
  void *copy;
  if (napi_create_buffer_copy(env, length, bytes, &copy, &out) != napi_ok) return NULL;
  return out;
}

// A unix socket address from raw path bytes (a leading NUL: abstract namespace, length-delimited).
static int unix_address(napi_env env, napi_value value, struct sockaddr_un *address, socklen_t *length) {
  void *data;
  size_t size;
  if (!get_buffer(env, value, &data, &size) || size == 0 || size >= sizeof address->sun_path) {
    waved_throw_type(env, "a unix socket path is 1..107 bytes");
    return 0;
  }
  memset(address, 0, sizeof *address);
  address->sun_family = AF_UNIX;
  memcpy(address->sun_path, data, size);
  if (((const char *)data)[0] != '\0' && memchr(data, 0, size) != NULL) {
    waved_throw_type(env, "a unix socket path contains no NUL byte (except the abstract prefix)");
    return 0;
  }
  // A path socket's address includes the terminating NUL; an abstract one is exactly its bytes.
  *length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + size + (((const char *)data)[0] == '\0' ? 0 : 1));
  return 1;
}

static napi_value unix_socket(napi_env env, napi_callback_info info) {
  (void)info;
  int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return waved_throw_errno(env, "socket", errno, NULL);
  napi_value out;
  napi_create_int32(env, fd, &out);
  return out;
}

static napi_value unix_bind_or_connect(napi_env env, napi_callback_info info, int connecting) {
  size_t argc = 2;
  napi_value argv[2];
  int32_t fd;
  struct sockaddr_un address;
  socklen_t length;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2 || !get_int(env, argv[0], &fd))
    return waved_throw_type(env, connecting ? "unixConnect(fd: int, path: Buffer)" : "unixBind(fd: int, path: Buffer)");
  if (!unix_address(env, argv[1], &address, &length)) return NULL;
  int rc = connecting ? connect(fd, (struct sockaddr *)&address, length) : bind(fd, (struct sockaddr *)&address, length);
  if (rc != 0) return waved_throw_errno(env, connecting ? "connect" : "bind", errno, NULL);
  return undefined(env);
}

static napi_value unix_bind(napi_env env, napi_callback_info info) { return unix_bind_or_connect(env, info, 0); }
static napi_value unix_connect(napi_env env, napi_callback_info info) { return unix_bind_or_connect(env, info, 1); }

// unixSend(fd, data, path | null) -> bytes sent
static napi_value unix_send(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  int32_t fd;
  void *data;
  size_t size;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2 || !get_int(env, argv[0], &fd) ||
      !get_buffer(env, argv[1], &data, &size))
    return waved_throw_type(env, "unixSend(fd: int, data: Buffer, path?: Buffer)");
  ssize_t sent;
  if (argc >= 3 && !is_nullish(env, argv[2])) {
    struct sockaddr_un address;
    socklen_t length;
    if (!unix_address(env, argv[2], &address, &length)) return NULL;
    do sent = sendto(fd, data, size, MSG_DONTWAIT | MSG_NOSIGNAL, (struct sockaddr *)&address, length);
    while (sent < 0 && errno == EINTR);
  } else {
    do sent = send(fd, data, size, MSG_DONTWAIT | MSG_NOSIGNAL);
    while (sent < 0 && errno == EINTR);
  }
  if (sent < 0) return waved_throw_errno(env, "send", errno, NULL);
  napi_value out;
  napi_create_int64(env, (int64_t)sent, &out);
  return out;
}

// unixRecv(fd, buffer) -> [length, from] or null when nothing is queued; a datagram longer than the
// buffer is cut to it and its length is reported as -1 (MSG_TRUNC).
static napi_value unix_recv(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  int32_t fd;
  void *data;
  size_t size;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2 || !get_int(env, argv[0], &fd) ||
      !get_buffer(env, argv[1], &data, &size) || size > MAX_DATAGRAM)
    return waved_throw_type(env, "unixRecv(fd: int, buffer: Buffer of at most 256 KiB)");
  struct sockaddr_un from;
  struct iovec iov = {.iov_base = data, .iov_len = size};
  struct msghdr message;
  ssize_t got;
  do {
    memset(&from, 0, sizeof from);
    memset(&message, 0, sizeof message);
    message.msg_name = &from;
    message.msg_namelen = sizeof from;
    message.msg_iov = &iov;
    message.msg_iovlen = 1;
    got = recvmsg(fd, &message, MSG_DONTWAIT);
  } while (got < 0 && errno == EINTR);
  if (got < 0) {
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      napi_value null;
      napi_get_null(env, &null);
      return null;
    }
    return waved_throw_errno(env, "recvmsg", errno, NULL);
  }
  size_t path_length = 0;
  if (message.msg_namelen > offsetof(struct sockaddr_un, sun_path)) {
    path_length = message.msg_namelen - offsetof(struct sockaddr_un, sun_path);
    if (path_length > sizeof from.sun_path) path_length = sizeof from.sun_path;
    if (from.sun_path[0] != '\0') path_length = strnlen(from.sun_path, path_length);
  }
  napi_value out, length, path;
  void *copy;
  if (napi_create_array_with_length(env, 2, &out) != napi_ok ||
      napi_create_int32(env, (message.msg_flags & MSG_TRUNC) ? -1 : (int32_t)got, &length) != napi_ok ||
      napi_create_buffer_copy(env, path_length, from.sun_path, &copy, &path) != napi_ok ||
      napi_set_element(env, out, 0, length) != napi_ok || napi_set_element(env, out, 1, path) != napi_ok)
    return NULL;
  return out;
}

static napi_value close_fd(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int32_t fd;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 || !get_int(env, argv[0], &fd) ||
      fd < 0)
    return waved_throw_type(env, "closeFd(fd: int)");
  // close(2) releases the descriptor even when it reports EINTR on Linux: never retry.
  if (close(fd) != 0 && errno != EINTR) return waved_throw_errno(env, "close", errno, NULL);
  return undefined(env);
}

// --- watch(fd, onReadable): a libuv poll handle that calls back on the JavaScript thread.

typedef struct {
  uv_poll_t poll;
  napi_env env;
  napi_ref callback;
  napi_async_context async;
  int handle_open;  // uv_poll_init succeeded and its close callback has not run yet
  int js_alive;     // the wrapping JavaScript object has not been finalized
  int stopped;
} Watch;

static void watch_maybe_free(Watch *w) {
  if (!w->js_alive && !w->handle_open) free(w);
}

static void watch_closed(uv_handle_t *handle) {
  Watch *w = (Watch *)handle->data;
  w->handle_open = 0;
  watch_maybe_free(w);
}

static void watch_env_cleanup(void *arg);

static void watch_stop(Watch *w, int with_js) {
  if (w->stopped) return;
  w->stopped = 1;
  if (w->handle_open) {
    uv_poll_stop(&w->poll);
    if (!uv_is_closing((uv_handle_t *)&w->poll)) uv_close((uv_handle_t *)&w->poll, watch_closed);
  }
  if (with_js) {
    napi_remove_env_cleanup_hook(w->env, watch_env_cleanup, w);
    if (w->callback) napi_delete_reference(w->env, w->callback);
    if (w->async) napi_async_destroy(w->env, w->async);
  }
  w->callback = NULL;
  w->async = NULL;
}

static void watch_env_cleanup(void *arg) { watch_stop((Watch *)arg, 0); }

static void watch_readable(uv_poll_t *handle, int status, int events) {
  (void)events;
  Watch *w = (Watch *)handle->data;
  if (w->stopped) return;
  napi_env env = w->env;
  napi_handle_scope scope;
  if (napi_open_handle_scope(env, &scope) != napi_ok) return;
  napi_value callback, recv, argv[1], result;
  if (napi_get_reference_value(env, w->callback, &callback) == napi_ok && callback != NULL &&
      napi_get_global(env, &recv) == napi_ok && napi_create_int32(env, status, &argv[0]) == napi_ok) {
    // An exception out of the callback is reported as uncaught, as for any other I/O callback.
    napi_make_callback(env, w->async, recv, callback, 1, argv, &result);
  }
  napi_close_handle_scope(env, scope);
}

static void watch_finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  Watch *w = (Watch *)data;
  watch_stop(w, env != NULL);
  w->js_alive = 0;
  watch_maybe_free(w);
}

static napi_value watch(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  int32_t fd;
  napi_valuetype type = napi_undefined;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2 || !get_int(env, argv[0], &fd) ||
      fd < 0 || napi_typeof(env, argv[1], &type) != napi_ok || type != napi_function)
    return waved_throw_type(env, "watch(fd: int, onReadable: function)");
  uv_loop_t *loop = NULL;
  if (napi_get_uv_event_loop(env, &loop) != napi_ok) return NULL;
  Watch *w = (Watch *)calloc(1, sizeof(Watch));
  if (w == NULL) return waved_throw_errno(env, "malloc", ENOMEM, NULL);
  w->env = env;
  w->js_alive = 1;
  w->poll.data = w;
  napi_value object, name;
  if (napi_create_object(env, &object) != napi_ok || napi_create_reference(env, argv[1], 1, &w->callback) != napi_ok ||
      napi_create_string_utf8(env, "waved-native:watch", NAPI_AUTO_LENGTH, &name) != napi_ok ||
      napi_async_init(env, NULL, name, &w->async) != napi_ok) {
    watch_stop(w, 1);
    free(w);
    return NULL;
  }
  int rc = uv_poll_init_socket(loop, &w->poll, fd);
  if (rc == 0) {
    w->handle_open = 1;
    rc = uv_poll_start(&w->poll, UV_READABLE, watch_readable);
  }
  if (rc != 0) {
    watch_stop(w, 1);
    w->js_alive = 0;
    watch_maybe_free(w);  // now, or once libuv has closed the handle
    return waved_throw_errno(env, "uv_poll_start", -rc, NULL);
  }
  if (napi_wrap(env, object, w, watch_finalize, NULL, NULL) != napi_ok) {
    watch_stop(w, 1);
    w->js_alive = 0;
    watch_maybe_free(w);
    return NULL;
  }
  napi_add_env_cleanup_hook(env, watch_env_cleanup, w);
  return object;
}

static napi_value unwatch(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  Watch *w = NULL;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
      napi_unwrap(env, argv[0], (void **)&w) != napi_ok || w == NULL)
    return waved_throw_type(env, "unwatch(handle) takes what watch() returned");
  watch_stop(w, 1);
  return undefined(env);
}

// arpSet(fd, device: Buffer, address: int, hardware: Buffer, offset: int): writes the ARP cache entry
// address -> hardware[offset..offset+6) on the device (ioctl SIOCSARP on any IPv4 socket of the
// network namespace; CAP_NET_ADMIN). The entry is an ordinary one (ATF_COM, not ATF_PERM): the
// kernel replaces it when the neighbour answers and ages it out. `address` is the IPv4 address in
// host order (as the UDP batch transport's meta holds it).
static napi_value arp_set(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  int32_t fd, address, offset;
  void *device = NULL, *hardware = NULL;
  size_t device_length = 0, hardware_length = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 5 || !get_int(env, argv[0], &fd) ||
      fd < 0 || !get_buffer(env, argv[1], &device, &device_length) || !get_int(env, argv[2], &address) ||
      !get_buffer(env, argv[3], &hardware, &hardware_length) || !get_int(env, argv[4], &offset))
    return waved_throw_type(env, "arpSet(fd: int, device: Buffer, address: int, hardware: Buffer, offset: int)");
  if (device_length < 1 || device_length >= IFNAMSIZ || memchr(device, 0, device_length) != NULL)
    return waved_throw_type(env, "arpSet device name must be 1..15 bytes without NUL");
  if (offset < 0 || (size_t)offset > hardware_length || hardware_length - (size_t)offset < 6)
    return waved_throw_type(env, "arpSet hardware address needs 6 bytes at offset");
  struct arpreq request;
  memset(&request, 0, sizeof request);
  struct sockaddr_in protocol;
  memset(&protocol, 0, sizeof protocol);
  protocol.sin_family = AF_INET;
  protocol.sin_addr.s_addr = htonl((uint32_t)address);
  memcpy(&request.arp_pa, &protocol, sizeof protocol);
  request.arp_ha.sa_family = ARPHRD_ETHER;
  memcpy(request.arp_ha.sa_data, (const unsigned char *)hardware + offset, 6);
  request.arp_flags = ATF_COM;
  memcpy(request.arp_dev, device, device_length);
  if (ioctl(fd, SIOCSARP, &request) != 0) return waved_throw_errno(env, "ioctl", errno, "SIOCSARP");
  return undefined(env);
}

static int export_function(napi_env env, napi_value exports, const char *name, napi_callback fn) {
  napi_value value;
  return napi_create_function(env, name, NAPI_AUTO_LENGTH, fn, NULL, &value) == napi_ok &&
         napi_set_named_property(env, exports, name, value) == napi_ok;
}

NAPI_MODULE_INIT() {
  napi_value version;
  if (!export_function(env, exports, "setsockopt", set_option) ||
      !export_function(env, exports, "getsockopt", get_option) ||
      !export_function(env, exports, "unixSocket", unix_socket) ||
      !export_function(env, exports, "unixBind", unix_bind) ||
      !export_function(env, exports, "unixConnect", unix_connect) ||
      !export_function(env, exports, "unixSend", unix_send) ||
      !export_function(env, exports, "unixRecv", unix_recv) || !export_function(env, exports, "closeFd", close_fd) ||
      !export_function(env, exports, "watch", watch) || !export_function(env, exports, "unwatch", unwatch) ||
      !export_function(env, exports, "udpBatchOpen", waved_udp_batch_open) ||
      !export_function(env, exports, "udpBatchClose", waved_udp_batch_close) ||
      !export_function(env, exports, "arpSet", arp_set) ||
      napi_create_int32(env, WAVED_NATIVE_ABI, &version) != napi_ok ||
      napi_set_named_property(env, exports, "abi", version) != napi_ok)
    return NULL;
  return exports;
}
