// Rewrites litgraph checked files with another page shift (README.md, "Tried, not kept"):
// the payload unchanged, the page hashes and footer rewritten. repage SHIFT FILE...
// g++ -O2 repage.cc -lxxhash -o repage; then repage_manifests.py STORE SHIFT.
#include <xxhash.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
struct Footer {
  char magic[8];
  uint8_t store[16];
  uint64_t build, name_hash, payload;
  uint32_t page_shift, reserved;
  uint64_t hash;
};
int main(int argc, char** argv) {
  uint32_t shift = atoi(argv[1]);
  for (int i = 2; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string s = ss.str();
    if (s.size() < 64 || memcmp(s.data() + s.size() - 64, "LGCHK\0\0\1", 8)) {
      fprintf(stderr, "skip %s\n", argv[i]);
      continue;
    }
    Footer f;
    memcpy(&f, s.data() + s.size() - 64, 64);
    std::string out = s.substr(0, f.payload);
    while (out.size() % 8) out.push_back(0);
    uint64_t pages = (f.payload + (1ull << shift) - 1) >> shift;
    for (uint64_t p = 0; p < pages; ++p) {
      uint64_t b = p << shift, len = std::min<uint64_t>(1ull << shift, f.payload - b);
      uint64_t h = XXH3_64bits_withSeed(s.data() + b, len, p);
      out.append((char*)&h, 8);
    }
    f.page_shift = shift;
    f.hash = XXH3_64bits(&f, 56);
    out.append((char*)&f, 64);
    std::string tmp = std::string(argv[i]) + ".conv";
    std::ofstream o(tmp, std::ios::binary);
    o << out;
    o.close();
    rename(tmp.c_str(), argv[i]);
  }
}
