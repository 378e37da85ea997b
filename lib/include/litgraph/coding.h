// Byte-level encodings shared by the store and the graph files: LEB128
// varints and packed lists of external ids.
//
// All decoders are bounds-checked: they return false (or stop) on truncated
// input instead of reading past the end.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace litgraph {

// LEB128 into a buffer with room for 10 bytes; returns the end of the bytes.
inline char* PutVarint(uint64_t v, char* p) {
  while (v >= 0x80) {
    *p++ = static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}

inline void PutVarint(uint64_t v, std::string* out) {
  char buf[10];
  out->append(buf, PutVarint(v, buf) - buf);
}

// Reads a varint at *p (< end); advances *p. False when truncated/overlong.
inline bool GetVarint(const uint8_t** p, const uint8_t* end, uint64_t* v) {
  uint64_t r = 0;
  for (int shift = 0; shift < 64 && *p < end; shift += 7) {
    uint8_t b = *(*p)++;
    r |= static_cast<uint64_t>(b & 0x7F) << shift;
    if (!(b & 0x80)) {
      *v = r;
      return true;
    }
  }
  return false;
}

inline size_t VarintLength(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

inline void PutFixed32(uint32_t v, std::string* out) {
  out->append(reinterpret_cast<const char*>(&v), 4);
}
inline void PutFixed64(uint64_t v, std::string* out) {
  out->append(reinterpret_cast<const char*>(&v), 8);
}

// A list of external paper ids (referenced_works, related_works) packed for
// the paper row: OpenAlex work ids "W<n>" become varint(n << 1); any other id
// becomes varint(len << 1 | 1) followed by its bytes. Order is preserved.
std::string PackIdList(const std::vector<std::string>& ids);
// Unpacks; false when the blob is corrupt.
bool UnpackIdList(std::string_view blob, std::vector<std::string>* ids);

// One packed entry, decoded without allocating: either a W number or a string.
struct PackedId {
  bool is_work_number;
  uint64_t work_number;   // when is_work_number
  std::string_view text;  // otherwise
};
// Calls fn(PackedId) for every entry; false when the blob is corrupt.
template <typename Fn>
bool ForEachPackedId(std::string_view blob, Fn&& fn) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(blob.data());
  const uint8_t* end = p + blob.size();
  while (p < end) {
    uint64_t v;
    if (!GetVarint(&p, end, &v)) return false;
    if (v & 1) {
      uint64_t len = v >> 1;
      if (len > static_cast<uint64_t>(end - p)) return false;
      fn(PackedId{false, 0, std::string_view(reinterpret_cast<const char*>(p), len)});
      p += len;
    } else {
      fn(PackedId{true, v >> 1, {}});
    }
  }
  return true;
}

// The number of a short OpenAlex id, a capital letter and 1-19 digits
// ("A5023888391" -> 5023888391); 0 for anything else.
uint64_t ShortIdNumber(std::string_view id);
// "W123" -> 123; 0 when id is not a short OpenAlex work id.
uint64_t WorkNumber(std::string_view id);

// The work number PackIdList encodes id by, or 0 when id is packed as a
// string (not "W<n>", a leading zero, or n >= 2^62).
uint64_t PackedWorkNumber(std::string_view id);

}  // namespace litgraph
