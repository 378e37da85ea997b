// Tests for files.h: ZeroedArray, sparse (4 KiB pages) and dense (huge-page
// advice, 2 MiB-aligned), FindSortedString, mapped files opened again and
// large ones mapped at 2 MiB boundaries with huge-page advice; and for
// checked_file.h, a checked file opened again.
#include "litgraph/files.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "litgraph/checked_file.h"
#include "test_util.h"

namespace litgraph {
namespace {

template <typename T>
void ExpectZeroedAndWritable(ZeroedArray<T>& a) {
  for (size_t i = 0; i < a.size(); i += 997) EXPECT_EQ(a[i], T{}) << i;
  EXPECT_EQ(a[a.size() - 1], T{});
  for (size_t i = 0; i < a.size(); i += 4096 / sizeof(T)) a[i] = static_cast<T>(i % 251 + 1);
  a[a.size() - 1] = T{7};
  for (size_t i = 0; i + 1 < a.size(); i += 4096 / sizeof(T))
    EXPECT_EQ(a[i], static_cast<T>(i % 251 + 1)) << i;
  EXPECT_EQ(a[a.size() - 1], T{7});
}

// The bytes of `path`'s mappings, of anonymous inaccessible ("---p")
// mappings and of every anonymous mapping, in /proc/self/maps. (Not the
// whole address space: the heap may grow while the maps are read.)
struct MapBytes {
  uint64_t file = 0, reserved = 0, anonymous = 0;
};
MapBytes MappedBytes(const std::string& path) {
  std::ifstream maps("/proc/self/maps");
  MapBytes n;
  for (std::string line; std::getline(maps, line);) {
    std::istringstream fields(line);
    std::string range, perms, offset, device, inode, name;
    fields >> range >> perms >> offset >> device >> inode >> name;
    const size_t dash = range.find('-');
    const uint64_t bytes = std::stoull(range.substr(dash + 1), nullptr, 16) -
                           std::stoull(range.substr(0, dash), nullptr, 16);
    if (name == path) n.file += bytes;
    if (perms == "---p" && inode == "0" && name.empty()) n.reserved += bytes;
    if (inode == "0" && name.empty()) n.anonymous += bytes;
  }
  return n;
}

TEST(ZeroedArrayTest, SparseArraysAreZeroedAndWritable) {
  for (size_t n : {size_t{1}, size_t{1000}, size_t{3} << 20}) {
    ZeroedArray<float> a(n);
    EXPECT_EQ(a.size(), n);
    ExpectZeroedAndWritable(a);
  }
}

TEST(ZeroedArrayTest, DenseArraysAreHugePageAligned) {
  // 5 MiB of floats: more than two huge pages, not a multiple of one.
  const size_t n = (size_t{5} << 20) / sizeof(float) + 3;
  ZeroedArray<float> a(n, /*dense=*/true);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(&a[0]) % (size_t{2} << 20), 0u);
  ExpectZeroedAndWritable(a);
  // Below 2 MiB a dense array is an ordinary one.
  ZeroedArray<uint32_t> small(1000, /*dense=*/true);
  ExpectZeroedAndWritable(small);
  // Many in turn, of sizes that are not whole pages: each is unmapped whole,
  // the alignment slack included (an unaligned munmap of the slack's tail
  // failed and kept ~1 MiB of it mapped each time).
  const uint64_t anonymous = MappedBytes("").anonymous;
  for (int i = 0; i < 50; ++i) {
    ZeroedArray<uint64_t> b((size_t{3} << 20) / 8 + i, true);
    b[b.size() - 1] = 1;
    EXPECT_EQ(b[0], 0u);
  }
  EXPECT_LT(MappedBytes("").anonymous, anonymous + (uint64_t{16} << 20));
}

TEST(ZeroedArrayTest, EmptyArray) {
  ZeroedArray<float> a(0);
  EXPECT_EQ(a.size(), 0u);
  ZeroedArray<float> b(0, true);
  EXPECT_EQ(b.size(), 0u);
}

TEST(FindSortedStringTest, FindsEveryStringAndNothingElse) {
  std::vector<std::string> words = {"alpha", "beta", "betamax", "delta", "gamma"};
  std::string strings;
  std::vector<uint64_t> offsets;
  for (const auto& w : words) {
    offsets.push_back(strings.size());
    strings += w;
  }
  offsets.push_back(strings.size());
  for (size_t i = 0; i < words.size(); ++i)
    EXPECT_EQ(FindSortedString(offsets.data(), strings.data(), words.size(), words[i]),
              static_cast<int64_t>(i));
  for (const char* miss : {"", "a", "alph", "alphaa", "bet", "betam", "zeta", "epsilon"})
    EXPECT_EQ(FindSortedString(offsets.data(), strings.data(), words.size(), miss), -1) << miss;
  EXPECT_EQ(FindSortedString(offsets.data(), strings.data(), 0, "alpha"), -1);
}

// How many mappings of `path` the process has (/proc/self/maps).
int Mappings(const std::string& path) {
  std::ifstream maps("/proc/self/maps");
  int n = 0;
  for (std::string line; std::getline(maps, line);)
    if (line.size() >= path.size() &&
        line.compare(line.size() - path.size(), path.size(), path) == 0)
      ++n;
  return n;
}

// A MappedFile (and so a CheckedFile) opened a second time kept the first
// mapping: fuzz/checked_file_fuzz.cc, which opens one file under several
// identities, ran out of mappings (vm.max_map_count) after ~64k inputs.
TEST(MappedFileTest, OpeningAgainUnmapsTheFileOpenedBefore) {
  testing::ScopedTempDir tmp;
  const std::string a = tmp.File("a"), b = tmp.File("b");
  testing::WriteFile(a, "first");
  testing::WriteFile(b, "second file");
  MappedFile f;
  ASSERT_TRUE(f.Open(a).ok());
  EXPECT_EQ(Mappings(a), 1);
  ASSERT_TRUE(f.Open(b).ok());
  EXPECT_EQ(f.size(), 11u);
  EXPECT_EQ(Mappings(a), 0);
  EXPECT_EQ(Mappings(b), 1);
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(f.Open(b).ok());
  EXPECT_EQ(Mappings(b), 1);
  EXPECT_FALSE(f.Open(tmp.File("missing")).ok());
  EXPECT_EQ(Mappings(b), 0);
  EXPECT_EQ(f.data(), nullptr);
  EXPECT_EQ(f.size(), 0u);
}

// The value of `field` ("Rss:", "VmFlags:") for `path`'s mapping in
// /proc/self/smaps; nullopt when the file is not mapped.
std::optional<std::string> SmapsField(const std::string& path, const std::string& field) {
  std::ifstream smaps("/proc/self/smaps");
  bool in = false;
  for (std::string line; std::getline(smaps, line);) {
    if (line.find('-') < line.find(' ') && line.find(' ') != std::string::npos &&
        std::isxdigit(static_cast<unsigned char>(line[0])))
      in = line.size() >= path.size() &&
           line.compare(line.size() - path.size(), path.size(), path) == 0;
    else if (in && line.rfind(field, 0) == 0)
      return line.substr(field.size());
  }
  return std::nullopt;
}

// The Rss of `path`'s mapping, in KiB (-1: not mapped).
long MappedRssKb(const std::string& path) {
  auto v = SmapsField(path, "Rss:");
  return v ? std::stol(*v) : -1;
}

// Release drops the whole pages of a range from the process's RSS (a build
// that reads a big file once: embed's scratch vectors, an index's source
// rows), and the bytes read the same afterwards.
TEST(MappedFileTest, ReleasedPagesLeaveTheRssAndReadTheSame) {
  testing::ScopedTempDir tmp;
  const std::string path = tmp.File("big");
  std::string bytes(8 << 20, '\0');
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 131 % 251);
  testing::WriteFile(path, bytes);
  MappedFile f;
  ASSERT_TRUE(f.Open(path).ok());
  uint64_t sum = 0;
  for (size_t i = 0; i < f.size(); i += 512) sum += f.data()[i];
  const long before = MappedRssKb(path);
  ASSERT_GE(before, 7 * 1024) << "every page was read";
  f.Release(4096 + 1, 6 << 20);  // whole pages from the second on
  const long after = MappedRssKb(path);
  EXPECT_LE(after, before - 5 * 1024) << before << " KiB before";
  uint64_t again = 0;
  for (size_t i = 0; i < f.size(); i += 512) again += f.data()[i];
  EXPECT_EQ(again, sum);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(f.data()), f.size()), bytes);
  f.Release(f.size() + 10, 100);  // past the end: nothing
  MappedFile none;
  none.Release(0, 100);
}

