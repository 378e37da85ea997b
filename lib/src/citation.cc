#include "litgraph/citation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <vector>

namespace litgraph {

namespace {

// Splits on ASCII spaces, dropping empty words.
std::vector<std::string> Words(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    size_t j = i;
    while (j < s.size() && s[j] != ' ') ++j;
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

// Words [from, to) joined by single spaces (all of them by default).
std::string Join(const std::vector<std::string>& words, size_t from = 0,
                 size_t to = std::string::npos) {
  std::string s;
  for (size_t i = from; i < std::min(to, words.size()); ++i) s += (s.empty() ? "" : " ") + words[i];
  return s;
}

// Text on one line: control characters (tabs and line breaks too) as spaces.
std::string OneLine(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';
  return out;
}

// Lower-case ASCII for the Latin letters of U+00C0..U+017F: one letter
// each, '*' for the ligatures (Æ ß Þ Ĳ Œ), ' ' for × and ÷.
constexpr std::string_view kLatin1 =
    "aaaaaa*ceeeeiiiidnooooo ouuuuy**aaaaaa*ceeeeiiiidnooooo ouuuuy*y";
constexpr std::string_view kLatinA =
    "aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiii**jjkkkllllllllllnnnnnnnnnoooooo**rrrrrrs"
    "sssssssttttttuuuuuuuuuuuuwwyyyzzzzzzs";
static_assert(kLatin1.size() == 0x40 && kLatinA.size() == 0x80);

std::string_view Ligature(uint32_t cp) {
  switch (cp) {
    case 0xC6:
    case 0xE6:
      return "ae";
    case 0xDF:
      return "ss";
    case 0xDE:
    case 0xFE:
      return "th";
    case 0x132:
    case 0x133:
      return "ij";
    default:
      return "oe";  // U+0152, U+0153
  }
}

// Lower-case ASCII letters and digits of s; every other character (letters
// of other scripts too) becomes a space.
std::string FoldAscii(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      out += std::isalnum(c) ? static_cast<char>(std::tolower(c)) : ' ';
      ++i;
      continue;
    }
    size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    uint32_t cp = 0;
    if (n == 2 && i + 1 < s.size())
      cp = ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(s[i + 1]) & 0x3Fu);
    char folded = ' ';
    if (cp >= 0xC0 && cp < 0x100)
      folded = kLatin1[cp - 0xC0];
    else if (cp >= 0x100 && cp < 0x180)
      folded = kLatinA[cp - 0x100];
    if (folded == '*')
      out += Ligature(cp);
    else
      out += folded;
    i += n;
  }
  return out;
}

bool IsFunctionWord(std::string_view w) {
  static constexpr std::string_view kWords[] = {
      "a",    "an",   "the", "on", "of",   "in",  "for",  "and",    "to",
      "with", "from", "by",  "at", "via",  "is",  "are",  "toward", "towards",
      "what", "how",  "why", "do", "does", "can", "into", "about",  "using"};
  return std::find(std::begin(kWords), std::end(kWords), w) != std::end(kWords);
}

bool IsSuffix(std::string_view w) {
  return w == "Jr." || w == "Jr" || w == "Sr." || w == "Sr" || w == "II" || w == "III" || w == "IV";
}

std::string Text(const Json& paper, const char* key) {
  auto it = paper.find(key);
  return it != paper.end() && it->is_string() ? it->get<std::string>() : std::string();
}

int Year(const Json& paper) {
  auto it = paper.find("year");
  return it != paper.end() && it->is_number_integer() ? it->get<int>() : 0;
}

std::vector<std::string> Authors(const Json& paper) {
  std::vector<std::string> out;
  auto it = paper.find("authors");
  if (it == paper.end() || !it->is_array()) return out;
  for (const Json& a : *it) {
    // Paper records list names; paper cards list objects with a name.
    if (a.is_string())
      out.push_back(OneLine(a.get<std::string>()));
    else if (a.is_object() && a.contains("name") && a["name"].is_string())
      out.push_back(OneLine(a["name"].get<std::string>()));
  }
  return out;
}

struct PersonParts {
  PersonName name;
  std::string suffix;
};

