// keyphrase_features: the built-in keyword extractor's candidates and
// features, for bench/eval/keyphrase_fit.py (which fits the weights of the
// model in lib/src/keywords.cc) and for error analysis.
//
//   litgraph-keyphrase-features RECORDS.jsonl [--no-stats] [--corpus FILE]... [--speed]
//
// RECORDS.jsonl: {"id", "title", "abstract"} a line. Corpus statistics are
// counted over the records (as a store of these papers would count them) plus
// every --corpus file, unless --no-stats. Output, one JSON line a paper:
// {"id", "candidates": [[text, logit, [features...]], ...]} best first; the
// first line is {"features": [names...], "corpus_docs": N}. --speed prints
// instead the time of counting the statistics and of extracting the default
// keywords of every paper (papers/s, in memory, one thread).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "litgraph/keywords.h"

namespace {

struct Paper {
  std::string id, title, abstract;
};

bool ReadRecords(const std::string& path, std::vector<Paper>* out) {
  std::ifstream in(path);
  if (!in) return false;
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json r = nlohmann::json::parse(line, nullptr, false);
    if (r.is_discarded() || !r.is_object()) return false;
    auto str = [&](const char* k) {
      return r.contains(k) && r[k].is_string() ? r[k].get<std::string>() : std::string();
    };
    std::string id = r.contains("id")
                         ? (r["id"].is_string() ? r["id"].get<std::string>() : r["id"].dump())
                         : std::string();
    out->push_back({id, str("title"), str("abstract")});
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string records;
  std::vector<std::string> corpus;
  bool no_stats = false, speed = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--no-stats")) {
      no_stats = true;
    } else if (!std::strcmp(argv[i], "--speed")) {
      speed = true;
    } else if (!std::strcmp(argv[i], "--corpus") && i + 1 < argc) {
      corpus.push_back(argv[++i]);
    } else if (records.empty() && argv[i][0] != '-') {
      records = argv[i];
    } else {
      std::fprintf(stderr, "usage: %s RECORDS.jsonl [--no-stats] [--corpus FILE]...\n", argv[0]);
      return 2;
    }
  }
  if (records.empty()) {
    std::fprintf(stderr, "usage: %s RECORDS.jsonl [--no-stats] [--corpus FILE]...\n", argv[0]);
    return 2;
  }
  std::vector<Paper> papers, extra;
  if (!ReadRecords(records, &papers)) {
    std::fprintf(stderr, "%s: cannot read records\n", records.c_str());
    return 3;
  }
  for (const auto& c : corpus)
    if (!ReadRecords(c, &extra)) {
      std::fprintf(stderr, "%s: cannot read records\n", c.c_str());
      return 3;
    }
  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  litgraph::PhraseStats stats;
  if (!no_stats) {
    for (const Paper& p : papers) stats.AddDocument(p.title, p.abstract);
    for (const Paper& p : extra) stats.AddDocument(p.title, p.abstract);
  }
  litgraph::KeywordExtractor ex(no_stats ? nullptr : &stats);
  if (speed) {
    auto t1 = Clock::now();
    size_t keywords = 0;
    for (const Paper& p : papers) keywords += ex.Extract(p.title, p.abstract).size();
    auto t2 = Clock::now();
    double count_s = std::chrono::duration<double>(t1 - t0).count();
    double extract_s = std::chrono::duration<double>(t2 - t1).count();
    std::cout << nlohmann::json{{"papers", papers.size()},
                                {"keywords", keywords},
                                {"count_seconds", count_s},
                                {"extract_seconds", extract_s},
                                {"count_papers_per_s", (papers.size() + extra.size()) / count_s},
                                {"extract_papers_per_s", papers.size() / extract_s}}
                     .dump()
              << "\n";
    return 0;
  }
  nlohmann::json head = {{"features", litgraph::KeywordFeatureNames()},
                         {"corpus_docs", stats.num_docs()}};
  std::cout << head.dump() << "\n";
  for (const Paper& p : papers) {
    nlohmann::json cands = nlohmann::json::array();
    for (const auto& c : ex.Candidates(p.title, p.abstract))
      cands.push_back({c.text, c.score, c.features});
    std::cout << nlohmann::json{{"id", p.id}, {"candidates", cands}}.dump() << "\n";
  }
  return 0;
}
