// Microbenchmark (README.md, "Why the checks' cost is not lower"): hashing random 512-byte
// pages of a mapped store file from memory. g++ -O2 page_hash_mb.cc -lxxhash && ./a.out FILE
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxh_x86dispatch.h>
#include <xxhash.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>
int main(int argc, char** argv) {
  int fd = open(argv[1], O_RDONLY);
  struct stat sb;
  fstat(fd, &sb);
  size_t size = sb.st_size;
  const uint8_t* d =
      (const uint8_t*)mmap(nullptr, size, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
  size_t pages = size / 512 - 100;
  std::mt19937_64 rng(1);
  const int N = 30000;
  auto run = [&](const char* name, auto fn) {
    std::vector<uint64_t> ps(N);
    for (auto& p : ps) p = rng() % pages;
    auto t0 = std::chrono::steady_clock::now();
    uint64_t acc = 0;
    for (uint64_t p : ps) acc += fn(p);
    double ns =
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / N;
    printf("%-28s %7.1f ns/page (%llu)\n", name, ns, (unsigned long long)(acc & 1));
  };
  for (int r = 0; r < 3; ++r) {
    run("touch 1 line", [&](uint64_t p) { return (uint64_t)d[p * 512 + 64]; });
    run("touch 8 lines", [&](uint64_t p) {
      uint64_t s = 0;
      for (int i = 0; i < 8; ++i) s += d[p * 512 + i * 64];
      return s;
    });
    run("xxh3 seed dispatch",
        [&](uint64_t p) { return XXH3_64bits_withSeed_dispatch(d + p * 512, 512, p); });
    run("xxh3 noseed dispatch", [&](uint64_t p) { return XXH3_64bits_dispatch(d + p * 512, 512); });
    run("xxh3 seed sse2", [&](uint64_t p) { return XXH3_64bits_withSeed(d + p * 512, 512, p); });
    run("xxh3 seed dispatch + 1 line", [&](uint64_t p) {
      return XXH3_64bits_withSeed_dispatch(d + p * 512, 512, p) + d[p * 512 + 64];
    });
    run("prefetch8 + xxh3 seed disp", [&](uint64_t p) {
      const uint8_t* q = d + p * 512;
      for (int i = 0; i < 8; ++i) __builtin_prefetch(q + 64 * i);
      return XXH3_64bits_withSeed_dispatch(q, 512, p);
    });
    run("touch8 + xxh3 seed disp", [&](uint64_t p) {
      const uint8_t* q = d + p * 512;
      uint64_t s = 0;
      for (int i = 0; i < 8; ++i) s += q[64 * i];
      return s + XXH3_64bits_withSeed_dispatch(q, 512, p);
    });
    run("table entry (far)", [&](uint64_t p) {
      uint64_t v;
      memcpy(&v, d + size - 8 * (pages - p) - 64, 8);
      return v;
    });
  }
  // in-cache hashing cost
  std::vector<uint8_t> buf(512, 7);
  auto t0 = std::chrono::steady_clock::now();
  uint64_t acc = 0;
  for (int i = 0; i < 1000000; ++i) acc += XXH3_64bits_withSeed_dispatch(buf.data(), 512, i);
  printf("in-cache seed dispatch %.1f ns\n",
         std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
             1e6);
  t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 1000000; ++i) acc += XXH3_64bits_dispatch(buf.data(), 512) ^ i;
  printf(
      "in-cache noseed dispatch %.1f ns (%llu)\n",
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / 1e6,
      (unsigned long long)(acc & 1));
}
