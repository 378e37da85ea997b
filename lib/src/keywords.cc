#include "litgraph/keywords.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "litgraph/intern.h"
#include "litgraph/lexical.h"
#include "litgraph/text.h"

namespace litgraph {

namespace {

// Words that end a candidate phrase: reporting verbs, auxiliaries and other
// function words beyond the stopword list, and paper self-reference.
const std::unordered_set<std::string_view>& BreakWords() {
  static const std::unordered_set<std::string_view> kWords = {
      "propose",      "proposes",    "proposed",   "present",     "presents",     "presented",
      "show",         "shows",       "showed",     "shown",       "demonstrate",  "demonstrates",
      "demonstrated", "achieve",     "achieves",   "achieved",    "use",          "uses",
      "used",         "using",       "based",      "obtain",      "obtains",      "obtained",
      "provide",      "provides",    "provided",   "investigate", "investigates", "investigated",
      "consider",     "considers",   "considered", "describe",    "describes",    "described",
      "introduce",    "introduces",  "introduced", "compare",     "compares",     "compared",
      "find",         "finds",       "found",      "suggest",     "suggests",     "suggested",
      "indicate",     "indicates",   "indicated",  "reveal",      "reveals",      "revealed",
      "allow",        "allows",      "allowed",    "enable",      "enables",      "enabled",
      "require",      "requires",    "required",   "improve",     "improves",     "improved",
      "increase",     "increases",   "increased",  "reduce",      "reduces",      "reduced",
      "outperform",   "outperforms", "perform",    "performs",    "performed",    "apply",
      "applies",      "applied",     "evaluate",   "evaluates",   "evaluated",    "develop",
      "develops",     "developed",   "report",     "reports",     "reported",     "discuss",
      "discusses",    "discussed",   "examine",    "examines",    "examined",     "explore",
      "explores",     "explored",    "address",    "addresses",   "addressed",    "focus",
      "focuses",      "aim",         "aims",       "make",        "makes",        "made",
      "take",         "takes",       "taken",      "give",        "gives",        "given",
      "lead",         "leads",       "led",        "yield",       "yields",       "help",
      "helps",        "need",        "needs",      "can",         "cannot",       "also",
      "well",         "however",     "thus",       "therefore",   "furthermore",  "moreover",
      "respectively", "although",    "though",     "since",       "hence",        "whereas",
      "paper",        "article",     "et",         "al",          "ie",           "eg",
      "etc",          "vs",          "per",        "among",       "across",       "toward",
      "towards",      "around",      "without",    "according",   "here",         "still",
      "even",         "often",       "usually",    "much",        "many",         "any",
      "each",         "every",       "all",        "some",        "such",         "first",
      "second",       "third",       "one",        "two",         "three",        "four",
      "five",         "six",         "ten",        "least",       "like",         "whose",
      "every",        "able",        "unable",     "often",       "yet",          "rather",
      "quite",        "less",        "fewer",      "least",       "despite",      "unlike",
      "including",    "regarding",   "concerning", "besides",     "beyond",       "throughout",
      "amid",         "amongst",     "alongside",  "whilst",      "unless",       "whereby",
      "via",          "except",      "along",      "onto",        "inside",       "outside",
      "behind",       "beside",      "near",       "per"};
  return kWords;
}

// Evaluative or vague adjectives: a keyword neither starts nor ends with them.
const std::unordered_set<std::string_view>& VagueAdjectives() {
  static const std::unordered_set<std::string_view> kWords = {
      "novel",      "new",           "different",    "various",       "several",     "existing",
      "recent",     "current",       "important",    "significant",   "main",        "key",
      "specific",   "overall",       "further",      "certain",       "particular",  "potential",
      "possible",   "other",         "same",         "whole",         "good",        "better",
      "best",       "effective",     "efficient",    "promising",     "powerful",    "simple",
      "generic",    "typical",       "traditional",  "conventional",  "previous",    "prior",
      "related",    "relevant",      "great",        "major",         "minor",       "basic",
      "usual",      "proposed",      "improved",     "accurate",      "robust",      "fast",
      "due",        "total",         "full",         "final",         "initial",     "additional",
      "extensive",  "comprehensive", "detailed",     "experimental",  "empirical",   "superior",
      "remarkable", "substantial",   "considerable", "competitive",   "challenging", "successful",
      "useful",     "interesting",   "crucial",      "critical",      "essential",   "fundamental",
      "unique",     "appropriate",   "suitable",     "reasonable",    "similar",     "various",
      "numerous",   "multiple",      "respective",   "corresponding", "original",    "resulting",
      "underlying", "given",         "whole",        "art",           "state"};
  return kWords;
}

// Filler heads: "a hybrid approach", "our method" name no concept by
// themselves, so a keyword does not end with them.
const std::unordered_set<std::string_view>& FillerHeads() {
  static const std::unordered_set<std::string_view> kWords = {
      "approach",   "approaches", "method",     "methods",    "methodology", "technique",
      "techniques", "framework",  "frameworks", "result",     "results",     "work",
      "works",      "way",        "ways",       "kind",       "kinds",       "type",
      "types",      "aspect",     "aspects",    "issue",      "issues",      "number",
      "numbers",    "part",       "parts",      "paper",      "experiment",  "experiments",
      "finding",    "findings",   "manner",     "fashion",    "respect",     "term",
      "terms",      "order",      "basis",      "attempt",    "effort",      "efforts",
      "scheme",     "schemes",    "strategy",   "strategies", "solution",    "solutions",
      "procedure",  "procedures", "tool",       "tools",      "mechanism",   "mechanisms",
      "variety",    "range",      "amount",     "lot",        "set",         "sets",
      "use",        "usage",      "need",       "needs",      "goal",        "goals",
      "purpose"};
  return kWords;
}

// Single words too vague to be a keyword alone even when they pass the df test.
const std::unordered_set<std::string_view>& GenericUnigrams() {
  static const std::unordered_set<std::string_view> kWords = {"method",
                                                              "approach",
                                                              "result",
                                                              "paper",
                                                              "study",
                                                              "analysis",
                                                              "model",
                                                              "system",
                                                              "data",
                                                              "problem",
                                                              "task",
                                                              "work",
                                                              "performance",
                                                              "framework",
                                                              "technique",
                                                              "algorithm",
                                                              "application",
                                                              "process",
                                                              "effect",
                                                              "case",
                                                              "level",
                                                              "type",
                                                              "number",
                                                              "set",
                                                              "time",
                                                              "way",
                                                              "part",
                                                              "field",
                                                              "area",
                                                              "research",
                                                              "development",
                                                              "information",
                                                              "structure",
                                                              "function",
                                                              "property",
                                                              "feature",
                                                              "experiment",
                                                              "evaluation",
                                                              "accuracy",
                                                              "quality",
                                                              "design",
                                                              "measure",
                                                              "measurement",
                                                              "parameter",
                                                              "condition",
                                                              "factor",
                                                              "rate",
                                                              "change",
                                                              "increase",
                                                              "difference",
                                                              "relationship",
                                                              "group",
                                                              "sample",
                                                              "test",
                                                              "tool",
                                                              "network",
                                                              "image",
                                                              "mechanism",
                                                              "strategy",
                                                              "review",
                                                              "survey",
                                                              "implementation",
                                                              "solution",
                                                              "scheme",
                                                              "dataset",
                                                              "benchmark",
                                                              "baseline",
                                                              "component",
                                                              "module",
                                                              "stage",
                                                              "step",
                                                              "phase",
                                                              "context",
                                                              "domain",
                                                              "scale",
                                                              "state",
                                                              "art",
                                                              "term",
                                                              "order",
                                                              "form",
                                                              "view",
                                                              "point",
                                                              "ability",
                                                              "role",
                                                              "impact",
                                                              "use",
                                                              "value",
                                                              "range",
                                                              "degree",
                                                              "basis",
                                                              "aspect",
                                                              "issue",
                                                              "challenge",
                                                              "need",
                                                              "goal",
                                                              "purpose",
                                                              "idea",
                                                              "concept",
                                                              "insight",
                                                              "understanding",
                                                              "knowledge",
                                                              "evidence",
                                                              "finding",
                                                              "outcome",
                                                              "output",
                                                              "input",
                                                              "article",
                                                              "publication",
                                                              "proposal",
                                                              "version",
                                                              "example",
                                                              "instance",
                                                              "item",
                                                              "object",
                                                              "element",
                                                              "unit",
                                                              "size",
                                                              "length",
                                                              "amount",
                                                              "total",
                                                              "average",
                                                              "mean",
                                                              "year",
                                                              "day",
                                                              "period",
                                                              "people",
                                                              "person",
                                                              "user",
                                                              "individual",
                                                              "author",
                                                              "reader",
                                                              "http",
                                                              "https",
                                                              "www",
                                                              "doi",
                                                              "url",
                                                              "january",
                                                              "february",
                                                              "march",
                                                              "april",
                                                              "june",
                                                              "july",
                                                              "august",
                                                              "september",
                                                              "october",
                                                              "november",
                                                              "december",
                                                              "contribute",
                                                              "contribution",
                                                              "comment",
                                                              "post",
                                                              "section",
                                                              "chapter",
                                                              "conclusion",
                                                              "introduction",
                                                              "overview",
                                                              "guide",
                                                              "option",
                                                              "experience",
                                                              "far",
                                                              "iii",
                                                              "ii",
                                                              "iv"};
  return kWords;
}

bool IsDigits(std::string_view w) {
  return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool IsAdverb(std::string_view w) {
  static const std::unordered_set<std::string_view> kNotAdverbs = {
      "family", "supply",   "assembly",  "anomaly", "italy", "poly",
      "reply",  "monopoly", "butterfly", "ally",    "rally", "belly",
      "jelly",  "bully",    "fly",       "firefly", "holy"};
  return w.size() > 4 && w.substr(w.size() - 2) == "ly" && !kNotAdverbs.count(w);
}

// Past participles and past tenses ("called", "limited") are verbs or
// adjectives, never a concept's head; the few -ed nouns are listed.
bool IsEdForm(std::string_view w) {
  static const std::unordered_set<std::string_view> kNouns = {
      "speed", "seed",  "bed",  "feed",  "breed", "shed", "red",   "hundred", "weed",
      "creed", "greed", "reed", "embed", "bred",  "sled", "shred", "deed"};
  return w.size() > 4 && w.substr(w.size() - 2) == "ed" && !kNouns.count(w);
}

// -ing forms that commonly name a field or process and may start a phrase
// ("learning rate", "training data"); other -ing words only end one.
bool IsIngNoun(std::string_view w) {
  static const std::unordered_set<std::string_view> kNouns = {
      "learning",    "computing",   "processing",  "training",  "mining",     "modeling",
      "modelling",   "programming", "engineering", "planning",  "clustering", "sampling",
      "reasoning",   "parsing",     "tagging",     "ranking",   "matching",   "testing",
      "imaging",     "sensing",     "caching",     "routing",   "scheduling", "tracking",
      "labeling",    "labelling",   "marketing",   "banking",   "accounting", "manufacturing",
      "nursing",     "building",    "housing",     "funding",   "teaching",   "writing",
      "reading",     "signaling",   "signalling",  "screening", "monitoring", "forecasting",
      "filtering",   "coding",      "encoding",    "decoding",  "hashing",    "indexing",
      "pricing",     "trading",     "lending",     "farming",   "fishing",    "mapping",
      "printing",    "recycling",   "smoking",     "drinking",  "spelling",   "meaning",
      "wellbeing",   "offspring",   "spring",      "string",    "ring",       "king",
      "thing",       "morning",     "ceiling",     "wing",      "swing",      "earning",
      "warning",     "setting",     "rating",      "voting",    "polling",    "crowdsourcing",
      "outsourcing", "shipping",    "packaging",   "tutoring",  "counseling", "counselling",
      "mentoring",   "parenting",   "caregiving",  "policing",  "sentencing", "dating",
      "timing",      "scaling",     "pooling",     "padding",   "embedding",  "bidding",
      "auctioning",  "licensing"};
  return kNouns.count(w) > 0;
}

bool IsIngForm(std::string_view w) { return w.size() > 5 && w.substr(w.size() - 3) == "ing"; }

bool IsBreak(std::string_view w) {
  return w.size() < 2 || IsDigits(w) || IsStopword(w) || BreakWords().count(w) || IsAdverb(w) ||
         IsEdForm(w);
}

// Calls fn(word, break_before, sentence) for the folded words of text;
// break_before is set when clause punctuation separates the word from the
// previous one; sentence counts sentence ends seen so far.
template <typename Fn>
void ScanWords(std::string_view text, Fn&& fn) {
  std::string word;
  bool pending_break = false;
  size_t sentence = 0;
  bool sentence_end = false;
  auto emit = [&] {
    if (word.empty()) return;
    if (sentence_end) {
      ++sentence;
      sentence_end = false;
    }
    fn(std::string_view(word), pending_break, sentence);
    pending_break = false;
    word.clear();
  };
  size_t i = 0;
  while (i < text.size()) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      ++i;
      if (c >= 'A' && c <= 'Z') {
        word.push_back(static_cast<char>(c - 'A' + 'a'));
      } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
        word.push_back(static_cast<char>(c));
      } else {
        emit();
        if (c == '-' || c == '\'' || c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
        pending_break = true;
        if (c == '.' || c == '!' || c == '?') sentence_end = true;
      }
    } else {
      size_t before = word.size();
      uint32_t cp = DecodeUtf8(text, &i);
      if (cp >= 0x300 && cp <= 0x36F) continue;
      bool other = false;
      if (!FoldLetter(cp, &word, &other)) {
        word.resize(before);
        emit();
        if (cp != 0xA0 && cp != 0x2010 && cp != 0x2011 && cp != 0x2019) pending_break = true;
      }
    }
  }
  emit();
}

}  // namespace

