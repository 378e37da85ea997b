#include "litgraph/lexical.h"

#include <fmt/format.h>
#include <libstemmer.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <optional>
#include <span>
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

// Bytes of the delta's mask read at a time (MaskReader, Search).
constexpr uint64_t kMaskWindow = 4096;

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

void LexicalIndex::Damaged(const Part& part) const {
  if (status_.ok()) status_ = Status::Corruption(part.path + ": corrupt postings");
}

Status LexicalIndex::Part::Open(const GenerationView& generation, const std::string& prefix) {
  const std::string lexicon_name = prefix + "lexicon", postings_name = prefix + "postings";
  LITGRAPH_RETURN_IF_ERROR(generation.OpenFile(lexicon_name, &lexicon));
  LITGRAPH_RETURN_IF_ERROR(generation.OpenFile(postings_name, &postings));
  const std::string lexicon_path = generation.Path(lexicon_name);
  path = generation.Path(postings_name);
  const uint8_t* hp = lexicon.Read(0, sizeof(LexHeader));
  if (!hp)
    return lexicon.status().ok() ? Status::Corruption(lexicon_path + ": truncated")
                                 : lexicon.status();
  LexHeader h;
  std::memcpy(&h, hp, sizeof h);
  if (std::memcmp(h.magic, kLexMagic, 8) != 0)
    return Status::Corruption(lexicon_path + ": not a lexicon");
  num_terms = h.num_terms;
  num_docs = h.num_docs;
  id_space = h.id_space;
  scale = h.scale;
  avgdl = h.avgdl;
  // Document ids are u32 (LexicalHit::doc), and Search maps an accumulator
  // of id_space floats: a larger id space is damage, not a 2^64-float array.
  if (num_terms > lexicon.size() / 20 || id_space > (uint64_t{1} << 32) ||
      lexicon.size() != sizeof h + (num_terms + 1) * 16 + num_terms * 4 + h.strings_bytes ||
      !(scale > 0) || !(avgdl > 0))
    return Status::Corruption(lexicon_path + ": corrupt lexicon");
  term_offsets_at = sizeof h;
  postings_offsets_at = term_offsets_at + (num_terms + 1) * 8;
  df_at = postings_offsets_at + (num_terms + 1) * 8;
  strings_at = df_at + num_terms * 4;
  uint64_t end = 0;
  const uint8_t* e = lexicon.Read(postings_offsets_at + num_terms * 8, 8);
  if (!e) return lexicon.status();
  std::memcpy(&end, e, 8);
  if (end != postings.size()) return Status::Corruption(path + ": size does not match the lexicon");
  return Status::Ok();
}

int64_t LexicalIndex::Part::Find(std::string_view term) const {
  return FindSortedString(lexicon, term_offsets_at, strings_at, num_terms, term);
}

uint32_t LexicalIndex::Part::DocFreq(std::string_view term) const {
  int64_t i = Find(term);
  if (i < 0) return 0;
  uint32_t df = 0;
  if (const uint8_t* p = lexicon.Read(df_at + static_cast<uint64_t>(i) * 4, 4))
    std::memcpy(&df, p, 4);
  return df;
}

Status LexicalIndex::Open(const GenerationView& generation, const std::string& prefix) {
  if (!generation.Has(prefix + "lexicon"))
    return Status::NotFound(generation.Path(prefix + "lexicon") + ": no lexical index");
  LITGRAPH_RETURN_IF_ERROR(base_.Open(generation, prefix));
  num_docs_ = base_.num_docs;
  id_space_ = base_.id_space;
  scale_ = base_.scale;
  const std::string delta = prefix + kDeltaPrefix;
  has_delta_ = generation.Has(delta + "lexicon");
  if (!has_delta_) return Status::Ok();
  LITGRAPH_RETURN_IF_ERROR(delta_.Open(generation, delta));
  LITGRAPH_RETURN_IF_ERROR(generation.OpenFile(delta + "mask", &mask_));
  // The delta is scored on the base's scale and covers every id the base
  // does; its mask has a bit per id of the delta's space and counts them.
  const std::string mask_path = generation.Path(delta + "mask");
  if (delta_.scale != base_.scale || delta_.id_space < base_.id_space ||
      delta_.num_docs < base_.num_docs)
    return Status::Corruption(generation.Path(delta + "lexicon") + ": not a delta of " +
                              generation.Path(prefix + "lexicon"));
  if (mask_.size() != 8 + (delta_.id_space + 7) / 8)
    return Status::Corruption(mask_path + ": size does not match the lexicon");
  const uint8_t* c = mask_.Read(0, 8);
  if (!c) return mask_.status();
  std::memcpy(&delta_docs_, c, 8);
  if (delta_docs_ > delta_.id_space) return Status::Corruption(mask_path + ": corrupt count");
  num_docs_ = delta_.num_docs;
  id_space_ = delta_.id_space;
  return Status::Ok();
}

