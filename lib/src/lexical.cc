#include "litgraph/lexical.h"

#include <fmt/format.h>
#include <libstemmer.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include "lexical_format.h"
#include "litgraph/coding.h"
#include "litgraph/files.h"
#include "litgraph/intern.h"
#include "litgraph/store.h"
#include "litgraph/text.h"

namespace litgraph {

namespace {

// English function words (Lucene/SMART short list plus a few abstract fillers
// that carry no topic: "paper", "propose" stay, they are content in context).
const std::unordered_set<std::string_view>& Stopwords() {
  static const std::unordered_set<std::string_view> kWords = {
      "a",       "about",   "above",  "after",   "again",  "against",   "all",        "also",
      "am",      "an",      "and",    "any",     "are",    "as",        "at",         "be",
      "because", "been",    "before", "being",   "below",  "between",   "both",       "but",
      "by",      "can",     "could",  "did",     "do",     "does",      "doing",      "down",
      "during",  "each",    "either", "et",      "etc",    "few",       "for",        "from",
      "further", "had",     "has",    "have",    "having", "he",        "her",        "here",
      "hers",    "herself", "him",    "himself", "his",    "how",       "however",    "i",
      "if",      "in",      "into",   "is",      "it",     "its",       "itself",     "just",
      "may",     "me",      "might",  "more",    "most",   "must",      "my",         "myself",
      "no",      "nor",     "not",    "now",     "of",     "off",       "on",         "once",
      "only",    "or",      "other",  "our",     "ours",   "ourselves", "out",        "over",
      "own",     "same",    "shall",  "she",     "should", "so",        "some",       "such",
      "than",    "that",    "the",    "their",   "theirs", "them",      "themselves", "then",
      "there",   "these",   "they",   "this",    "those",  "through",   "thus",       "to",
      "too",     "under",   "until",  "up",      "upon",   "us",        "very",       "via",
      "was",     "we",      "were",   "what",    "when",   "where",     "whether",    "which",
      "while",   "who",     "whom",   "why",     "will",   "with",      "within",     "without",
      "would",   "yet",     "you",    "your",    "yours",  "yourself",  "yourselves"};
  return kWords;
}

struct StemmerHolder {
  sb_stemmer* s = sb_stemmer_new("english", "UTF_8");
  ~StemmerHolder() {
    if (s) sb_stemmer_delete(s);
  }
};

}  // namespace

bool IsStopword(std::string_view word) { return Stopwords().count(word) > 0; }

std::string Stem(std::string_view word) {
  thread_local StemmerHolder holder;
  if (!holder.s || word.empty()) return std::string(word);
  const sb_symbol* out = sb_stemmer_stem(holder.s, reinterpret_cast<const sb_symbol*>(word.data()),
                                         static_cast<int>(word.size()));
  if (!out) return std::string(word);
  return std::string(reinterpret_cast<const char*>(out), sb_stemmer_length(holder.s));
}

std::vector<std::string> AnalyzeTerms(std::string_view text) {
  std::vector<std::string> out;
  for (std::string& w : Words(text)) {
    if (w.size() < 2 || IsStopword(w)) continue;
    out.push_back(Stem(w));
  }
  return out;
}

void LexicalIndex::Damaged() const {
  if (status_.ok()) status_ = Status::Corruption(path_ + ": corrupt postings");
}

Status LexicalIndex::Open(const GenerationView& generation, const std::string& prefix) {
  const std::string lexicon = prefix + "lexicon", postings = prefix + "postings";
  if (!generation.Has(lexicon))
    return Status::NotFound(generation.Path(lexicon) + ": no lexical index");
  LITGRAPH_RETURN_IF_ERROR(generation.OpenFile(lexicon, &lexicon_));
  LITGRAPH_RETURN_IF_ERROR(generation.OpenFile(postings, &postings_));
  const std::string path = generation.Path(lexicon);
  path_ = generation.Path(postings);
  const uint8_t* hp = lexicon_.Read(0, sizeof(LexHeader));
  if (!hp)
    return lexicon_.status().ok() ? Status::Corruption(path + ": truncated") : lexicon_.status();
  LexHeader h;
  std::memcpy(&h, hp, sizeof h);
  if (std::memcmp(h.magic, kLexMagic, 8) != 0) return Status::Corruption(path + ": not a lexicon");
  num_terms_ = h.num_terms;
  num_docs_ = h.num_docs;
  id_space_ = h.id_space;
  scale_ = h.scale;
  // Document ids are u32 (LexicalHit::doc), and Search maps an accumulator
  // of id_space floats: a larger id space is damage, not a 2^64-float array.
  if (num_terms_ > lexicon_.size() / 20 || id_space_ > (uint64_t{1} << 32) ||
      lexicon_.size() != sizeof h + (num_terms_ + 1) * 16 + num_terms_ * 4 + h.strings_bytes)
    return Status::Corruption(path + ": corrupt lexicon");
  term_offsets_at_ = sizeof h;
  postings_offsets_at_ = term_offsets_at_ + (num_terms_ + 1) * 8;
  df_at_ = postings_offsets_at_ + (num_terms_ + 1) * 8;
  strings_at_ = df_at_ + num_terms_ * 4;
  uint64_t end = 0;
  const uint8_t* e = lexicon_.Read(postings_offsets_at_ + num_terms_ * 8, 8);
  if (!e) return lexicon_.status();
  std::memcpy(&end, e, 8);
  if (end != postings_.size())
    return Status::Corruption(path_ + ": size does not match the lexicon");
  return Status::Ok();
}

// A damaged page (the files' own status) comes first: what the format then
// found wrong is its consequence.
Status LexicalIndex::status() const {
  LITGRAPH_RETURN_IF_ERROR(lexicon_.status());
  LITGRAPH_RETURN_IF_ERROR(postings_.status());
  return status_;
}

int64_t LexicalIndex::Find(std::string_view term) const {
  return FindSortedString(lexicon_, term_offsets_at_, strings_at_, num_terms_, term);
}

uint32_t LexicalIndex::DocFreq(std::string_view term) const {
  int64_t i = Find(term);
  if (i < 0) return 0;
  uint32_t df = 0;
  if (const uint8_t* p = lexicon_.Read(df_at_ + static_cast<uint64_t>(i) * 4, 4))
    std::memcpy(&df, p, 4);
  return df;
}

double LexicalIndex::Idf(uint32_t df) const { return IdfOf(num_docs_, df); }

std::vector<QueryTerm> LexicalIndex::QueryTerms(std::string_view text) {
  std::vector<std::string> terms = AnalyzeTerms(text);
  std::sort(terms.begin(), terms.end());
  std::vector<QueryTerm> out;
  for (size_t i = 0; i < terms.size();) {
    size_t j = i;
    while (j < terms.size() && terms[j] == terms[i]) ++j;
    out.push_back({terms[i], static_cast<float>(j - i)});
    i = j;
  }
  return out;
}

std::vector<LexicalIndex::Segment> LexicalIndex::Segments(
    const std::vector<QueryTerm>& terms) const {
  std::vector<Segment> segs;
  for (const QueryTerm& q : terms) {
    int64_t i = Find(q.term);
    if (i < 0 || q.weight <= 0) continue;
    uint64_t range[2];
    const uint8_t* o = lexicon_.Read(postings_offsets_at_ + static_cast<uint64_t>(i) * 8, 16);
    if (o) std::memcpy(range, o, 16);
    if (!o || range[0] > range[1] || range[1] > postings_.size()) {
      Damaged();
      return {};
    }
    // Only the segment headers are read here, each segment's postings when
    // a search visits it: a query touches (and verifies) the pages of the
    // segments it reads, not the whole of a common term's list.
    uint64_t at = range[0];
    const uint8_t *p = nullptr, *base = nullptr, *end = nullptr;
    auto header = [&] {  // the bytes at `at` that can hold a segment header
      const uint64_t len = std::min<uint64_t>(range[1] - at, 21);  // u8 + 2 varints
      base = p = len ? postings_.Read(at, len) : nullptr;
      end = p ? p + len : nullptr;
      return p != nullptr;
    };
    uint64_t n;
    if (!header() || !GetVarint(&p, end, &n)) {
      Damaged();
      return {};
    }
    at += static_cast<uint64_t>(p - base);
    for (uint64_t s = 0; s < n; ++s) {
      Segment seg;
      uint64_t count = 0, bytes = 0;
      bool ok = header();
      if (ok) seg.impact = *p++;
      ok = ok && GetVarint(&p, end, &count) && GetVarint(&p, end, &bytes);
      if (ok) at += static_cast<uint64_t>(p - base);
      // A posting takes at least a byte: a count beyond its bytes is damage
      // (Search reserves room for the postings it plans to visit).
      if (!ok || bytes > range[1] - at || count > bytes) {
        Damaged();
        return {};
      }
      seg.weight = q.weight;
      seg.count = static_cast<uint32_t>(count);
      seg.at = at;
      seg.bytes = bytes;
      at += bytes;
      segs.push_back(seg);
    }
  }
  std::stable_sort(segs.begin(), segs.end(), [](const Segment& a, const Segment& b) {
    return a.impact * a.weight > b.impact * b.weight;
  });
  return segs;
}

std::vector<LexicalHit> LexicalIndex::Search(const std::vector<QueryTerm>& terms, size_t k,
                                             size_t budget,
                                             const std::function<bool(uint32_t)>& accept) const {
  std::vector<LexicalHit> hits;
  last_postings_visited = 0;
  if (num_terms_ == 0 || k == 0) return hits;
  std::vector<Segment> segs = Segments(terms);
  uint64_t planned = 0;  // postings the loop below will visit
  for (const Segment& s : segs) {
    if (budget && planned >= budget) break;
    planned += s.count;
  }
  // More postings than the accumulator has 4 KiB pages: most pages will be
  // touched, so huge pages (files.h) save faults.
  ZeroedArray<float> acc(id_space_, /*dense=*/planned > id_space_ * sizeof(float) / 4096);
  std::vector<uint32_t> touched;
  touched.reserve(std::min<uint64_t>(planned, id_space_));
  uint64_t visited = 0;
  for (const Segment& s : segs) {
    if (budget && visited >= budget) break;
    float add = s.impact * s.weight;
    const uint8_t* p = postings_.Read(s.at, s.bytes);
    const uint8_t* end = p ? p + s.bytes : nullptr;
    uint64_t doc = 0, v;
    for (uint32_t i = 0; i < s.count; ++i) {
      if (!GetVarint(&p, end, &v) || (doc = i == 0 ? v : doc + v) >= id_space_) {
        Damaged();
        break;
      }
      if (acc[doc] == 0) touched.push_back(static_cast<uint32_t>(doc));
      acc[doc] += add;
    }
    visited += s.count;
  }
  last_postings_visited = visited;
  auto better = [&](uint32_t a, uint32_t b) { return acc[a] != acc[b] ? acc[a] > acc[b] : a < b; };
  // Select in growing windows so a selective filter still finds k hits.
  size_t window = std::min(touched.size(), std::max<size_t>(k * 4, 64));
  size_t done = 0;
  while (hits.size() < k && done < touched.size()) {
    window = std::min(touched.size(), std::max(window, done + k));
    std::partial_sort(touched.begin() + static_cast<long>(done),
                      touched.begin() + static_cast<long>(window), touched.end(), better);
    for (size_t i = done; i < window && hits.size() < k; ++i)
      if (!accept || accept(touched[i]))
        hits.push_back({touched[i], static_cast<float>(acc[touched[i]] * scale_)});
    done = window;
    window *= 4;
  }
  return hits;
}

std::vector<float> LexicalIndex::ScoreDocs(const std::vector<QueryTerm>& terms,
                                           std::span<const uint32_t> docs) const {
  std::vector<float> scores(docs.size(), 0);
  if (num_terms_ == 0) return scores;
  std::unordered_map<uint32_t, std::vector<size_t>> where;
  for (size_t i = 0; i < docs.size(); ++i) where[docs[i]].push_back(i);
  for (const Segment& s : Segments(terms)) {
    const uint8_t* p = postings_.Read(s.at, s.bytes);
    const uint8_t* end = p ? p + s.bytes : nullptr;
    uint64_t doc = 0, v;
    for (uint32_t i = 0; i < s.count; ++i) {
      if (!GetVarint(&p, end, &v)) {
        Damaged();
        break;
      }
      doc = i == 0 ? v : doc + v;
      auto it = where.find(static_cast<uint32_t>(doc));
      if (it != where.end())
        for (size_t j : it->second) scores[j] += static_cast<float>(s.impact * s.weight * scale_);
    }
  }
  return scores;
}

}  // namespace litgraph
