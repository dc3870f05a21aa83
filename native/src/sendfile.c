// Zero-copy file → socket transfer for Node: sendfile(2) on a thread of its own per transfer.
//
// Node streams copy every byte twice in the server (page cache → JS buffer → socket). sendfile moves
// the pages straight from the page cache to the socket, as nginx does. Each transfer runs on its own
// detached thread so a slow client never holds a libuv pool thread; the socket stays non-blocking
// (libuv owns it) and the thread waits for room with poll(2).
//
// JS API:
//   start(socketFd, fileFd, offset, length, stallMs, done(errno, sent)) → handle
//   cancel(handle)   ends the transfer early; done() then reports ECANCELED
// Both descriptors are duplicated on start, so the caller may close its own at any time without the
// thread ever writing to a reused descriptor number.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <node_api.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/sendfile.h>
#include <time.h>
#include <unistd.h>

#define MAX_CALL (4 << 20)   // bytes per sendfile call
#define POLL_SLICE_MS 200    // how often a waiting thread looks at the cancel flag

typedef struct {
  int sock, file;
  off_t offset;
  int64_t left, sent;
  int64_t stall_ms;
  int err;
  atomic_int cancelled;
  napi_ref self;  // keeps the handle (and so this struct) alive until done() has run
  napi_threadsafe_function done;
} transfer_t;

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void pump(transfer_t *t) {
  int64_t last_progress = now_ms();
  while (t->left > 0) {
    if (atomic_load(&t->cancelled)) { t->err = ECANCELED; return; }
    size_t want = t->left > MAX_CALL ? MAX_CALL : (size_t)t->left;
    ssize_t n = sendfile(t->sock, t->file, &t->offset, want);
    if (n > 0) {
      t->left -= n;
      t->sent += n;
      last_progress = now_ms();
      continue;
    }
    if (n == 0) { t->err = ENODATA; return; }  // the file is shorter than asked
    if (errno == EINTR) continue;
    if (errno != EAGAIN) { t->err = errno; return; }
    if (t->stall_ms > 0 && now_ms() - last_progress > t->stall_ms) { t->err = ETIMEDOUT; return; }
    struct pollfd p = {.fd = t->sock, .events = POLLOUT};
    int r = poll(&p, 1, POLL_SLICE_MS);
    if (r < 0 && errno != EINTR) { t->err = errno; return; }
    if (r > 0 && (p.revents & (POLLERR | POLLHUP | POLLNVAL))) { t->err = EPIPE; return; }
  }
}

static void *run(void *arg) {
  transfer_t *t = arg;
  pump(t);
  close(t->sock);
  close(t->file);
  // After the call below the main thread may free `t`: keep what is still needed in locals.
  napi_threadsafe_function done = t->done;
  napi_call_threadsafe_function(done, NULL, napi_tsfn_blocking);
  napi_release_threadsafe_function(done, napi_tsfn_release);
  return NULL;
}

// On the JS thread, once the transfer has ended.
static void report(napi_env env, napi_value callback, void *context, void *data) {
  (void)data;
  transfer_t *t = context;
  if (env == NULL) return;  // the environment is shutting down
  napi_value undefined, argv[2];
  napi_get_undefined(env, &undefined);
  napi_create_int32(env, t->err, &argv[0]);
  napi_create_int64(env, t->sent, &argv[1]);
  napi_call_function(env, undefined, callback, 2, argv, NULL);
  napi_delete_reference(env, t->self);
}

static void free_transfer(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  free(data);
}

static napi_value throw_error(napi_env env, const char *what) {
  napi_throw_error(env, "ERR_SENDFILE", what);
  return NULL;
}

static napi_value start(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 6)
    return throw_error(env, "start(socketFd, fileFd, offset, length, stallMs, done) takes six arguments");
  int32_t sock, file;
  int64_t offset, length, stall_ms;
  napi_valuetype fn_type;
  if (napi_get_value_int32(env, argv[0], &sock) != napi_ok || napi_get_value_int32(env, argv[1], &file) != napi_ok ||
      napi_get_value_int64(env, argv[2], &offset) != napi_ok || napi_get_value_int64(env, argv[3], &length) != napi_ok ||
      napi_get_value_int64(env, argv[4], &stall_ms) != napi_ok || napi_typeof(env, argv[5], &fn_type) != napi_ok ||
      fn_type != napi_function || sock < 0 || file < 0 || offset < 0 || length < 0)
    return throw_error(env, "start: bad arguments");

  transfer_t *t = calloc(1, sizeof *t);
  if (t == NULL) return throw_error(env, "start: out of memory");
  t->sock = fcntl(sock, F_DUPFD_CLOEXEC, 0);
  t->file = t->sock < 0 ? -1 : fcntl(file, F_DUPFD_CLOEXEC, 0);
  if (t->file < 0) {
    if (t->sock >= 0) close(t->sock);
    free(t);
    return throw_error(env, "start: could not duplicate the descriptors");
  }
  t->offset = (off_t)offset;
  t->left = length;
  t->stall_ms = stall_ms;

  napi_value handle, name;
  napi_create_external(env, t, free_transfer, NULL, &handle);
  napi_create_reference(env, handle, 1, &t->self);
  napi_create_string_utf8(env, "clipnest.sendfile", NAPI_AUTO_LENGTH, &name);
  if (napi_create_threadsafe_function(env, argv[5], NULL, name, 0, 1, NULL, NULL, t, report, &t->done) != napi_ok) {
    close(t->sock);
    close(t->file);
    napi_delete_reference(env, t->self);
    return throw_error(env, "start: could not create the completion callback");
  }

  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&attr, 64 * 1024);
  pthread_t thread;
  int rc = pthread_create(&thread, &attr, run, t);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    close(t->sock);
    close(t->file);
    napi_release_threadsafe_function(t->done, napi_tsfn_abort);
    napi_delete_reference(env, t->self);
    return throw_error(env, "start: could not start a thread");
  }
  return handle;
}

static napi_value cancel(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  void *data = NULL;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 1 || napi_get_value_external(env, argv[0], &data) != napi_ok || data == NULL)
    return throw_error(env, "cancel(handle): not a transfer handle");
  atomic_store(&((transfer_t *)data)->cancelled, 1);
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "start", NAPI_AUTO_LENGTH, start, NULL, &fn);
  napi_set_named_property(env, exports, "start", fn);
  napi_create_function(env, "cancel", NAPI_AUTO_LENGTH, cancel, NULL, &fn);
  napi_set_named_property(env, exports, "cancel", fn);
  return exports;
}
