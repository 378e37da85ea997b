// Input records: what ingest understands, parsed into plain structs.
//
// Two families of JSON objects are accepted (litgraph-json(7)):
//  - OpenAlex records (id "https://openalex.org/<letter><digits>"): works (W),
//    authors (A), institutions (I), sources (S) and topics (T). Concepts,
//    funders and publishers are recognised and skipped.
//  - The native paper record for other sources:
//    {"id","title","abstract","year","authors":[...],"venue","doi","references":[...]}
//    (any id not under openalex.org; optional "related", "type", "cited_by_count",
//    "date", "updated_date"; authors are names or {"name","id"} objects).
// ParseRecord validates field types (a string where a string belongs, ...),
// ignores unknown fields and reports problems as Status::BadInput whose
// message names the offending field; the caller prefixes FILE:LINE.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "litgraph/status.h"

namespace litgraph {

struct NamedRef {  // a dehydrated entity inside a work: id + display name
  std::string ext_id;
  std::string name;
};

struct InstitutionRef : NamedRef {
  std::string ror, country_code, type;
};

struct AuthorshipRec {
  NamedRef author;  // ext_id may be synthesized for native records
  std::string orcid;
  std::string raw_name;         // as printed on the paper
  std::string author_position;  // first / middle / last
  bool is_corresponding = false;
  std::vector<InstitutionRef> institutions;
};

struct SourceRef : NamedRef {
  std::string issn_l, type, publisher;
};

struct TopicRef : NamedRef {
  double score = 0;
  bool is_primary = false;
  NamedRef subfield, field, domain;
};

struct WorkRec {
  std::string ext_id;  // "W123" or the native id
  bool is_openalex = true;
  std::string doi;  // bare lowercase, or empty
  std::string title, abstract, date, type, language, updated_date;
  std::string oa_status, oa_url, pdf_url, landing_page_url;
  int year = 0;                         // 0 = unknown
  int64_t cited_by_count = -1;          // -1 = absent
  int64_t referenced_works_count = -1;  // -1 = absent
  int is_oa = -1;                       // -1 = absent
  bool has_source = false;
  SourceRef source;
  std::vector<AuthorshipRec> authors;
  std::vector<TopicRef> topics;
  std::vector<std::string> refs;     // referenced works, short ids
  std::vector<std::string> related;  // related works, short ids
  std::string oa_keywords_json;      // OpenAlex's own keywords, kept verbatim-compact
};

// OpenAlex entity records that enrich nodes created from works.
struct AuthorRec {
  std::string ext_id, name, orcid, updated_date;
  int64_t works_count = -1, cited_by_count = -1;
  std::vector<InstitutionRef> last_known_institutions;
};
struct InstitutionRec {
  InstitutionRef inst;
  std::string updated_date;
  int64_t works_count = -1, cited_by_count = -1;
};
struct SourceRec {
  SourceRef source;
  std::string updated_date;
  int64_t works_count = -1, cited_by_count = -1;
};
struct TopicRec {
  TopicRef topic;
  std::string description, keywords, updated_date;
  int64_t works_count = -1;
};
struct SkippedRec {  // recognised but not stored (concept, funder, publisher)
  std::string kind;
};

using Record = std::variant<WorkRec, AuthorRec, InstitutionRec, SourceRec, TopicRec, SkippedRec>;

// Parses one JSON object (text without surrounding whitespace requirements).
// The record list of an API page ({"results":[...]}) is handled by the reader,
// which calls this once per element. Thread-safe (each call owns its parser
// state through `parser_state`; pass one per thread).
class RecordParser {
 public:
  RecordParser();
  ~RecordParser();
  RecordParser(const RecordParser&) = delete;
  RecordParser& operator=(const RecordParser&) = delete;

  // Parses `json` (must have at least kPadding readable bytes after its end,
  // or set padded=false to let the parser copy). Appends one or more records
  // (an API page yields its results). On error returns BadInput and, through
  // *error_offset, the byte offset of a JSON syntax error when known.
  Status Parse(std::string_view json, bool padded, std::vector<Record>* out,
               size_t* error_offset = nullptr);

  static constexpr size_t kPadding = 64;

 private:
  struct Impl;
  Impl* impl_;
};

}  // namespace litgraph
