// Text utilities shared by ingest, search and the built-in models.
//
// All functions are pure and thread-safe. Text is UTF-8; letters outside ASCII
// are folded to ASCII where a Latin base letter exists (é -> e, ß -> ss) and
// kept as-is otherwise, so that titles in other scripts still normalize to
// something non-empty.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace litgraph {

// Lowercased words of letters and digits, diacritics folded; everything else
// separates words. "Graph-based Q&A, 2nd ed." -> {"graph","based","q","a","2nd","ed"}.
std::vector<std::string> Words(std::string_view text);

// The same words without allocating: calls fn(std::string_view word) for each;
// the view is valid only during the call. ASCII text takes a fast path.
template <typename Fn>
void ForEachWord(std::string_view text, Fn&& fn);

// Title normalization for exact matching (SciAtlas section 3.1): letters only,
// lowercase, no spaces or punctuation. "Pre-Training of BERT!" -> "pretrainingofbert".
std::string NormalizeTitleKey(std::string_view title);

// Letters-only words joined by single spaces: the form the fuzzy matcher
// compares ("Pre-Training of BERT!" -> "pre training of bert").
std::string NormalizeTitleWords(std::string_view title);

// Length of the longest common subsequence of a and b (bit-parallel, O(|a||b|/64)).
size_t LcsLength(std::string_view a, std::string_view b);

// seq(a, b) = 2 * LCS(a, b) / (|a| + |b|), 1.0 for two empty strings.
// The seed paper defines seq by the longest common subsequence; we use that
// (not difflib's Ratcliff/Obershelp ratio the reference code calls).
double SequenceSimilarity(std::string_view a, std::string_view b);

// Jaccard overlap of the two titles' word sets.
double TokenJaccard(std::string_view a_words, std::string_view b_words);

// Title match score, SciAtlas eq. 5: 1.0 for equal NormalizeTitleKey forms,
// else 0.65 * seq + 0.35 * jaccard over NormalizeTitleWords forms.
double TitleMatchScore(std::string_view a, std::string_view b);

// DOI in canonical bare lowercase form ("10.1234/abc") from a bare DOI, a
// doi.org / dx.doi.org URL or a "doi:" prefix. Empty when it is not a DOI.
std::string NormalizeDoi(std::string_view doi);

// An OpenAlex id in short form ("W2741809807") from a URL or short id; empty
// when s is not an OpenAlex id. Accepts https://openalex.org/W1 and
// https://api.openalex.org/works/W1. Topic-hierarchy ids keep their path
// ("subfields/1804").
std::string ShortOpenAlexId(std::string_view s);

// Lowercased, diacritic-folded, whitespace-collapsed name for author / venue
// matching ("Hajič,  Jan" -> "hajic jan").
std::string NormalizeName(std::string_view name);

// Rebuilds text from an OpenAlex abstract_inverted_index given as
// (word, positions) pairs. Missing positions are skipped.
std::string AbstractFromInvertedIndex(
    const std::vector<std::pair<std::string, std::vector<uint32_t>>>& index);

// Appends the UTF-8 encoding of code point cp.
void AppendUtf8(uint32_t cp, std::string* out);

// Decodes one UTF-8 code point at s[*i], advancing *i; invalid bytes decode
// as U+FFFD and advance by one.
uint32_t DecodeUtf8(std::string_view s, size_t* i);

// The length of the valid UTF-8 sequence starting at s[i] (a byte >= 0x80),
// or 0: no overlong forms, surrogates or code points above U+10FFFF (what XML
// parsers and terminals refuse).
size_t Utf8Length(std::string_view s, size_t i);

// Folding of a code point: appends the lowercase ASCII it folds to ("é" ->
// "e", "Æ" -> "ae"), or for other scripts the (lowercased, for Greek and
// Cyrillic) letter itself with *is_other_letter set, and returns true;
// returns false for separators and combining marks.
bool FoldLetter(uint32_t cp, std::string* out, bool* is_other_letter);

namespace text_internal {
// Appends the folded form of the code point starting at text[*i] (advancing
// *i) to *word; returns false when it is a separator.
bool FoldNonAscii(std::string_view text, size_t* i, std::string* word);
}  // namespace text_internal

template <typename Fn>
void ForEachWord(std::string_view text, Fn&& fn) {
  std::string word;
  size_t i = 0;
  const size_t n = text.size();
  while (i < n) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      ++i;
      if (c >= 'a' && c <= 'z') {
        word.push_back(static_cast<char>(c));
      } else if (c >= 'A' && c <= 'Z') {
        word.push_back(static_cast<char>(c - 'A' + 'a'));
      } else if (c >= '0' && c <= '9') {
        word.push_back(static_cast<char>(c));
      } else if (!word.empty()) {
        fn(std::string_view(word));
        word.clear();
      }
    } else if (!text_internal::FoldNonAscii(text, &i, &word) && !word.empty()) {
      fn(std::string_view(word));
      word.clear();
    }
  }
  if (!word.empty()) {
    fn(std::string_view(word));
    word.clear();
  }
}

}  // namespace litgraph
