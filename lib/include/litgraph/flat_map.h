// U64Map: a hash map from non-zero 64-bit keys to small values.
//
// Open addressing with linear probing over one array of {key, value} slots,
// at most 3/4 full: a lookup is one hash and, almost always, one cache line.
// Built for the hot id lookups of a bulk load (a million works' references
// resolved, ten million authorships' author ids), where a node-based
// std::unordered_map costs two or three cache misses per lookup. Key 0 marks
// an empty slot. No erase: overwrite with a value the caller treats as absent.
// Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace litgraph {

template <typename V>
class U64Map {
 public:
  U64Map() = default;

  // The value of key, or nullptr.
  const V* Find(uint64_t key) const {
    if (slots_.empty()) return nullptr;
    for (size_t i = Hash(key) & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.key == key) return &s.value;
      if (s.key == 0) return nullptr;
    }
  }

  // Starts loading key's slot into the cache: a batch of lookups prefetched
  // first overlaps its cache misses.
  void Prefetch(uint64_t key) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[Hash(key) & mask_]);
  }

  // The value of key, value-initialized when new. key must not be 0.
  V& operator[](uint64_t key) {
    if ((size_ + 1) * 4 > slots_.size() * 3) Rehash(slots_.empty() ? 16 : slots_.size() * 2);
    for (size_t i = Hash(key) & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.key == key) return s.value;
      if (s.key == 0) {
        s.key = key;
        ++size_;
        return s.value;
      }
    }
  }

  // Room for n keys without rehashing.
  void reserve(size_t n) {
    size_t cap = 16;
    while (cap * 3 < n * 4) cap *= 2;
    if (cap > slots_.size()) Rehash(cap);
  }

  size_t size() const { return size_; }
  void clear() {
    slots_.clear();
    size_ = 0;
    mask_ = 0;
  }

 private:
  struct Slot {
    uint64_t key = 0;
    V value{};
  };

  static uint64_t Hash(uint64_t k) {  // murmur3's finalizer
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    return k ^ (k >> 33);
  }

  void Rehash(size_t cap) {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.resize(cap);
    mask_ = cap - 1;
    for (const Slot& s : old) {
      if (s.key == 0) continue;
      size_t i = Hash(s.key) & mask_;
      while (slots_[i].key != 0) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
  size_t mask_ = 0;
};

}  // namespace litgraph
