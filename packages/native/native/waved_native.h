// Shared by the translation units of the @waved/native addon.
#ifndef WAVED_NATIVE_H
#define WAVED_NATIVE_H

#define NAPI_VERSION 8
#include <node_api.h>
#include <stddef.h>
// libuv: its stable 1.x ABI (poll handles, error names, uv_version), exported by every Node binary; the
// one exception, the loop option flags of udp_batch.c, is checked against uv_version() first.
#include <uv.h>

// Bumped whenever the functions the addon exports change shape; the JavaScript loader refuses a
// prebuild whose number differs, instead of calling into it wrongly.
#define WAVED_NATIVE_ABI 3

napi_value waved_throw_errno(napi_env env, const char *syscall, int error, const char *detail);
napi_value waved_throw_type(napi_env env, const char *message);
napi_value waved_udp_batch_open(napi_env env, napi_callback_info info);
napi_value waved_udp_batch_close(napi_env env, napi_callback_info info);

#endif
