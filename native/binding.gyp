{
  "targets": [
    {
      "target_name": "clipnest_sendfile",
      "sources": ["src/sendfile.c"],
      "cflags": ["-O2", "-Wall", "-Wextra"],
      "defines": ["NAPI_VERSION=8"]
    }
  ]
}
