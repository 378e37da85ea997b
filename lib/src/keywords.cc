#include "litgraph/keywords.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "litgraph/intern.h"
#include "litgraph/log_count.h"
#include "litgraph/text.h"
#include "phrase_stats_format.h"

namespace litgraph {

namespace {

// Bounds that keep the cost of one paper linear in its length and small:
// text beyond kMaxTokens tokens (title and abstract each) is not read, a
// "word" longer than kMaxWordBytes (an unsegmented script, a URL, base64)
// separates phrases like punctuation, and phrases have at most 4 words.
constexpr size_t kMaxTokens = 20000;
constexpr size_t kMaxWordBytes = 64;
constexpr size_t kMaxPhraseWords = 4;

// ---- Lexicon -----------------------------------------------------------------
//
// A tagger without a model: closed-class words and common verbs are listed,
// the rest is guessed from suffixes and then from the neighbours (TagTokens).

enum LexFlag : uint32_t {
  kFunction = 1u << 0,         // closed-class words, numerals: never in a keyword
  kVerbForm = 1u << 1,         // a verb in any context ("propose", "using", "found")
  kVerbIng = 1u << 2,          // -ing of a verb: participle modifier or verb, by context
  kAmbiguous = 1u << 3,        // noun or verb ("model", "tests"), by context
  kNounLike = 1u << 4,         // -ing/-ed/-ly words that are nouns ("learning", "speed")
  kVague = 1u << 5,            // evaluative adjectives: no keyword starts with one
  kGeneric = 1u << 6,          // too generic to be a keyword alone ("method", "paper")
  kSubject = 1u << 7,          // a verb follows ("we", "which")
  kVerbNext = 1u << 8,         // an infinitive or finite verb follows ("to", "can", "not")
  kAuxiliary = 1u << 9,        // be/have: a following -ed form is a verb
  kArticle = 1u << 10,         // "the", "a", "an"
  kNounPhraseOpen = 1u << 11,  // a noun phrase follows ("the", "its", "these")
  kPreposition = 1u << 12,     // an -ing form after it heads a clause ("for solving")
  kFillerHead = 1u << 13,      // heads that name no concept ("urgent need", "past decade")
  kAdjectiveNoun = 1u << 14,   // nouns with an adjective suffix ("variable", "wireless")
  kClause = 1u << 15,          // opens a clause: an -ing form before it is a verb ("showing that")
};

using Lexicon = std::unordered_map<std::string, uint32_t>;

void AddWords(Lexicon* lex, std::string_view words, uint32_t flag) {
  size_t i = 0;
  while (i < words.size()) {
    size_t j = words.find_first_of(" \n", i);
    if (j == std::string_view::npos) j = words.size();
    if (j > i) (*lex)[std::string(words.substr(i, j - i))] |= flag;
    i = j + 1;
  }
}

// The third person, -ing and doubled-consonant -ing forms of a base verb.
std::vector<std::string> VerbForms(std::string_view base) {
  std::string b(base);
  std::vector<std::string> out = {b};
  auto ends = [&](std::string_view s) {
    return b.size() >= s.size() && b.compare(b.size() - s.size(), s.size(), s) == 0;
  };
  auto vowel = [](char c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'; };
  if (ends("s") || ends("x") || ends("z") || ends("ch") || ends("sh")) {
    out.push_back(b + "es");
  } else if (ends("y") && b.size() > 1 && !vowel(b[b.size() - 2])) {
    out.push_back(b.substr(0, b.size() - 1) + "ies");
  } else {
    out.push_back(b + "s");
  }
  std::string ing;
  if (ends("ie")) {
    ing = b.substr(0, b.size() - 2) + "ying";
  } else if (ends("e") && !ends("ee") && !ends("ye") && !ends("oe")) {
    ing = b.substr(0, b.size() - 1) + "ing";
  } else {
    ing = b + "ing";
  }
  out.push_back(ing);
  size_t n = b.size();
  if (n >= 3 && std::strchr("bdgklmnprt", b[n - 1]) && vowel(b[n - 2]) && !vowel(b[n - 3]))
    out.push_back(b + b[n - 1] + "ing");
  return out;
}

void AddVerbs(Lexicon* lex, std::string_view bases, uint32_t flag) {
  size_t i = 0;
  while (i < bases.size()) {
    size_t j = bases.find_first_of(" \n", i);
    if (j == std::string_view::npos) j = bases.size();
    if (j > i) {
      for (std::string& f : VerbForms(bases.substr(i, j - i))) {
        bool ing = f.size() > 3 && f.compare(f.size() - 3, 3, "ing") == 0;
        uint32_t& e = (*lex)[f];
        if (flag == kVerbForm) {
          e |= ing ? kVerbIng : kVerbForm;
        } else if (!(e & (kVerbForm | kVerbIng))) {
          e |= flag;  // "model checking", "power sharing": nouns unless a verb's context
        }
      }
    }
    i = j + 1;
  }
}

const Lexicon& Lex() {
  static const Lexicon kLex = [] {
    Lexicon lex;
    AddWords(
        &lex,
        "a about above after again against all also am an and any are as at be because been "
        "before being below between both but by can could did do does doing down during each "
        "either et etc few for from further had has have having he her here hers herself him "
        "himself his how however i if in into is it its itself just may me might more most must "
        "my myself no nor not now of off on once only or other our ours ourselves out over own "
        "same shall she should so some such than that the their theirs them themselves then "
        "there these they this those through thus to too under until up upon us very via was "
        "we were what when where whether which while who whom why will with within without "
        "would yet you your yours yourself yourselves well therefore furthermore moreover "
        "respectively although though since hence whereas al ie eg vs per among across toward "
        "towards around according still even often usually much many every least like whose "
        "able unable rather quite less fewer despite unlike including regarding concerning "
        "besides beyond throughout amid amongst alongside whilst unless whereby except along "
        "onto inside outside behind beside near another one two three four five six seven "
        "eight nine ten first second third last next several various numerous wherein therein "
        "thereby herein cannot s t fig figs eq eqs cf pp vol ii iii iv today yesterday tomorrow "
        "ago already always never sometimes almost nearly namely especially due together "
        "instead enough else thereof dozen dozens hundreds thousand thousands million "
        "millions billion billions",
        kFunction);
    // Verb forms that are verbs wherever they stand.
    AddWords(
        &lex,
        "propose proposes proposed present presents presented show shows showed shown "
        "demonstrated achieved uses used using based obtained provided investigated considered "
        "described introduced compared find finds found suggested indicated revealed allowed "
        "enabled required outperform outperforms performed applied evaluated developed reported "
        "discussed examined explored addressed focused aims made taken give gives given lead "
        "leads led yields helps become becomes became included contained involved represented "
        "established determined derived analyzed analysed studied employed exhibited produced "
        "generated offered supported defined illustrated verified solved proved highlighted "
        "remained appeared seemed tended occurred called known seen get gets got let lets says "
        "said tell told tried wanted kept began carried outlined reviewed extended implemented "
        "constructed formulated combined integrated predicted estimated measured identified "
        "assessed characterized computed calculated simulated tested validated confirmed "
        "explained depended dealt related concerned arose argued noted observed expected held "
        "does did doing done",
        kVerbForm);
    AddVerbs(
        &lex,
        "accelerate accept accommodate accomplish achieve acquire adapt add adjust adopt "
        "allocate allow alter analyze apply argue arise assess assign assist associate assume "
        "attach attain attract avoid become begin believe belong bring calculate carry "
        "characterize choose classify collect combine compare compete compile comprise compute "
        "concentrate conclude confirm connect consider consist constitute constrain construct "
        "contain continue contribute correspond create decide declare decompose deduce define "
        "degrade deliver demonstrate denote depend deploy derive describe detect determine "
        "develop devise differ discover discuss distinguish distribute divide dominate draw "
        "emerge emphasize employ enable encounter encourage enhance ensure enter establish "
        "evaluate examine exceed exhibit exist expand expect explain exploit explore express "
        "extend facilitate fail fall find follow formulate generalize generate get give govern "
        "grow highlight identify ignore illustrate implement imply impose improve include "
        "incorporate indicate induce infer inform integrate intend interact interpret "
        "introduce investigate involve isolate keep know let lie locate maintain make manage "
        "manipulate maximize meet minimize modify motivate obtain observe occur optimize "
        "outperform overcome participate perform possess predict prefer prepare preserve "
        "prevent produce promote propose protect prove provide publish pursue put quantify "
        "raise realize receive recognize recommend reconstruct recover reduce refer reflect "
        "regard relate rely remain remove render replace represent reproduce require resolve "
        "respond retain retrieve reveal satisfy say see seek seem select send separate serve "
        "show simplify simulate solve specify spend submit succeed suffer suggest summarize "
        "suppose take tend treat try undergo understand undertake utilize validate vary verify "
        "want reach utilise emphasise summarise recognise realise characterise generalise "
        "optimise minimise maximise",
        kVerbForm);
    AddVerbs(&lex,
             "address advance aggregate aid aim answer approach attempt balance benefit build "
             "capture cause change check claim complement conduct control convert deal decline "
             "decrease design display drive estimate extract feature fit focus force form gain "
             "guarantee handle help increase influence lack lead limit link list map measure model "
             "monitor move need note offer outline permit place plan play present record release "
             "report result review run schedule set share start state store study supply support "
             "survey test turn update use view yield access process work learn train match analyse",
             kAmbiguous);
    // Nouns the suffix rules would take for verbs, participles or adverbs.
    AddWords(
        &lex,
        "learning computing processing training mining modeling modelling programming "
        "engineering planning clustering sampling reasoning parsing tagging ranking matching "
        "testing imaging sensing caching routing scheduling tracking labeling labelling "
        "marketing banking accounting manufacturing nursing building housing funding teaching "
        "writing reading signaling signalling screening monitoring forecasting filtering coding "
        "encoding decoding hashing indexing pricing trading lending farming fishing mapping "
        "printing recycling smoking drinking spelling meaning wellbeing offspring spring string "
        "ring king thing morning ceiling wing swing earning warning setting rating voting "
        "polling crowdsourcing outsourcing shipping packaging tutoring counseling counselling "
        "mentoring parenting caregiving policing sentencing dating timing scaling pooling "
        "padding embedding bidding auctioning licensing sliding switching coupling operating "
        "rendering bonding positioning damping firing orienting overlapping advertising "
        "publishing recording watermarking queueing queuing drilling sorting searching heating "
        "networking crossing lighting speed seed bed feed breed shed red hundred weed creed "
        "greed reed embed bred sled shred deed need family supply assembly anomaly italy poly "
        "reply monopoly butterfly ally rally belly jelly bully fly firefly holy analyses",
        kNounLike);
    AddWords(
        &lex,
        "novel new proposed existing recent various several different important significant "
        "main specific certain particular possible other same good better best promising "
        "powerful simple typical previous prior relevant great usual additional extensive "
        "comprehensive detailed superior remarkable substantial considerable challenging "
        "successful useful interesting crucial essential appropriate suitable reasonable "
        "similar numerous respective corresponding original resulting underlying given further "
        "whole latter former present presented such own well-known so-called state-of-the-art "
        "past urgent increasing growing effective actual desired basic practical larger entire "
        "complicated "
        "preliminary modern successive popular available traditional efficient standard "
        "special future current theoretical major alternative conventional improved unknown "
        "realistic potential experimental small contemporary full general key fast common "
        "proper",
        kVague);
    AddWords(
        &lex,
        "method approach result paper study analysis model system data problem task work "
        "performance framework technique algorithm application process effect case level type "
        "number set time way part field area research development information structure "
        "function property feature experiment evaluation accuracy quality design measure "
        "measurement parameter condition factor rate change increase difference relationship "
        "group sample test tool network image mechanism strategy review survey implementation "
        "solution scheme dataset benchmark baseline component module stage step phase context "
        "domain scale state art term order form view point ability role impact use value range "
        "degree basis aspect issue challenge need goal purpose idea concept insight "
        "understanding knowledge evidence finding outcome output input article publication "
        "proposal version example instance item object element unit size length amount total "
        "average mean year day period people person user individual author reader",
        kGeneric);
    AddWords(&lex,
             "need needs decade decades century centuries way ways kind kinds lot lots variety "
             "amount amounts aspect example examples instance instances end fact facts sort sorts "
             "couple bunch paper papers",
             kFillerHead);
    AddWords(
        &lex,
        "variable cable table timetable wireless executable deliverable vegetable syllable "
        "fable constable turntable signal interval material journal terminal potential proposal "
        "approval arrival trial removal retrieval survival capital hospital animal metal "
        "integral polynomial individual residual tutorial manual festival fractal crystal "
        "mineral portal rival criminal ritual principal chemical logic topic traffic music "
        "clinic arithmetic heuristic metric graphic mechanic fabric rhetoric epidemic plastic "
        "objective derivative alternative initiative representative executive directive "
        "narrative incentive perspective archive detective explosive adhesive additive "
        "primitive secretary library boundary dictionary summary vocabulary diary salary "
        "glossary commentary anniversary adversary beneficiary seminar calendar grammar radar "
        "scholar collar cellar pillar dollar nectar vinegar sugar",
        kAdjectiveNoun);
    AddWords(&lex, "we it they which who i also", kSubject);
    AddWords(&lex, "that how whether what why where when", kClause);
    AddWords(&lex, "to can could will would may might must shall should not cannot", kVerbNext);
    AddWords(&lex, "is are was were be been being has have had", kAuxiliary);
    AddWords(&lex, "the a an", kArticle);
    AddWords(&lex, "the a an its their our these", kNounPhraseOpen);
    AddWords(&lex,
             "in for by of with on from to through without after before when while into at as via "
             "about upon within during over under between among against towards toward",
             kPreposition);
    return lex;
  }();
  return kLex;
}

uint64_t PhraseHashOf(std::string_view s);

// The lexicon by PhraseHash of the word (64-bit hashes identify words, as in
// PhraseStats): open addressing, built once.
class LexiconByHash {
 public:
  LexiconByHash() {
    const Lexicon& lex = Lex();
    size_t size = 16;
    while (size < 4 * lex.size()) size *= 2;
    keys_.assign(size, 0);
    flags_.assign(size, 0);
    for (const auto& [w, f] : lex) {
      uint64_t h = PhraseHashOf(w);
      present_[Bit(h) / 64] |= uint64_t{1} << (Bit(h) % 64);
      size_t j = Slot(h);
      while (keys_[j] && keys_[j] != h) j = (j + 1) & (keys_.size() - 1);
      keys_[j] = h;
      flags_[j] = f;
    }
  }
  uint32_t Find(uint64_t h) const {
    // Most words are not in the lexicon: a bitmap that fits the L1 cache
    // says so without touching the table.
    if (!(present_[Bit(h) / 64] & (uint64_t{1} << (Bit(h) % 64)))) return 0;
    for (size_t j = Slot(h);; j = (j + 1) & (keys_.size() - 1)) {
      if (keys_[j] == h) return flags_[j];
      if (keys_[j] == 0) return 0;
    }
  }

 private:
  static constexpr uint64_t kBits = 1 << 16;
  static uint64_t Bit(uint64_t h) { return (h >> 40) & (kBits - 1); }
  size_t Slot(uint64_t h) const { return (h * 0x9e3779b97f4a7c15ull >> 17) & (keys_.size() - 1); }
  uint64_t present_[kBits / 64] = {};
  std::vector<uint64_t> keys_;
  std::vector<uint32_t> flags_;
};

// Lexicon flags of a word, given its PhraseHash.
uint32_t LexFlagsOfHash(uint64_t h) {
  static const LexiconByHash kTable;
  return kTable.Find(h);
}

bool EndsWith(std::string_view w, std::string_view s) {
  if (w.size() < s.size()) return false;
  const char* p = w.data() + w.size() - s.size();
  for (size_t i = 0; i < s.size(); ++i)
    if (p[i] != s[i]) return false;
  return true;
}

// ---- Tokens --------------------------------------------------------------------

// A word (folded: lowercase, diacritics removed, inner hyphens kept) or one
// punctuation character.
struct Token {
  uint32_t begin = 0, size = 0;    // in the folded buffer
  char punct = 0;                  // 0 for words; the ASCII character, or '*' for others
  bool capitalized = false;        // the source word starts with an uppercase letter
  uint8_t uppercase = 0;           // uppercase letters in the source word (saturating)
  uint64_t hash = 0;               // PhraseHash of the word
  uint32_t src = 0, src_size = 0;  // the word as written: bytes of the source text
};

bool IsHyphen(uint32_t cp) { return cp == '-' || cp == 0x2010 || cp == 0x2011; }

bool IsSpace(uint32_t cp) {
  return cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || cp == '\f' || cp == '\v' ||
         cp == 0xA0 || (cp >= 0x2000 && cp <= 0x200B) || cp == 0x202F || cp == 0x205F ||
         cp == 0x3000 || cp == 0xFEFF;
}

bool IsUpper(uint32_t cp) {
  return (cp >= 'A' && cp <= 'Z') || (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7) ||
         (cp >= 0x391 && cp <= 0x3A9) || (cp >= 0x400 && cp <= 0x42F);
}

bool IsAsciiAlnum(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

class TokenText {
 public:
  TokenText() = default;
  // Tokenizes at most kMaxTokens tokens of text; words longer than
  // kMaxWordBytes become separators unless keep_long_words.
  explicit TokenText(std::string_view text, bool keep_long_words = false) {
    Reset(text, keep_long_words);
  }
  // Tokenizes text, reusing the buffers.
  void Reset(std::string_view text, bool keep_long_words = false) {
    keep_long_words_ = keep_long_words;
    src_ = text;
    buf_.clear();
    tokens_.clear();
    Scan(text);
  }
  size_t size() const { return tokens_.size(); }
  const Token& token(size_t i) const { return tokens_[i]; }
  std::string_view word(size_t i) const {
    const Token& t = tokens_[i];
    return std::string_view(buf_.data() + t.begin, t.size);
  }
  bool is_word(size_t i) const { return tokens_[i].punct == 0; }
  // Word i as written in the text given to Reset (valid while that is).
  std::string_view source(size_t i) const {
    return src_.substr(tokens_[i].src, tokens_[i].src_size);
  }
  // The word, or "" for punctuation and positions outside the text.
  std::string_view word_at(ptrdiff_t i) const {
    if (i < 0 || static_cast<size_t>(i) >= tokens_.size() || !is_word(i)) return {};
    return word(i);
  }
  char punct_at(ptrdiff_t i) const {
    if (i < 0 || static_cast<size_t>(i) >= tokens_.size()) return '.';
    return tokens_[i].punct;
  }

 private:
  void Scan(std::string_view text) {
    Token cur;
    bool in_word = false;
    size_t src_end = 0;  // where the current word ends in text
    auto end_word = [&] {
      if (!in_word) return;
      in_word = false;
      cur.size = static_cast<uint32_t>(buf_.size() - cur.begin);
      cur.src_size = static_cast<uint32_t>(src_end - cur.src);
      if (cur.size > kMaxWordBytes && !keep_long_words_) {
        buf_.resize(cur.begin);
        cur = Token{};
        cur.begin = static_cast<uint32_t>(buf_.size());
        cur.punct = '*';
      } else {
        cur.hash = PhraseHash(std::string_view(buf_.data() + cur.begin, cur.size));
      }
      tokens_.push_back(cur);
    };
    auto punct = [&](char c) {
      end_word();
      Token t;
      t.begin = static_cast<uint32_t>(buf_.size());
      t.punct = c;
      tokens_.push_back(t);
    };
    auto start_word = [&](bool upper, size_t at) {
      if (in_word) return;
      in_word = true;
      cur = Token{};
      cur.begin = static_cast<uint32_t>(buf_.size());
      cur.src = static_cast<uint32_t>(at);
      cur.capitalized = upper;
    };
    size_t i = 0;
    const size_t n = text.size();
    while (i < n && (keep_long_words_ || tokens_.size() < kMaxTokens)) {
      unsigned char c = static_cast<unsigned char>(text[i]);
      if (IsAsciiAlnum(c)) {  // the common case: a run of ASCII letters and digits
        start_word(c >= 'A' && c <= 'Z', i);
        size_t j = i;
        while (j < n && IsAsciiAlnum(static_cast<unsigned char>(text[j]))) ++j;
        src_end = j;
        size_t at = buf_.size();
        buf_.append(text.data() + i, j - i);
        for (size_t k = at; k < buf_.size(); ++k) {
          char& ch = buf_[k];
          if (ch >= 'A' && ch <= 'Z') {
            ch = static_cast<char>(ch - 'A' + 'a');
            if (cur.uppercase < 255) ++cur.uppercase;
          }
        }
        i = j;
        continue;
      }
      if (c == ' ') {
        end_word();
        ++i;
        continue;
      }
      const size_t at = i;
      uint32_t cp = DecodeUtf8(text, &i);
      if (cp >= 0x300 && cp <= 0x36F) {  // combining mark: part of the letter
        if (in_word) src_end = i;
        continue;
      }
      size_t before = buf_.size();
      bool other = false;
      if (FoldLetter(cp, &buf_, &other)) {
        std::string folded = buf_.substr(before);
        buf_.resize(before);
        start_word(IsUpper(cp), at);
        src_end = i;
        buf_ += folded;
        if (IsUpper(cp) && cur.uppercase < 255) ++cur.uppercase;
        continue;
      }
      buf_.resize(before);
      if (IsHyphen(cp) && in_word && i < n) {
        // Inside a compound ("closed-loop") when a letter or digit follows.
        size_t j = i;
        uint32_t next = DecodeUtf8(text, &j);
        std::string probe;
        bool o = false;
        if (FoldLetter(next, &probe, &o)) {
          buf_.push_back('-');
          continue;
        }
      }
      if (IsSpace(cp)) {
        end_word();
        continue;
      }
      punct(cp < 0x80 ? static_cast<char>(cp) : '*');
    }
    end_word();
  }

  bool keep_long_words_ = false;
  std::string_view src_;
  std::string buf_;
  std::vector<Token> tokens_;
};

// ---- Tags ----------------------------------------------------------------------

enum Tag : uint8_t {
  kPunct,     // punctuation, too-long words
  kFunc,      // function words, numbers
  kVerb,      // verbs, adverbs
  kNoun,      // nouns and adjectives: may end a keyword
  kModifier,  // participles before a noun ("distributed", "sliding"): may not end one
  kIng,       // -ing form, before context
  kEd,        // -ed form, before context
  kAmbig,     // noun or verb, before context
};

// Numbers and ordinals ("2019", "1st", "3rd").
bool Numeral(std::string_view w) {
  size_t digits = 0;
  while (digits < w.size() && w[digits] >= '0' && w[digits] <= '9') ++digits;
  if (digits == w.size()) return true;
  std::string_view rest = w.substr(digits);
  return digits > 0 && (rest == "st" || rest == "nd" || rest == "rd" || rest == "th");
}

Tag LexicalTag(std::string_view w, uint32_t flags) {
  if (flags & kFunction) return kFunc;
  if (Numeral(w)) return kFunc;
  if (w.find('-') != std::string_view::npos) return kNoun;
  if (flags & kNounLike) return kNoun;
  if (flags & kVerbForm) return kVerb;
  if (flags & kVerbIng) return kIng;
  if (flags & kAmbiguous) return kAmbig;
  if (w.size() > 4 && EndsWith(w, "ly")) return kVerb;  // adverbs end phrases like verbs
  if (w.size() > 4 && EndsWith(w, "ed")) return kEd;
  if (w.size() > 5 && EndsWith(w, "ing")) return kIng;
  return kNoun;
}

// Tags of the tokens (flags: LexFlags of each word): a lexical guess, then
// the context decides ambiguous
// words (a noun/verb word after "we" or before "the" is a verb) and
// participles (a modifier only right before a noun or another modifier, and
// not after a preposition or an auxiliary: "for solving", "is bounded"; an
// -ing form of no listed verb right after a noun heads a compound unless an
// article or a clause follows: "protein folding" but "examples illustrating
// the", "evidence showing that").
std::vector<Tag> TagTokens(const TokenText& t, const std::vector<uint32_t>& flags) {
  size_t n = t.size();
  std::vector<Tag> tags(n, kPunct);
  for (size_t j = 0; j < n; ++j)
    if (t.is_word(j)) tags[j] = LexicalTag(t.word(j), flags[j]);
  auto flag_at = [&](ptrdiff_t j) -> uint32_t {
    return j >= 0 && static_cast<size_t>(j) < n ? flags[j] : 0;
  };
  for (size_t j = 0; j < n; ++j) {
    ptrdiff_t p = static_cast<ptrdiff_t>(j) - 1, q = static_cast<ptrdiff_t>(j) + 1;
    if (tags[j] == kAmbig) {
      bool verb = (flag_at(p) & (kSubject | kVerbNext)) || (flag_at(q) & kNounPhraseOpen);
      tags[j] = verb ? kVerb : kNoun;
    } else if (tags[j] == kNoun && (flag_at(q) & kArticle) &&
               t.word(j).find('-') == std::string_view::npos) {
      tags[j] = kVerb;  // "motivates the", "reach a"
    }
  }
  for (size_t k = n; k-- > 0;) {
    if (tags[k] != kIng && tags[k] != kEd) continue;
    Tag next = k + 1 < n ? tags[k + 1] : kPunct;
    bool before_noun = next == kNoun || next == kModifier;
    uint32_t prev = flag_at(static_cast<ptrdiff_t>(k) - 1);
    bool blocked = tags[k] == kIng ? (prev & kPreposition) : (prev & kAuxiliary);
    // A listed verb's -ing form opening a sentence or clause heads it:
    // "Bringing order to the web", "Achieving agreement".
    if (tags[k] == kIng && (flags[k] & kVerbIng) && (k == 0 || !t.is_word(k - 1))) blocked = true;
    if (before_noun && !blocked) {
      tags[k] = kModifier;
    } else if (tags[k] == kIng && !(flags[k] & kVerbIng) && k > 0 && tags[k - 1] == kNoun &&
               !(flag_at(static_cast<ptrdiff_t>(k) + 1) & (kNounPhraseOpen | kClause))) {
      tags[k] = kNoun;  // a gerund heading a compound: "protein folding", "model checking"
    } else {
      tags[k] = kVerb;
    }
  }
  return tags;
}

}  // namespace

namespace {

// The singular of w: w itself, a prefix of it, a static string, or *buf.
std::string_view SingularView(std::string_view w, std::string* buf) {
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
  // Only words ending in these letters have a singular of their own (the
  // irregular ones included); the rest return at once.
  if (w.size() <= 3) return w;
  const char last = w.back();
  if (last != 's' && last != 'a' && last != 'n' && last != 'e' && last != 'i' && last != 'h' &&
      last != 't')
    return w;
  auto it = kIrregular.find(w);
  if (it != kIrregular.end()) return it->second;
  if (last != 's') return w;
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
  if ((ends("as") || ends("os") || ends("ns") || ends("es")) && kSNouns.count(w)) return w;
  if ((ends("ies") && kIeNouns.count(w)) || (ends("ches") && kCheNouns.count(w)))
    return w.substr(0, w.size() - 1);
  if (ends("ics")) return kIcsPlurals.count(w) ? w.substr(0, w.size() - 1) : w;
  if (ends("ss") || ends("us") || ends("is") || ends("ous")) return w;
  if (ends("ies") && w.size() > 4) {
    buf->assign(w.substr(0, w.size() - 3));
    buf->push_back('y');
    return *buf;
  }
  if (ends("sses") || ends("ches") || ends("shes") || ends("xes") || ends("zzes"))
    return w.substr(0, w.size() - 2);
  if (ends("oes") && w.size() > 5) return w.substr(0, w.size() - 2);
  return w.substr(0, w.size() - 1);
}

}  // namespace

std::string Singular(std::string_view w) {
  std::string buf;
  return std::string(SingularView(w, &buf));
}

namespace {

// ---- Chunks and candidates -----------------------------------------------------

// Words with these suffixes are adjectives ("available", "serious"): never
// the head of a keyword.
bool AdjectiveOnly(std::string_view w, uint32_t flags) {
  if ((flags & kAdjectiveNoun) || w.find('-') != std::string_view::npos) return false;
  static constexpr std::string_view kSuffixes[] = {"ous", "ful", "less", "able", "ible"};
  for (std::string_view s : kSuffixes)
    if (EndsWith(w, s)) return true;
  return false;
}

// A compound that modifies rather than names: "x-based", "two-dimensional",
// "real-time", "large-scale", "time-varying".
bool ModifierCompound(std::string_view w) {
  static const std::unordered_set<std::string_view> kModifierParts = {
      "based",     "dimensional", "time",        "level",   "state",     "scale",    "order",
      "term",      "dependent",   "independent", "free",    "line",      "up",       "like",
      "loop",      "speed",       "step",        "world",   "phase",     "linear",   "oriented",
      "off",       "end",         "driven",      "related", "aware",     "specific", "grained",
      "known",     "quality",     "cost",        "art",     "date",      "type",     "size",
      "wide",      "rate",        "range",       "purpose", "intensive", "friendly", "class",
      "sensitive", "efficient",   "enabled"};
  size_t dash = w.rfind('-');
  if (dash == std::string_view::npos) return false;
  std::string_view last = w.substr(dash + 1);
  return kModifierParts.count(last) || EndsWith(last, "ed") || EndsWith(last, "ing") ||
         last.size() < 2 ||
         std::all_of(last.begin(), last.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Words with these suffixes are mostly adjectives ("optimal", "dynamic",
// "adaptive", "linear"), like modifier compounds: not a keyword alone, and
// not the last word of a span cut out of a longer chunk ("artificial
// neural" of "artificial neural network").
bool AdjectiveLike(std::string_view w, uint32_t flags) {
  if (flags & kAdjectiveNoun) return false;
  if (w.find('-') != std::string_view::npos) return ModifierCompound(w);
  if (w.size() < 5) return false;
  if (AdjectiveOnly(w, flags)) return true;
  static constexpr std::string_view kSuffixes[] = {"al", "ic", "ive", "ary", "ar"};
  for (std::string_view s : kSuffixes)
    if (EndsWith(w, s)) return true;
  return false;
}

// Any adjective suffix: a feature of the head (nouns like "signal" have one too).
bool AdjectiveSuffix(std::string_view w) {
  static constexpr std::string_view kSuffixes[] = {"al",   "ive", "ic",   "ous", "able",
                                                   "ible", "ful", "less", "ary", "ar"};
  for (std::string_view s : kSuffixes)
    if (EndsWith(w, s)) return true;
  return false;
}

// The statistics key of a word, from the PhraseHash of the word: apart
// from the key of the one-word phrase.
uint64_t WordKey(uint64_t phrase_hash) {
  uint64_t h = phrase_hash ^ 0x9e3779b97f4a7c15ull;
  return h == 0 ? 1 : h;
}

// Nonzero 64-bit keys to uint32 values, open addressing; emptied per paper.
class FlatIndex {
 public:
  void Reset(size_t expected) {
    size_t want = 16;
    while (want < 2 * expected) want *= 2;
    if (keys_.size() != want) {
      keys_.assign(want, 0);
      values_.assign(want, 0);
    } else {
      std::fill(keys_.begin(), keys_.end(), 0);
    }
    used_ = 0;
  }
  // The value of key, inserting value when absent; *added tells which.
  uint32_t Insert(uint64_t key, uint32_t value, bool* added) {
    if (2 * (used_ + 1) > keys_.size()) Grow();
    size_t mask = keys_.size() - 1;
    for (size_t j = Mix(key) & mask;; j = (j + 1) & mask) {
      if (keys_[j] == key) {
        *added = false;
        return values_[j];
      }
      if (keys_[j] == 0) {
        keys_[j] = key;
        values_[j] = value;
        ++used_;
        *added = true;
        return value;
      }
    }
  }
  // The value of key, or UINT32_MAX.
  uint32_t Find(uint64_t key) const {
    size_t mask = keys_.size() - 1;
    for (size_t j = Mix(key) & mask;; j = (j + 1) & mask) {
      if (keys_[j] == key) return values_[j];
      if (keys_[j] == 0) return UINT32_MAX;
    }
  }

 private:
  static uint64_t Mix(uint64_t k) { return (k ^ (k >> 29)) * 0xbf58476d1ce4e5b9ull >> 20; }
  void Grow() {
    std::vector<uint64_t> keys = std::move(keys_);
    std::vector<uint32_t> values = std::move(values_);
    keys_.assign(std::max<size_t>(16, keys.size() * 2), 0);
    values_.assign(keys_.size(), 0);
    used_ = 0;
    bool added;
    for (size_t i = 0; i < keys.size(); ++i)
      if (keys[i]) Insert(keys[i], values[i], &added);
  }
  std::vector<uint64_t> keys_;
  std::vector<uint32_t> values_;
  size_t used_ = 0;
};

// A text kept in an arena: offsets stay valid when the arena grows.
struct ArenaText {
  uint32_t begin = 0, size = 0;
};

// A distinct word of the paper as written (folded).
struct DocWord {
  ArenaText text;
  uint64_t hash = 0;   // PhraseHash of text
  uint32_t flags = 0;  // LexFlags
  // The rest only once Resolve()d (words of noun-phrase chunks).
  bool resolved = false;
  uint32_t head = 0;      // index of its singular form in PaperCandidates::heads
  bool span_end = false;  // may end a span: not a filler ("need"), not an adjective
  bool adjective_like = false;
  bool single = false;  // may be a keyword alone
};

// A distinct singular form of the paper, with its statistics in the paper.
struct HeadWord {
  ArenaText text;
  uint32_t flags = 0;
  uint64_t hash = 0;  // WordKey
  bool adjective_suffix = false;
  int tf = 0;                  // occurrences in chunks
  double position_weight = 0;  // sum of 1 / (1 + token position)
  bool in_title = false;
  int64_t df = -1;  // corpus document frequency; -1 = not looked up
  double idf = 0;   // normalized idf, once df is known
};

// The logarithms the features take of a corpus's document frequencies, made
// once per corpus size for those below kLogTableSize (log_count.h: counts
// take LogOfCount). The values are the same calls' own, so no score changes.
class CorpusLogs {
 public:
  // Of a corpus of n documents: log(n + 1), log((n + 1) / (df + 0.5)), and
  // log(df / max(0.01 n, 10)) (a phrase's commonness).
  void SetCorpus(double n) {
    if (n == n_) return;
    n_ = n;
    log_n1_ = std::log(n + 1);
    for (uint32_t df = 0; df < kLogTableSize; ++df) {
      idf_[df] = RawIdf(df);
      common_[df] = RawCommon(df);
    }
  }
  double LogN1() const { return log_n1_; }
  double Idf(uint32_t df) const { return df < kLogTableSize ? idf_[df] : RawIdf(df); }
  double Common(uint32_t df) const { return df < kLogTableSize ? common_[df] : RawCommon(df); }

 private:
  double RawIdf(uint32_t df) const { return std::log((n_ + 1) / (df + 0.5)); }
  double RawCommon(uint32_t df) const { return std::log(df / std::max(0.01 * n_, 10.0)); }
  std::vector<double> idf_ = std::vector<double>(kLogTableSize);
  std::vector<double> common_ = std::vector<double>(kLogTableSize);
  double n_ = -1, log_n1_ = 0;
};

// Sets h's corpus document frequency (the paper itself counts: at least 1)
// and normalized idf, of the memo's corpus (log_n: log(n + 1)).
void SetHeadDf(HeadWord* h, uint32_t df, const CorpusLogs& logs, double log_n) {
  h->df = std::max<uint32_t>(1, df);
  h->idf = logs.Idf(static_cast<uint32_t>(h->df)) / log_n;
}

// A candidate phrase with what is known about its occurrences.
struct Candidate {
  ArenaText text;                        // normalized
  uint32_t words[kMaxPhraseWords] = {};  // DocWord ids; the last one's head is the phrase's head
  uint32_t n = 0;
  int tf = 0;                              // occurrences, inside longer chunks too
  int whole = 0;                           // occurrences as a whole chunk
  int suffix = 0, prefix = 0, middle = 0;  // occurrences at the end, start, inside a chunk
  int after_article = 0, after_of = 0, before_of = 0;
  int chunk_words = 0;  // longest chunk it occurs in
  int supersets = 0;    // longer candidates of the paper containing it
  size_t first = 0;     // token position of the first occurrence
  bool in_title = false, acronym = false, capitalized = false;
  // The occurrence shown to users (Keyword::surface): field, tokens [a, b),
  // and whether it is inside an abstract sentence (its case is as meant).
  uint32_t shown_field = 0, shown_a = 0, shown_b = 0;
  bool shown_in_sentence = false;
};

// One field (title or abstract) of a paper: its tokens, their DocWord ids,
// flags and tags.
struct Field {
  TokenText t;
  std::vector<uint32_t> ids, flags;
  std::vector<Tag> tags;
};

// The words and candidates of one paper. Reused from paper to paper by a
// thread, so that the steady state does not allocate.
struct PaperCandidates {
  std::string arena;       // words as written, candidate texts
  std::string head_arena;  // singular forms
  std::vector<DocWord> words;
  FlatIndex word_index;  // Token::hash -> words
  std::vector<HeadWord> heads;
  FlatIndex head_index;  // PhraseHash -> heads
  std::vector<Candidate> cands;
  FlatIndex cand_index;  // SpanKey -> cands
  Field fields[2];
  size_t tokens = 0;
  std::string singular_buf;
  std::vector<uint64_t> df_keys;  // ScoreCandidates' lookups
  std::vector<uint32_t> dfs;
  CorpusLogs logs;

  void Clear(size_t text_bytes) {
    arena.clear();
    head_arena.clear();
    words.clear();
    heads.clear();
    cands.clear();
    // About one word in six bytes, a third of them distinct.
    size_t expected = std::min<size_t>(text_bytes / 16 + 16, 2 * kMaxTokens);
    word_index.Reset(expected);
    head_index.Reset(expected);
    cand_index.Reset(2 * expected);
    tokens = 0;
  }

  std::string_view str(ArenaText t) const {
    return std::string_view(arena.data() + t.begin, t.size);
  }
  std::string_view head_str(ArenaText t) const {
    return std::string_view(head_arena.data() + t.begin, t.size);
  }
  std::string_view text(const Candidate& c) const { return str(c.text); }
  ArenaText Store(std::string_view s) {
    ArenaText t{static_cast<uint32_t>(arena.size()), static_cast<uint32_t>(s.size())};
    arena.append(s);
    return t;
  }
  const DocWord& word(uint32_t id) const { return words[id]; }
  HeadWord& head_of(uint32_t word) { return heads[words[word].head]; }

  // hash: PhraseHash(w).
  uint32_t Head(std::string_view w, uint64_t hash) {
    bool added;
    uint32_t id = head_index.Insert(hash, static_cast<uint32_t>(heads.size()), &added);
    if (!added) return id;
    HeadWord h;
    h.text = {static_cast<uint32_t>(head_arena.size()), static_cast<uint32_t>(w.size())};
    head_arena.append(w);
    h.flags = LexFlagsOfHash(hash);
    h.hash = WordKey(hash);
    h.adjective_suffix = AdjectiveSuffix(w);
    heads.push_back(h);
    return id;
  }

  // The DocWord of token i of t (a word).
  uint32_t Word(const TokenText& t, size_t i) {
    bool added;
    uint32_t id = word_index.Insert(t.token(i).hash, static_cast<uint32_t>(words.size()), &added);
    if (!added) return id;
    DocWord d;
    d.text = Store(t.word(i));
    d.hash = t.token(i).hash;
    d.flags = LexFlagsOfHash(d.hash);
    words.push_back(d);
    return id;
  }

  // Computes the singular form and the span roles of the words of a chunk
  // (most words of a paper are never in one: function words, verbs).
  void Resolve(const std::vector<uint32_t>& ids, size_t s, size_t e) {
    for (size_t k = s; k < e; ++k) {
      DocWord& d = words[ids[k]];
      if (d.resolved) continue;
      d.resolved = true;
      std::string_view w = str(d.text);  // Head() grows head_arena, not arena
      std::string_view singular = SingularView(w, &singular_buf);
      d.head = singular == w ? Head(w, d.hash) : Head(singular, PhraseHash(singular));
      d.span_end = !(d.flags & kFillerHead) && !AdjectiveOnly(w, d.flags);
      d.adjective_like = AdjectiveLike(w, d.flags);
      d.single =
          d.span_end && w.size() >= 3 && !(heads[d.head].flags & kGeneric) && !d.adjective_like;
    }
  }

  // Tokenizes and tags field k.
  Field& Load(int k, std::string_view text) {
    Field& f = fields[k];
    f.t.Reset(text);
    f.ids.assign(f.t.size(), 0);
    f.flags.assign(f.t.size(), 0);
    for (size_t i = 0; i < f.t.size(); ++i) {
      if (!f.t.is_word(i)) continue;
      f.ids[i] = Word(f.t, i);
      f.flags[i] = words[f.ids[i]].flags;
    }
    f.tags = TagTokens(f.t, f.flags);
    return f;
  }
};

// Identity of the span of DocWords w[0..n) inside the paper: 16 bits a
// word, DocWord ids + 1 before the last, its head id + 1 last (a paper has
// fewer than 2^16 words: kMaxTokens per field).
uint64_t SpanKey(const PaperCandidates& p, const uint32_t* w, size_t n) {
  uint64_t key = 0;
  for (size_t k = 0; k < n; ++k) {
    uint64_t id = (k + 1 < n ? w[k] : p.words[w[k]].head) + 1;
    key |= (id & 0xFFFF) << (16 * k);
  }
  return key;
}

// Calls fn(s, e) for each noun-phrase chunk of the field: a maximal run of
// nouns, adjectives and participle modifiers, without a leading evaluative
// adjective ("novel", "proposed") and ending in a noun.
template <typename Fn>
void ForEachChunk(const Field& f, Fn&& fn) {
  size_t n = f.t.size();
  size_t start = 0;
  for (size_t j = 0; j <= n; ++j) {
    if (j < n && (f.tags[j] == kNoun || f.tags[j] == kModifier)) continue;
    size_t s = start, e = j;
    start = j + 1;
    while (s < e && (f.flags[s] & kVague)) ++s;
    while (e > s && f.tags[e - 1] != kNoun) --e;
    if (s < e) fn(s, e);
  }
}

// Calls fn(a, b, candidate index) for the candidate phrases inside chunk
// [s, e) of the field, adding new ones to the paper: every span of 1-4 words
// that ends in a noun (not a filler like "need", not an adjective when the
// span ends inside the chunk) and does not start with an evaluative
// adjective; single words only when specific (not "method", not an
// adjective, at least 3 letters).
template <typename Fn>
void ForEachSpan(const Field& f, size_t s, size_t e, PaperCandidates* p, Fn&& fn) {
  p->Resolve(f.ids, s, e);
  for (size_t a = s; a < e; ++a) {
    if (f.flags[a] & kVague) continue;
    for (size_t b = a + 1; b <= e && b - a <= kMaxPhraseWords; ++b) {
      const DocWord& last = p->word(f.ids[b - 1]);
      if (f.tags[b - 1] != kNoun || !last.span_end) continue;
      if (b < e && (last.text.size < 3 || last.adjective_like)) continue;
      if (b - a == 1 && !last.single) continue;
      bool added;
      uint32_t id = p->cand_index.Insert(SpanKey(*p, &f.ids[a], b - a),
                                         static_cast<uint32_t>(p->cands.size()), &added);
      if (added) {
        Candidate c;
        c.n = static_cast<uint32_t>(b - a);
        std::string_view head = p->head_str(p->heads[last.head].text);
        size_t bytes = b - a + head.size();  // words are copied from the arena itself
        for (size_t k = a; k + 1 < b; ++k) bytes += p->word(f.ids[k]).text.size;
        p->arena.reserve(p->arena.size() + bytes);
        c.text.begin = static_cast<uint32_t>(p->arena.size());
        for (size_t k = a; k < b; ++k) {
          c.words[k - a] = f.ids[k];
          if (k > a) p->arena.push_back(' ');
          if (k + 1 < b) {
            ArenaText part = p->word(f.ids[k]).text;
            p->arena.append(p->arena.data() + part.begin, part.size);
          } else {
            p->arena.append(head);
          }
        }
        c.text.size = static_cast<uint32_t>(p->arena.size() - c.text.begin);
        p->cands.push_back(c);
      }
      fn(a, b, id);
    }
  }
}

// Whether token k of a field opens a sentence (after ., !, ? or nothing).
bool SentenceStart(const TokenText& t, size_t k) {
  const char p = t.punct_at(static_cast<ptrdiff_t>(k) - 1);
  return p == '.' || p == '!' || p == '?';
}

// The candidate as written in its shown occurrence: its words' source text
// joined by single spaces. Outside an abstract sentence (a title, a
// sentence's first word) a word whose one capital is its first ASCII letter
// is lowercased ("Statistical Machine Translation" -> "statistical machine
// translation"); names that only occur there lose their capital.
std::string Surface(const PaperCandidates& paper, const Candidate& c) {
  const TokenText& t = paper.fields[c.shown_field].t;
  std::string out;
  for (size_t k = c.shown_a; k < c.shown_b; ++k) {
    if (!t.is_word(k)) continue;
    if (!out.empty()) out += ' ';
    const size_t at = out.size();
    out += t.source(k);
    const Token& token = t.token(k);
    if (!c.shown_in_sentence && token.uppercase == 1 && token.capitalized && at < out.size() &&
        out[at] >= 'A' && out[at] <= 'Z')
      out[at] = static_cast<char>(out[at] - 'A' + 'a');
  }
  return out;
}

// Collects the candidates of a paper. Without details, only what corpus
// counting needs (the candidates and the words of chunks).
void CollectCandidates(std::string_view title, std::string_view abstract, bool details,
                       PaperCandidates* out) {
  out->Clear(std::min(title.size() + abstract.size(), 2 * kMaxTokens * 8));
  size_t offset = 0;
  for (int field = 0; field < 2; ++field) {
    const bool is_title = field == 0;
    const Field& f = out->Load(field, is_title ? title : abstract);
    const TokenText& t = f.t;
    ForEachChunk(f, [&](size_t s, size_t e) {
      out->Resolve(f.ids, s, e);
      if (!details) {
        ForEachSpan(f, s, e, out, [](size_t, size_t, uint32_t) {});
        for (size_t k = s; k < e; ++k) ++out->head_of(f.ids[k]).tf;
        return;
      }
      const size_t len = e - s;
      // "model predictive control (MPC)": a defined term.
      const bool acronym = t.punct_at(e) == '(' && t.punct_at(e + 2) == ')' && t.is_word(e + 1) &&
                           t.token(e + 1).uppercase >= 2;
      const bool article = s > 0 && (f.flags[s - 1] & kArticle);
      const bool of_before = t.word_at(static_cast<ptrdiff_t>(s) - 1) == "of";
      const bool of_after = t.word_at(e) == "of";
      for (size_t k = s; k < e; ++k) {
        HeadWord& h = out->head_of(f.ids[k]);
        ++h.tf;
        h.position_weight += 1.0 / static_cast<double>(offset + k + 1);
        if (is_title) h.in_title = true;
      }
      // A capital inside an abstract sentence: a name or an acronym.
      auto capitalized = [&](size_t k) {
        char p = t.punct_at(static_cast<ptrdiff_t>(k) - 1);
        return !is_title && k > 0 && t.token(k).capitalized && p != '.' && p != '!' && p != '?';
      };
      ForEachSpan(f, s, e, out, [&](size_t a, size_t b, uint32_t id) {
        Candidate& c = out->cands[id];
        if (c.tf == 0) c.first = offset + a;
        const bool in_sentence = !is_title && !SentenceStart(t, a);
        if (c.tf == 0 || (in_sentence && !c.shown_in_sentence)) {
          c.shown_field = static_cast<uint32_t>(field);
          c.shown_a = static_cast<uint32_t>(a);
          c.shown_b = static_cast<uint32_t>(b);
          c.shown_in_sentence = in_sentence;
        }
        ++c.tf;
        const bool at_start = a == s, at_end = b == e;
        if (at_start && at_end)
          ++c.whole;
        else if (at_end)
          ++c.suffix;
        else if (at_start)
          ++c.prefix;
        else
          ++c.middle;
        if (at_start && article) ++c.after_article;
        if (at_start && of_before) ++c.after_of;
        if (at_end && of_after) ++c.before_of;
        if (at_end && acronym) c.acronym = true;
        for (size_t k = a; k < b && !c.capitalized; ++k) c.capitalized = capitalized(k);
        if (is_title) c.in_title = true;
        c.chunk_words = std::max(c.chunk_words, static_cast<int>(len));
      });
    });
    offset += t.size() + 1;
  }
  out->tokens = offset;
  if (!details) return;
  // Supersets: "value problem" inside "boundary value problem".
  for (const Candidate& c : out->cands) {
    for (size_t a = 0; a < c.n; ++a) {
      for (size_t b = a + 1; b <= c.n; ++b) {
        if (b - a == c.n) continue;
        uint32_t id = out->cand_index.Find(SpanKey(*out, c.words + a, b - a));
        if (id != UINT32_MAX) ++out->cands[id].supersets;
      }
    }
  }
}

// The thread's scratch tables.
PaperCandidates& Scratch() {
  thread_local PaperCandidates paper;
  return paper;
}

// ---- Features and the model ---------------------------------------------------

enum Feature : int {
  kBias,
  kOneWord,
  kTwoWords,
  kThreeWords,
  kFourWords,
  kWhole,
  kLogWhole,
  kLogTf,
  kInTitle,
  kFirstPosition,
  kUnigramIdf,
  kLogDf,
  kCommonPhrase,
  kWordIdfMean,
  kWordIdfMin,
  kWordIdfMax,
  kWordTfMean,
  kWordTfMax,
  kLogSupersets,
  kAdjectiveHead,
  kStartsIng,
  kStartsEd,
  kHyphen,
  kTitleWordShare,
  kWordPositionMean,
  kWordPositionMax,
  kShared,
  kSuffixShare,
  kPrefixShare,
  kMiddleShare,
  kAcronym,
  kCapitalized,
  kAfterArticleShare,
  kAfterOfShare,
  kBeforeOfShare,
  kChunkWords,
  kNumBase
};
// Base features from kWhole on are also crossed with "one word" and "3+ words".
constexpr int kCrossFrom = kWhole;
constexpr int kNumCrossed = kNumBase - kCrossFrom;
constexpr int kNumFeatures = kNumBase + 2 * kNumCrossed;

const char* const kBaseNames[kNumBase] = {"bias",
                                          "one_word",
                                          "two_words",
                                          "three_words",
                                          "four_words",
                                          "whole",
                                          "log_whole",
                                          "log_tf",
                                          "in_title",
                                          "first_position",
                                          "unigram_idf",
                                          "log_df",
                                          "common_phrase",
                                          "word_idf_mean",
                                          "word_idf_min",
                                          "word_idf_max",
                                          "word_tf_mean",
                                          "word_tf_max",
                                          "log_supersets",
                                          "adjective_head",
                                          "starts_ing",
                                          "starts_ed",
                                          "hyphen",
                                          "title_word_share",
                                          "word_position_mean",
                                          "word_position_max",
                                          "shared",
                                          "suffix_share",
                                          "prefix_share",
                                          "middle_share",
                                          "acronym",
                                          "capitalized",
                                          "after_article_share",
                                          "after_of_share",
                                          "before_of_share",
                                          "chunk_words"};

// ---- The model -------------------------------------------------------------------
// Logistic regression over the features above, fitted on the 1,000 training
// abstracts of Inspec (bench/eval/keyphrase_fit.py prints this block; doc/keywords.md).

// Papers a store needs before its statistics are used.
constexpr uint64_t kMinCorpusDocs = 50;
// Logit bonus per unit of ln(df) for multi-word phrases (reusable nodes).
constexpr double kReuseWeight = 1.25;
// Logit bonus of phrases that are Keyword nodes already (query mode).
constexpr double kKnownBoost = 0.5;
// clang-format off
// BEGIN GENERATED WEIGHTS
constexpr double kCorpusWeights[kNumFeatures] = {
    -3.749, -1.08803, 0.634746, 0.986509, 0.563398, 0.767169, 1.58728, -0.13054, 0.397908,
    -0.362117, 0.124074, 0.163308, -0.493718, 0.187286, 0.114027, 0.67969, -0.200568, 0.0335348,
    -0.440033, -0.0335052, -0.318568, -0.439579, 0.279336, -0.1418, 0.55059, -0.100087, 0.213317,
    0.0269332, -0.321056, -0.581843, -0.404707, -0.379304, -0.0431907, 0.366958, -0.256158,
    0.0394834, -0.42597, -0.107685, -0.0230374, 0.210649, 0.202217, 0.124074, 0, 0, 0.127764,
    0.127764, 0.127764, -0.057604, -0.057604, 0.232842, -0.462201, 0.855538, -0.395641, -0.144436,
    0.129987, -0.0908595, -0.0908595, 0, -0.326702, 0.202683, -0.360602, -0.863721, 1.00649,
    -0.0458937, 0.0166394, -0.560068, -0.031747, 0.108365, 1.40691, -0.653007, 0.2808, -0.224609,
    0, -0.304192, 0, -0.900303, 0.0538008, -0.936598, 0.0855319, -0.128585, 0.0772181, 0.0650247,
    -0.600492, 0.551957, -0.22482, -0.148961, -1.06355, 0.527718, 0.502557, 0.803464, 1.29695,
    0.464456, 0.942554, 0.225906, 0.292857, 0.198668, 0.0708355, 0.0587394,
};
constexpr double kTextWeights[kNumFeatures] = {
    -3.02029, -0.833157, 0.667104, 0.468099, 0.0816961, 0.776344, 1.58793, -0.0997337, 0.404114,
    -0.371704, 0, 0, 0, 0, 0, 0, -0.215509, 0.0194746, -0.413477, -0.0246475, -0.290928, -0.4136,
    0.358416, -0.110438, 0.516482, -0.0828029, 0, 0.0274162, -0.304326, -0.550975, -0.339467,
    -0.296286, -0.0404983, 0.372171, -0.277092, 0.0235654, -0.361655, -0.0250643, -0.0804935,
    0.200751, 0.225395, 0, 0, 0, 0, 0, 0, -0.0700217, -0.0700217, 0.194343, -0.534953, 0.814716,
    -0.465893, 0.0835204, 0.136474, -0.0785974, -0.0785974, 0, -0.23662, 0.317897, -0.288831,
    -1.00812, 1.18098, -0.0782015, 0.00873854, -0.61096, -0.0176808, -0.0947362, 1.03546,
    -0.416682, 0.258758, -0.271615, 0, 0, 0, 0, 0, 0, 0.118149, -0.129564, 0.0650897, 0.0388489,
    -0.670354, 0.486473, -0.405541, -0.176382, -1.26003, 0.611229, 0, 0.455852, 0.902452,
    0.177463, 1.00476, 0.0833102, 0.286556, 0.20192, 0.103258, -0.000409271,
};
// END GENERATED WEIGHTS
// clang-format on

// Features of c; corpus features stay 0 without statistics. With them, df is
// the candidate's document frequency in the corpus paper->logs was set to.
void Features(const Candidate& c, PaperCandidates* paper, const PhraseStats* stats, uint32_t df,
              float* f) {
  std::fill(f, f + kNumBase, 0.0f);
  const size_t words = c.n;
  const double tf = c.tf;
  f[kBias] = 1;
  f[kOneWord] = words == 1;
  f[kTwoWords] = words == 2;
  f[kThreeWords] = words == 3;
  f[kFourWords] = words >= 4;
  f[kWhole] = c.whole > 0;
  const CorpusLogs& logs = paper->logs;
  f[kLogWhole] = static_cast<float>(Log1pOfCount(static_cast<uint32_t>(c.whole)));
  f[kLogTf] = static_cast<float>(LogOfCount(static_cast<uint32_t>(c.tf)));
  f[kInTitle] = c.in_title;
  f[kFirstPosition] = static_cast<float>(c.first / std::max<double>(1, paper->tokens));
  double tf_sum = 0, tf_max = 0, pos_sum = 0, pos_max = 0, in_title = 0;
  for (size_t k = 0; k < words; ++k) {
    const HeadWord& h = paper->head_of(c.words[k]);
    double l = LogOfCount(static_cast<uint32_t>(std::max(1, h.tf)));
    tf_sum += l;
    tf_max = std::max(tf_max, l);
    pos_sum += h.position_weight;
    pos_max = std::max(pos_max, h.position_weight);
    in_title += h.in_title;
  }
  const std::string_view first = paper->str(paper->word(c.words[0]).text);
  const std::string_view text = paper->text(c);
  f[kWordTfMean] = static_cast<float>(tf_sum / words);
  f[kWordTfMax] = static_cast<float>(tf_max);
  f[kWordPositionMean] = static_cast<float>(pos_sum / words);
  f[kWordPositionMax] = static_cast<float>(pos_max);
  f[kTitleWordShare] = static_cast<float>(in_title / words);
  f[kLogSupersets] = static_cast<float>(Log1pOfCount(static_cast<uint32_t>(c.supersets)));
  f[kAdjectiveHead] = paper->head_of(c.words[words - 1]).adjective_suffix;
  f[kStartsIng] = EndsWith(first, "ing");
  f[kStartsEd] = EndsWith(first, "ed");
  f[kHyphen] = text.find('-') != std::string_view::npos;
  f[kSuffixShare] = static_cast<float>(c.suffix / tf);
  f[kPrefixShare] = static_cast<float>(c.prefix / tf);
  f[kMiddleShare] = static_cast<float>(c.middle / tf);
  f[kAcronym] = c.acronym;
  f[kCapitalized] = c.capitalized;
  f[kAfterArticleShare] = static_cast<float>(c.after_article / tf);
  f[kAfterOfShare] = static_cast<float>(c.after_of / tf);
  f[kBeforeOfShare] = static_cast<float>(c.before_of / tf);
  f[kChunkWords] = static_cast<float>(std::min(c.chunk_words, 6));
  if (stats) {
    // Smoothed specificity, not a filter: a phrase of one paper scores like
    // any other; very common phrases and words are penalized.
    const double log_n = logs.LogN1();
    const double idf = logs.Idf(df);
    if (words == 1) f[kUnigramIdf] = static_cast<float>(idf / log_n);
    if (words >= 2) {
      f[kLogDf] = static_cast<float>(LogOfCount(df));
      // Common: in more than 1% of the papers, and more than 10 of them (a
      // small store shares few phrases, none of them generic).
      f[kCommonPhrase] = static_cast<float>(std::max(0.0, logs.Common(df)));
      f[kShared] = df >= 2;
    }
    double sum = 0, lo = 1e9, hi = 0;
    for (size_t k = 0; k < words; ++k) {
      HeadWord& h = paper->head_of(c.words[k]);
      if (h.df < 0) SetHeadDf(&h, stats->DocFreq(h.hash), logs, log_n);
      double v = h.idf;
      sum += v;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    f[kWordIdfMean] = static_cast<float>(sum / words);
    f[kWordIdfMin] = static_cast<float>(lo);
    f[kWordIdfMax] = static_cast<float>(hi);
  }
}

// The crossed features of a full feature vector whose base part is set.
void CrossFeatures(float* f) {
  for (int i = 0; i < kNumCrossed; ++i) {
    f[kNumBase + i] = f[kCrossFrom + i] * f[kOneWord];
    f[kNumBase + kNumCrossed + i] = f[kCrossFrom + i] * (f[kThreeWords] + f[kFourWords]);
  }
}

// The model's logit of the base features f (the crossed ones implied).
// Not inlined: inlined into the scoring loop, its sum lived on the stack, a
// store and a load each term (the hubs store's extraction on one thread:
// 52.2 s inlined, 44.6 s not).
[[gnu::noinline]] double Logit(const double* w, const float* f) {
  double x = 0;
  for (int k = 0; k < kNumBase; ++k) x += w[k] * f[k];
  const double* cross = f[kOneWord] > 0                      ? w + kNumBase
                        : f[kThreeWords] + f[kFourWords] > 0 ? w + kNumBase + kNumCrossed
                                                             : nullptr;
  if (cross)
    for (int i = 0; i < kNumCrossed; ++i) x += cross[i] * f[kCrossFrom + i];
  return x;
}

double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// Does phrase big contain small as whole words?
bool ContainsWords(std::string_view big, std::string_view small) {
  if (big.size() <= small.size()) return false;
  for (size_t p = big.find(small); p != std::string_view::npos; p = big.find(small, p + 1)) {
    bool left = p == 0 || big[p - 1] == ' ';
    bool right = p + small.size() == big.size() || big[p + small.size()] == ' ';
    if (left && right) return true;
  }
  return false;
}

}  // namespace

std::string NormalizeKeyword(std::string_view text) {
  TokenText t(text, /*keep_long_words=*/true);
  std::string out;
  size_t last = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    if (!t.is_word(i)) continue;
    if (!out.empty()) out.push_back(' ');
    last = out.size();
    out.append(t.word(i));
  }
  if (out.empty()) return out;
  std::string head = Singular(std::string_view(out).substr(last));
  out.resize(last);
  out += head;
  return out;
}

std::string KeywordExtId(std::string_view normalized) { return "kw:" + std::string(normalized); }

uint64_t PhraseHash(std::string_view normalized) {
  uint64_t h = StringInterner::Hash(normalized);
  return h == 0 ? 1 : h;
}

namespace {
uint64_t PhraseHashOf(std::string_view s) { return PhraseHash(s); }
}  // namespace

void ForEachCandidate(std::string_view text,
                      const std::function<void(const std::string&, int, size_t, bool)>& fn) {
  PaperCandidates paper;
  paper.Clear(text.size());
  const Field& f = paper.Load(0, text);
  size_t scanned = 0, sentence = 0;
  std::string phrase;
  ForEachChunk(f, [&](size_t s, size_t e) {
    for (; scanned < s; ++scanned) {
      char p = f.t.token(scanned).punct;
      if (p == '.' || p == '!' || p == '?') ++sentence;
    }
    ForEachSpan(f, s, e, &paper, [&](size_t a, size_t b, uint32_t id) {
      phrase = paper.text(paper.cands[id]);
      fn(phrase, static_cast<int>(b - a), sentence, b == e);
    });
  });
}

const std::vector<std::string>& KeywordFeatureNames() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names(kBaseNames, kBaseNames + kNumBase);
    for (int i = kCrossFrom; i < kNumBase; ++i)
      names.push_back(std::string("one_word*") + kBaseNames[i]);
    for (int i = kCrossFrom; i < kNumBase; ++i)
      names.push_back(std::string("3+_words*") + kBaseNames[i]);
    return names;
  }();
  return kNames;
}

// ---- PhraseStats -------------------------------------------------------------

void PhraseStats::Grow() {
  std::vector<Slot> slots(std::max<size_t>(1 << 16, slots_.size() * 2), Slot{0, 0});
  size_t mask = slots.size() - 1;
  for (const Slot& s : slots_) {
    if (!s.key) continue;
    size_t j = s.key & mask;
    while (slots[j].key) j = (j + 1) & mask;
    slots[j] = s;
  }
  slots_.swap(slots);
}

void PhraseStats::Bump(uint64_t h) {
  if ((used_ + 1) * 2 > slots_.size()) Grow();
  size_t mask = slots_.size() - 1;
  size_t j = h & mask;
  while (slots_[j].key && slots_[j].key != h) j = (j + 1) & mask;
  if (!slots_[j].key) {
    slots_[j].key = h;
    ++used_;
  }
  ++slots_[j].count;
}

void PhraseKeysOf(std::string_view title, std::string_view abstract, std::vector<uint64_t>* keys) {
  PaperCandidates& paper = Scratch();
  CollectCandidates(title, abstract, /*details=*/false, &paper);
  keys->clear();
  keys->reserve(paper.cands.size() + paper.heads.size());
  for (const Candidate& c : paper.cands) keys->push_back(PhraseHash(paper.text(c)));
  for (const HeadWord& h : paper.heads)
    if (h.tf > 0) keys->push_back(h.hash);
  std::sort(keys->begin(), keys->end());
  keys->erase(std::unique(keys->begin(), keys->end()), keys->end());
}

void PhraseStats::AddDocument(std::string_view title, std::string_view abstract) {
  std::vector<uint64_t> keys;
  PhraseKeysOf(title, abstract, &keys);
  for (uint64_t h : keys) Bump(h);
  ++num_docs_;
}

size_t PhraseStats::size() const { return mapped_ ? sorted_size_ : used_; }

namespace {

// One lookup in an opened file's sorted hashes, a probe at a time. Hashes are
// uniform: interpolation search, ~4 probes of which the last ones fall on the
// page of the key, where bisection made ~22 scattered ones at 3M phrases.
// The keys of [lo, hi] lie strictly between key_lo and key_hi, and so does h;
// beyond kInterpolations probes (keys that are not uniform: a damaged file)
// it bisects, so a lookup stays O(log n).
class KeySearch {
 public:
  KeySearch(uint64_t h, size_t n) : h_(h), hi_(static_cast<int64_t>(n) - 1) {
    // The first probe: where h falls in [0, 2^64) scaled to n keys.
    const double frac = static_cast<double>(h) / kKeySpace;
    guess_ = std::clamp<int64_t>(static_cast<int64_t>(frac * static_cast<double>(n)), 0, hi_);
  }
  bool done() const { return lo_ > hi_; }  // absent
  uint64_t guess() const { return static_cast<uint64_t>(guess_); }
  // Takes the key at guess(); true when it is h (found at guess()).
  bool Step(uint64_t k) {
    if (k == h_) return true;
    if (k < h_) {
      lo_ = guess_ + 1;
      key_lo_ = static_cast<double>(k);
    } else {
      hi_ = guess_ - 1;
      key_hi_ = static_cast<double>(k);
    }
    if (lo_ > hi_) return false;
    guess_ = lo_ + (hi_ - lo_) / 2;
    if (++probe_ < kInterpolations) {
      // Doubles round: a guess is a guess, clamped into [lo, hi].
      const double frac = (static_cast<double>(h_) - key_lo_) / std::max(key_hi_ - key_lo_, 1.0);
      const double at = frac * static_cast<double>(hi_ - lo_ + 1);
      guess_ = lo_ + static_cast<int64_t>(std::clamp(at, 0.0, static_cast<double>(hi_ - lo_)));
    }
    return false;
  }

 private:
  static constexpr double kKeySpace = 18446744073709551616.0;
  static constexpr int kInterpolations = 8;
  uint64_t h_;
  int64_t lo_ = 0, hi_;
  double key_lo_ = 0, key_hi_ = kKeySpace;
  int64_t guess_;
  int probe_ = 0;
};

}  // namespace

uint32_t PhraseStats::DocFreq(uint64_t h) const {
  uint32_t df = 0;
  DocFreqs({&h, 1}, {&df, 1});
  return df;
}

void PhraseStats::DocFreqs(std::span<const uint64_t> hashes, std::span<uint32_t> out) const {
  if (!mapped_) {
    const size_t mask = slots_.size() - 1;
    for (size_t i = 0; i < hashes.size(); ++i) {
      out[i] = 0;
      if (slots_.empty()) continue;
      for (size_t j = hashes[i] & mask; slots_[j].key; j = (j + 1) & mask)
        if (slots_[j].key == hashes[i]) {
          out[i] = slots_[j].count;
          break;
        }
    }
    return;
  }
  std::fill(out.begin(), out.end(), 0u);
  if (sorted_size_ == 0) return;
  // Up to kWindow searches in flight; a finished one's place goes to the
  // next hash. A found key's count is prefetched and read at the end.
  constexpr size_t kWindow = 16;
  struct Slot {
    size_t i;
    KeySearch search;
  };
  std::vector<Slot> window;
  window.reserve(kWindow);
  std::vector<std::pair<size_t, uint64_t>> found;  // (index in hashes, position)
  size_t next = 0;
  auto start = [&] {
    while (window.size() < kWindow && next < hashes.size()) {
      window.push_back({next, KeySearch(hashes[next], sorted_size_)});
      file_.Prefetch(keys_at_ + window.back().search.guess() * 8);
      ++next;
    }
  };
  start();
  while (!window.empty()) {
    for (size_t w = 0; w < window.size();) {
      Slot& s = window[w];
      const uint8_t* kp = file_.Read(keys_at_ + s.search.guess() * 8, 8);
      bool finished = !kp;  // damaged: status() says so
      if (kp) {
        uint64_t k;
        std::memcpy(&k, kp, 8);
        if (s.search.Step(k)) {
          found.emplace_back(s.i, s.search.guess());
          file_.Prefetch(counts_at_ + s.search.guess() * 4);
          finished = true;
        } else if (s.search.done()) {
          finished = true;
        } else {
          file_.Prefetch(keys_at_ + s.search.guess() * 8);
        }
      }
      if (finished) {
        window[w] = window.back();
        window.pop_back();
      } else {
        ++w;
      }
    }
    start();
  }
  for (const auto& [i, at] : found)
    if (const uint8_t* cp = file_.Read(counts_at_ + at * 4, 4)) std::memcpy(&out[i], cp, 4);
}

Status PhraseStats::Write(const std::string& path, const FileIdentity& id) const {
  std::vector<std::pair<uint64_t, uint32_t>> kept;
  for (const Slot& s : slots_)
    if (s.key && s.count >= 2) kept.emplace_back(s.key, s.count);
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
  LITGRAPH_RETURN_IF_ERROR(ReadStatsHeader(file_, path, &h));
  num_docs_ = h.num_docs;
  sorted_size_ = h.count;
  keys_at_ = sizeof h;
  counts_at_ = sizeof h + h.count * 8;
  mapped_ = true;
  return Status::Ok();
}

// ---- KeywordExtractor ------------------------------------------------------

namespace {

struct Scored {
  uint32_t cand;
  double logit;
  bool known;  // a Keyword node already (query mode)
};

// Scores every candidate of paper, in candidate order (BetterScored below
// ranks them); features too when out_features is set (kNumFeatures floats
// per candidate).
std::vector<Scored> ScoreCandidates(PaperCandidates& paper, const PhraseStats* stats,
                                    const std::function<bool(const std::string&)>& known,
                                    std::vector<float>* out_features) {
  // Under kMinCorpusDocs papers, document frequencies say little about
  // specificity: the text-only model scores then.
  const bool use_stats = stats && stats->num_docs() >= kMinCorpusDocs;
  const double n = use_stats ? static_cast<double>(stats->num_docs()) : 0;
  const double* weights = use_stats ? kCorpusWeights : kTextWeights;
  std::vector<float> local(kNumFeatures);
  if (out_features) out_features->assign(paper.cands.size() * kNumFeatures, 0.0f);
  std::vector<Scored> scored;
  scored.reserve(paper.cands.size());
  // Every document frequency the features need, looked up at once (their
  // cache misses overlap): the candidates', then their words'.
  std::vector<uint64_t>& keys = paper.df_keys;
  std::vector<uint32_t>& dfs = paper.dfs;
  keys.clear();
  dfs.clear();
  if (use_stats) {
    for (const Candidate& c : paper.cands) keys.push_back(PhraseHash(paper.text(c)));
    for (const HeadWord& h : paper.heads) keys.push_back(h.hash);
    dfs.resize(keys.size());
    stats->DocFreqs(keys, dfs);
    paper.logs.SetCorpus(n);
    const double log_n = paper.logs.LogN1();
    for (size_t j = 0; j < paper.heads.size(); ++j)
      SetHeadDf(&paper.heads[j], dfs[paper.cands.size() + j], paper.logs, log_n);
  }
  for (uint32_t i = 0; i < paper.cands.size(); ++i) {
    const Candidate& c = paper.cands[i];
    // The paper itself counts when it is not part of the counted corpus.
    const std::string_view text = paper.text(c);
    uint32_t df = use_stats ? std::max<uint32_t>(1, dfs[i]) : 0;
    float* f =
        out_features ? out_features->data() + static_cast<size_t>(i) * kNumFeatures : local.data();
    Features(c, &paper, use_stats ? stats : nullptr, df, f);
    double logit = Logit(weights, f);
    if (out_features) CrossFeatures(f);
    // Reusability prior: a multi-word phrase other papers use too is a
    // better graph node (the fitted weights are indifferent to it on Inspec).
    if (use_stats && c.n >= 2) logit += kReuseWeight * LogOfCount(df);
    const bool is_known = known && known(std::string(text));
    if (is_known) logit += kKnownBoost;
    scored.push_back({i, logit, is_known});
  }
  return scored;
}

// The ranking of scored candidates: best first, ties by text, so that
// different phrases never tie.
auto BetterScored(const PaperCandidates& paper) {
  return [&paper](const Scored& a, const Scored& b) {
    if (a.logit != b.logit) return a.logit > b.logit;
    return paper.text(paper.cands[a.cand]) < paper.text(paper.cands[b.cand]);
  };
}

}  // namespace

KeywordExtractor::KeywordExtractor(const PhraseStats* stats,
                                   std::function<bool(const std::string&)> known)
    : stats_(stats), known_(std::move(known)) {}

std::vector<KeywordCandidate> KeywordExtractor::Candidates(std::string_view title,
                                                           std::string_view abstract) const {
  PaperCandidates& paper = Scratch();
  CollectCandidates(title, abstract, /*details=*/true, &paper);
  std::vector<float> features;
  std::vector<Scored> scored = ScoreCandidates(paper, stats_, known_, &features);
  std::sort(scored.begin(), scored.end(), BetterScored(paper));
  std::vector<KeywordCandidate> out;
  out.reserve(scored.size());
  for (const Scored& s : scored) {
    const float* f = features.data() + static_cast<size_t>(s.cand) * kNumFeatures;
    out.push_back({std::string(paper.text(paper.cands[s.cand])),
                   std::vector<float>(f, f + kNumFeatures), s.logit});
  }
  return out;
}

std::vector<Keyword> KeywordExtractor::Extract(std::string_view title, std::string_view abstract,
                                               const ExtractOptions& options) const {
  PaperCandidates& paper = Scratch();
  CollectCandidates(title, abstract, /*details=*/true, &paper);
  std::vector<Scored> scored = ScoreCandidates(paper, stats_, known_, nullptr);
  std::vector<Keyword> out;
  if (scored.empty()) return out;
  // The best first, taken from a heap: a long paper has thousands of
  // candidates, and only the first few are read.
  const auto better = BetterScored(paper);
  const auto worse = [&](const Scored& a, const Scored& b) { return better(b, a); };
  std::make_heap(scored.begin(), scored.end(), worse);
  const double best = Sigmoid(scored.front().logit);
  std::vector<const Candidate*> chosen;
  std::vector<double> probability;
  for (size_t left = scored.size(); left > 0; --left) {
    if (chosen.size() >= options.max_keywords) break;
    std::pop_heap(scored.begin(), scored.begin() + static_cast<long>(left), worse);
    const Scored& s = scored[left - 1];
    const Candidate& c = paper.cands[s.cand];
    // A fragment of a chosen phrase that never stands alone in the paper
    // ("value problem" of "boundary value problem") adds nothing, unless it
    // is a Keyword node (query mode: "open access" of "open access article"
    // is what links the query to the graph).
    bool fragment = false;
    for (const Candidate* o : chosen)
      if (c.whole == 0 && !s.known && ContainsWords(paper.text(*o), paper.text(c))) fragment = true;
    if (fragment) continue;
    const double p = Sigmoid(s.logit);
    if (chosen.size() >= options.min_keywords && p < options.keep_ratio * best) break;
    chosen.push_back(&c);
    probability.push_back(p);
  }
  // Importance: 10 x the probability relative to the best, made strictly
  // decreasing over the first ten ranks (as close to that as the ranks
  // allow), so that the integers stored keep the ranking; 1 beyond.
  const int ranked = static_cast<int>(std::min<size_t>(chosen.size(), 10));
  for (size_t i = 0; i < chosen.size(); ++i) {
    int importance = std::clamp(static_cast<int>(std::lround(10.0 * probability[i] / best)), 1, 10);
    int rank = static_cast<int>(i);
    if (rank < ranked) {
      if (i > 0) importance = std::min(importance, out.back().score - 1);
      importance = std::max(importance, ranked - rank);
    } else {
      importance = 1;
    }
    out.push_back({std::string(paper.text(*chosen[i])), importance, Surface(paper, *chosen[i])});
  }
  return out;
}

}  // namespace litgraph
