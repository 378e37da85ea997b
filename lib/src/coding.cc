#include "litgraph/coding.h"

namespace litgraph {

uint64_t ShortIdNumber(std::string_view id) {
  if (id.size() < 2 || id.size() > 20 || id[0] < 'A' || id[0] > 'Z') return 0;
  uint64_t n = 0;
  for (size_t i = 1; i < id.size(); ++i) {
    char c = id[i];
    if (c < '0' || c > '9') return 0;
    n = n * 10 + static_cast<uint64_t>(c - '0');
  }
  return n;
}

uint64_t WorkNumber(std::string_view id) {
  return !id.empty() && id[0] == 'W' ? ShortIdNumber(id) : 0;
}

uint64_t PackedWorkNumber(std::string_view id) {
  // Only canonical numbers that fit the shifted varint round-trip ("W007"
  // and 20-digit numbers stay strings).
  uint64_t n = WorkNumber(id);
  return n != 0 && id[1] != '0' && n < (uint64_t{1} << 62) ? n : 0;
}

std::string PackIdList(const std::vector<std::string>& ids) {
  std::string out;
  for (const auto& id : ids) {
    uint64_t n = PackedWorkNumber(id);
    if (n != 0) {
      PutVarint(n << 1, &out);
    } else {
      PutVarint((static_cast<uint64_t>(id.size()) << 1) | 1, &out);
      out += id;
    }
  }
  return out;
}

bool UnpackIdList(std::string_view blob, std::vector<std::string>* ids) {
  ids->clear();
  return ForEachPackedId(blob, [&](const PackedId& e) {
    if (e.is_work_number)
      ids->push_back("W" + std::to_string(e.work_number));
    else
      ids->emplace_back(e.text);
  });
}

}  // namespace litgraph
