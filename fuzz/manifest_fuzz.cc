// GenerationView (generation.h): a generation's MANIFEST, raw or as the
// payload of a checked file, opened with and without pinning; then the
// files it lists: their identities, paths and opening (zero-filled: an
// error, never a crash), and its info. So that opening gets past its size
// checks, the files a payload lists under plain names are created first
// with the sizes it gives (up to 64 KiB; removed afterwards).
#include <cctype>
#include <cstddef>
#include <cstdint>

#include "fuzz_util.h"

using namespace litgraph;
using namespace litgraph::fuzz;

namespace {

// A name the target may create in the generation directory: no path.
bool PlainName(const std::string& n) {
  if (n.empty() || n.size() > 64 || n == "." || n == ".." || n == "MANIFEST" || n == "PIN")
    return false;
  for (char c : n)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'))
      return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string& dir = *new std::string([] {
    MakeGeneration("graph", {});  // the directory and its PIN
    return ScratchDir() + "/graph.1";
  }());
  const Input in = Decode(data, size);
  WriteInput(dir + "/MANIFEST", Identity("MANIFEST"), in);
  std::vector<std::string> created;
  if (!in.raw) {
    nlohmann::json j = nlohmann::json::parse(in.bytes, nullptr, false);
    if (j.is_object() && j.contains("files") && j["files"].is_object())
      for (const auto& [name, entry] : j["files"].items()) {
        if (created.size() >= 16 || !PlainName(name)) continue;
        uint64_t bytes = 0;
        if (entry.is_array() && entry.size() == 2 && entry[1].is_number_unsigned())
          bytes = entry[1].get<uint64_t>();
        if (bytes > 65536) continue;
        WriteRaw(dir + "/" + name, std::string(bytes, '\0'));
        created.push_back(name);
      }
  }
  struct Cleanup {
    const std::vector<std::string>& names;
    ~Cleanup() {
      for (const auto& n : names) unlink((dir + "/" + n).c_str());
    }
  } cleanup{created};
  bool gone = false;
  auto v = GenerationView::Open(ScratchDir(), FuzzStoreId(), "graph", 1, size % 2 == 0, &gone);
  Check(!gone, "an existing generation read as removed");
  if (!v.ok()) return 0;
  const GenerationView& g = **v;
  size_t sum = g.dir().size() + g.info().dump().size() + g.files().size();
  size_t opened = 0;
  for (const auto& [name, build] : g.files()) {
    auto id = g.Identity(name);
    Check(id.ok() && id->build == build && id->name == name, "a listed file has no identity");
    sum += g.Has(name) + g.Path(name).size();
    if (opened++ < 8) {
      CheckedFile f;
      Use(g.OpenFile(name, &f));  // a missing file or a bad name: an error
    }
  }
  Check(!g.Identity("no such file \x01").ok(), "an unlisted file has an identity");
  Use(sum);
  return 0;
}
