// The lexical index: BM25 over paper title + abstract, impact-ordered for
// fast top-k on long and common-word queries.
//
// Why not FTS5's bm25() for ranking: it scores every document matching any
// query term, so one common word costs ~170 ms at 1M papers and a whole
// abstract far more (bench/results). This index stores, per term, its
// postings grouped by quantized BM25 impact (8 bits, one global scale) in
// decreasing order, and answers score-at-a-time (Anh & Moffat; JASS):
// segments of all query terms are visited highest impact first and the walk
// stops after a budget of postings, so the most informative postings are
// always read and the cost is bounded whatever the query. With an unlimited
// budget the result is exact quantized BM25 (a unit test checks this).
//
// Files (checked files of the graph generation; doc/graph-format.md):
//   lexicon   header, sorted term strings, per-term df and postings offset
//   postings  per term: varint segment count, then per segment: u8 impact,
//             varint count, count x varint doc-id delta (ascending in segment)
//   run       the postings before scoring (term, document, tf) and the
//             documents' lengths, which queries never read: an update
//             tokenizes only the papers it changed, the others come from the
//             runs (LexicalBuilder::AddSaved)
//   delta.lexicon, delta.postings, delta.mask, delta.run
//             an update's delta (LSM style): the papers changed since the
//             base was built, indexed again with the base's statistics; the
//             mask has a bit per paper id, set for the papers the delta
//             holds, whose base postings a search skips. Updates rebuild the
//             delta and carry the base over; past a fraction of the base the
//             next update rebuilds both in full from the two runs and the
//             changed papers' texts (UpdateLexicalIndexes).
// Opening maps the files: O(1). A term lookup is a binary search.
//
// Text analysis (shared with keyword extraction and the embedding model):
// Words() from text.h, English stopwords dropped, Snowball English stems.
#pragma once

#include <cstdint>
#include <functional>
#include <future>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "litgraph/checked_file.h"
#include "litgraph/generation.h"
#include "litgraph/graph.h"
#include "litgraph/intern.h"
#include "litgraph/status.h"

namespace litgraph {

class Store;

// True for the English function words the index does not keep.
bool IsStopword(std::string_view word);
// Snowball English stem of a lowercase word. Thread-safe.
std::string Stem(std::string_view word);
// Words -> stopwords dropped -> stems, in text order.
std::vector<std::string> AnalyzeTerms(std::string_view text);

struct Bm25Params {
  double k1 = 1.2;
  double b = 0.75;
};

struct LexicalBuildStats {
  int64_t terms = 0, postings = 0, bytes = 0;
  int64_t delta_docs = 0;  // papers in the delta (UpdateLexicalIndexes)
};

// The statistics a delta index is scored with: its base's. A delta paper's
// weight for term t is BM25 with N = the base's papers plus the delta's
// papers beyond the base's id space, df = the base's df of t plus the
// delta's, the base's average length, quantized on the base's scale
// (impacts above 255 clamp). Queries add base and delta impacts as they are.
struct LexicalFrame {
  uint64_t base_docs = 0, base_id_space = 0;
  double avgdl = 1.0, scale = 1.0;
  std::function<uint32_t(std::string_view term)> base_df;
};

// Builds lexicon + postings in bounded memory (lexical_build.cc): documents
// are tokenized into a buffer of (term, document, tf) postings that is
// sorted by term and spilled as a run file when it reaches `budget` bytes;
// Build merges the runs by term (twice: the global BM25 impact scale needs
// every term's df first) into the index payloads. Documents may come in any
// order; a document added again replaces its earlier version. Ingest feeds
// one while loading an empty store, so tokenizing overlaps SQLite work.
// Not thread-safe (one thread adds, then builds).
//
// Memory: `budget` (postings at 16 bytes, the run's terms and the word ->
// stem cache), 8 bytes per document id (latest version and length), and
// while building 1 MiB per run plus 8 bytes per posting of the term being
// written. Disk: ~3 bytes per posting in runs, then the payloads, in `dir`.
class LexicalBuilder {
 public:
  // Run and payload files go to dir/<name>.*; title_only: index titles alone
  // (the fuzzy-title candidate index).
  LexicalBuilder(std::string dir, std::string name, bool title_only, size_t budget);
  ~LexicalBuilder();
  LexicalBuilder(const LexicalBuilder&) = delete;
  LexicalBuilder& operator=(const LexicalBuilder&) = delete;