// A damaged page (the files' own status) comes first: what the format then
// found wrong is its consequence.
Status LexicalIndex::status() const {
  for (const CheckedFile* f :
       {&base_.lexicon, &base_.postings, &delta_.lexicon, &delta_.postings, &mask_})
    LITGRAPH_RETURN_IF_ERROR(f->status());
  return status_;
}

namespace {

// Window n of a delta's mask: kMaskWindow bytes of bits (the last window
// short); empty when damaged (latched in the mask's status) or past the end.
std::span<const uint8_t> MaskWindow(const CheckedFile& mask, uint64_t n) {
  const uint64_t at = n * kMaskWindow, end = std::min(at + kMaskWindow, mask.size() - 8);
  const uint8_t* p = at < end ? mask.Read(8 + at, end - at) : nullptr;
  return p ? std::span<const uint8_t>(p, end - at) : std::span<const uint8_t>();
}

}  // namespace

bool LexicalIndex::MaskReader::Slide(uint64_t doc) {
  // A window of the mask around it: postings ascend within a segment.
  const uint64_t byte = doc / 8;
  const std::span<const uint8_t> w = MaskWindow(*mask_, byte / kMaskWindow);
  window_ = w.data();
  lo_ = byte / kMaskWindow * kMaskWindow;
  hi_ = lo_ + w.size();
  if (!window_ || byte >= hi_) {
    lo_ = hi_ = 0;
    return true;  // damage (latched in the mask's status) reads as held
  }
  return (window_[byte - lo_] >> (doc % 8) & 1) != 0;
}

uint32_t LexicalIndex::DocFreq(std::string_view term) const {
  return base_.DocFreq(term) + (has_delta_ ? delta_.DocFreq(term) : 0);
}

double LexicalIndex::Idf(uint32_t df) const { return IdfOf(num_docs_, df); }

LexicalFrame LexicalIndex::Frame() const {
  LexicalFrame f;
  f.base_docs = base_.num_docs;
  f.base_id_space = base_.id_space;
  f.avgdl = base_.avgdl;
  f.scale = base_.scale;
  f.base_df = [this](std::string_view term) { return base_.DocFreq(term); };
  return f;
}

Status LexicalIndex::ForEachDeltaDoc(const std::function<void(uint32_t)>& fn) const {
  if (!has_delta_) return Status::Ok();
  const uint64_t bytes = (delta_.id_space + 7) / 8;
  constexpr uint64_t kChunk = 1 << 16;
  for (uint64_t at = 0; at < bytes; at += kChunk) {
    const uint64_t n = std::min(kChunk, bytes - at);
    const uint8_t* p = mask_.Read(8 + at, n);
    if (!p) return mask_.status();
    for (uint64_t i = 0; i < n; ++i)
      for (uint32_t bit = 0; p[i] >> bit; ++bit)
        if ((p[i] >> bit & 1) && (at + i) * 8 + bit < delta_.id_space)  // not padding
          fn(static_cast<uint32_t>((at + i) * 8 + bit));
  }
  return Status::Ok();
}

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

