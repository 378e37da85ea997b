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

#include "litgraph/coding.h"
#include "litgraph/files.h"
#include "litgraph/intern.h"
#include "litgraph/store.h"
#include "litgraph/text.h"

namespace litgraph {

namespace {

constexpr char kLexMagic[8] = {'L', 'G', 'L', 'E', 'X', 0, 0, 2};

struct LexHeader {
  char magic[8];
  uint64_t num_terms;
  uint64_t num_docs;  // documents indexed
  uint64_t id_space;  // max doc id + 1
  double scale;       // BM25 per impact unit
  double avgdl, k1, b;
  uint64_t strings_bytes;
  uint64_t reserved[3];
};
static_assert(sizeof(LexHeader) == 96);

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

double IdfOf(uint64_t n, uint32_t df) {
  return std::log(1.0 + (static_cast<double>(n) - df + 0.5) / (df + 0.5));
}

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

LexicalBuilder::LexicalBuilder(bool title_only) : title_only_(title_only) {}
LexicalBuilder::~LexicalBuilder() = default;

void LexicalBuilder::Add(uint32_t doc, std::string_view title, std::string_view abstract) {
  // Each distinct surface word is stemmed once; kNoTerm marks stopwords and
  // one-letter words.
  tids_.clear();
  auto add_text = [&](std::string_view text) {
    ForEachWord(text, [&](std::string_view w) {
      bool added = false;
      uint32_t wid = words_.Intern(w, &added);
      if (added) {
        uint32_t term = kNoTerm;
        if (w.size() >= 2 && !IsStopword(w)) term = stems_.Intern(Stem(w));
        word_term_.push_back(term);
      }
      if (word_term_[wid] != kNoTerm) tids_.push_back(word_term_[wid]);
    });
  };
  add_text(title);
  if (!title_only_) add_text(abstract);
  if (doc >= doc_range_.size()) doc_range_.resize(std::max<size_t>(doc + 1, doc_range_.size() * 2));
  doc_range_[doc] = {static_cast<uint64_t>(doc_of_.size()), 0};
  if (tids_.empty()) return;
  std::sort(tids_.begin(), tids_.end());
  for (size_t i = 0; i < tids_.size();) {
    size_t j = i;
    while (j < tids_.size() && tids_[j] == tids_[i]) ++j;
    doc_of_.push_back(doc);
    tid_of_.push_back(tids_[i]);
    tf_of_.push_back(static_cast<uint16_t>(std::min<size_t>(j - i, 65535)));
    i = j;
  }
  doc_range_[doc].count = static_cast<uint32_t>(doc_of_.size() - doc_range_[doc].start);
  doc_range_[doc].length = static_cast<uint32_t>(tids_.size());
}

Status BuildLexicalIndexes(Store* store, GenerationBuilder* out, LexicalBuildStats* stats) {
  LexicalBuilders b;
  store->ForEachPaperText([&](int64_t id, std::string_view title, std::string_view abstract) {
    b.Add(static_cast<uint32_t>(id), title, abstract);
  });
  return b.Write(out, static_cast<uint64_t>(store->MaxId(NodeType::kPaper)) + 1, stats);
}

void LexicalBuilders::StartBuild(uint64_t id_space) {
  id_space_ = id_space;
  build_ = std::async(std::launch::async, [this, id_space] {
    text.Build(id_space, Bm25Params());
    title.Build(id_space, Bm25Params());
  });
}

Status LexicalBuilders::Write(GenerationBuilder* out, uint64_t id_space, LexicalBuildStats* stats) {
  if (!build_.valid()) StartBuild(id_space);
  build_.get();
  if (id_space != id_space_)
    return Status::Internal(
        fmt::format("lexical index built for {} ids, not {}", id_space_, id_space));
  LexicalBuildStats title_stats;
  LITGRAPH_RETURN_IF_ERROR(text.Write(out, "", stats));
  return title.Write(out, kTitleIndexPrefix, &title_stats);
}

// The build's postings in document order, one per (document, term).
struct DocPostings {
  std::vector<uint32_t> doc, tid;
  std::vector<uint16_t> tf;
  std::vector<uint32_t> doc_len;  // per document id
  uint64_t num_docs = 0, total_len = 0;
};

namespace {

// Quantized BM25 impacts of every posting (1..255 units of `scale`).
struct Impacts {
  std::vector<uint8_t> of;
  double scale = 1.0, avgdl = 1.0;
};

Impacts ComputeImpacts(const DocPostings& p, const std::vector<uint32_t>& df,
                       const Bm25Params& params) {
  Impacts out;
  std::vector<double> idf(df.size());
  for (size_t t = 0; t < df.size(); ++t) idf[t] = IdfOf(p.num_docs, df[t]);
  out.avgdl = p.num_docs ? static_cast<double>(p.total_len) / p.num_docs : 1.0;
  // The BM25 weight of every posting, one global quantization scale, and
  // each posting's impact.
  auto weight = [&](size_t i) {
    double tf = p.tf[i];
    double norm = params.k1 * (1 - params.b + params.b * p.doc_len[p.doc[i]] / out.avgdl);
    return idf[p.tid[i]] * tf * (params.k1 + 1) / (tf + norm);
  };
  const size_t n = p.doc.size();
  double max_w = 0;
  for (size_t i = 0; i < n; ++i) max_w = std::max(max_w, weight(i));
  out.scale = max_w > 0 ? max_w / 255.0 : 1.0;
  out.of.resize(n);
  for (size_t i = 0; i < n; ++i)
    out.of[i] = static_cast<uint8_t>(
        std::clamp<long>(std::lround(static_cast<float>(weight(i)) / out.scale), 1, 255));
  return out;
}

// Postings term-major, impact-descending, doc ids ascending within an
// impact: two stable counting sorts (by impact, then by term) of postings
// already in doc order. start[t] .. start[t + 1] is term t's range.
struct TermPostings {
  std::vector<uint64_t> start;
  std::vector<uint32_t> doc;
  std::vector<uint8_t> imp;
};

TermPostings SortTermMajor(DocPostings&& p, Impacts&& impacts, uint64_t n_terms) {
  const size_t n = p.doc.size();
  std::vector<uint32_t> by_imp_doc(n), by_imp_tid(n);
  std::vector<uint8_t> by_imp(n);
  {
    std::vector<uint64_t> at(257, 0);
    for (uint8_t x : impacts.of) ++at[256 - x];  // impact 255 first
    for (int k = 0; k < 256; ++k) at[k + 1] += at[k];
    for (size_t i = 0; i < n; ++i) {
      uint64_t j = at[255 - impacts.of[i]]++;
      by_imp_doc[j] = p.doc[i];
      by_imp_tid[j] = p.tid[i];
      by_imp[j] = impacts.of[i];
    }
  }
  p = {};
  impacts.of = {};
  TermPostings out;
  out.start.assign(n_terms + 1, 0);
  for (uint32_t t : by_imp_tid) ++out.start[t + 1];
  for (uint64_t t = 0; t < n_terms; ++t) out.start[t + 1] += out.start[t];
  out.doc.resize(n);
  out.imp.resize(n);
  std::vector<uint64_t> fill(out.start.begin(), out.start.end() - 1);
  for (size_t i = 0; i < n; ++i) {
    uint64_t j = fill[by_imp_tid[i]]++;
    out.doc[j] = by_imp_doc[i];
    out.imp[j] = by_imp[i];
  }
  return out;
}

// One term's postings: varint segment count, then per segment u8 impact,
// varint count, varint bytes, the doc-id deltas.
void AppendTermPostings(const TermPostings& tp, uint64_t a, uint64_t b, std::string* postings) {
  uint32_t segments = 0;
  for (uint64_t i = a; i < b; ++i) segments += i == a || tp.imp[i] != tp.imp[i - 1];
  PutVarint(segments, postings);
  std::string seg_bytes;
  for (uint64_t i = a; i < b;) {
    uint64_t j = i;
    const uint8_t imp = tp.imp[i];
    while (j < b && tp.imp[j] == imp) ++j;
    postings->push_back(static_cast<char>(imp));
    PutVarint(j - i, postings);
    seg_bytes.clear();
    uint32_t prev = 0;
    for (uint64_t k = i; k < j; ++k) {
      PutVarint(k == i ? tp.doc[k] : tp.doc[k] - prev, &seg_bytes);
      prev = tp.doc[k];
    }
    PutVarint(seg_bytes.size(), postings);  // lets readers skip a segment
    *postings += seg_bytes;
    i = j;
  }
}

}  // namespace

// Postings in document order, each document's latest version only (a work
// upserted twice in one ingest was added twice); the accumulated state is
// released.
void LexicalBuilder::TakeLatest(uint64_t id_space, DocPostings* p) {
  const uint64_t n_ranges = std::min<uint64_t>(doc_range_.size(), id_space);
  size_t n_post = 0;
  p->doc_len.assign(id_space, 0);
  for (uint64_t d = 0; d < n_ranges; ++d) {
    const DocRange& r = doc_range_[d];
    if (r.count == 0) continue;
    n_post += r.count;
    ++p->num_docs;
    p->doc_len[d] = r.length;
    p->total_len += r.length;
  }
  p->doc.resize(n_post);
  p->tid.resize(n_post);
  p->tf.resize(n_post);
  for (uint64_t d = 0, at = 0; d < n_ranges; ++d) {
    const DocRange& r = doc_range_[d];
    for (uint64_t i = r.start; i < r.start + r.count; ++i, ++at) {
      p->doc[at] = static_cast<uint32_t>(d);
      p->tid[at] = tid_of_[i];
      p->tf[at] = tf_of_[i];
    }
  }
  doc_of_ = {};
  tid_of_ = {};
  tf_of_ = {};
  words_ = StringInterner();
  word_term_ = {};
}

void LexicalBuilder::Build(uint64_t id_space, const Bm25Params& params) {
  DocPostings p;
  TakeLatest(id_space, &p);
  const uint64_t n_terms = stems_.size();
  const size_t n_post = p.doc.size();
  const uint64_t num_docs = p.num_docs;
  std::vector<uint32_t> df(n_terms, 0);
  for (uint32_t t : p.tid) ++df[t];
  Impacts impacts = ComputeImpacts(p, df, params);
  const double scale = impacts.scale, avgdl = impacts.avgdl;
  TermPostings tp = SortTermMajor(std::move(p), std::move(impacts), n_terms);
  // The lexicon lists terms bytewise sorted; each points into the postings.
  std::vector<uint32_t> order(n_terms);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return stems_.str(a) < stems_.str(b); });
  std::string postings, strings;
  std::vector<uint64_t> term_off(n_terms + 1), post_off(n_terms + 1);
  std::vector<uint32_t> df_sorted(n_terms);
  for (uint64_t r = 0; r < n_terms; ++r) {
    uint32_t t = order[r];
    term_off[r] = strings.size();
    strings += stems_.str(t);
    post_off[r] = postings.size();
    df_sorted[r] = df[t];
    AppendTermPostings(tp, tp.start[t], tp.start[t + 1], &postings);
  }
  term_off[n_terms] = strings.size();
  post_off[n_terms] = postings.size();
  LexHeader h{};
  std::memcpy(h.magic, kLexMagic, 8);
  h.num_terms = n_terms;
  h.num_docs = num_docs;
  h.id_space = id_space;
  h.scale = scale;
  h.avgdl = avgdl;
  h.k1 = params.k1;
  h.b = params.b;
  h.strings_bytes = strings.size();
  std::string lex;
  lex.append(reinterpret_cast<const char*>(&h), sizeof h);
  lex.append(reinterpret_cast<const char*>(term_off.data()), term_off.size() * 8);
  lex.append(reinterpret_cast<const char*>(post_off.data()), post_off.size() * 8);
  lex.append(reinterpret_cast<const char*>(df_sorted.data()), df_sorted.size() * 4);
  lex += strings;
  lexicon_ = std::move(lex);
  postings_ = std::move(postings);
  built_.terms = static_cast<int64_t>(n_terms);
  built_.postings = static_cast<int64_t>(n_post);
  built_.bytes = static_cast<int64_t>(lexicon_.size() + postings_.size());
}

