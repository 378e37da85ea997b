// StringInterner: strings to dense ids 0, 1, 2, ... in first-seen order.
//
// Open addressing over an arena of the strings themselves, so lookups take a
// string_view and never allocate: the hot path of tokenizing a corpus (each
// word looked up once per occurrence). Not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace litgraph {

class StringInterner {
 public:
  static constexpr uint32_t kMissing = 0xFFFFFFFFu;

  StringInterner() { slots_.assign(1024, 0); }

  // The id of s, adding it when new (then *added is set).
  uint32_t Intern(std::string_view s, bool* added = nullptr) {
    uint64_t h = Hash(s);
    size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      uint32_t slot = slots_[i];
      if (slot == 0) {
        uint32_t id = static_cast<uint32_t>(offsets_.size());
        offsets_.push_back(arena_.size());
        hashes_.push_back(h);
        arena_.append(s);
        lengths_.push_back(static_cast<uint32_t>(s.size()));
        slots_[i] = id + 1;
        if (added) *added = true;
        if (offsets_.size() * 2 > slots_.size()) Grow();
        return id;
      }
      uint32_t id = slot - 1;
      if (hashes_[id] == h && str(id) == s) {
        if (added) *added = false;
        return id;
      }
    }
  }

  uint32_t Find(std::string_view s) const {
    uint64_t h = Hash(s);
    size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      uint32_t slot = slots_[i];
      if (slot == 0) return kMissing;
      uint32_t id = slot - 1;
      if (hashes_[id] == h && str(id) == s) return id;
    }
  }

  std::string_view str(uint32_t id) const {
    return std::string_view(arena_.data() + offsets_[id], lengths_[id]);
  }
  size_t size() const { return offsets_.size(); }
  // Heap bytes held (capacities), for memory budgets.
  size_t bytes() const {
    return slots_.capacity() * 4 + (offsets_.capacity() + hashes_.capacity()) * 8 +
           lengths_.capacity() * 4 + arena_.capacity();
  }

  static uint64_t Hash(std::string_view s) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a, then a final mix
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ull;
    h ^= h >> 32;
    return h;
  }

 private:
  void Grow() {
    std::vector<uint32_t> slots(slots_.size() * 2, 0);
    size_t mask = slots.size() - 1;
    for (uint32_t id = 0; id < offsets_.size(); ++id) {
      size_t i = hashes_[id] & mask;
      while (slots[i] != 0) i = (i + 1) & mask;
      slots[i] = id + 1;
    }
    slots_.swap(slots);
  }

  std::vector<uint32_t> slots_;  // id + 1; 0 = empty
  std::vector<uint64_t> offsets_, hashes_;
  std::vector<uint32_t> lengths_;
  std::string arena_;
};

}  // namespace litgraph
