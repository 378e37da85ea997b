#include "litgraph/generation.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "litgraph/store.h"

namespace litgraph {

namespace fs = std::filesystem;

namespace {

// The command that writes a new generation of an artifact.
std::string RebuildCommand(const std::string& artifact) {
  if (artifact == "keywords") return "litgraph-extract-keywords";
  if (artifact == "vectors") return "litgraph-embed --train";
  if (artifact == "metrics") return "litgraph-metrics --build";
  return "litgraph-ingest with no input";
}

constexpr char kManifest[] = "MANIFEST";
constexpr char kPin[] = "PIN";

std::string GenerationDir(const std::string& store_dir, const std::string& artifact, int64_t n) {
  return fmt::format("{}/{}.{}", store_dir, artifact, n);
}

}  // namespace

GenerationView::~GenerationView() {
  if (pin_fd_ >= 0) close(pin_fd_);  // releases the flock
}

bool GenerationView::IsOlderFormat(const std::string& store_dir, const std::string& artifact,
                                   int64_t number) {
  const std::string dir = GenerationDir(store_dir, artifact, number);
  return fs::is_directory(dir) && !fs::exists(dir + "/" + kManifest);
}

Result<std::unique_ptr<GenerationView>> GenerationView::Open(const std::string& store_dir,
                                                             const StoreId& store_id,
                                                             const std::string& artifact,
                                                             int64_t number, bool pin, bool* gone) {
  *gone = false;
  std::unique_ptr<GenerationView> v(new GenerationView());
  v->artifact_ = artifact;
  v->number_ = number;
  v->store_id_ = store_id;
  v->dir_ = GenerationDir(store_dir, artifact, number);
  if (pin) {
    const std::string pin_path = v->dir_ + "/" + kPin;
    v->pin_fd_ = open(pin_path.c_str(), O_RDONLY | O_CLOEXEC);
    if (v->pin_fd_ < 0) {
      if (errno == ENOENT && !fs::exists(v->dir_ + "/" + kManifest)) {
        *gone = !fs::exists(v->dir_);
        if (!*gone)
          return Status::InvalidArgument(
              fmt::format("{}: derived files in an older format; run {} to rebuild them", v->dir_,
                          RebuildCommand(artifact)));
      }
      return Status::IoError(fmt::format("{}: {}", pin_path, std::strerror(errno)));
    }
    if (flock(v->pin_fd_, LOCK_SH) != 0)
      return Status::IoError(fmt::format("{}: cannot lock: {}", pin_path, std::strerror(errno)));
    // Removed (or renamed for removal) while we waited for the lock: the
    // PIN we hold is no longer the one at its path.
    struct stat held, at_path;
    if (fstat(v->pin_fd_, &held) != 0 || held.st_nlink == 0 ||
        stat(pin_path.c_str(), &at_path) != 0 || at_path.st_ino != held.st_ino ||
        at_path.st_dev != held.st_dev) {
      *gone = true;
      return Status::IoError(v->dir_ + ": removed by a writer");
    }
  }
  CheckedFile manifest;
  Status st = manifest.Open(v->dir_ + "/" + kManifest,
                            {store_id, static_cast<uint64_t>(number), kManifest});
  if (!st.ok()) return st;
  LITGRAPH_RETURN_IF_ERROR(manifest.VerifyAll());
  const uint8_t* p = manifest.Read(0, manifest.size());
  nlohmann::json j = nlohmann::json::parse(p, p + manifest.size(), nullptr, false);
  // Types checked before values are read: nlohmann's value() and get()
  // throw on a mismatch ({"format": {}}).
  if (!j.is_object() || !j.contains("format") || !j["format"].is_number_integer() ||
      j["format"].get<int64_t>() < kDerivedFormat ||
      j["format"].get<int64_t>() > kDerivedFormatHalfGraphs || !j.contains("files") ||
      !j["files"].is_object())
    return Status::Corruption(v->dir_ + "/MANIFEST: not a litgraph manifest");
  v->format_ = static_cast<int>(j["format"].get<int64_t>());
  for (const auto& [name, entry] : j["files"].items()) {
    if (!entry.is_array() || entry.size() != 2 || !entry[0].is_number_unsigned() ||
        !entry[1].is_number_unsigned())
      return Status::Corruption(v->dir_ + "/MANIFEST: bad entry " + name);
    v->files_[name] = entry[0].get<uint64_t>();
    // A missing, truncated or extended file is an error at once, whichever
    // query would need it (a stat per file: open time stays independent of
    // the store's size).
    struct stat sb;
    if (stat(v->Path(name).c_str(), &sb) != 0)
      return Status::Corruption(fmt::format("{}: {} (listed in the generation's MANIFEST)",
                                            v->Path(name), std::strerror(errno)));
    if (static_cast<uint64_t>(sb.st_size) != entry[1].get<uint64_t>())
      return Status::Corruption(fmt::format("{}: {} bytes, its generation's MANIFEST says {}",
                                            v->Path(name), sb.st_size, entry[1].get<uint64_t>()));
  }
  if (j.contains("info")) v->info_ = j["info"];
  return v;
}

Result<FileIdentity> GenerationView::Identity(const std::string& name) const {
  auto it = files_.find(name);
  if (it == files_.end())
    return Status::Corruption(fmt::format("{}: the manifest lists no file {}", dir_, name));
  return FileIdentity{store_id_, it->second, name};
}

Status GenerationView::OpenFile(const std::string& name, CheckedFile* file) const {
  auto id = Identity(name);
  if (!id.ok()) return id.status();
  return file->Open(Path(name), *id);
}

Result<std::unique_ptr<GenerationBuilder>> GenerationBuilder::Start(Store* store,
                                                                    const std::string& artifact) {
  if (store->mode() != Store::Mode::kWrite)
    return Status::Internal("a generation is built by a store opened for writing");
  std::unique_ptr<GenerationBuilder> b(new GenerationBuilder());
  b->store_ = store;
  b->artifact_ = artifact;
  b->store_id_ = store->id();
  int64_t n = store->Generation(artifact) + 1;
  std::error_code ec;
  while (fs::exists(GenerationDir(store->dir(), artifact, n), ec)) ++n;
  b->number_ = n;
  b->dir_ = GenerationDir(store->dir(), artifact, n);
  fs::create_directories(b->dir_, ec);
  if (ec) return Status::IoError(fmt::format("{}: {}", b->dir_, ec.message()));
  int fd = open((b->dir_ + "/" + kPin).c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return Status::IoError(fmt::format("{}/PIN: {}", b->dir_, std::strerror(errno)));
  close(fd);
  return b;
}

GenerationBuilder::~GenerationBuilder() {
  if (committed_ || dir_.empty()) return;
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

FileIdentity GenerationBuilder::NewFile(const std::string& name) {
  std::lock_guard<std::mutex> l(mu_);
  files_[name] = static_cast<uint64_t>(number_);
  return {store_id_, static_cast<uint64_t>(number_), name};
}

Result<FileIdentity> GenerationBuilder::Identity(const std::string& name) {
  std::lock_guard<std::mutex> l(mu_);
  auto it = files_.find(name);
  if (it == files_.end()) return Status::Internal(fmt::format("{}: no file {} yet", dir_, name));
  return FileIdentity{store_id_, it->second, name};
}

Status GenerationBuilder::Inherit(const GenerationView& from, const std::string& name) {
  auto id = from.Identity(name);
  if (!id.ok()) return id.status();
  std::error_code ec;
  fs::create_hard_link(from.Path(name), Path(name), ec);
  if (ec) return Status::IoError(fmt::format("{}: {}", from.Path(name), ec.message()));
  std::lock_guard<std::mutex> l(mu_);
  files_[name] = id->build;
  if (std::string_view(name).ends_with(kHnswLibSuffix)) format_ = std::max(format_, from.format());
  return Status::Ok();
}

void GenerationBuilder::NeedFormat(int format) {
  std::lock_guard<std::mutex> l(mu_);
  format_ = std::max(format_, format);
}

Status GenerationBuilder::Import(const GenerationView& from, const std::string& name) {
  CheckedFile in;
  LITGRAPH_RETURN_IF_ERROR(from.OpenFile(name, &in));
  CheckedFileWriter out;
  LITGRAPH_RETURN_IF_ERROR(out.Open(Path(name), NewFile(name), in.page_shift()));
  constexpr uint64_t kChunk = uint64_t{1} << 20;
  for (uint64_t at = 0; at < in.size(); at += kChunk) {
    const uint64_t len = std::min(kChunk, in.size() - at);
    const uint8_t* p = in.Read(at, len);
    if (!p) return in.status();
    LITGRAPH_RETURN_IF_ERROR(out.Append(std::string_view(reinterpret_cast<const char*>(p), len)));
  }
  if (std::string_view(name).ends_with(kHnswLibSuffix)) NeedFormat(from.format());
  return out.Finish();
}

Status GenerationBuilder::Commit() {
  std::lock_guard<std::mutex> l(mu_);
  nlohmann::json files = nlohmann::json::object();
  int format = format_;
  for (const auto& [name, build] : files_) {
    if (std::string_view(name).ends_with(kAdjDeltaSuffix))
      format = std::max(format, kDerivedFormatWithDeltas);
    std::error_code ec;
    const uint64_t bytes = fs::file_size(Path(name), ec);
    if (ec) return Status::IoError(fmt::format("{}: {}", Path(name), ec.message()));
    files[name] = {build, bytes};
  }
  nlohmann::json j = {{"format", format},
                      {"artifact", artifact_},
                      {"generation", number_},
                      {"files", files},
                      {"info", info_}};
  LITGRAPH_RETURN_IF_ERROR(WriteCheckedFile(
      Path(kManifest), {store_id_, static_cast<uint64_t>(number_), kManifest}, j.dump()));
  FsyncDir(dir_);
  FsyncDir(store_->dir());
  store_->SetMeta(artifact_ + "_info", info_.dump());
  store_->SetGeneration(artifact_, number_);
  committed_ = true;
  return Status::Ok();
}

void RemoveUnusedGenerations(const std::string& store_dir, const std::string& artifact,
                             int64_t current) {
  std::error_code ec;
  const std::string prefix = artifact + ".";
  std::vector<fs::path> remove;
  for (const auto& e : fs::directory_iterator(store_dir, ec)) {
    std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    std::string rest = name.substr(prefix.size());
    char* end = nullptr;
    long long n = std::strtoll(rest.c_str(), &end, 10);
    if (end == rest.c_str() || *end != '\0') {
      remove.push_back(e.path());  // graph.5.tmp, graph.5.removed and the like
      continue;
    }
    if (n == current) continue;
    int fd = open((e.path() / kPin).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      bool free = flock(fd, LOCK_EX | LOCK_NB) == 0;
      if (free) {
        // Renamed first, so a reader opening its PIN from now on finds it gone.
        fs::path dead = e.path();
        dead += ".removed";
        fs::rename(e.path(), dead, ec);
        if (!ec) remove.push_back(dead);
      }
      close(fd);
    } else {
      remove.push_back(e.path());  // no PIN: a killed writer's leftover or an old format
    }
  }
  for (const auto& p : remove) fs::remove_all(p, ec);
}

}  // namespace litgraph
