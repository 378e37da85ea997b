#include "litgraph/text.h"

#include <algorithm>
#include <bit>
#include <map>
#include <unordered_set>

namespace litgraph {

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

size_t Utf8Length(std::string_view s, size_t i) {
  auto at = [&](size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0; };
  const unsigned char c = at(0);
  auto cont = [&](size_t k) { return (at(k) & 0xC0) == 0x80; };
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    const unsigned char lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    return at(1) >= lo && at(1) <= hi && cont(2) ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    const unsigned char lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    return at(1) >= lo && at(1) <= hi && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

uint32_t DecodeUtf8(std::string_view s, size_t* i) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(*i);
  if (c < 0x80) {
    ++*i;
    return c;
  }
  int len = (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (len == 0 || *i + len > s.size()) {
    ++*i;
    return 0xFFFD;
  }
  uint32_t cp = c & (0xFF >> (len + 1));
  for (int k = 1; k < len; ++k) {
    unsigned char cc = b(*i + k);
    if ((cc & 0xC0) != 0x80) {
      ++*i;
      return 0xFFFD;
    }
    cp = (cp << 6) | (cc & 0x3F);
  }
  *i += len;
  return cp;
}

namespace {

// U+00C0..U+00FF and U+0100..U+017F folded to ASCII; '.' = not a letter,
// '1' = "ae", '2' = "th", '3' = "ss", '4' = "ij", '5' = "oe".
constexpr std::string_view kLatin1 =
    "aaaaaa1ceeeeiiii"   // C0-CF
    "dnooooo.ouuuuy23"   // D0-DF
    "aaaaaa1ceeeeiiii"   // E0-EF
    "dnooooo.ouuuuy2y";  // F0-FF
constexpr std::string_view kLatinExtA =
    "aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiii44jjkkkllllllllllnnnnnnnnnoooooo55"
    "rrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzs";

void AppendFold(char f, std::string* out) {
  switch (f) {
    case '1':
      *out += "ae";
      break;
    case '2':
      *out += "th";
      break;
    case '3':
      *out += "ss";
      break;
    case '4':
      *out += "ij";
      break;
    case '5':
      *out += "oe";
      break;
    default:
      out->push_back(f);
  }
}

bool IsSeparatorCodePoint(uint32_t cp) {
  return cp < 0x80 || (cp >= 0x80 && cp < 0xC0) || cp == 0xD7 || cp == 0xF7 ||
         (cp >= 0x2000 && cp <= 0x2BFF) || (cp >= 0x3000 && cp <= 0x303F) ||
         (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF20) || cp == 0xFFFD;
}

// Lowercase of Greek and Cyrillic capitals (the scripts seen in titles
// besides Latin); other code points unchanged.
uint32_t LowerNonLatin(uint32_t cp) {
  if (cp >= 0x391 && cp <= 0x3A9 && cp != 0x3A2) return cp + 0x20;  // Greek
  if (cp >= 0x410 && cp <= 0x42F) return cp + 0x20;                 // Cyrillic
  if (cp >= 0x400 && cp <= 0x40F) return cp + 0x50;                 // Cyrillic Ѐ..Џ
  return cp;
}

// Appends the folded form of cp when it is a letter (digits too when
// with_digits); returns whether anything was appended.
bool FoldInto(uint32_t cp, bool with_digits, std::string* out) {
  if (cp < 0x80) {
    char c = static_cast<char>(cp);
    if (c >= 'A' && c <= 'Z') {
      out->push_back(static_cast<char>(c - 'A' + 'a'));
      return true;
    }
    if ((c >= 'a' && c <= 'z') || (with_digits && c >= '0' && c <= '9')) {
      out->push_back(c);
      return true;
    }
    return false;
  }
  bool other = false;
  return FoldLetter(cp, out, &other);
}

// Folded words joined by single spaces; digits split words unless with_digits.
std::string JoinedWords(std::string_view text, bool with_digits) {
  std::string out, cur;
  auto flush = [&] {
    if (cur.empty()) return;
    if (!out.empty()) out.push_back(' ');
    out += cur;
    cur.clear();
  };
  size_t i = 0;
  while (i < text.size()) {
    uint32_t cp = DecodeUtf8(text, &i);
    if (cp >= 0x300 && cp <= 0x36F) continue;
    if (!FoldInto(cp, with_digits, &cur)) flush();
  }
  flush();
  return out;
}

}  // namespace

bool FoldLetter(uint32_t cp, std::string* out, bool* is_other_letter) {
  *is_other_letter = false;
  if (cp < 0x80) {
    char c = static_cast<char>(cp);
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      out->push_back(c);
      return true;
    }
    return false;
  }
  if (cp >= 0xC0 && cp <= 0xFF) {
    char f = kLatin1[cp - 0xC0];
    if (f == '.') return false;
    AppendFold(f, out);
    return true;
  }
  if (cp >= 0x100 && cp <= 0x17F) {
    AppendFold(kLatinExtA[cp - 0x100], out);
    return true;
  }
  // Combining diacritical marks vanish (decomposed "e\u0301" -> "e").
  if (cp >= 0x300 && cp <= 0x36F) return false;
  if (IsSeparatorCodePoint(cp)) return false;
  *is_other_letter = true;  // Greek, Cyrillic, CJK, ...: kept, lowercased
  AppendUtf8(LowerNonLatin(cp), out);
  return true;
}

namespace text_internal {
bool FoldNonAscii(std::string_view text, size_t* i, std::string* word) {
  uint32_t cp = DecodeUtf8(text, i);
  if (cp >= 0x300 && cp <= 0x36F) return true;  // combining mark inside a word
  return FoldInto(cp, true, word);
}
}  // namespace text_internal

std::vector<std::string> Words(std::string_view text) {
  std::vector<std::string> words;
  ForEachWord(text, [&](std::string_view w) { words.emplace_back(w); });
  return words;
}

std::string NormalizeTitleKey(std::string_view title) {
  std::string out;
  out.reserve(title.size());
  size_t i = 0;
  while (i < title.size()) FoldInto(DecodeUtf8(title, &i), false, &out);
  return out;
}

std::string NormalizeTitleWords(std::string_view title) { return JoinedWords(title, false); }

size_t LcsLength(std::string_view a, std::string_view b) {
  if (a.empty() || b.empty()) return 0;
  if (a.size() < b.size()) std::swap(a, b);  // bits over the longer string
  const size_t m = a.size();
  const size_t words = (m + 63) / 64;
  std::vector<uint64_t> match(256 * words, 0);
  for (size_t i = 0; i < m; ++i)
    match[static_cast<unsigned char>(a[i]) * words + i / 64] |= uint64_t{1} << (i % 64);
  std::vector<uint64_t> v(words, ~uint64_t{0});
  for (unsigned char c : b) {
    const uint64_t* mc = &match[c * words];
    uint64_t carry = 0;
    for (size_t w = 0; w < words; ++w) {
      uint64_t u = v[w] & mc[w];
      uint64_t sum = v[w] + u;
      uint64_t c1 = sum < v[w];
      uint64_t sum2 = sum + carry;
      uint64_t c2 = sum2 < sum;
      v[w] = sum2 | (v[w] & ~u);
      carry = c1 | c2;
    }
  }
  size_t zeros = 0;
  for (size_t w = 0; w < words; ++w) {
    uint64_t x = ~v[w];
    if (w == words - 1 && m % 64 != 0) x &= (uint64_t{1} << (m % 64)) - 1;
    zeros += static_cast<size_t>(std::popcount(x));
  }
  return zeros;
}

double SequenceSimilarity(std::string_view a, std::string_view b) {
  if (a.empty() && b.empty()) return 1.0;
  return 2.0 * static_cast<double>(LcsLength(a, b)) / static_cast<double>(a.size() + b.size());
}

double TokenJaccard(std::string_view a_words, std::string_view b_words) {
  auto split = [](std::string_view s) {
    std::unordered_set<std::string_view> out;
    size_t p = 0;
    while (p < s.size()) {
      size_t e = s.find(' ', p);
      if (e == std::string_view::npos) e = s.size();
      if (e > p) out.insert(s.substr(p, e - p));
      p = e + 1;
    }
    return out;
  };
  auto sa = split(a_words), sb = split(b_words);
  if (sa.empty() && sb.empty()) return 1.0;
  size_t inter = 0;
  for (auto w : sa) inter += sb.count(w);
  return static_cast<double>(inter) / static_cast<double>(sa.size() + sb.size() - inter);
}

double TitleMatchScore(std::string_view a, std::string_view b) {
  std::string ka = NormalizeTitleKey(a), kb = NormalizeTitleKey(b);
  if (!ka.empty() && ka == kb) return 1.0;
  std::string wa = NormalizeTitleWords(a), wb = NormalizeTitleWords(b);
  if (wa.empty() || wb.empty()) return 0.0;  // titles without letters never match
  return 0.65 * SequenceSimilarity(wa, wb) + 0.35 * TokenJaccard(wa, wb);
}

std::string NormalizeDoi(std::string_view doi) {
  std::string s;
  for (char c : doi) s.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  auto trim = [](std::string& x) {
    size_t a = x.find_first_not_of(" \t\r\n");
    size_t b = x.find_last_not_of(" \t\r\n");
    x = a == std::string::npos ? "" : x.substr(a, b - a + 1);
  };
  trim(s);
  for (std::string_view prefix : {"https://doi.org/", "http://doi.org/", "https://dx.doi.org/",
                                  "http://dx.doi.org/", "doi.org/", "doi:"}) {
    if (s.rfind(prefix, 0) == 0) {
      s = s.substr(prefix.size());
      trim(s);
      break;
    }
  }
  if (s.size() < 4 || s.rfind("10.", 0) != 0 || s.find('/') == std::string::npos) return "";
  return s;
}

std::string ShortOpenAlexId(std::string_view s) {
  for (std::string_view prefix : {"https://openalex.org/", "http://openalex.org/",
                                  "https://api.openalex.org/", "openalex.org/"}) {
    if (s.rfind(prefix, 0) == 0) {
      s.remove_prefix(prefix.size());
      break;
    }
  }
  // API paths: works/W1, authors/A1, ... (but keep subfields/1804 etc.)
  for (std::string_view coll : {"works/", "authors/", "institutions/", "sources/", "topics/",
                                "concepts/", "funders/", "publishers/", "keywords/"}) {
    if (s.rfind(coll, 0) == 0 && s.size() > coll.size() &&
        std::isalpha(static_cast<unsigned char>(s[coll.size()])) && coll != "keywords/") {
      s.remove_prefix(coll.size());
      break;
    }
  }
  for (std::string_view coll : {"subfields/", "fields/", "domains/", "keywords/"}) {
    if (s.rfind(coll, 0) == 0 && s.size() > coll.size()) return std::string(s);
  }
  if (s.size() < 2) return "";
  char k = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  if (std::string_view("WAISTCFP").find(k) == std::string_view::npos) return "";
  for (size_t i = 1; i < s.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return "";
  std::string out(s);
  out[0] = k;
  return out;
}

std::string NormalizeName(std::string_view name) { return JoinedWords(name, true); }

std::string AbstractFromInvertedIndex(
    const std::vector<std::pair<std::string, std::vector<uint32_t>>>& index) {
  std::vector<std::pair<uint32_t, const std::string*>> slots;
  for (const auto& [word, positions] : index)
    for (uint32_t p : positions) slots.emplace_back(p, &word);
  std::sort(slots.begin(), slots.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out;
  for (size_t i = 0; i < slots.size(); ++i) {
    if (i > 0 && slots[i].first == slots[i - 1].first) continue;  // duplicate position
    if (!out.empty()) out.push_back(' ');
    out += *slots[i].second;
  }
  return out;
}

}  // namespace litgraph