  void Add(uint32_t doc, std::string_view title, std::string_view abstract);
  // Merges the documents with ids < id_space into the payloads of lexicon
  // and postings (files in dir); Write then puts them into the generation
  // being built as <prefix>lexicon and <prefix>postings.
  // With a frame, builds a delta scored with the base's statistics. Keeps
  // the postings as one run (term, document, tf) with the documents'
  // lengths, which Write puts beside the index as <prefix>run: the next
  // update's AddSaved takes the unchanged documents from it instead of
  // reading and tokenizing their texts again.
  Status Build(uint64_t id_space, const Bm25Params& params, const LexicalFrame* frame = nullptr);
  Status Write(GenerationBuilder* out, const std::string& prefix, LexicalBuildStats* stats);
  // Takes the documents of a kept run (an earlier build's <prefix>run,
  // opened) but those in `replaced` (ascending, ids as in the run) and those
  // added here: their postings and lengths as they were indexed, each
  // document as id + `shift` (another store's run: litgraph-merge). Documents
  // added later replace them too. The files are those of a builder given
  // their texts.
  Status AddSaved(const CheckedFile& run, const std::vector<uint32_t>& replaced,
                  uint32_t shift = 0);
  size_t runs() const { return runs_.size(); }
  // Takes over the documents of `other` (a builder of the same kind that
  // another thread fed other documents) as if they had been added here after
  // this builder's own: its runs, and its documents' serials and lengths
  // shifted past this builder's. Both must be done adding; `other` is left
  // empty.
  Status Absorb(LexicalBuilder* other);

 private:
  static constexpr uint32_t kNoTerm = 0xFFFFFFFFu;
  struct Posting {
    uint32_t tid, doc, serial, tf;
  };
  struct Run {
    std::string path;
    uint32_t first_serial, end_serial;  // the adds it holds
    uint32_t shift = 0;                 // added to its document ids (AddSaved)
  };
  class Merger;
  size_t BufferBytes() const;
  void Spill();
  std::string PathOf(const std::string& what) const { return dir_ + "/" + name_ + "." + what; }

  std::string dir_, name_;
  bool title_only_;
  size_t budget_;
  // The run being collected: its terms, postings, and a word -> stem cache.
  StringInterner words_, stems_;
  std::vector<uint32_t> word_term_;  // surface word id -> stem id or kNoTerm
  std::vector<Posting> postings_;
  std::vector<uint32_t> tids_;  // scratch of Add
  // Per document id: the serial of its latest add (0: never) and its length.
  std::vector<uint32_t> latest_, length_;
  uint32_t serial_ = 0, run_first_serial_ = 1;
  std::vector<Run> runs_;
  uint32_t next_run_ = 0;        // run files are named by it
  uint64_t built_id_space_ = 0;  // Build's; its run is PathOf("saved")
  Status status_;
  LexicalBuildStats built_;
};

// The two indexes of a graph generation: title + abstract ("" prefix) and
// titles alone ("title." prefix), fed together. They work in `dir`, which
// they create and remove; `budget` is shared (3/4 to the text index).
struct LexicalBuilders {
  LexicalBuilders(const std::string& dir, size_t budget);
  ~LexicalBuilders();
  void Add(uint32_t doc, std::string_view t, std::string_view abstract) {
    text.Add(doc, t, abstract);
    title.Add(doc, t, {});
  }
  // Builds both on a background thread: ingest starts it once the last
  // document is in, so it overlaps SQLite's index building. With threads >=
  // 2, the two builds run side by side.
  void StartBuild(uint64_t id_space, int threads = 1);
  // Waits for the build (starting it if needed) and writes both into the
  // generation being built; stats are the title + abstract index's.
  Status Write(GenerationBuilder* out, uint64_t id_space, LexicalBuildStats* stats);

  std::string dir;
  LexicalBuilder text, title;

 private:
  uint64_t id_space_ = 0;
  std::future<Status> build_;  // last member: joined before the builders go
};
inline constexpr char kTitleIndexPrefix[] = "title.";

// The kept runs of another store's lexical indexes (the base and delta of
// its graph generation, both indexes), from which builders take its papers
// without their texts (litgraph-merge).
class KeptRuns {
 public:
  // *usable is false when `graph` lacks an index or an intact run (its
  // texts must be tokenized instead). Reads every page of the runs.
  Status Open(const GenerationView& graph, bool* usable);
  // Adds every paper of the indexes to `b`, paper p as p + shift (AddSaved).
  Status AddTo(LexicalBuilders* b, uint32_t shift) const;

 private:
  // [0..1]: the base's text and title runs; [2..3]: the delta's.
  CheckedFile runs_[4];
  bool has_delta_ = false;
  std::vector<uint32_t> delta_;  // the papers of the delta (their base postings are old)
};

// Builds both lexical indexes for every paper of the store into `out`,
// within `budget` bytes. With threads >= 2, two threads tokenize the title +
// abstract index (alternate batches of papers) while this one reads the texts
// and tokenizes the titles; the files are the same.
Status BuildLexicalIndexes(Store* store, GenerationBuilder* out, size_t budget,
                           LexicalBuildStats* stats, int threads = 1);

struct QueryTerm {
  std::string term;     // analysed form (a stem)
  float weight = 1.0f;  // query-side weight (term frequency in the query)
};

struct LexicalHit {
  uint32_t doc;  // dense paper id
  float score;   // BM25 (dequantized sum of impacts times query weights)
};

class LexicalIndex {
 public:
  // NotFound when the generation has no such index. prefix: "" (title +
  // abstract) or kTitleIndexPrefix (titles). Opens the delta as well when
  // the generation has one.
  Status Open(const GenerationView& generation, const std::string& prefix = "");