std::string Singular(std::string_view w) {
  static const std::unordered_map<std::string_view, std::string_view> kIrregular = {
      {"analyses", "analysis"},
      {"hypotheses", "hypothesis"},
      {"theses", "thesis"},
      {"syntheses", "synthesis"},
      {"diagnoses", "diagnosis"},
      {"criteria", "criterion"},
      {"phenomena", "phenomenon"},
      {"indices", "index"},
      {"matrices", "matrix"},
      {"vertices", "vertex"},
      {"appendices", "appendix"},
      {"children", "child"},
      {"people", "person"},
      {"women", "woman"},
      {"men", "man"},
      {"mice", "mouse"},
      {"teeth", "tooth"},
      {"feet", "foot"},
      {"data", "data"},
      {"media", "media"},
      {"bacteria", "bacterium"},
      {"curricula", "curriculum"},
      {"spectra", "spectrum"},
      {"optima", "optimum"},
      {"maxima", "maximum"},
      {"minima", "minimum"},
      {"strata", "stratum"},
      {"leaves", "leaf"},
      {"lives", "life"},
      {"halves", "half"},
      {"series", "series"},
      {"species", "species"},
      {"news", "news"},
      {"biases", "bias"},
      {"aliases", "alias"},
      {"statuses", "status"},
      {"viruses", "virus"},
      {"corpora", "corpus"},
      {"genera", "genus"},
      {"radii", "radius"},
      {"stimuli", "stimulus"},
      {"nuclei", "nucleus"},
      {"fungi", "fungus"},
      {"loci", "locus"},
      {"axes", "axis"}};
  auto it = kIrregular.find(w);
  if (it != kIrregular.end()) return std::string(it->second);
  auto ends = [&](std::string_view s) {
    return w.size() > s.size() && w.substr(w.size() - s.size()) == s;
  };
  // Singulars ending in -ie / -che / -s, which the suffix rules would cut wrongly.
  static const std::unordered_set<std::string_view> kIeNouns = {
      "movies", "cookies", "zombies",   "calories", "rookies",  "selfies",
      "pies",   "ties",    "lies",      "hippies",  "prairies", "brownies",
      "genies", "sorties", "smoothies", "goalies",  "aunties"};
  static const std::unordered_set<std::string_view> kCheNouns = {
      "caches",  "niches",   "avalanches",  "headaches", "moustaches",
      "psyches", "tranches", "microniches", "earaches"};
  static const std::unordered_set<std::string_view> kSNouns = {
      "bias",  "gas",    "atlas", "canvas",  "alias", "pancreas", "chaos",  "cosmos",  "ethos",
      "logos", "pathos", "kudos", "thermos", "lens",  "news",     "series", "species", "means"};
  // Countable -ics nouns; the rest (physics, economics, genomics) are fields.
  static const std::unordered_set<std::string_view> kIcsPlurals = {
      "metrics",     "topics",    "heuristics", "characteristics", "clinics", "antibiotics",
      "critics",     "epidemics", "pandemics",  "relics",          "lyrics",  "biometrics",
      "diagnostics", "comics",    "tropics",    "logics"};
  if (w.size() <= 3 || kSNouns.count(w)) return std::string(w);
  if (kIeNouns.count(w) || kCheNouns.count(w)) return std::string(w.substr(0, w.size() - 1));
  if (ends("ics"))
    return kIcsPlurals.count(w) ? std::string(w.substr(0, w.size() - 1)) : std::string(w);
  if (ends("ss") || ends("us") || ends("is") || ends("ous")) return std::string(w);
  if (ends("ies") && w.size() > 4) return std::string(w.substr(0, w.size() - 3)) + "y";
  if (ends("sses") || ends("ches") || ends("shes") || ends("xes") || ends("zzes"))
    return std::string(w.substr(0, w.size() - 2));
  if (ends("oes") && w.size() > 5) return std::string(w.substr(0, w.size() - 2));
  if (ends("s")) return std::string(w.substr(0, w.size() - 1));
  return std::string(w);
}