PersonParts SplitName(std::string_view display) {
  std::string s = OneLine(display);
  if (size_t comma = s.find(','); comma != std::string::npos)  // "Family, Given"
    return {{Join(Words(s.substr(0, comma))), Join(Words(s.substr(comma + 1)))}, ""};
  std::vector<std::string> w = Words(s);
  PersonParts p;
  // "Research and Development": an organization, kept whole.
  if (std::find_if(w.begin(), w.end(), [](const std::string& x) {
        return x == "and" || x == "AND" || x == "&";
      }) != w.end()) {
    p.name.family = Join(w);
    return p;
  }
  if (w.size() > 1 && IsSuffix(w.back())) {
    p.suffix = w.back();
    w.pop_back();
  }
  if (w.size() <= 1) {
    p.name.family = w.empty() ? "" : w[0];
    return p;
  }
  // The family name is the last word and the lower-case particles before it
  // ("van", "de la"), never the first word.
  size_t start = w.size() - 1;
  while (start > 1 && std::islower(static_cast<unsigned char>(w[start - 1][0]))) --start;
  p.name.family = Join(w, start, w.size());
  p.name.given = Join(w, 0, start);
  return p;
}

enum class Kind {
  kJournal,
  kConference,
  kChapter,
  kBook,
  kThesis,
  kReport,
  kDataset,
  kPreprint,
  kMisc
};

bool ConferenceVenue(const std::string& venue) {
  std::string v = FoldAscii(venue);
  for (std::string_view word :
       {"proceedings", "conference", "workshop", "symposium", "congress", "meeting"})
    if (v.find(word) != std::string::npos) return true;
  return false;
}

Kind EntryKind(const Json& paper) {
  const std::string type = Text(paper, "work_type"), venue = Text(paper, "venue");
  if (type == "book-chapter") return Kind::kChapter;
  if (type == "book" || type == "monograph" || type == "edited-book") return Kind::kBook;
  if (type == "dissertation") return Kind::kThesis;
  if (type == "report") return Kind::kReport;
  if (type == "dataset") return Kind::kDataset;
  if (type == "preprint" || type == "posted-content") return Kind::kPreprint;
  if (type == "proceedings-article" || (!venue.empty() && ConferenceVenue(venue)))
    return Kind::kConference;
  return venue.empty() ? Kind::kMisc : Kind::kJournal;
}

// A DOI or URL as BibTeX takes it (biblatex reads these fields verbatim, so
// no LaTeX escapes): one line, no braces or spaces.
std::string Verbatim(std::string_view s) {
  std::string out;
  for (char c : OneLine(s))
    if (c != '{' && c != '}' && c != ' ') out += c;
  return out;
}

std::string Url(const Json& paper) {
  std::string url = Text(paper, "landing_page_url");
  if (!url.empty()) return url;
  std::string id = Text(paper, "id");
  bool openalex =
      id.size() > 1 && id[0] == 'W' &&
      std::all_of(id.begin() + 1, id.end(), [](char c) { return c >= '0' && c <= '9'; });
  return openalex ? "https://openalex.org/" + id : "";
}

}  // namespace

PersonName SplitPersonName(std::string_view display_name) {
  PersonParts p = SplitName(display_name);
  if (!p.suffix.empty()) p.name.family += " " + p.suffix;
  return p.name;
}

std::string CitationKey(const Json& paper) {
  std::vector<std::string> authors = Authors(paper);
  std::string name;
  if (!authors.empty())
    for (const std::string& w : Words(FoldAscii(SplitName(authors[0]).name.family))) name += w;
  if (name.empty()) name = "anon";
  int year = Year(paper);
  std::string key = name + (year > 0 ? std::to_string(year) : "nd");
  for (const std::string& w : Words(FoldAscii(Text(paper, "title"))))
    if (!IsFunctionWord(w)) return key + w;
  return key;
}

