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
  uint64_t num_docs;   // documents indexed
  uint64_t id_space;   // max doc id + 1
  double scale;        // BM25 per impact unit
  double avgdl, k1, b;
  uint64_t strings_bytes;
  uint64_t reserved[3];
};
static_assert(sizeof(LexHeader) == 96);

// English function words (Lucene/SMART short list plus a few abstract fillers
// that carry no topic: "paper", "propose" stay, they are content in context).
const std::unordered_set<std::string_view>& Stopwords() {
  static const std::unordered_set<std::string_view> kWords = {
      "a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and",
      "any", "are", "as", "at", "be", "because", "been", "before", "being", "below",
      "between", "both", "but", "by", "can", "could", "did", "do", "does", "doing", "down",
      "during", "each", "either", "et", "etc", "few", "for", "from", "further", "had", "has",
      "have", "having", "he", "her", "here", "hers", "herself", "him", "himself", "his", "how",
      "however", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "may", "me",
      "might", "more", "most", "must", "my", "myself", "no", "nor", "not", "now", "of", "off",
      "on", "once", "only", "or", "other", "our", "ours", "ourselves", "out", "over", "own",
      "same", "shall", "she", "should", "so", "some", "such", "than", "that", "the", "their",
      "theirs", "them", "themselves", "then", "there", "these", "they", "this", "those",
      "through", "thus", "to", "too", "under", "until", "up", "upon", "us", "very", "via",
      "was", "we", "were", "what", "when", "where", "whether", "which", "while", "who", "whom",
      "why", "will", "with", "within", "without", "would", "yet", "you", "your", "yours",
      "yourself", "yourselves"};
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

Status BuildLexicalIndexes(Store* store, const std::string& dir, LexicalBuildStats* stats) {
  LexicalBuilders b;
  store->ForEachPaperText([&](int64_t id, std::string_view title, std::string_view abstract) {
    b.Add(static_cast<uint32_t>(id), title, abstract);
  });
  return b.Write(dir, static_cast<uint64_t>(store->MaxId(NodeType::kPaper)) + 1, stats);
}

void LexicalBuilders::StartBuild(uint64_t id_space) {
  id_space_ = id_space;
  build_ = std::async(std::launch::async, [this, id_space] {
    text.Build(id_space, Bm25Params());
    title.Build(id_space, Bm25Params());
  });
}

Status LexicalBuilders::Write(const std::string& dir, uint64_t id_space, LexicalBuildStats* stats) {
  if (!build_.valid()) StartBuild(id_space);
  build_.get();
  if (id_space != id_space_)
    return Status::Internal(fmt::format("lexical index built for {} ids, not {}", id_space_, id_space));
  LexicalBuildStats title_stats;
  Status st = text.Write(dir, "", stats);
  if (!st.ok()) return st;
  return title.Write(dir, kTitleIndexPrefix, &title_stats);
}

void LexicalBuilder::Build(uint64_t id_space, const Bm25Params& params) {
  // Postings in document order, each document's latest version only (a work
  // upserted twice in one ingest was added twice).
  const uint64_t n_ranges = std::min<uint64_t>(doc_range_.size(), id_space);
  size_t n_post = 0;
  uint64_t num_docs = 0, total_len = 0;
  std::vector<uint32_t> doc_len(id_space, 0);
  for (uint64_t d = 0; d < n_ranges; ++d) {
    const DocRange& r = doc_range_[d];
    if (r.count == 0) continue;
    n_post += r.count;
    ++num_docs;
    doc_len[d] = r.length;
    total_len += r.length;
  }
  std::vector<uint32_t> doc_of(n_post), tid_of(n_post);
  std::vector<uint16_t> tf_of(n_post);
  for (uint64_t d = 0, at = 0; d < n_ranges; ++d) {
    const DocRange& r = doc_range_[d];
    for (uint64_t i = r.start; i < r.start + r.count; ++i, ++at) {
      doc_of[at] = static_cast<uint32_t>(d);
      tid_of[at] = tid_of_[i];
      tf_of[at] = tf_of_[i];
    }
  }
  doc_of_ = {};
  tid_of_ = {};
  tf_of_ = {};
  words_ = StringInterner();
  word_term_ = {};
  StringInterner& stems = stems_;
  const uint64_t n_terms = stems.size();
  std::vector<uint32_t> df(n_terms, 0);
  for (uint32_t t : tid_of) ++df[t];
  std::vector<double> idf(n_terms);
  for (uint64_t t = 0; t < n_terms; ++t) idf[t] = IdfOf(num_docs, df[t]);
  const double avgdl = num_docs ? static_cast<double>(total_len) / num_docs : 1.0;
  // Pass 2: BM25 weight of every posting, one global quantization scale, and
  // each posting's impact (1..255 units of it).
  auto weight = [&](size_t i) {
    double tf = tf_of[i];
    double norm = params.k1 * (1 - params.b + params.b * doc_len[doc_of[i]] / avgdl);
    return idf[tid_of[i]] * tf * (params.k1 + 1) / (tf + norm);
  };
  double max_w = 0;
  for (size_t i = 0; i < n_post; ++i) max_w = std::max(max_w, weight(i));
  const double scale = max_w > 0 ? max_w / 255.0 : 1.0;
  std::vector<uint8_t> imp_of(n_post);
  for (size_t i = 0; i < n_post; ++i)
    imp_of[i] = static_cast<uint8_t>(
        std::clamp<long>(std::lround(static_cast<float>(weight(i)) / scale), 1, 255));
  tf_of = {};
  doc_len = {};
  // Pass 3: term-major, impact-descending, doc ids ascending within an
  // impact: two stable counting sorts (by impact, then by term) of postings
  // already in doc order.
  std::vector<uint32_t> by_imp_doc(n_post), by_imp_tid(n_post);
  std::vector<uint8_t> by_imp(n_post);
  {
    std::vector<uint64_t> at(257, 0);
    for (uint8_t x : imp_of) ++at[256 - x];  // impact 255 first
    for (int k = 0; k < 256; ++k) at[k + 1] += at[k];
    for (size_t i = 0; i < n_post; ++i) {
      uint64_t j = at[255 - imp_of[i]]++;
      by_imp_doc[j] = doc_of[i];
      by_imp_tid[j] = tid_of[i];
      by_imp[j] = imp_of[i];
    }
  }
  doc_of = {};
  tid_of = {};
  imp_of = {};
  std::vector<uint64_t> start(n_terms + 1, 0);
  for (uint32_t t : by_imp_tid) ++start[t + 1];
  for (uint64_t t = 0; t < n_terms; ++t) start[t + 1] += start[t];
  std::vector<uint32_t> p_doc(n_post);
  std::vector<uint8_t> p_imp(n_post);
  {
    std::vector<uint64_t> fill(start.begin(), start.end() - 1);
    for (size_t i = 0; i < n_post; ++i) {
      uint64_t j = fill[by_imp_tid[i]]++;
      p_doc[j] = by_imp_doc[i];
      p_imp[j] = by_imp[i];
    }
  }
  by_imp_doc = {};
  by_imp_tid = {};
  by_imp = {};
  std::vector<uint32_t> order(n_terms);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return stems.str(a) < stems.str(b); });
  std::string postings;
  std::vector<uint64_t> term_off(n_terms + 1), post_off(n_terms + 1);
  std::vector<uint32_t> df_sorted(n_terms);
  std::string strings;
  for (uint64_t r = 0; r < n_terms; ++r) {
    uint32_t t = order[r];
    term_off[r] = strings.size();
    strings += stems.str(t);
    post_off[r] = postings.size();
    df_sorted[r] = df[t];
    const uint64_t a = start[t], b = start[t + 1];
    uint32_t segments = 0;
    for (uint64_t i = a; i < b; ++i) segments += i == a || p_imp[i] != p_imp[i - 1];
    PutVarint(segments, &postings);
    std::string seg_bytes;
    for (uint64_t i = a; i < b;) {
      uint64_t j = i;
      const uint8_t imp = p_imp[i];
      while (j < b && p_imp[j] == imp) ++j;
      postings.push_back(static_cast<char>(imp));
      PutVarint(j - i, &postings);
      seg_bytes.clear();
      uint32_t prev = 0;
      for (uint64_t k = i; k < j; ++k) {
        PutVarint(k == i ? p_doc[k] : p_doc[k] - prev, &seg_bytes);
        prev = p_doc[k];
      }
      PutVarint(seg_bytes.size(), &postings);  // lets readers skip a segment
      postings += seg_bytes;
      i = j;
    }
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

Status LexicalBuilder::Write(const std::string& dir, const std::string& prefix,
                             LexicalBuildStats* stats) const {
  Status st = WriteFileAtomic(dir + "/" + prefix + "lexicon", lexicon_);
  if (!st.ok()) return st;
  st = WriteFileAtomic(dir + "/" + prefix + "postings", postings_);
  if (!st.ok()) return st;
  *stats = built_;
  return Status::Ok();
}

void LexicalIndex::Damaged() const {
  if (status_.ok()) status_ = Status::Corruption(path_ + ": corrupt postings");
}

Status LexicalIndex::Open(const std::string& dir, const std::string& prefix) {
  std::string path = dir + "/" + prefix + "lexicon";
  path_ = dir + "/" + prefix + "postings";
  if (access(path.c_str(), R_OK) != 0) return Status::NotFound(path + ": no lexical index");
  Status st = lexicon_.Open(path);
  if (!st.ok()) return st;
  st = postings_.Open(dir + "/" + prefix + "postings");
  if (!st.ok()) return st;
  if (lexicon_.size() < sizeof(LexHeader)) return Status::Corruption(path + ": truncated");
  LexHeader h;
  std::memcpy(&h, lexicon_.data(), sizeof h);
  if (std::memcmp(h.magic, kLexMagic, 8) != 0) return Status::Corruption(path + ": not a lexicon");
  num_terms_ = h.num_terms;
  num_docs_ = h.num_docs;
  id_space_ = h.id_space;
  scale_ = h.scale;
  size_t need = sizeof h + (num_terms_ + 1) * 16 + num_terms_ * 4 + h.strings_bytes;
  if (lexicon_.size() != need) return Status::Corruption(path + ": corrupt lexicon");
  const uint8_t* p = lexicon_.data() + sizeof h;
  term_offsets_ = reinterpret_cast<const uint64_t*>(p);
  postings_offsets_ = term_offsets_ + num_terms_ + 1;
  df_ = reinterpret_cast<const uint32_t*>(postings_offsets_ + num_terms_ + 1);
  strings_ = reinterpret_cast<const char*>(df_ + num_terms_);
  if (postings_offsets_[num_terms_] != postings_.size())
    return Status::Corruption(dir + "/" + prefix + "postings: size does not match the lexicon");
  return Status::Ok();
}

int64_t LexicalIndex::Find(std::string_view term) const {
  return FindSortedString(term_offsets_, strings_, num_terms_, term);
}

uint32_t LexicalIndex::DocFreq(std::string_view term) const {
  int64_t i = Find(term);
  return i < 0 ? 0 : df_[i];
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

std::vector<LexicalIndex::Segment> LexicalIndex::Segments(const std::vector<QueryTerm>& terms) const {
  std::vector<Segment> segs;
  for (const QueryTerm& q : terms) {
    int64_t i = Find(q.term);
    if (i < 0 || q.weight <= 0) continue;
    const uint8_t* p = postings_.data() + postings_offsets_[i];
    const uint8_t* end = postings_.data() + postings_offsets_[i + 1];
    if (postings_offsets_[i] > postings_offsets_[i + 1] ||
        postings_offsets_[i + 1] > postings_.size()) {
      Damaged();
      return {};
    }
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
      ok = ok && GetVarint(&p, end, &count) && GetVarint(&p, end, &bytes) &&
           bytes <= static_cast<uint64_t>(end - p);
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
  auto better = [&](uint32_t a, uint32_t b) {
    return acc[a] != acc[b] ? acc[a] > acc[b] : a < b;
  };
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