std::string NormalizeKeyword(std::string_view text) {
  std::vector<std::string> words = Words(text);
  if (words.empty()) return "";
  words.back() = Singular(words.back());
  std::string out;
  for (const auto& w : words) {
    if (!out.empty()) out += ' ';
    out += w;
  }
  return out;
}

std::string KeywordExtId(std::string_view normalized) { return "kw:" + std::string(normalized); }

uint64_t PhraseHash(std::string_view normalized) {
  uint64_t h = StringInterner::Hash(normalized);
  return h == 0 ? 1 : h;
}

void ForEachCandidate(std::string_view text,
                      const std::function<void(const std::string&, int, size_t, bool)>& fn) {
  std::vector<std::string> run;
  std::vector<size_t> run_sentence;
  const auto& vague = VagueAdjectives();
  const auto& filler = FillerHeads();
  const auto& generic = GenericUnigrams();
  std::string phrase;
  auto flush = [&] {
    size_t n = run.size();
    for (size_t i = 0; i < n; ++i) {
      if (vague.count(run[i])) continue;  // cannot start here
      bool ing_start = IsIngForm(run[i]) && !IsIngNoun(run[i]);
      for (size_t len = 1; len <= 4 && i + len <= n; ++len) {
        const std::string& last = run[i + len - 1];
        if (vague.count(last) || filler.count(last)) continue;  // cannot end here
        if (ing_start && len > 1) break;                        // "measuring prominence"
        phrase.clear();
        for (size_t k = i; k + 1 < i + len; ++k) {
          phrase += run[k];
          phrase += ' ';
        }
        std::string head = Singular(last);
        if (len == 1 &&
            (generic.count(head) || head.size() < 3 || (IsIngForm(head) && !IsIngNoun(head))))
          continue;  // "exploring", "addressing": verbs, not concepts
        phrase += head;
        // Heads of English noun phrases end their run; a phrase always
        // followed by another content word is usually a modifier.
        fn(phrase, static_cast<int>(len), run_sentence[i], i + len == n);
      }
    }
    run.clear();
    run_sentence.clear();
  };
  ScanWords(text, [&](std::string_view w, bool brk, size_t sentence) {
    if (brk) flush();
    if (IsBreak(w)) {
      flush();
      return;
    }
    run.emplace_back(w);
    run_sentence.push_back(sentence);
  });
  flush();
}