Status LexicalBuilder::Write(GenerationBuilder* out, const std::string& prefix,
                             LexicalBuildStats* stats) const {
  // Identities are taken on the calling thread (the builder is not thread-safe).
  const std::string lexicon = prefix + "lexicon", postings = prefix + "postings";
  LITGRAPH_RETURN_IF_ERROR(WriteCheckedFile(out->Path(lexicon), out->NewFile(lexicon), lexicon_));
  LITGRAPH_RETURN_IF_ERROR(
      WriteCheckedFile(out->Path(postings), out->NewFile(postings), postings_));
  *stats = built_;
  return Status::Ok();
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
    const uint8_t* p =
        o && range[0] <= range[1] ? postings_.Read(range[0], range[1] - range[0]) : nullptr;
    if (!p) {
      Damaged();
      return {};
    }
    const uint8_t* end = p + (range[1] - range[0]);
    uint64_t n;
    if (!GetVarint(&p, end, &n)) {
      Damaged();
      return {};
    }
    for (uint64_t s = 0; s < n; ++s) {
      Segment seg;
      uint64_t count = 0, bytes = 0;
      bool ok = p < end;
      if (ok) seg.impact = *p++;
      // A posting takes at least a byte: a count beyond its bytes is damage
      // (Search reserves room for the postings it plans to visit).
      ok = ok && GetVarint(&p, end, &count) && GetVarint(&p, end, &bytes) &&
           bytes <= static_cast<uint64_t>(end - p) && count <= bytes;
      if (!ok) {
        Damaged();
        return {};
      }
      seg.weight = q.weight;
      seg.count = static_cast<uint32_t>(count);
      seg.data = p;
      p += bytes;
      seg.end = p;
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
    const uint8_t* p = s.data;
    uint64_t doc = 0, v;
    for (uint32_t i = 0; i < s.count; ++i) {
      if (!GetVarint(&p, s.end, &v) || (doc = i == 0 ? v : doc + v) >= id_space_) {
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
    const uint8_t* p = s.data;
    uint64_t doc = 0, v;
    for (uint32_t i = 0; i < s.count; ++i) {
      if (!GetVarint(&p, s.end, &v)) {
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