std::string LatexEscape(std::string_view text) {
  std::string out;
  for (char c : OneLine(text)) {
    switch (c) {
      case '\\':
        out += "\\textbackslash{}";
        break;
      case '~':
        out += "\\textasciitilde{}";
        break;
      case '^':
        out += "\\textasciicircum{}";
        break;
      case '{':
      case '}':
      case '$':
      case '&':
      case '%':
      case '#':
      case '_':
        out += '\\';
        out += c;
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string BibtexEntry(const Json& paper, const std::string& key) {
  const Kind kind = EntryKind(paper);
  const char* type = "misc";
  const char* venue_field = "howpublished";
  switch (kind) {
    case Kind::kJournal:
      type = "article", venue_field = "journal";
      break;
    case Kind::kConference:
      type = "inproceedings", venue_field = "booktitle";
      break;
    case Kind::kChapter:
      type = "incollection", venue_field = "booktitle";
      break;
    case Kind::kBook:
      type = "book", venue_field = "publisher";
      break;
    case Kind::kThesis:
      type = "phdthesis", venue_field = "school";
      break;
    case Kind::kReport:
      type = "techreport", venue_field = "institution";
      break;
    default:
      break;
  }
  std::vector<std::pair<std::string, std::string>> fields;
  std::string authors;
  for (const std::string& a : Authors(paper)) {
    PersonParts p = SplitName(a);
    std::string name = LatexEscape(p.name.family);
    if (!p.suffix.empty()) name += ", " + LatexEscape(p.suffix);
    if (!p.name.given.empty()) name += ", " + LatexEscape(p.name.given);
    // An organization's name stays one name: braces keep its "and" from
    // splitting it into two authors.
    if (p.name.given.empty() && Words(p.name.family).size() > 1) name = "{" + name + "}";
    authors += (authors.empty() ? "" : " and ") + name;
  }
  if (!authors.empty()) fields.emplace_back("author", authors);
  // Double braces keep the title's capitals (acronyms, names) as written.
  fields.emplace_back("title", "{" + LatexEscape(Text(paper, "title")) + "}");
  if (std::string venue = Text(paper, "venue"); !venue.empty())
    fields.emplace_back(venue_field, LatexEscape(venue));
  if (int year = Year(paper); year > 0) fields.emplace_back("year", std::to_string(year));
  if (std::string doi = Verbatim(Text(paper, "doi")); !doi.empty()) fields.emplace_back("doi", doi);
  if (std::string url = Verbatim(Url(paper)); !url.empty()) fields.emplace_back("url", url);
  std::string s = fmt::format("@{}{{{}", type, key);
  for (const auto& [name, value] : fields) s += fmt::format(",\n  {} = {{{}}}", name, value);
  return s + "\n}\n";
}

std::string RisEntry(const Json& paper) {
  static constexpr const char* kTypes[] = {"JOUR", "CONF", "CHAP", "BOOK", "THES",
                                           "RPRT", "DATA", "UNPB", "GEN"};
  std::string s = fmt::format("TY  - {}\n", kTypes[static_cast<int>(EntryKind(paper))]);
  auto line = [&](const char* tag, const std::string& value) {
    if (!value.empty()) s += fmt::format("{}  - {}\n", tag, OneLine(value));
  };
  for (const std::string& a : Authors(paper)) {
    PersonParts p = SplitName(a);
    std::string name = p.name.family;
    if (!p.name.given.empty()) name += ", " + p.name.given;
    if (!p.suffix.empty()) name += ", " + p.suffix;
    line("AU", name);
  }
  line("TI", Text(paper, "title"));
  line("T2", Text(paper, "venue"));
  if (int year = Year(paper); year > 0) line("PY", std::to_string(year));
  std::string date = Text(paper, "date");  // YYYY-MM-DD -> YYYY/MM/DD
  std::replace(date.begin(), date.end(), '-', '/');
  line("DA", date);
  line("DO", Text(paper, "doi"));
  line("UR", Url(paper));
  line("ID", Text(paper, "id"));
  return s + "ER  - \n";
}

Json CslJsonItem(const Json& paper, const std::string& key) {
  static constexpr const char* kTypes[] = {
      "article-journal", "paper-conference", "chapter", "book",    "thesis",
      "report",          "dataset",          "article", "document"};
  Json item = {{"id", key}, {"type", kTypes[static_cast<int>(EntryKind(paper))]}};
  Json authors = Json::array();
  for (const std::string& a : Authors(paper)) {
    PersonParts p = SplitName(a);
    Json name = Json::object();
    if (p.name.given.empty() && p.suffix.empty()) {
      name["literal"] = p.name.family;
    } else {
      name["family"] = p.name.family;
      if (!p.name.given.empty()) name["given"] = p.name.given;
      if (!p.suffix.empty()) name["suffix"] = p.suffix;
    }
    authors.push_back(std::move(name));
  }
  item["title"] = OneLine(Text(paper, "title"));
  if (!authors.empty()) item["author"] = std::move(authors);
  if (std::string venue = Text(paper, "venue"); !venue.empty())
    item["container-title"] = OneLine(venue);
  Json parts = Json::array();
  std::string date = Text(paper, "date");
  int year = Year(paper), month = 0, day = 0;
  if (date.size() == 10 && std::sscanf(date.c_str(), "%d-%d-%d", &year, &month, &day) != 3)
    month = day = 0;
  if (year > 0) {
    parts.push_back(year);
    if (month > 0) parts.push_back(month);
    if (month > 0 && day > 0) parts.push_back(day);
    item["issued"] = {{"date-parts", Json::array({parts})}};
  }
  if (std::string doi = Text(paper, "doi"); !doi.empty()) item["DOI"] = OneLine(doi);
  if (std::string url = Url(paper); !url.empty()) item["URL"] = OneLine(url);
  return item;
}

}  // namespace litgraph