// ---- PhraseStats -------------------------------------------------------------

namespace {
constexpr char kStatsMagic[8] = {'L', 'G', 'P', 'H', 'R', 0, 0, 1};
struct StatsHeader {
  char magic[8];
  uint64_t num_docs;
  uint64_t count;
  uint64_t reserved;
};
}  // namespace

void PhraseStats::Grow() {
  std::vector<uint64_t> keys(std::max<size_t>(1 << 16, keys_.size() * 2), 0);
  std::vector<uint32_t> counts(keys.size(), 0);
  size_t mask = keys.size() - 1;
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (!keys_[i]) continue;
    size_t j = keys_[i] & mask;
    while (keys[j]) j = (j + 1) & mask;
    keys[j] = keys_[i];
    counts[j] = counts_[i];
  }
  keys_.swap(keys);
  counts_.swap(counts);
}

void PhraseStats::Bump(uint64_t h) {
  if ((used_ + 1) * 2 > keys_.size()) Grow();
  size_t mask = keys_.size() - 1;
  size_t j = h & mask;
  while (keys_[j] && keys_[j] != h) j = (j + 1) & mask;
  if (!keys_[j]) {
    keys_[j] = h;
    ++used_;
  }
  ++counts_[j];
}

void PhraseStats::AddDocument(std::string_view title, std::string_view abstract) {
  std::vector<uint64_t> seen;
  auto add = [&](const std::string& p, int, size_t, bool) { seen.push_back(PhraseHash(p)); };
  ForEachCandidate(title, add);
  ForEachCandidate(abstract, add);
  std::sort(seen.begin(), seen.end());
  seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
  for (uint64_t h : seen) Bump(h);
  ++num_docs_;
}

