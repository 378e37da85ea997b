// bench/results/2026-11-23-gen-profile/shape.cc: the counts in bench/gen/README.md
// ("Shape of the hubs profile"). Not part of the build; built by hand against the
// branch's library:
//   g++ -std=c++20 -O2 -Ilib/include -o shape shape.cc build/liblitgraph.a \
//       -lfmt -lsimdjson -lsqlite3 -lzstd -lz -lstemmer -ldl -lpthread
//   ./shape works.jsonl
// Shape of a works JSONL file, streamed line by line (constant memory apart
// from per-work counters): references and in-set in-degree quantiles, author
// list quantiles, works per author id, language and type mix, abstracts, and
// English stopwords (litgraph's ForEachWord + IsStopword) per word and per record.
#include <simdjson.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "litgraph/intern.h"
#include "litgraph/lexical.h"
#include "litgraph/text.h"
using namespace simdjson;

static uint64_t Num(std::string_view id) {
  auto p = id.rfind('W');
  uint64_t v = 0;
  for (size_t i = p + 1; i < id.size(); ++i) v = v * 10 + (id[i] - '0');
  return v;
}
template <class T>
static T Q(const std::vector<T>& sorted, double q) {  // nearest-rank quantile of a sorted vector
  if (sorted.empty()) return 0;
  size_t k = static_cast<size_t>(q * sorted.size());
  if (k >= sorted.size()) k = sorted.size() - 1;
  return sorted[k];
}
template <class T>
static void Quant(const char* name, std::vector<T> v) {
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (auto x : v) sum += x;
  std::printf(
      "%s n %zu mean %.2f p10 %llu p25 %llu p50 %llu p75 %llu p90 %llu p99 %llu p99.9 %llu p99.99 "
      "%llu max %llu\n",
      name, v.size(), v.empty() ? 0.0 : sum / v.size(), (unsigned long long)Q(v, 0.10),
      (unsigned long long)Q(v, 0.25), (unsigned long long)Q(v, 0.5), (unsigned long long)Q(v, 0.75),
      (unsigned long long)Q(v, 0.9), (unsigned long long)Q(v, 0.99),
      (unsigned long long)Q(v, 0.999), (unsigned long long)Q(v, 0.9999),
      (unsigned long long)(v.empty() ? 0 : v.back()));
}
static void Mix(const char* name, const std::map<std::string, uint64_t>& m, uint64_t n) {
  std::vector<std::pair<uint64_t, std::string>> v;
  for (auto& [k, c] : m) v.push_back({c, k});
  std::sort(v.rbegin(), v.rend());
  std::printf("%s (%zu):", name, v.size());
  for (auto& [c, k] : v) std::printf(" %s %.2f%%", k.c_str(), 100.0 * c / n);
  std::printf("\n");
}
int main(int argc, char** argv) {
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) return 1;
  dom::parser parser;
  std::string line;
  std::vector<uint64_t> ids;
  std::unordered_map<uint64_t, uint32_t> cited;
  std::vector<uint32_t> nref, team, abs_words;
  std::unordered_map<uint64_t, uint32_t> author_works;
  std::map<std::string, uint64_t> langs, types;
  std::unordered_set<uint64_t> sources, topics, tok_sample, word_sample;
  uint64_t refs = 0, noid = 0, authorships = 0, nulldoi = 0, nosrc = 0, abs_null = 0, abs_empty = 0,
           words = 0, stop = 0, max_tok = 0, rec_stop = 0, rec_title_stop = 0, rec_abs_stop = 0,
           rec_nowords = 0, big_ids = 0, title_words = 0;
  std::map<std::string, uint64_t> stop_examples;
  bool rec_has = false;
  uint64_t rec_words = 0;
  auto scan = [&](std::string_view t, bool& flag, uint64_t mult) {
    litgraph::ForEachWord(t, [&](std::string_view w) {
      words += mult;
      rec_words += mult;
      if (litgraph::IsStopword(w)) {
        stop += mult;
        flag = true;
        if (stop_examples.size() < 50) ++stop_examples[std::string(w)];
      }
      uint64_t h = litgraph::StringInterner::Hash(w);
      if ((h & 15) == 0) word_sample.insert(h);
    });
  };
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    dom::element doc;
    if (parser.parse(line).get(doc)) {
      std::fprintf(stderr, "bad record\n");
      return 1;
    }
    dom::object o;
    if (doc.get_object().get(o)) {
      std::fprintf(stderr, "not an object\n");
      return 1;
    }
    std::string_view s;
    o["id"].get_string().get(s);
    uint64_t id = Num(s);
    ids.push_back(id);
    if (id >= (1ull << 32)) ++big_ids;
    dom::array a;
    uint32_t r = 0;
    if (!o["referenced_works"].get_array().get(a))
      for (auto x : a) {
        std::string_view rs;
        x.get_string().get(rs);
        ++cited[Num(rs)];
        ++r;
      }
    nref.push_back(r);
    refs += r;
    uint32_t t = 0;
    if (!o["authorships"].get_array().get(a))
      for (auto x : a) {
        ++t;
        std::string_view as;
        if (x["author"]["id"].get_string().get(as))
          ++noid;
        else
          ++author_works[litgraph::StringInterner::Hash(as)];
      }
    team.push_back(t);
    authorships += t;
    if (o["doi"].is_null()) ++nulldoi;
    dom::element src = o["primary_location"]["source"];
    if (src.is_null())
      ++nosrc;
    else if (!src["id"].get_string().get(s))
      sources.insert(litgraph::StringInterner::Hash(s));
    if (!o["primary_topic"]["id"].get_string().get(s))
      topics.insert(litgraph::StringInterner::Hash(s));
    dom::element le = o["language"];
    std::string_view ls = "null";
    if (!le.is_null()) le.get_string().get(ls);
    ++langs[std::string(ls)];
    if (!o["type"].get_string().get(s)) ++types[std::string(s)];
    bool ts = false, as_ = false;
    rec_words = 0;
    if (!o["title"].get_string().get(s)) scan(s, ts, 1);
    title_words += rec_words;
    dom::element ae = o["abstract_inverted_index"];
    dom::object aii;
    uint32_t aw = 0;
    if (ae.is_null())
      ++abs_null;
    else if (!ae.get_object().get(aii)) {
      for (auto [k, v] : aii) {
        size_t c = dom::array(v).size();
        aw += c;
        max_tok = std::max<uint64_t>(max_tok, k.size());
        uint64_t h = litgraph::StringInterner::Hash(k);
        if ((h & 15) == 0) tok_sample.insert(h);
        scan(k, as_, c);
      }
      if (aw == 0) ++abs_empty;
    }
    if (aw) abs_words.push_back(aw);
    if (ts) ++rec_title_stop;
    if (as_) ++rec_abs_stop;
    if (ts || as_) ++rec_stop;
    if (rec_words == 0) ++rec_nowords;
  }
  const size_t n = ids.size();
  std::vector<uint32_t> indeg(n);
  uint64_t inset = 0;
  for (size_t i = 0; i < n; ++i) {
    auto it = cited.find(ids[i]);
    indeg[i] = it == cited.end() ? 0 : it->second;
    inset += indeg[i];
  }
  auto count_ge = [](const std::vector<uint32_t>& v, uint32_t t) {
    return (unsigned long long)std::count_if(v.begin(), v.end(),
                                             [t](uint32_t x) { return x >= t; });
  };
  std::printf("works %zu  ids >= 2^32: %llu\n", n, (unsigned long long)big_ids);
  std::printf("references %llu, in-set %llu, dangling %.1f%%\n", (unsigned long long)refs,
              (unsigned long long)inset, refs ? 100.0 * (refs - inset) / refs : 0.0);
  Quant("out-degree (references per work)", nref);
  std::printf("  works without references %.1f%%, with 500+ %llu\n",
              100.0 * std::count(nref.begin(), nref.end(), 0u) / n, count_ge(nref, 500));
  Quant("in-degree (in-set citations per work)", indeg);
  std::vector<uint32_t> top = indeg;
  std::sort(top.rbegin(), top.rend());
  std::printf("  uncited %.1f%%, cited 1000+ %llu, 10000+ %llu, top10:",
              100.0 * std::count(indeg.begin(), indeg.end(), 0u) / n, count_ge(indeg, 1000),
              count_ge(indeg, 10000));
  for (size_t k = 0; k < 10 && k < n; ++k) std::printf(" %u", top[k]);
  std::printf("\n");
  Quant("authors per work", team);
  std::printf(
      "  authorships %llu, works with 0 authors %llu, 10+ %llu, 100+ %llu (%.2f%%), 1000+ %llu; "
      "authorships without id %.1f%%\n",
      (unsigned long long)authorships, (unsigned long long)std::count(team.begin(), team.end(), 0u),
      count_ge(team, 10), count_ge(team, 100), 100.0 * count_ge(team, 100) / n,
      count_ge(team, 1000), authorships ? 100.0 * noid / authorships : 0.0);
  std::vector<uint32_t> aw;
  for (auto& [k, v] : author_works) aw.push_back(v);
  Quant("works per author id", aw);
  std::printf("  author ids with 1000+ works %llu\n", count_ge(aw, 1000));
  Mix("language", langs, n);
  Mix("type", types, n);
  std::printf(
      "sources %zu (works without source %.1f%%), primary topics %zu, works without DOI %.1f%%\n",
      sources.size(), 100.0 * nosrc / n, topics.size(), 100.0 * nulldoi / n);
  std::printf(
      "abstracts: null %.1f%%, {} %.1f%%, present %.1f%%; longest inverted-index key %llu bytes\n",
      100.0 * abs_null / n, 100.0 * abs_empty / n, 100.0 * abs_words.size() / n,
      (unsigned long long)max_tok);
  Quant("abstract tokens (records with an abstract)", abs_words);
  std::printf("  abstracts with 1000+ tokens %llu\n", count_ge(abs_words, 1000));
  std::printf(
      "words (litgraph ForEachWord, titles + abstracts) %llu (titles %llu); English stopwords %llu "
      "(%.4f%%)\n",
      (unsigned long long)words, (unsigned long long)title_words, (unsigned long long)stop,
      words ? 100.0 * stop / words : 0.0);
  std::printf(
      "records with an English stopword: any %llu (%.2f%%), in title %llu, in abstract %llu; "
      "without any %.2f%%; records with no words at all %llu\n",
      (unsigned long long)rec_stop, 100.0 * rec_stop / n, (unsigned long long)rec_title_stop,
      (unsigned long long)rec_abs_stop, 100.0 - 100.0 * rec_stop / n,
      (unsigned long long)rec_nowords);
  std::printf("distinct words ~%llu, distinct raw abstract tokens ~%llu (1/16 hash samples)\n",
              (unsigned long long)word_sample.size() * 16,
              (unsigned long long)tok_sample.size() * 16);
  if (!stop_examples.empty()) {
    std::printf("first stopwords seen:");
    for (auto& [w, c] : stop_examples) std::printf(" %s", w.c_str());
    std::printf("\n");
  }
}