// The VmFlags of `path`'s mapping ("rd mr me ms hg" for one advised
// MADV_HUGEPAGE), empty when it is not mapped.
std::string VmFlags(const std::string& path) { return SmapsField(path, "VmFlags:").value_or(""); }

// A file of 2 MiB or more is mapped at a 2 MiB boundary with huge-page
// advice (so the page cache can hold it in 2 MiB folios) and nothing of the
// span reserved to align it stays mapped; a smaller file is mapped as it is.
TEST(MappedFileTest, LargeFilesMapAtHugePageBoundaries) {
  testing::ScopedTempDir tmp;
  const bool thp = std::filesystem::exists("/sys/kernel/mm/transparent_hugepage/enabled");
  for (size_t size : {size_t{3} << 20 | 123, size_t{2} << 20, size_t{4} << 20, size_t{5000}}) {
    const std::string path = tmp.File("f" + std::to_string(size));
    std::string bytes(size, 0);
    for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>(i * 131 % 251);
    testing::WriteFile(path, bytes);
    {
      MappedFile f;
      ASSERT_TRUE(f.Open(path).ok());
      ASSERT_EQ(f.size(), size);
      EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(f.data()), size), bytes) << size;
      if (size >= (size_t{2} << 20))
        EXPECT_EQ(reinterpret_cast<uintptr_t>(f.data()) % (uintptr_t{2} << 20), 0u) << size;
      EXPECT_EQ(Mappings(path), 1);
      EXPECT_EQ(MappedBytes(path).file, (size + 4095) / 4096 * 4096) << size;
      if (thp)  // a kernel without transparent huge pages refuses the advice
        EXPECT_EQ(VmFlags(path).find(" hg") != std::string::npos, size >= (size_t{2} << 20))
            << size << ":" << VmFlags(path);
    }
    EXPECT_EQ(Mappings(path), 0);
    // What is reserved to align a mapping is given back: 64 maps that each
    // left their 2 MiB of slack reserved would hold 128 MiB more. (Other
    // reservations move too, ASan's shadow among them, by far less.)
    const uint64_t reserved = MappedBytes(path).reserved;
    for (int i = 0; i < 64; ++i) {
      MappedFile g;
      ASSERT_TRUE(g.Open(path).ok());
    }
    EXPECT_LT(MappedBytes(path).reserved, reserved + (uint64_t{32} << 20)) << size;
  }
}