void LexicalIndex::AddSegments(const Part& part, bool masked, const std::vector<QueryTerm>& terms,
                               std::vector<Segment>* segs) const {
  for (const QueryTerm& q : terms) {
    int64_t i = part.Find(q.term);
    if (i < 0 || q.weight <= 0) continue;
    uint64_t range[2];
    const uint8_t* o =
        part.lexicon.Read(part.postings_offsets_at + static_cast<uint64_t>(i) * 8, 16);
    if (o) std::memcpy(range, o, 16);
    if (!o || range[0] > range[1] || range[1] > part.postings.size()) {
      Damaged(part);
      segs->clear();
      return;
    }
    // Only the segment headers are read here, each segment's postings when
    // a search visits it: a query touches (and verifies) the pages of the
    // segments it reads, not the whole of a common term's list.
    uint64_t at = range[0];
    const uint8_t *p = nullptr, *base = nullptr, *end = nullptr;
    auto header = [&] {  // the bytes at `at` that can hold a segment header
      const uint64_t len = std::min<uint64_t>(range[1] - at, 21);  // u8 + 2 varints
      base = p = len ? part.postings.Read(at, len) : nullptr;
      end = p ? p + len : nullptr;
      return p != nullptr;
    };
    uint64_t n;
    if (!header() || !GetVarint(&p, end, &n)) {
      Damaged(part);
      segs->clear();
      return;
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
        Damaged(part);
        segs->clear();
        return;
      }
      seg.masked = masked;
      seg.weight = q.weight;
      seg.part = &part;
      seg.count = static_cast<uint32_t>(count);
      seg.at = at;
      seg.bytes = bytes;
      at += bytes;
      segs->push_back(seg);
    }
  }
}

std::vector<LexicalIndex::Segment> LexicalIndex::Segments(
    const std::vector<QueryTerm>& terms) const {
  std::vector<Segment> segs;
  AddSegments(base_, has_delta_, terms, &segs);
  if (has_delta_ && status_.ok()) AddSegments(delta_, false, terms, &segs);
  if (!status_.ok()) return {};
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
  if (k == 0) return hits;
  std::vector<Segment> segs = Segments(terms);
  // The segments the budget reaches, highest impact first.
  size_t reached = 0;
  uint64_t planned = 0;
  while (reached < segs.size() && !(budget && planned >= budget)) planned += segs[reached++].count;
  last_postings_visited = planned;

  // The reached segments are added up a tile of document ids at a time: the
  // tile's accumulator stays in the L2 cache, where one over the whole id
  // space (40 MB at 10M papers) made each posting a miss to memory. A
  // document's impacts are still added in segment order, so the sums are
  // those of a walk over whole segments.
  struct Cursor {
    const Segment* seg;
    const uint8_t *p, *end;
    uint64_t doc;   // the next posting's document
    uint32_t left;  // postings left, the next one included
    float add;
  };
  std::vector<Cursor> cursors;
  cursors.reserve(reached);
  uint64_t first = id_space_;  // the lowest document of any cursor
  for (size_t i = 0; i < reached; ++i) {
    const Segment& s = segs[i];
    Cursor c{&s, s.part->postings.Read(s.at, s.bytes), nullptr, 0, s.count, s.impact * s.weight};
    if (!c.left) continue;
    c.end = c.p ? c.p + s.bytes : nullptr;
    if (!GetVarint(&c.p, c.end, &c.doc) || c.doc >= s.part->id_space) {
      Damaged(*s.part);
      continue;
    }
    first = std::min(first, c.doc);
    cursors.push_back(c);
  }
  const uint64_t tile = std::max<uint64_t>(tile_docs / 8 * 8, 8);
  std::vector<float> acc(std::min(tile, id_space_), 0.0f);
  std::vector<uint32_t> touched;  // offsets in the tile
  struct Scored {
    uint32_t doc;
    float score;
  };
  std::vector<Scored> scored;
  scored.reserve(std::min<uint64_t>(planned, id_space_));
  // The delta's mask, read in MaskReader's windows when a base posting of
  // the tile first needs one: the pages a search reads (and the damage it
  // meets) are those of a walk over whole segments. A damaged window reads
  // as held.
  std::vector<std::optional<const uint8_t*>> windows;  // the tile's, once read
  uint64_t first_window = 0;
  auto mask_window = [&](uint64_t n) {  // window n of the mask (null: damaged)
    std::optional<const uint8_t*>& w = windows[n - first_window];
    if (!w) w = MaskWindow(mask_, n).data();
    return *w;
  };
  for (uint64_t lo = first / tile * tile; lo < id_space_ && !cursors.empty();) {
    const uint64_t hi = lo + tile;
    if (has_delta_) {
      first_window = lo / 8 / kMaskWindow;
      const uint64_t count = (std::min(hi, id_space_) - 1) / 8 / kMaskWindow - first_window + 1;
      windows.assign(count, std::nullopt);
    }
    uint64_t next = id_space_;
    size_t live = 0;
    for (Cursor& c : cursors) {
      const bool masked = c.seg->masked;
      uint64_t n = UINT64_MAX;  // the window `bits` holds
      const uint8_t* bits = nullptr;
      while (c.doc < hi) {
        const uint64_t byte = c.doc / 8;
        if (masked && byte / kMaskWindow != n) bits = mask_window(n = byte / kMaskWindow);
        if (!masked || (bits && !(bits[byte - n * kMaskWindow] >> (c.doc % 8) & 1))) {
          float& a = acc[c.doc - lo];
          if (a == 0) touched.push_back(static_cast<uint32_t>(c.doc - lo));
          a += c.add;
        }
        uint64_t v;
        if (--c.left == 0) break;
        // A delta past the id space is damage, one that wraps around too:
        // the walk cannot go back to an earlier tile.
        if (!GetVarint(&c.p, c.end, &v) || v >= c.seg->part->id_space - c.doc) {
          Damaged(*c.seg->part);
          c.left = 0;
          break;
        }
        c.doc += v;
      }
      if (c.left) {
        next = std::min(next, c.doc);
        cursors[live++] = c;
      }
    }
    cursors.resize(live);
    for (uint32_t o : touched) {
      scored.push_back({static_cast<uint32_t>(lo + o), acc[o]});
      acc[o] = 0;
    }
    touched.clear();
    lo = next / tile * tile;
  }
  auto better = [](const Scored& a, const Scored& b) {
    return a.score != b.score ? a.score > b.score : a.doc < b.doc;
  };
  // Select in growing windows so a selective filter still finds k hits.
  size_t window = std::min(scored.size(), std::max<size_t>(k * 4, 64));
  size_t done = 0;
  while (hits.size() < k && done < scored.size()) {
    window = std::min(scored.size(), std::max(window, done + k));
    std::partial_sort(scored.begin() + static_cast<long>(done),
                      scored.begin() + static_cast<long>(window), scored.end(), better);
    for (size_t i = done; i < window && hits.size() < k; ++i)
      if (!accept || accept(scored[i].doc))
        hits.push_back({scored[i].doc, static_cast<float>(scored[i].score * scale_)});
    done = window;
    window *= 4;
  }
  return hits;
}

