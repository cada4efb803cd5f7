{
  "targets": [
    {
      "target_name": "captive_dns_udp",
      "sources": ["native/udp_batch.c"],
      "cflags": ["-O2", "-Wall", "-Wextra", "-Wno-unused-parameter"],
      "conditions": [["OS!='linux'", {"type": "none", "sources!": ["native/udp_batch.c"]}]]
    }
  ]
}