size_t PhraseStats::size() const { return mapped_ ? sorted_size_ : used_; }

uint32_t PhraseStats::DocFreq(uint64_t h) const {
  if (mapped_) {
    // Hashes are uniform: interpolate, then step to the exact slot.
    if (sorted_size_ == 0) return 0;
    long double frac = static_cast<long double>(h) / 18446744073709551616.0L;
    int64_t lo = 0, hi = static_cast<int64_t>(sorted_size_) - 1;
    int64_t guess = std::clamp<int64_t>(static_cast<int64_t>(frac * sorted_size_), lo, hi);
    while (lo <= hi) {
      uint64_t k;
      const uint8_t* kp = file_.Read(keys_at_ + static_cast<uint64_t>(guess) * 8, 8);
      if (!kp) return 0;
      std::memcpy(&k, kp, 8);
      if (k == h) {
        uint32_t count = 0;
        if (const uint8_t* cp = file_.Read(counts_at_ + static_cast<uint64_t>(guess) * 4, 4))
          std::memcpy(&count, cp, 4);
        return count;
      }
      if (k < h)
        lo = guess + 1;
      else
        hi = guess - 1;
      guess = lo + (hi - lo) / 2;
    }
    return 0;
  }
  if (keys_.empty()) return 0;
  size_t mask = keys_.size() - 1;
  for (size_t j = h & mask; keys_[j]; j = (j + 1) & mask)
    if (keys_[j] == h) return counts_[j];
  return 0;
}