TEST(CheckedFileTest, OpeningAgainForgetsTheFileOpenedBefore) {
  testing::ScopedTempDir tmp;
  const std::string bad = tmp.File("bad"), good = tmp.File("good");
  const FileIdentity id = testing::TestId(good);
  ASSERT_TRUE(WriteCheckedFile(good, id, "payload bytes").ok());
  std::string damaged = testing::ReadFile(good);
  damaged[0] ^= 1;  // the page no longer matches its hash
  testing::WriteFile(bad, damaged);
  CheckedFile f;
  // Refused under other identities, then opened: one mapping left.
  EXPECT_FALSE(f.Open(good, testing::TestId("other")).ok());
  FileIdentity later = id;
  later.build = 2;
  EXPECT_FALSE(f.Open(good, later).ok());
  ASSERT_TRUE(f.Open(bad, id).ok());  // the footer is intact
  EXPECT_EQ(f.Read(0, 4), nullptr);
  EXPECT_FALSE(f.status().ok());
  ASSERT_TRUE(f.Open(good, id).ok());
  EXPECT_TRUE(f.status().ok()) << "the damage of the file opened before: " << f.status().message();
  const uint8_t* p = f.Read(0, f.size());
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(p), f.size()), "payload bytes");
  EXPECT_EQ(Mappings(bad), 0);
  EXPECT_EQ(Mappings(good), 1);
}