std::vector<float> LexicalIndex::ScoreDocs(const std::vector<QueryTerm>& terms,
                                           std::span<const uint32_t> docs) const {
  std::vector<float> scores(docs.size(), 0);
  // The documents in id order, as a segment's postings are: each segment is
  // then one merge walk, with no lookup per posting (a hash lookup a posting
  // was 10% of a 1M-work tri-search).
  std::vector<uint32_t> order(docs.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return docs[a] != docs[b] ? docs[a] < docs[b] : a < b; });
  MaskReader mask(&mask_);
  for (const Segment& s : Segments(terms)) {
    const uint8_t* p = s.part->postings.Read(s.at, s.bytes);
    const uint8_t* end = p ? p + s.bytes : nullptr;
    const float add = static_cast<float>(s.impact * s.weight * scale_);
    uint64_t doc = 0, v;
    size_t k = 0;  // the first of `order` not below doc
    for (uint32_t i = 0; i < s.count; ++i) {
      if (!GetVarint(&p, end, &v)) {
        Damaged(*s.part);
        break;
      }
      doc = i == 0 ? v : doc + v;
      while (k < order.size() && docs[order[k]] < doc) ++k;
      if (k == order.size()) break;  // past the last document: no more matches here
      if (docs[order[k]] != doc || (s.masked && mask.Masked(doc))) continue;
      for (size_t j = k; j < order.size() && docs[order[j]] == doc; ++j) scores[order[j]] += add;
    }
  }
  return scores;
}

}  // namespace litgraph