Status PhraseStats::Write(const std::string& path, const FileIdentity& id) const {
  std::vector<std::pair<uint64_t, uint32_t>> kept;
  for (size_t i = 0; i < keys_.size(); ++i)
    if (keys_[i] && counts_[i] >= 2) kept.emplace_back(keys_[i], counts_[i]);
  if (mapped_ && sorted_size_ > 0) {  // opened from a file
    const uint8_t* k = file_.Read(keys_at_, sorted_size_ * 8);
    const uint8_t* n = file_.Read(counts_at_, sorted_size_ * 4);
    if (!k || !n) return file_.status();
    for (size_t i = 0; i < sorted_size_; ++i) {
      uint64_t key;
      uint32_t count;
      std::memcpy(&key, k + i * 8, 8);
      std::memcpy(&count, n + i * 4, 4);
      if (count >= 2) kept.emplace_back(key, count);
    }
  }
  std::sort(kept.begin(), kept.end());
  StatsHeader h{};
  std::memcpy(h.magic, kStatsMagic, 8);
  h.num_docs = num_docs_;
  h.count = kept.size();
  std::string out(reinterpret_cast<const char*>(&h), sizeof h);
  out.reserve(sizeof h + kept.size() * 12);
  for (auto& [k, c] : kept) out.append(reinterpret_cast<const char*>(&k), 8);
  for (auto& [k, c] : kept) out.append(reinterpret_cast<const char*>(&c), 4);
  return WriteCheckedFile(path, id, out);
}

Status PhraseStats::Open(const std::string& path, const FileIdentity& id) {
  LITGRAPH_RETURN_IF_ERROR(file_.Open(path, id));
  StatsHeader h;
  const uint8_t* hp = file_.Read(0, sizeof h);
  if (!hp) return Status::Corruption(path + ": truncated phrase statistics");
  std::memcpy(&h, hp, sizeof h);
  if (std::memcmp(h.magic, kStatsMagic, 8) != 0 || h.count > file_.size() / 12 ||
      file_.size() != sizeof h + h.count * 12)
    return Status::Corruption(path + ": corrupt phrase statistics");
  num_docs_ = h.num_docs;
  sorted_size_ = h.count;
  keys_at_ = sizeof h;
  counts_at_ = sizeof h + h.count * 8;
  mapped_ = true;
  return Status::Ok();
}

// ---- KeywordExtractor ------------------------------------------------------

KeywordExtractor::KeywordExtractor(const PhraseStats* stats,
                                   std::function<bool(const std::string&)> known)
    : stats_(stats), known_(std::move(known)) {}

