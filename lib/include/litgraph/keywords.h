// Keywords: the conceptual layer of the graph (seeds/000 section 2.2).
//
// The built-in extractor (offline, deterministic) returns for a paper 3-8
// canonical, reusable noun phrases of 1-4 words with an integer importance
// 1-10, the contract of the seed's LLM prompt (Appendix B.1): research areas,
// problem types, method families, evaluation paradigms; not system names,
// not long descriptive phrases, not marketing language.
//
// How (doc/keywords.md has the details and the measurements):
//  1. Tokens: words of letters and digits, folded (lowercase, diacritics
//     removed), a hyphenated compound one word ("closed-loop"); at most 20,000
//     tokens of the title and of the abstract are read, a "word" longer than
//     64 bytes is a separator: the cost of a paper is bounded whatever it is.
//  2. Tags without a model: listed function words, verbs (forms generated from
//     ~330 base verbs), noun/verb words decided by their neighbours ("we
//     model", "the model"), adverbs by suffix; participles ("distributed",
//     "sliding") modify a following noun unless a preposition or an auxiliary
//     precedes; an unlisted -ing form after a noun heads it ("protein folding").
//  3. Candidates: noun-phrase chunks (runs of nouns, adjectives and
//     participles ending in a noun, without a leading evaluative adjective:
//     "novel", "proposed", "traditional") and their sub-spans of 1-4 words that
//     end in a noun. Not alone: generic words ("method"), adjectives
//     ("optimal"), modifier compounds ("real-time"); no filler heads ("need").
//     Normalized by NormalizeKeyword (head noun singular).
//  4. Score: a logistic model over ~36 features of the phrase in the paper
//     (length, occurrences whole or inside longer chunks, title, position,
//     word frequencies, acronym definitions, ...) and in the corpus (smoothed
//     specificity of the phrase and of its words; nothing is filtered by df),
//     plus a reusability prior of 1.25 x ln(df) for multi-word phrases, and a
//     bonus for known Keyword nodes in query mode. Weights fitted on Inspec
//     train (bench/eval/keyphrase_fit.py); without statistics or under 50
//     papers, a text-only model. Ranked by score, then text: no ties.
//  5. Selection: best first; a fragment of a chosen phrase that never stands
//     alone ("mode control" of "sliding mode control") is skipped; at most
//     max_keywords, at least min_keywords when available, others only with a
//     probability >= keep_ratio x the best. Importance = round(10 x p / p_best),
//     made strictly decreasing over the first ten ranks (1 beyond), so that
//     the stored integers keep the order.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "litgraph/checked_file.h"
#include "litgraph/files.h"
#include "litgraph/status.h"

namespace litgraph {

class Store;

struct Keyword {
  std::string text;     // normalized form: the Keyword node's text, for matching
  int score = 0;        // importance 1..10
  std::string surface;  // as written in the paper, for display ("" = text)
};

// A candidate phrase of a paper as the extractor sees it (analysis, and the
// input of bench/eval/keyphrase_fit.py, which fits the model's weights).
struct KeywordCandidate {
  std::string text;             // normalized
  std::vector<float> features;  // KeywordFeatureNames() order
  double score = 0;             // the model's logit, reusability prior included
};

// Names of the features of KeywordCandidate, in order: the per-phrase
// features, then the same features times "one word" and times "3+ words".
const std::vector<std::string>& KeywordFeatureNames();

// Canonical keyword text: lowercase, diacritics folded, a hyphen between
// letters or digits kept (one compound word), other punctuation and spacing
// as single spaces, the last word singular ("Graph Neural Networks" ->
// "graph neural network", "Closed-Loop Systems" -> "closed-loop system",
// "question/answering" -> "question answering").
std::string NormalizeKeyword(std::string_view text);
// Singular form of an English noun ("studies" -> "study", "analyses" ->
// "analysis", "physics" unchanged).
std::string Singular(std::string_view word);

// The external id of a keyword node: "kw:" + normalized text.
std::string KeywordExtId(std::string_view normalized);

// Corpus document frequencies of the candidate phrases (keyed by a 64-bit
// hash of the normalized phrase) and, under keys of their own, of the words
// of noun-phrase chunks. Built by counting in memory (a table of every key:
// small corpora, tests and evaluations; a store's corpus is counted in
// bounded memory by PhraseCounter, phrase_count.h, into the same file), or
// opened from the store's file (a sorted array of (hash, df) pairs,
// memory-mapped: O(1) open; files of an older candidate definition fail to
// open, which makes the store recount).
class PhraseStats {
 public:
  PhraseStats() = default;
  // Counts the candidate phrases of one document.
  void AddDocument(std::string_view title, std::string_view abstract);
  // Writes the keys with df >= 2 (a missing key reads as df 0; the extractor
  // counts the paper itself, so df 1 is implied).
  Status Write(const std::string& path, const FileIdentity& id) const;
  // Opens the store's file (a checked file of sorted (hash, df) pairs,
  // memory-mapped: O(1) open).
  Status Open(const std::string& path, const FileIdentity& id);
  // Damage a lookup met (ok when none).
  Status status() const { return file_.status(); }

