// Derived generations: the directories of derived files beside the SQLite
// database (DIR/graph.<N>/, DIR/keywords.<N>/, DIR/vectors.<N>/), how they
// are committed, read and removed.
//
//   <artifact>.<N>/MANIFEST  a checked file (checked_file.h, build N) whose
//                            payload is JSON: {"format": 2, "artifact",
//                            "generation": N, "files": {name: [build,
//                            bytes], ...},
//                            "info": {...}}
//   <artifact>.<N>/PIN       an empty file readers hold a shared flock on
//   <artifact>.<N>/<name>    the files, each a checked file
//
// A file unchanged since an earlier generation is a hard link to it and
// keeps the build that wrote it; the manifest names that build, so a reader
// checks every file's identity (store, build, name) and finds a missing file
// an error.
//
// Readers pin: Store::Open (read mode) starts its SQLite snapshot, then takes
// a shared flock on the PIN of every generation that snapshot names, for the
// store's lifetime (and retries with a new snapshot when a writer removed one
// in between). Writers remove a generation only when it is not current and
// they can take an exclusive flock on its PIN: a generation in use is never
// removed, whatever the number of commits since, and a reader never mixes
// generations. flock needs no write permission, so read-only stores pin too.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "litgraph/checked_file.h"
#include "litgraph/status.h"

namespace litgraph {

class Store;

inline constexpr int kDerivedFormat = 2;
// A generation holding an adjacency delta (a file named with
// kAdjDeltaSuffix, graph.h): a reader from before deltas would read the
// bases alone, so such a manifest says format 3, which those readers refuse;
// readers now take 2 and 3.
inline constexpr int kDerivedFormatWithDeltas = 3;
inline constexpr char kAdjDeltaSuffix[] = ".delta.adj";
// A generation holding an hnswlib index built over half rows (vectors.h): a
// reader from before would extend it as float rows, so such a manifest says
// format 4 (which implies nothing of deltas); readers now take 2 to 4. The
// writer says so (GenerationBuilder::NeedFormat), and an index carried over
// from a generation of format 4 keeps it.
inline constexpr int kDerivedFormatHalfGraphs = 4;
inline constexpr char kHnswLibSuffix[] = ".hnswlib";

// A committed generation as a reader sees it: its manifest, pinned.
class GenerationView {
 public:
  ~GenerationView();
  GenerationView(const GenerationView&) = delete;
  GenerationView& operator=(const GenerationView&) = delete;

  // Opens <artifact>.<number> of the store: pins it (when `pin`), reads and
  // checks its MANIFEST. IoError with errno ENOENT semantics (`gone` set)
  // when the directory was removed; Corruption when the manifest is damaged
  // or belongs elsewhere; InvalidArgument for a store in an older format.
  static Result<std::unique_ptr<GenerationView>> Open(const std::string& store_dir,
                                                      const StoreId& store_id,
                                                      const std::string& artifact, int64_t number,
                                                      bool pin, bool* gone);

  // Whether <artifact>.<number> is a directory written before generations had
  // a MANIFEST (a store from an older release): writers replace it.
  static bool IsOlderFormat(const std::string& store_dir, const std::string& artifact,
                            int64_t number);

  const std::string& artifact() const { return artifact_; }
  int64_t number() const { return number_; }
  const std::string& dir() const { return dir_; }
  const nlohmann::json& info() const { return info_; }
  int format() const { return format_; }  // the manifest's
  bool Has(const std::string& name) const { return files_.count(name) > 0; }
  const std::map<std::string, uint64_t>& files() const { return files_; }
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }
  // The identity the manifest gives a file; Corruption when it lists no
  // such file.
  Result<FileIdentity> Identity(const std::string& name) const;
  // Opens a listed file, checked.
  Status OpenFile(const std::string& name, CheckedFile* file) const;

 private:
  GenerationView() = default;
  std::string artifact_, dir_;
  int64_t number_ = 0;
  int format_ = kDerivedFormat;
  StoreId store_id_{};
  std::map<std::string, uint64_t> files_;  // name -> build
  nlohmann::json info_;
  int pin_fd_ = -1;
};

// Builds the next generation of an artifact. Files are written with the
// identities NewFile gives, or carried over from the current generation by
// Inherit (a hard link); Commit writes the MANIFEST and makes the generation
// current inside the caller's SQLite transaction. Destroyed uncommitted, the
// directory goes.
class GenerationBuilder {
 public:
  // Requires a store opened for writing.
  static Result<std::unique_ptr<GenerationBuilder>> Start(Store* store,
                                                          const std::string& artifact);
  ~GenerationBuilder();

  int64_t number() const { return number_; }
  const std::string& dir() const { return dir_; }
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }
  // The identity of a file this build writes (remembered for the manifest).
  // Thread-safe, as is Path().
  FileIdentity NewFile(const std::string& name);
  // The identity of a file written or inherited so far; Internal when none.
  Result<FileIdentity> Identity(const std::string& name);
  // Carries a file of `from` over unchanged (hard link, same identity).
  Status Inherit(const GenerationView& from, const std::string& name);
  // Copies a file of another store's generation (an embedding model handed
  // to shards, litgraph-merge's inputs): its payload, every page verified,
  // as a new file of this build. Corruption when a page is damaged.
  Status Import(const GenerationView& from, const std::string& name);
  // Builds' information recorded in the manifest and meta.<artifact>_info.
  nlohmann::json& info() { return info_; }
  // The manifest says at least `format` (kDerivedFormatHalfGraphs).
  // Thread-safe.
  void NeedFormat(int format);
  // Writes the manifest, fsyncs and sets meta.<artifact>_generation.
  Status Commit();

 private:
  GenerationBuilder() = default;
  Store* store_ = nullptr;
  std::string artifact_, dir_;
  int64_t number_ = 0;
  StoreId store_id_{};
  std::mutex mu_;  // guards files_ and format_
  std::map<std::string, uint64_t> files_;
  int format_ = kDerivedFormat;
  nlohmann::json info_ = nlohmann::json::object();
  bool committed_ = false;
};

// Removes the generations of `artifact` in store_dir that are neither
// `current` nor pinned by a reader, and leftovers of killed writers.
void RemoveUnusedGenerations(const std::string& store_dir, const std::string& artifact,
                             int64_t current);

}  // namespace litgraph