// Every page size a writer may choose reads back, verifies each page on its
// own (damage in one page leaves reads of the others intact) and streams
// across page boundaries with a header patched last.
TEST(CheckedFileTest, EachPageSizeChecksItsOwnPages) {
  testing::ScopedTempDir tmp;
  std::string payload;
  for (int i = 0; payload.size() < 70000; ++i) payload += std::to_string(i * 7919) + ",";
  for (uint32_t shift : {kCheckedMinPageShift, kCheckedPageShift, 12u, kCheckedMaxPageShift}) {
    SCOPED_TRACE(shift);
    const std::string path = tmp.File("f" + std::to_string(shift));
    const FileIdentity id = testing::TestId(path);
    CheckedFileWriter w;
    ASSERT_TRUE(w.Open(path, id, shift).ok());
    for (size_t at = 0; at < payload.size(); at += 1000)
      ASSERT_TRUE(w.Append(std::string_view(payload).substr(at, 1000)).ok());
    ASSERT_TRUE(w.PatchHeader(0, "HEAD").ok());
    ASSERT_TRUE(w.Finish().ok());
    std::string want = payload;
    want.replace(0, 4, "HEAD");
    const uint64_t page = uint64_t{1} << shift;
    const uint64_t pages = (want.size() + page - 1) / page;
    // The table holds one hash per page of this size.
    const std::string bytes = testing::ReadFile(path);
    EXPECT_EQ(bytes.size(), (want.size() + 7) / 8 * 8 + pages * 8 + kCheckedFooterSize);

    CheckedFile f;
    ASSERT_TRUE(f.Open(path, id).ok());
    EXPECT_EQ(f.page_shift(), shift);
    const uint8_t* all = f.Read(0, f.size());
    ASSERT_NE(all, nullptr);
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(all), f.size()), want);

    // One byte of the second page damaged: that page fails, the first and
    // (when another) the last still read.
    std::string damaged = bytes;
    damaged[page + 1] ^= 0x20;
    const std::string bad = path + ".bad";
    testing::WriteFile(bad, damaged);
    CheckedFile g;
    ASSERT_TRUE(g.Open(bad, testing::TestId(path)).ok());
    EXPECT_NE(g.Read(0, page), nullptr);
    if (pages > 2) EXPECT_NE(g.Read(want.size() - 1, 1), nullptr);
    EXPECT_TRUE(g.status().ok());
    EXPECT_EQ(g.Read(page + page / 2, 1), nullptr);
    EXPECT_FALSE(g.status().ok());
  }
  CheckedFileWriter w;
  EXPECT_FALSE(w.Open(tmp.File("small"), testing::TestId("small"), kCheckedMinPageShift - 1).ok());
  EXPECT_FALSE(w.Open(tmp.File("big"), testing::TestId("big"), kCheckedMaxPageShift + 1).ok());
}

// Files past the writer's 2 MiB pieces (written in chunks at 2 MiB
// boundaries, the head last): every byte and page hash as appended, in
// pieces of any size (whole chunks of a large piece are written from it,
// not copied), with the header patched, and a damaged page in a later piece
// still found; the same bytes in other pieces make the same file.
TEST(CheckedFileTest, FilesLargerThanTheWritersPiecesRoundTrip) {
  testing::ScopedTempDir tmp;
  std::string payload;
  for (uint64_t i = 0; payload.size() < (uint64_t{5} << 20) + 12345; ++i)
    payload += std::to_string(i * 104729) + ";";
  for (uint32_t shift : {kCheckedPageShift, kCheckedMaxPageShift}) {
    std::string first;  // the file of the first piece size
    for (size_t piece :
         {size_t{7777}, size_t{3} << 20, (size_t{1} << 20) + 1, (size_t{5} << 20) + 12345}) {
      SCOPED_TRACE(fmt::format("shift {} piece {}", shift, piece));
      const std::string path = tmp.File(fmt::format("f{}-{}", shift, piece));
      const FileIdentity id = testing::TestId("pieces");  // one identity: comparable files
      CheckedFileWriter w;
      ASSERT_TRUE(w.Open(path, id, shift).ok());
      for (size_t at = 0; at < payload.size(); at += piece)
        ASSERT_TRUE(w.Append(std::string_view(payload).substr(at, piece)).ok());
      EXPECT_EQ(w.size(), payload.size());
      ASSERT_TRUE(w.PatchHeader(3, "HEADER").ok());
      ASSERT_TRUE(w.Finish().ok());
      std::string want = payload;
      want.replace(3, 6, "HEADER");
      CheckedFile f;
      ASSERT_TRUE(f.Open(path, id).ok());
      EXPECT_TRUE(f.VerifyAll().ok());
      const uint8_t* all = f.Read(0, f.size());
      ASSERT_NE(all, nullptr);
      EXPECT_EQ(std::string(reinterpret_cast<const char*>(all), f.size()), want);

      std::string damaged = testing::ReadFile(path);
      if (first.empty()) first = damaged;
      EXPECT_TRUE(damaged == first) << "the same file whatever the pieces";
      const uint64_t at = (uint64_t{4} << 20) + 100;  // in the third piece
      damaged[at] ^= 0x01;
      const std::string bad = path + ".bad";
      testing::WriteFile(bad, damaged);
      CheckedFile g;
      ASSERT_TRUE(g.Open(bad, id).ok());
      EXPECT_NE(g.Read(0, 100), nullptr);
      EXPECT_EQ(g.Read(at, 1), nullptr);
      EXPECT_FALSE(g.status().ok());
    }
  }
}

}  // namespace
}  // namespace litgraph
