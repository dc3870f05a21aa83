// One-shot brotli and gzip for JSON answers, on the brotli and zlib Node itself ships (and exports).
//
// zlib.brotliCompressSync and gzipSync build a Transform stream, a native handle with a weak reference, a 16 KB
// output buffer and V8 external-memory reports for every call: on a 1.5 KB paste view that cost several times
// the compression itself (bench/paste.bench.mjs). Here a call compresses into a buffer the caller owns, with
// the same libraries and parameters, so the same bytes come out. Gzip keeps one deflate stream per setting
// and resets it between answers, so its tables are neither allocated again nor cold.
//
// JS API (each call returns the bytes written to output, or -1 when output is smaller than the bound or the
// encoder failed: the caller then falls back to node:zlib):
//   brotli(input, output, quality, lgwin, mode)      brotliBound(n)
//   gzip(input, output, level, windowBits, memLevel)  gzipBound(n)
#include <node_api.h>
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

// Brotli's public encoder API (c/include/brotli/encode.h, stable since 1.0). Node does not install the header,
// but its binary exports these symbols; a Node without them fails to load this addon and the server uses
// node:zlib.
int BrotliEncoderCompress(int quality, int lgwin, int mode, size_t input_size, const uint8_t *input_buffer,
                          size_t *encoded_size, uint8_t *encoded_buffer);
size_t BrotliEncoderMaxCompressedSize(size_t input_size);

// Deflate streams kept per setting (level, windowBits, memLevel), per thread. Answers use a handful of settings
// (the window follows the size, see server/src/http/compressJson.ts); a new one replaces the oldest. The server
// compresses on its main thread only, so the streams live as long as the process and are never freed.
#define DEFLATERS 8
typedef struct {
  int ready, level, window_bits, mem_level;
  z_stream strm;
} deflater_t;
static __thread deflater_t deflaters[DEFLATERS];
static __thread unsigned next_slot;

static z_stream *deflater_for(int level, int window_bits, int mem_level) {
  for (int i = 0; i < DEFLATERS; i++) {
    deflater_t *d = &deflaters[i];
    if (d->ready && d->level == level && d->window_bits == window_bits && d->mem_level == mem_level) {
      if (deflateReset(&d->strm) != Z_OK) return NULL;
      return &d->strm;
    }
  }
  deflater_t *d = &deflaters[next_slot++ % DEFLATERS];
  if (d->ready) deflateEnd(&d->strm);
  d->ready = 0;
  d->strm.zalloc = Z_NULL;
  d->strm.zfree = Z_NULL;
  d->strm.opaque = Z_NULL;
  // windowBits + 16: a gzip header and trailer around the deflate data.
  if (deflateInit2(&d->strm, level, Z_DEFLATED, window_bits + 16, mem_level, Z_DEFAULT_STRATEGY) != Z_OK) return NULL;
  d->ready = 1;
  d->level = level;
  d->window_bits = window_bits;
  d->mem_level = mem_level;
  return &d->strm;
}

// deflateBound's bound for any setting other than zlib's defaults, plus the gzip header and trailer.
static size_t gzip_bound(size_t n) { return n + ((n + 7) >> 3) + ((n + 63) >> 6) + 5 + 18; }

static napi_value throw_error(napi_env env, const char *message) {
  napi_throw_type_error(env, NULL, message);
  return NULL;
}

static int bytes_of(napi_env env, napi_value value, uint8_t **data, size_t *length) {
  napi_typedarray_type type;
  void *raw = NULL;
  if (napi_get_typedarray_info(env, value, &type, length, &raw, NULL, NULL) != napi_ok) return 0;
  if (type != napi_uint8_array) return 0;
  *data = raw;
  return 1;
}

// The arguments of brotli() and gzip(): (input, output, three settings).
typedef struct {
  uint8_t *in, *out;
  size_t in_len, out_len;
  int32_t s[3];
} call_t;