std::vector<Keyword> KeywordExtractor::Extract(std::string_view title, std::string_view abstract,
                                               const ExtractOptions& options) const {
  struct Cand {
    int words = 0;
    int tf = 0;
    bool in_title = false, early = false, head_final = false;
    uint64_t hash = 0;
    uint32_t df = 0;
    double score = 0;
  };
  std::unordered_map<std::string, Cand> cands;
  auto add = [&](bool is_title) {
    return [&, is_title](const std::string& p, int words, size_t sentence, bool final) {
      Cand& c = cands[p];
      c.words = words;
      ++c.tf;
      if (final) c.head_final = true;
      if (is_title)
        c.in_title = true;
      else if (sentence == 0)
        c.early = true;
    };
  };
  ForEachCandidate(title, add(true));
  ForEachCandidate(abstract, add(false));
  if (cands.empty()) return {};
  const double n = stats_ ? static_cast<double>(stats_->num_docs()) : 0;
  const bool use_df = stats_ && n >= 50;
  static const double kLengthPrior[5] = {0, 0.6, 1.25, 1.25, 0.85};
  std::vector<std::pair<const std::string*, Cand*>> ranked;
  for (auto& [text, c] : cands) {
    c.hash = PhraseHash(text);
    if (!c.head_final && c.words == 1) continue;  // a modifier ("scientific work")
    double spec = 1.0, reuse = 1.0;
    if (use_df) {
      // The document itself is part of a stored corpus, or adds one use.
      c.df = std::max<uint32_t>(stats_->DocFreq(c.hash), 1);
      double share = c.df / n;
      if (c.df < 2) continue;                              // used by one paper only
      if (share > (c.words == 1 ? 0.15 : 0.30)) continue;  // too generic
      spec = std::log((n + 1) / (c.df + 0.5));
      reuse = std::log(1.0 + c.df);
    }
    double salience = 1.0 + std::log(static_cast<double>(c.tf));
    c.score = salience * spec * reuse * kLengthPrior[c.words] * (c.in_title ? 1.8 : 1.0) *
              (c.early ? 1.2 : 1.0) * (c.head_final ? 1.0 : 0.6) *
              (known_ && known_(text) ? 1.3 : 1.0);
    if (c.score > 0) ranked.emplace_back(&text, &c);
  }
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second->score != b.second->score ? a.second->score > b.second->score
                                              : *a.first < *b.first;
  });
  auto contains_words = [](const std::string& big, const std::string& small) {
    if (big.size() <= small.size()) return false;
    size_t p = big.find(small);
    while (p != std::string::npos) {
      bool left = p == 0 || big[p - 1] == ' ';
      bool right = p + small.size() == big.size() || big[p + small.size()] == ' ';
      if (left && right) return true;
      p = big.find(small, p + 1);
    }
    return false;
  };
  // A fragment: a phrase that (almost) only occurs inside a longer candidate
  // of this paper, "graph neural" inside "graph neural network". In the
  // corpus: df(sub) < 1.5 df(longer); without statistics: every occurrence
  // here is inside the longer phrase.
  std::unordered_set<const std::string*> fragment;
  for (auto& [sub, cs] : ranked)
    for (auto& [sup, cl] : ranked)
      if (sub != sup && contains_words(*sup, *sub) &&
          (use_df ? cs->df < 1.5 * cl->df : cs->tf <= cl->tf)) {
        fragment.insert(sub);
        break;
      }
  std::vector<Keyword> out;
  std::vector<std::pair<const std::string*, const Cand*>> chosen;
  double best = 0;
  for (auto& [text, c] : ranked)
    if (!fragment.count(text)) {
      best = c->score;
      break;
    }
  for (auto& [text, c] : ranked) {
    if (out.size() >= options.max_keywords) break;
    if (fragment.count(text)) continue;
    if (out.size() >= options.min_keywords && c->score < options.keep_ratio * best) break;
    bool redundant = false;
    for (auto& [t2, c2] : chosen) {
      // An extension of a chosen phrase that nearly always comes with it.
      if (contains_words(*text, *t2) && use_df && 3 * c->df >= 2 * c2->df) redundant = true;
      if (redundant) break;
    }
    if (redundant) continue;
    chosen.emplace_back(text, c);
    int imp = static_cast<int>(std::lround(10.0 * c->score / best));
    out.push_back({*text, std::clamp(imp, 1, 10)});
  }
  return out;
}

}  // namespace litgraph