  uint32_t DocFreq(uint64_t phrase_hash) const;
  // DocFreq of each of `hashes`, into `out` (of the same size). The lookups
  // of an opened file advance side by side, each one's next probe
  // prefetched while the others read theirs, so that their cache misses
  // overlap: a paper's scoring looks up hundreds of keys at once.
  void DocFreqs(std::span<const uint64_t> hashes, std::span<uint32_t> out) const;
  uint64_t num_docs() const { return num_docs_; }
  size_t size() const;

 private:
  void Bump(uint64_t h);
  void Grow();
  // Counting mode: open addressing table of (hash, count).
  struct Slot {  // key and count side by side: one cache miss a lookup
    uint64_t key;
    uint32_t count;
  };
  std::vector<Slot> slots_;
  size_t used_ = 0;
  // Mapped mode: sorted_size_ hashes at keys_at_, their counts at counts_at_.
  CheckedFile file_;
  bool mapped_ = false;
  uint64_t keys_at_ = 0, counts_at_ = 0;
  size_t sorted_size_ = 0;
  uint64_t num_docs_ = 0;
};

uint64_t PhraseHash(std::string_view normalized);

// The statistics keys of one document, what PhraseStats::AddDocument and
// PhraseCounter (phrase_count.h) count: the hashes of its candidate phrases
// and the keys of its chunk words, ascending, each once (never 0).
void PhraseKeysOf(std::string_view title, std::string_view abstract, std::vector<uint64_t>* keys);

struct ExtractOptions {
  size_t max_keywords = 8;   // the CLI allows up to 20
  size_t min_keywords = 3;   // fewer only when the paper has fewer candidates
  double keep_ratio = 0.30;  // keep beyond min only with probability >= ratio x best
};

class KeywordExtractor {
 public:
  // stats may be null (then the text-only model scores). known_keyword(phrase)
  // may be empty; when set, phrases it accepts are boosted and kept even as
  // fragments of a chosen phrase (query mode: prefer concepts that exist as
  // Keyword nodes). Extract and Candidates are thread-safe (per-thread
  // scratch tables); text beyond 20,000 tokens a field is not read.
  explicit KeywordExtractor(const PhraseStats* stats,
                            std::function<bool(const std::string&)> known_keyword = {});
  std::vector<Keyword> Extract(std::string_view title, std::string_view abstract,
                               const ExtractOptions& options = {}) const;
  // Every candidate of the paper with its features and score, best first
  // (ties broken by text), before selection.
  std::vector<KeywordCandidate> Candidates(std::string_view title, std::string_view abstract) const;

 private:
  const PhraseStats* stats_;
  std::function<bool(const std::string&)> known_;
};

// Candidate phrases of a text (normalized, in text order, with duplicates):
// fn(phrase, words, sentence index, ends its chunk). Exposed for tests.
void ForEachCandidate(std::string_view text,
                      const std::function<void(const std::string& phrase, int words,
                                               size_t sentence, bool run_final)>& fn);

}  // namespace litgraph
