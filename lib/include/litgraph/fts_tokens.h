// FTS5 tokens computed off the SQLite writer thread.
//
// A bulk load spent 14% of its SQLite writer thread in FTS5's porter
// tokenizer (bench/results/2026-11-22-ingest/summary.md), while the reader
// thread had time to spare. FtsTokens moves that work: Install() replaces the
// connection's "porter" tokenizer by a wrapper around the built-in one, and
// hands out Pretokenizers, which run the same built-in code with the paper
// table's arguments on another thread and record every token. Before the
// writer inserts a paper into paper_fts it Arm()s the wrapper with the texts
// and their recorded tokens; FTS5 then gets the recording replayed for a
// text equal to an armed one, and the built-in tokenizer for anything else
// (queries, deletes, other tables). FTS5 builds the same index either way
// (fts_tokens_test compares paper_fts_data byte for byte).
#pragma once

#include <sqlite3.h>

#include <memory>
#include <string>
#include <string_view>

#include "litgraph/status.h"

namespace litgraph {

// The tokenizer arguments of paper_fts after its name ("porter"): the
// schema's tokenize='porter unicode61 remove_diacritics 2'.
inline constexpr const char* kPaperFtsTokenizerArgs[] = {"unicode61", "remove_diacritics", "2"};

class FtsTokens {
 public:
  // Runs the built-in tokenizer on one thread (one instance per thread).
  class Pretokenizer {
   public:
    ~Pretokenizer();
    // Records the tokens FTS5 would get for text as a document; false when
    // the tokenizer failed (then nothing may be armed with *out).
    bool Tokenize(std::string_view text, std::string* out);

   private:
    friend class FtsTokens;
    Pretokenizer() = default;
    fts5_tokenizer api_{};
    Fts5Tokenizer* tok_ = nullptr;
  };

  // Registers the wrapper as db's "porter". Must run before any FTS5 table
  // of db is first used on that connection; the connection owns the result,
  // which lives until it closes.
  static Result<FtsTokens*> Install(sqlite3* db);

  Result<std::unique_ptr<Pretokenizer>> NewPretokenizer() const;

  // Texts FTS5 is about to tokenize as documents, with their recorded tokens
  // (views: they must outlive Disarm). At most two.
  void Arm(std::string_view text1, std::string_view tokens1, std::string_view text2,
           std::string_view tokens2);
  void Disarm();

  // Replays counted since Install (tests).
  int64_t replayed() const { return replayed_; }

 private:
  struct Instance;
  static int Create(void* self, const char** args, int n, Fts5Tokenizer** out);
  static void Delete(Fts5Tokenizer* t);
  static int Tokenize(Fts5Tokenizer* t, void* ctx, int flags, const char* text, int n,
                      int (*token)(void*, int, const char*, int, int, int));

  fts5_tokenizer builtin_{};
  void* builtin_data_ = nullptr;
  struct Armed {
    std::string_view text, tokens;
  } armed_[2];
  int64_t replayed_ = 0;
};

}  // namespace litgraph