// Reads a call's arguments, each setting within [lo, hi]; 0 when anything is off.
static int read_args(napi_env env, napi_callback_info info, const int32_t lo[3], const int32_t hi[3], call_t *call) {
  size_t argc = 5;
  napi_value argv[5];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 5 || !bytes_of(env, argv[0], &call->in, &call->in_len) || !bytes_of(env, argv[1], &call->out, &call->out_len))
    return 0;
  for (int i = 0; i < 3; i++) {
    int32_t *v = &call->s[i];
    if (napi_get_value_int32(env, argv[2 + i], v) != napi_ok || *v < lo[i] || *v > hi[i]) return 0;
  }
  return 1;
}

static napi_value number(napi_env env, double value) {
  napi_value result;
  napi_create_double(env, value, &result);
  return result;
}

static napi_value brotli(napi_env env, napi_callback_info info) {
  static const int32_t lo[3] = {0, 10, 0}, hi[3] = {11, 24, 2};
  call_t c;
  if (!read_args(env, info, lo, hi, &c))
    return throw_error(env, "brotli(input: Uint8Array, output: Uint8Array, quality 0-11, lgwin 10-24, mode 0-2)");
  // Below the bound brotli may fail where its uncompressed fallback would not fit: refuse up front.
  size_t bound = BrotliEncoderMaxCompressedSize(c.in_len);  // 0: too large to bound
  if (bound == 0 || c.out_len < bound) return number(env, -1);
  size_t size = c.out_len;
  return number(env, BrotliEncoderCompress(c.s[0], c.s[1], c.s[2], c.in_len, c.in, &size, c.out) ? (double)size : -1);
}

static napi_value gzip(napi_env env, napi_callback_info info) {
  static const int32_t lo[3] = {0, 9, 1}, hi[3] = {9, 15, 9};
  call_t c;
  if (!read_args(env, info, lo, hi, &c))
    return throw_error(env, "gzip(input: Uint8Array, output: Uint8Array, level 0-9, windowBits 9-15, memLevel 1-9)");
  if (c.in_len > UINT32_MAX / 2 || c.out_len < gzip_bound(c.in_len)) return number(env, -1);
  z_stream *strm = deflater_for(c.s[0], c.s[1], c.s[2]);
  if (strm == NULL) return number(env, -1);
  strm->next_in = c.in;
  strm->avail_in = (uInt)c.in_len;
  strm->next_out = c.out;
  strm->avail_out = c.out_len > UINT32_MAX ? UINT32_MAX : (uInt)c.out_len;
  int rc = deflate(strm, Z_FINISH);
  double written = rc == Z_STREAM_END ? (double)strm->total_out : -1;
  strm->next_in = Z_NULL;  // the caller's buffers are not kept
  strm->next_out = Z_NULL;
  return number(env, written);
}

static int read_size(napi_env env, napi_callback_info info, double *n) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  return argc >= 1 && napi_get_value_double(env, argv[0], n) == napi_ok && *n >= 0 && *n <= (double)UINT32_MAX / 2;
}

static napi_value brotli_bound(napi_env env, napi_callback_info info) {
  double n = 0;
  if (!read_size(env, info, &n)) return throw_error(env, "brotliBound(n: a byte count up to 2 GiB)");
  return number(env, (double)BrotliEncoderMaxCompressedSize((size_t)n));
}

static napi_value gzip_bound_js(napi_env env, napi_callback_info info) {
  double n = 0;
  if (!read_size(env, info, &n)) return throw_error(env, "gzipBound(n: a byte count up to 2 GiB)");
  return number(env, (double)gzip_bound((size_t)n));
}

NAPI_MODULE_INIT() {
  const struct {
    const char *name;
    napi_callback fn;
  } exported[] = {{"brotli", brotli}, {"brotliBound", brotli_bound}, {"gzip", gzip}, {"gzipBound", gzip_bound_js}};
  for (size_t i = 0; i < sizeof exported / sizeof exported[0]; i++) {
    napi_value fn;
    napi_create_function(env, exported[i].name, NAPI_AUTO_LENGTH, exported[i].fn, NULL, &fn);
    napi_set_named_property(env, exports, exported[i].name, fn);
  }
  return exports;
}
