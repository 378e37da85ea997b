// Keywords: the conceptual layer of the graph (seeds/000 section 2.2).
//
// The built-in extractor (offline, deterministic) returns for a paper 3-8
// canonical, reusable noun phrases of 1-4 words with an integer importance
// 1-10, the contract of the seed's LLM prompt (Appendix B.1): research areas,
// problem types, method families, evaluation paradigms; not system names,
// not long descriptive phrases, not marketing language.
//
// How (doc/keywords.md has the details and the measurements):
//  1. Candidates: runs of content words between punctuation, stopwords and
//     "break words" (reporting verbs, adverbs, numbers); every 1-4 word
//     sub-phrase of a run, minus phrases that start or end with an evaluative
//     adjective ("novel", "proposed", ...). Normalized: lowercase, diacritics
//     folded, hyphen = space, head noun singular (NormalizeKeyword).
//  2. Corpus statistics (PhraseStats): the number of papers in the store using
//     each candidate phrase. A keyword must be shared (df >= 2 once the corpus
//     has 50+ papers) and not generic (unigrams in > 15% of papers, longer
//     phrases in > 30%, are dropped).
//  3. Score = salience x specificity x reusability x length prior:
//     (1 + ln tf) x ln((N + 1) / (df + 0.5)) x ln(1 + df) x {0.6, 1.25, 1.25, 0.85}
//     for 1..4 words, x 1.8 when in the title, x 1.2 when in the first
//     sentence; phrases that are known Keyword nodes get x 1.3 in query mode.
//  4. Selection: best first, skipping fragments (a sub-phrase that almost only
//     occurs inside a longer candidate: "graph neural" in "graph neural
//     network") and extensions that nearly always come with a chosen phrase;
//     at most 8, at least 3 when available, others only when >= 30% of the
//     best score.
//     Importance = round(10 x score / best score), clamped to 1..10.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "litgraph/files.h"
#include "litgraph/status.h"

namespace litgraph {

class Store;

struct Keyword {
  std::string text;  // normalized form: the Keyword node's text
  int score = 0;     // importance 1..10
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

// Canonical keyword text: lowercase, diacritics folded, hyphens and other
// punctuation as single spaces, the last word singular ("Graph Neural
// Networks" -> "graph neural network", "pre-training" -> "pre training").
std::string NormalizeKeyword(std::string_view text);
// Singular form of an English noun ("studies" -> "study", "analyses" ->
// "analysis", "physics" unchanged).
std::string Singular(std::string_view word);

// The external id of a keyword node: "kw:" + normalized text.
std::string KeywordExtId(std::string_view normalized);

// Corpus phrase document frequencies, keyed by a 64-bit hash of the
// normalized phrase. Built by counting, or opened from the store's file
// (a sorted array of (hash, df) pairs, memory-mapped: O(1) open).
class PhraseStats {
 public:
  PhraseStats() = default;
  // Counts the candidate phrases of one document.
  void AddDocument(std::string_view title, std::string_view abstract);
  // Writes phrases with df >= 2 (singletons carry no reuse signal).
  Status Write(const std::string& path) const;
  Status Open(const std::string& path);

  uint32_t DocFreq(uint64_t phrase_hash) const;
  uint64_t num_docs() const { return num_docs_; }
  size_t size() const;

 private:
  void Bump(uint64_t h);
  void Grow();
  // Counting mode: open addressing table of (hash, count).
  std::vector<uint64_t> keys_;
  std::vector<uint32_t> counts_;
  size_t used_ = 0;
  // Mapped mode.
  MappedFile file_;
  const uint64_t* sorted_keys_ = nullptr;
  const uint32_t* sorted_counts_ = nullptr;
  size_t sorted_size_ = 0;
  uint64_t num_docs_ = 0;
};

uint64_t PhraseHash(std::string_view normalized);

struct ExtractOptions {
  size_t max_keywords = 8;
  size_t min_keywords = 3;
  double keep_ratio = 0.30;  // keep beyond min only with score >= ratio x best
};

class KeywordExtractor {
 public:
  // stats may be null (then only salience and the length prior score).
  // known_keyword(phrase) may be empty; when set, phrases it accepts are
  // boosted (query mode: prefer concepts that exist as Keyword nodes).
  explicit KeywordExtractor(const PhraseStats* stats,
                            std::function<bool(const std::string&)> known_keyword = {});
  std::vector<Keyword> Extract(std::string_view title, std::string_view abstract,
                               const ExtractOptions& options = {}) const;
  // Every candidate of the paper with its features and score, best first
  // (ties broken by text), before selection.
  std::vector<KeywordCandidate> Candidates(std::string_view title,
                                           std::string_view abstract) const;

 private:
  const PhraseStats* stats_;
  std::function<bool(const std::string&)> known_;
};

// Candidate phrases of a text (normalized, in text order, with duplicates):
// fn(phrase, words, sentence index, ends its run). Exposed for tests and for
// PhraseStats.
void ForEachCandidate(std::string_view text,
                      const std::function<void(const std::string& phrase, int words,
                                               size_t sentence, bool run_final)>& fn);

}  // namespace litgraph