  uint64_t num_terms() const { return base_.num_terms; }  // of the base
  uint64_t num_docs() const { return num_docs_; }         // papers indexed
  // Document frequency of an analysed term (0 when absent); with a delta,
  // the base's plus the delta's (a changed paper may count twice until the
  // next compaction).
  uint32_t DocFreq(std::string_view term) const;
  double Idf(uint32_t df) const;
  bool has_delta() const { return has_delta_; }
  uint64_t delta_docs() const { return delta_docs_; }  // papers the delta holds
  // The statistics a delta over this index's base is scored with.
  LexicalFrame Frame() const;
  // Calls fn(doc) for every paper the delta holds, ascending.
  Status ForEachDeltaDoc(const std::function<void(uint32_t)>& fn) const;

  // Query terms of free text (analysed, merged, weighted by frequency).
  static std::vector<QueryTerm> QueryTerms(std::string_view text);

  // Top-k documents by BM25. `budget` caps the postings visited (0 = all).
  // `accept` (optional) filters documents; hits it rejects are skipped.
  std::vector<LexicalHit> Search(const std::vector<QueryTerm>& terms, size_t k, size_t budget = 0,
                                 const std::function<bool(uint32_t)>& accept = {}) const;

  // Exact BM25 of the given documents (all postings of the terms visited).
  std::vector<float> ScoreDocs(const std::vector<QueryTerm>& terms,
                               std::span<const uint32_t> docs) const;

  // Postings visited by the last Search (benchmarks).
  mutable uint64_t last_postings_visited = 0;
  // Documents a Search adds up at a time (a multiple of 8): 256 KiB of
  // scores, half this machine's L2 (2^15: +4%, 2^17: same, at 10M papers;
  // bench/results/2026-11-28-query-speed). Tests set small tiles.
  uint64_t tile_docs = uint64_t{1} << 16;

  // Damage a search met (ok when none): a damaged term reads as absent.
  Status status() const;

 private:
  // A lexicon and its postings: the base, or the delta.
  struct Part {
    CheckedFile lexicon, postings;
    std::string path;  // of the postings, for messages
    uint64_t term_offsets_at = 0, postings_offsets_at = 0, df_at = 0, strings_at = 0;
    uint64_t num_terms = 0, num_docs = 0, id_space = 0;
    double scale = 1.0, avgdl = 1.0;
    Status Open(const GenerationView& generation, const std::string& prefix);
    int64_t Find(std::string_view term) const;  // index or -1
    uint32_t DocFreq(std::string_view term) const;
  };
  struct Segment {
    uint8_t impact;
    bool masked;  // a base segment: postings of papers the delta holds are skipped
    float weight;
    const Part* part;
    uint64_t at, bytes;  // its postings in the part's postings file, read when visited
    uint32_t count;
  };
  // The delta's mask read window by window: whether the delta holds a
  // paper (damage reads as held).
  class MaskReader {
   public:
    explicit MaskReader(const CheckedFile* mask) : mask_(mask) {}
    bool Masked(uint64_t doc) {
      const uint64_t byte = doc / 8;
      if (byte - lo_ >= hi_ - lo_) return Slide(doc);  // outside the window (or none yet)
      return (window_[byte - lo_] >> (doc % 8) & 1) != 0;
    }

   private:
    bool Slide(uint64_t doc);  // moves the window to doc, then tests it
    const CheckedFile* mask_;
    const uint8_t* window_ = nullptr;
    uint64_t lo_ = 0, hi_ = 0;  // mask bytes [lo_, hi_) in the window
  };
  void Damaged(const Part& part) const;
  void AddSegments(const Part& part, bool masked, const std::vector<QueryTerm>& terms,
                   std::vector<Segment>* segs) const;
  std::vector<Segment> Segments(const std::vector<QueryTerm>& terms) const;

  Part base_, delta_;
  bool has_delta_ = false;
  CheckedFile mask_;  // bit per paper id: held by the delta
  uint64_t delta_docs_ = 0;
  mutable Status status_;
  uint64_t num_docs_ = 0, id_space_ = 0;
  double scale_ = 1.0;  // BM25 per impact unit (the base's; the delta shares it)
};

// The lexical indexes of an update (graph_update.cc): the papers changed
// since the base (those of the current delta plus `changed`) are indexed
// again into a delta scored with the base's statistics (LexicalFrame), and
// the base is carried over; when they exceed `compact_fraction` of the
// base's papers, both indexes are rebuilt in full instead (compaction),
// `*compacted` set. Without a lexical index in `old` it builds in full too.
// `changed` is ascending. `changed_texts`, when not null, already holds their
// texts: the delta adds only the older delta's other papers to it. With
// `changed` empty and no compaction due it writes nothing (`*compacted`
// false): the caller carries every file over.
Status UpdateLexicalIndexes(Store* store, const GenerationView& old,
                            const std::vector<uint32_t>& changed, double compact_fraction,
                            GenerationBuilder* out, size_t budget, LexicalBuildStats* stats,
                            bool* compacted, LexicalBuilders* changed_texts = nullptr,
                            int threads = 1);
inline constexpr char kDeltaPrefix[] = "delta.";

}  // namespace litgraph
