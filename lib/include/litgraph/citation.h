// Citation export: paper records as BibTeX, RIS or CSL-JSON entries, for
// reference managers (Zotero, JabRef, papis), LaTeX (BibTeX, biber) and
// citation processors (citeproc, pandoc).
//
// Input is a paper record of litgraph-json(7) (PaperJson's fields: id,
// title, year, venue, authors, doi) with, when the tool could add them,
// work_type (OpenAlex's type: article, book-chapter, dissertation, ...),
// date (YYYY-MM-DD) and landing_page_url. Authors are display names
// ("Jevin D. West"); they are split into family and given names (the last
// word is the family name, with lower-case particles such as "van" or "de"
// before it and suffixes such as "Jr." after it; "West, Jevin D." is taken
// as written; a single word, a name in a script without spaces and a name
// with the word "and" (an organization) are kept whole). Text stays UTF-8.
#pragma once

#include <string>
#include <string_view>

#include "litgraph/jsonl.h"

namespace litgraph {

struct PersonName {
  std::string family, given;  // given may be empty (a one-word name)
};
PersonName SplitPersonName(std::string_view display_name);

// The citation key of a paper: the first author's family name, the year and
// the first word of the title that is not a function word, folded to
// lower-case ASCII letters and digits ("piwowar2018state"); "anon" without
// an author, "nd" without a year. It depends only on the paper's own fields,
// so the same paper gets the same key in every export; Output adds a
// suffix (a, b, ...) when two papers of one export share a key.
std::string CitationKey(const Json& paper);

// Text for a BibTeX field value: the characters BibTeX or LaTeX treat as
// special (\ { } $ & % # _ ~ ^) escaped, control characters and line breaks
// as spaces.
std::string LatexEscape(std::string_view text);

// One entry of each format. The entry type follows work_type, then the venue
// (a venue named "Proceedings ...", "... Conference ...", "Workshop" and the
// like makes a conference paper), then "misc" / GEN / "document".
std::string BibtexEntry(const Json& paper, const std::string& key);
std::string RisEntry(const Json& paper);
Json CslJsonItem(const Json& paper, const std::string& key);

}  // namespace litgraph
