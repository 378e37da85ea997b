// CheckedFile (checked_file.h): open, ranged reads, full verification and
// the sorted-string table search, over a raw file or a payload wrapped by the
// writer. Oracles: a wrapped payload reads back byte for byte with no damage;
// a streamed write (CheckedFileWriter with appends of varying sizes and a
// header patch) gives the same file as WriteCheckedFile; a file opened with
// another identity is refused.
#include <cstddef>
#include <cstdint>

#include "fuzz_util.h"

using namespace litgraph;
using namespace litgraph::fuzz;

namespace {

uint64_t Word(std::string_view b, size_t at) {
  uint64_t v = 0;
  if (at + 8 <= b.size()) std::memcpy(&v, b.data() + at, 8);
  return v;
}

void Exercise(const CheckedFile& f, std::string_view bytes) {
  const uint64_t n = f.size();
  Use(f.Read(0, n));
  Use(f.Read(n, 0));
  Use(f.Read(n / 2, n - n / 2));
  Use(f.Read(n, 1));
  Use(f.Read(UINT64_MAX, 2));
  Use(f.Read(1, UINT64_MAX));
  Use(f.Read(UINT64_MAX - 3, 8));
  // Ranges and a sorted-string table taken from the payload's own words.
  for (size_t at = 0; at + 16 <= bytes.size() && at < 64; at += 16)
    Use(f.Read(Word(bytes, at), Word(bytes, at + 8)));
  for (const char* key : {"", "a", "graph", "\xff\xff"})
    Use(FindSortedString(f, Word(bytes, 0) % (n + 16), Word(bytes, 8) % (n + 16),
                         Word(bytes, 16) % 4096, key));
  Use(f.VerifyAll());
  Use(f.status());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Input in = Decode(data, size);
  const std::string path = ScratchDir() + "/fuzz.bin";
  const FileIdentity id = Identity("fuzz.bin");
  WriteInput(path, id, in);
  {
    CheckedFile f;
    Status st = f.Open(path, id);
    if (!in.raw) {
      if (!st.ok()) std::fprintf(stderr, "%s\n", st.message().c_str());
      Check(st.ok(), "a written checked file does not open");
      Check(f.size() == in.bytes.size(), "payload size differs");
      const uint8_t* p = f.Read(0, f.size());
      Check(p != nullptr || f.size() == 0, "a written payload reads as damaged");
      Check(f.size() == 0 || std::memcmp(p, in.bytes.data(), f.size()) == 0,
            "payload differs from what was written");
      Check(f.VerifyAll().ok(), "a written payload fails verification");
    }
    if (st.ok()) Exercise(f, in.bytes);
  }
  {
    CheckedFile other;
    Status st = other.Open(path, Identity("other.bin"));
    Check(!st.ok(), "a file opened under another name");
    st = other.Open(path, Identity("fuzz.bin", 2));
    Check(!st.ok(), "a file opened under another build");
  }
  if (!in.raw && !in.bytes.empty()) {
    // The streaming writer: appends cut where the payload's bytes say, then a
    // header patch of the first bytes with themselves.
    const std::string path2 = ScratchDir() + "/fuzz2.bin";
    CheckedFileWriter w;
    Check(w.Open(path2, id).ok(), "writer open");
    std::string_view rest = in.bytes;
    size_t i = 0;
    while (!rest.empty()) {
      size_t cut = std::min<size_t>(
          rest.size(), 1 + (static_cast<uint8_t>(rest[0]) * 37u + i) % (i % 3 == 0 ? 5000u : 300u));
      Check(w.Append(rest.substr(0, cut)).ok(), "writer append");
      rest.remove_prefix(cut);
      ++i;
    }
    size_t patch = std::min<size_t>(in.bytes.size(), 64);
    Check(w.PatchHeader(0, in.bytes.substr(0, patch)).ok(), "writer patch");
    Check(!w.PatchHeader(4096, "x").ok(), "a patch outside the first page accepted");
    Check(w.Finish().ok(), "writer finish");
    MappedFile a, b;
    Check(a.Open(path).ok() && b.Open(path2).ok(), "reopen");
    Check(a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size()) == 0,
          "streamed and one-call writes differ");
  }
  return 0;
}
