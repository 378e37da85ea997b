// Record parsing with simdjson's DOM API: the ingest hot path. Each object is
// walked once, dispatching on keys, instead of looking fields up one by one.
#include "litgraph/records.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

#include "litgraph/text.h"

namespace litgraph {

namespace dom = simdjson::dom;

static_assert(RecordParser::kPadding >= simdjson::SIMDJSON_PADDING);

struct RecordParser::Impl {
  dom::parser parser;
};

RecordParser::RecordParser() : impl_(new Impl) {}
RecordParser::~RecordParser() { delete impl_; }

namespace {

// Field-type errors unwind with this; Parse converts it to BadInput.
struct FieldError {
  std::string message;
};

[[noreturn]] void Bad(std::string_view path, std::string_view what) {
  throw FieldError{fmt::format("field \"{}\" must be {}", path, what)};
}

bool IsNull(dom::element e) { return e.type() == dom::element_type::NULL_VALUE; }

std::string Str(dom::element e, std::string_view path) {
  if (IsNull(e)) return {};
  std::string_view s;
  if (e.get_string().get(s)) Bad(path, "a string");
  return std::string(s);
}

int64_t Int(dom::element e, std::string_view path) {
  if (IsNull(e)) return -1;
  int64_t v;
  if (!e.get_int64().get(v)) return v;
  // An integral double ("cited_by_count": 17.0) within int64's range: the
  // range is checked first, as casting 1e97 to int64_t is undefined.
  double d;
  if (!e.get_double().get(d) && d >= -0x1p63 && d < 0x1p63 && d == std::trunc(d))
    return static_cast<int64_t>(d);
  std::string_view s;
  if (!e.get_string().get(s)) {
    int64_t x;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
    if (ec == std::errc() && p == s.data() + s.size()) return x;
  }
  Bad(path, "an integer");
}

double Num(dom::element e, std::string_view path) {
  if (IsNull(e)) return 0;
  double d;
  if (!e.get_double().get(d)) return d;
  int64_t v;
  if (!e.get_int64().get(v)) return static_cast<double>(v);
  uint64_t u;
  if (!e.get_uint64().get(u)) return static_cast<double>(u);
  Bad(path, "a number");
}

int Bool(dom::element e, std::string_view path) {
  if (IsNull(e)) return -1;
  bool b;
  if (e.get_bool().get(b)) Bad(path, "true or false");
  return b ? 1 : 0;
}

dom::object Obj(dom::element e, std::string_view path) {
  dom::object o;
  if (e.get_object().get(o)) Bad(path, "an object");
  return o;
}

dom::array Arr(dom::element e, std::string_view path) {
  dom::array a;
  if (e.get_array().get(a)) Bad(path, "an array");
  return a;
}

// Reduces an OpenAlex URL id to its short form; leaves other ids alone.
std::string ShortOr(std::string id) {
  std::string s = ShortOpenAlexId(id);
  return s.empty() ? id : s;
}

// An identifier (record id, reference, DOI) as given, refused when it holds a
// control character (U+0000 to U+001F, DEL, U+0080 to U+009F): such an id
// would be stored but could never be asked for (a NUL ends every command-line
// argument) and would print as terminal commands.
std::string NoControls(std::string id, std::string_view path) {
  for (size_t i = 0; i < id.size(); ++i) {
    unsigned c = static_cast<unsigned char>(id[i]);
    if (c == 0xC2 && i + 1 < id.size())  // U+0080 to U+00BF: the code is the next byte
      c = static_cast<unsigned char>(id[i + 1]);
    else if (c >= 0x80)
      continue;
    if (c < 0x20 || (c >= 0x7F && c < 0xA0))
      throw FieldError{fmt::format(
          "field \"{}\" must not contain control characters (U+{:04X} at byte {})", path, c, i)};
  }
  return id;
}

// A string id field, checked and shortened.
std::string Id(dom::element e, std::string_view path) {
  return ShortOr(NoControls(Str(e, path), path));
}

NamedRef ParseNamed(dom::element e, std::string_view path) {
  NamedRef r;
  if (IsNull(e)) return r;
  for (auto [k, v] : Obj(e, path)) {
    if (k == "id")
      r.ext_id = Id(v, "id");
    else if (k == "display_name")
      r.name = Str(v, "display_name");
  }
  return r;
}

InstitutionRef ParseInstitution(dom::element e) {
  InstitutionRef r;
  for (auto [k, v] : Obj(e, "institutions[]")) {
    if (k == "id")
      r.ext_id = Id(v, "institutions[].id");
    else if (k == "display_name")
      r.name = Str(v, "institutions[].display_name");
    else if (k == "ror")
      r.ror = Str(v, "institutions[].ror");
    else if (k == "country_code")
      r.country_code = Str(v, "institutions[].country_code");
    else if (k == "type")
      r.type = Str(v, "institutions[].type");
  }
  return r;
}

SourceRef ParseSource(dom::object o) {
  SourceRef r;
  for (auto [k, v] : o) {
    if (k == "id")
      r.ext_id = Id(v, "source.id");
    else if (k == "display_name")
      r.name = Str(v, "source.display_name");
    else if (k == "issn_l")
      r.issn_l = Str(v, "source.issn_l");
    else if (k == "type")
      r.type = Str(v, "source.type");
    else if (k == "host_organization_name")
      r.publisher = Str(v, "source.host_organization_name");
  }
  return r;
}

TopicRef ParseTopic(dom::object o) {
  TopicRef t;
  for (auto [k, v] : o) {
    if (k == "id")
      t.ext_id = Id(v, "topics[].id");
    else if (k == "display_name")
      t.name = Str(v, "topics[].display_name");
    else if (k == "score")
      t.score = Num(v, "topics[].score");
    else if (k == "subfield")
      t.subfield = ParseNamed(v, "topics[].subfield");
    else if (k == "field")
      t.field = ParseNamed(v, "topics[].field");
    else if (k == "domain")
      t.domain = ParseNamed(v, "topics[].domain");
  }
  return t;
}

std::vector<std::string> IdList(dom::element e, std::string_view path) {
  std::vector<std::string> out;
  if (IsNull(e)) return out;
  for (dom::element x : Arr(e, path)) {
    std::string id = Id(x, path);
    if (!id.empty()) out.push_back(std::move(id));
  }
  return out;
}

std::string Abstract(dom::element e) {
  if (IsNull(e)) return {};
  std::vector<std::pair<uint32_t, std::string_view>> slots;
  uint32_t max_pos = 0;
  for (auto [word, positions] : Obj(e, "abstract_inverted_index")) {
    for (dom::element p : Arr(positions, "abstract_inverted_index")) {
      int64_t pos = Int(p, "abstract_inverted_index");
      if (pos < 0 || pos > 1000000) Bad("abstract_inverted_index", "positions in 0..1000000");
      slots.emplace_back(static_cast<uint32_t>(pos), word);
      max_pos = std::max(max_pos, static_cast<uint32_t>(pos));
    }
  }
  // Words placed at their positions (the first word given a position keeps
  // it); a sort only when positions are too sparse for a direct table.
  std::vector<std::string_view> at;
  if (max_pos <= 4 * slots.size() + 64) {
    at.resize(max_pos + 1);
    for (const auto& [pos, word] : slots)
      if (at[pos].data() == nullptr) at[pos] = word;
  } else {
    std::stable_sort(slots.begin(), slots.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (size_t i = 0; i < slots.size(); ++i)
      if (i == 0 || slots[i].first != slots[i - 1].first) at.push_back(slots[i].second);
  }
  std::string out;
  for (std::string_view w : at) {
    if (w.data() == nullptr) continue;
    if (!out.empty()) out.push_back(' ');
    out += w;
  }
  return out;
}

void ParseAuthorship(dom::element e, WorkRec* w) {
  AuthorshipRec a;
  for (auto [k, v] : Obj(e, "authorships[]")) {
    if (k == "author") {
      if (IsNull(v)) continue;
      for (auto [ak, av] : Obj(v, "authorships[].author")) {
        if (ak == "id")
          a.author.ext_id = Id(av, "authorships[].author.id");
        else if (ak == "display_name")
          a.author.name = Str(av, "authorships[].author.display_name");
        else if (ak == "orcid")
          a.orcid = Str(av, "authorships[].author.orcid");
      }
    } else if (k == "author_position") {
      a.author_position = Str(v, "authorships[].author_position");
    } else if (k == "raw_author_name") {
      a.raw_name = Str(v, "authorships[].raw_author_name");
    } else if (k == "is_corresponding") {
      a.is_corresponding = Bool(v, "authorships[].is_corresponding") == 1;
    } else if (k == "institutions") {
      if (IsNull(v)) continue;
      for (dom::element i : Arr(v, "authorships[].institutions")) {
        InstitutionRef r = ParseInstitution(i);
        if (!r.ext_id.empty()) a.institutions.push_back(std::move(r));
      }
    }
  }
  if (a.author.ext_id.empty()) {
    // OpenAlex sometimes leaves an author unresolved; keep the name as a
    // per-name node like native records do.
    std::string key = NormalizeName(a.author.name.empty() ? a.raw_name : a.author.name);
    if (key.empty()) return;
    a.author.ext_id = "name:" + key;
  }
  if (a.author.name.empty()) a.author.name = a.raw_name;
  w->authors.push_back(std::move(a));
}

void ParsePrimaryLocation(dom::element v, WorkRec* w) {
  for (auto [pk, pv] : Obj(v, "primary_location")) {
    if (pk == "source") {
      if (IsNull(pv)) continue;
      w->source = ParseSource(Obj(pv, "primary_location.source"));
      w->has_source = !w->source.ext_id.empty();
    } else if (pk == "pdf_url") {
      w->pdf_url = Str(pv, "primary_location.pdf_url");
    } else if (pk == "landing_page_url") {
      w->landing_page_url = Str(pv, "primary_location.landing_page_url");
    }
  }
}

// OpenAlex's own keywords, kept as JSON [{text, score}] ("" when none).
std::string OaKeywords(dom::element v) {
  nlohmann::json kws = nlohmann::json::array();
  for (dom::element kw : Arr(v, "keywords")) {
    std::string name;
    double score = 0;
    for (auto [kk, kv] : Obj(kw, "keywords[]")) {
      if (kk == "display_name")
        name = Str(kv, "keywords[].display_name");
      else if (kk == "score")
        score = Num(kv, "keywords[].score");
    }
    if (!name.empty()) kws.push_back({{"text", name}, {"score", score}});
  }
  return kws.empty() ? "" : kws.dump();
}

void ParseWork(dom::object obj, WorkRec* w) {
  std::string primary_topic;
  std::string display_name;
  for (auto [k, v] : obj) {
    if (k == "id") {
      w->ext_id = Id(v, "id");
    } else if (k == "doi") {
      w->doi = NormalizeDoi(NoControls(Str(v, "doi"), "doi"));
    } else if (k == "title") {
      w->title = Str(v, "title");
    } else if (k == "display_name") {
      display_name = Str(v, "display_name");
    } else if (k == "publication_year") {
      int64_t y = Int(v, "publication_year");
      w->year = y > 0 && y < 3000 ? static_cast<int>(y) : 0;
    } else if (k == "publication_date") {
      w->date = Str(v, "publication_date");
    } else if (k == "language") {
      w->language = Str(v, "language");
    } else if (k == "type") {
      w->type = Str(v, "type");
    } else if (k == "cited_by_count") {
      w->cited_by_count = Int(v, "cited_by_count");
    } else if (k == "referenced_works_count") {
      w->referenced_works_count = Int(v, "referenced_works_count");
    } else if (k == "updated_date") {
      w->updated_date = Str(v, "updated_date");
    } else if (k == "primary_location") {
      if (!IsNull(v)) ParsePrimaryLocation(v, w);
    } else if (k == "open_access") {
      if (IsNull(v)) continue;
      for (auto [ok, ov] : Obj(v, "open_access")) {
        if (ok == "is_oa")
          w->is_oa = Bool(ov, "open_access.is_oa");
        else if (ok == "oa_status")
          w->oa_status = Str(ov, "open_access.oa_status");
        else if (ok == "oa_url")
          w->oa_url = Str(ov, "open_access.oa_url");
      }
    } else if (k == "authorships") {
      if (IsNull(v)) continue;
      for (dom::element a : Arr(v, "authorships")) ParseAuthorship(a, w);
    } else if (k == "topics") {
      if (IsNull(v)) continue;
      for (dom::element t : Arr(v, "topics")) {
        TopicRef ref = ParseTopic(Obj(t, "topics[]"));
        if (!ref.ext_id.empty()) w->topics.push_back(std::move(ref));
      }
    } else if (k == "primary_topic") {
      if (IsNull(v)) continue;
      for (auto [tk, tv] : Obj(v, "primary_topic"))
        if (tk == "id") primary_topic = Id(tv, "primary_topic.id");
    } else if (k == "keywords") {
      if (!IsNull(v)) w->oa_keywords_json = OaKeywords(v);
    } else if (k == "referenced_works") {
      w->refs = IdList(v, "referenced_works");
    } else if (k == "related_works") {
      w->related = IdList(v, "related_works");
    } else if (k == "abstract_inverted_index") {
      w->abstract = Abstract(v);
    }
  }
  if (w->title.empty()) w->title = display_name;
  for (auto& t : w->topics) t.is_primary = !primary_topic.empty() && t.ext_id == primary_topic;
  if (w->year == 0 && w->date.size() >= 4) {
    int y = 0;
    std::from_chars(w->date.data(), w->date.data() + 4, y);
    if (y > 0) w->year = y;
  }
}

void ParseNativeAuthor(dom::element e, WorkRec* w) {
  AuthorshipRec a;
  std::string_view s;
  if (!e.get_string().get(s)) {
    a.author.name = std::string(s);
  } else {
    for (auto [k, v] : Obj(e, "authors[]")) {
      if (k == "name" || k == "display_name")
        a.author.name = Str(v, "authors[].name");
      else if (k == "id")
        a.author.ext_id = Id(v, "authors[].id");
      else if (k == "orcid")
        a.orcid = Str(v, "authors[].orcid");
    }
  }
  a.raw_name = a.author.name;
  if (a.author.ext_id.empty()) {
    std::string key = NormalizeName(a.author.name);
    if (key.empty()) return;
    a.author.ext_id = "name:" + key;
  }
  w->authors.push_back(std::move(a));
}

void ParseNative(dom::object obj, WorkRec* w) {
  w->is_openalex = false;
  for (auto [k, v] : obj) {
    if (k == "id") {
      std::string_view s;
      int64_t n;
      if (!v.get_string().get(s))
        w->ext_id = ShortOr(NoControls(std::string(s), "id"));
      else if (!v.get_int64().get(n))
        w->ext_id = std::to_string(n);
      else
        Bad("id", "a string");
    } else if (k == "title") {
      w->title = Str(v, "title");
    } else if (k == "abstract") {
      w->abstract = Str(v, "abstract");
    } else if (k == "year") {
      int64_t y = Int(v, "year");
      w->year = y > 0 && y < 3000 ? static_cast<int>(y) : 0;
    } else if (k == "date") {
      w->date = Str(v, "date");
    } else if (k == "updated_date") {
      w->updated_date = Str(v, "updated_date");
    } else if (k == "type") {
      w->type = Str(v, "type");
    } else if (k == "doi") {
      w->doi = NormalizeDoi(NoControls(Str(v, "doi"), "doi"));
    } else if (k == "cited_by_count") {
      w->cited_by_count = Int(v, "cited_by_count");
    } else if (k == "venue") {
      std::string venue = Str(v, "venue");
      std::string key = NormalizeName(venue);
      if (!key.empty()) {
        w->has_source = true;
        w->source.ext_id = "venue:" + key;
        w->source.name = venue;
      }
    } else if (k == "authors") {
      if (IsNull(v)) continue;
      for (dom::element a : Arr(v, "authors")) ParseNativeAuthor(a, w);
    } else if (k == "references") {
      w->refs = IdList(v, "references");
    } else if (k == "related") {
      w->related = IdList(v, "related");
    }
  }
  if (w->type.empty()) w->type = "article";
  for (size_t i = 0; i < w->authors.size(); ++i)
    w->authors[i].author_position =
        i == 0 ? "first" : (i + 1 == w->authors.size() ? "last" : "middle");
}

AuthorRec ParseAuthorRecord(dom::object obj, const std::string& id) {
  AuthorRec a;
  a.ext_id = id;
  for (auto [k, v] : obj) {
    if (k == "display_name")
      a.name = Str(v, "display_name");
    else if (k == "orcid")
      a.orcid = Str(v, "orcid");
    else if (k == "works_count")
      a.works_count = Int(v, "works_count");
    else if (k == "cited_by_count")
      a.cited_by_count = Int(v, "cited_by_count");
    else if (k == "updated_date")
      a.updated_date = Str(v, "updated_date");
    else if (k == "last_known_institutions" && !IsNull(v))
      for (dom::element i : Arr(v, "last_known_institutions"))
        a.last_known_institutions.push_back(ParseInstitution(i));
  }
  return a;
}

InstitutionRec ParseInstitutionRecord(dom::object obj, const std::string& id) {
  InstitutionRec r;
  r.inst.ext_id = id;
  for (auto [k, v] : obj) {
    if (k == "display_name")
      r.inst.name = Str(v, "display_name");
    else if (k == "ror")
      r.inst.ror = Str(v, "ror");
    else if (k == "country_code")
      r.inst.country_code = Str(v, "country_code");
    else if (k == "type")
      r.inst.type = Str(v, "type");
    else if (k == "works_count")
      r.works_count = Int(v, "works_count");
    else if (k == "cited_by_count")
      r.cited_by_count = Int(v, "cited_by_count");
    else if (k == "updated_date")
      r.updated_date = Str(v, "updated_date");
  }
  return r;
}

SourceRec ParseSourceRecord(dom::object obj, const std::string& id) {
  SourceRec r;
  r.source = ParseSource(obj);
  r.source.ext_id = id;
  for (auto [k, v] : obj) {
    if (k == "works_count")
      r.works_count = Int(v, "works_count");
    else if (k == "cited_by_count")
      r.cited_by_count = Int(v, "cited_by_count");
    else if (k == "updated_date")
      r.updated_date = Str(v, "updated_date");
  }
  return r;
}

TopicRec ParseTopicRecord(dom::object obj, const std::string& id) {
  TopicRec r;
  r.topic = ParseTopic(obj);
  r.topic.ext_id = id;
  for (auto [k, v] : obj) {
    if (k == "description")
      r.description = Str(v, "description");
    else if (k == "works_count")
      r.works_count = Int(v, "works_count");
    else if (k == "updated_date")
      r.updated_date = Str(v, "updated_date");
    else if (k == "keywords" && !IsNull(v)) {
      for (dom::element x : Arr(v, "keywords")) {
        if (!r.keywords.empty()) r.keywords += "; ";
        r.keywords += Str(x, "keywords[]");
      }
    }
  }
  return r;
}

Record ParseObject(dom::object obj) {
  dom::element id_el;
  if (obj["id"].get(id_el)) throw FieldError{"record has no \"id\""};
  std::string_view raw_id;
  int64_t num_id;
  bool string_id = !id_el.get_string().get(raw_id);
  if (!string_id && id_el.get_int64().get(num_id)) Bad("id", "a string");
  bool openalex = string_id && (raw_id.rfind("https://openalex.org/", 0) == 0 ||
                                raw_id.rfind("http://openalex.org/", 0) == 0);
  if (string_id && raw_id.empty()) Bad("id", "a non-empty string");
  if (string_id) NoControls(std::string(raw_id), "id");
  if (!openalex) {
    WorkRec w;
    ParseNative(obj, &w);
    if (w.ext_id.empty()) Bad("id", "a non-empty string");
    return w;
  }
  std::string id = ShortOpenAlexId(raw_id);
  char kind = id.empty() ? '?' : id[0];
  switch (kind) {
    case 'W': {
      WorkRec w;
      ParseWork(obj, &w);
      return w;
    }
    case 'A':
      return ParseAuthorRecord(obj, id);
    case 'I':
      return ParseInstitutionRecord(obj, id);
    case 'S':
      return ParseSourceRecord(obj, id);
    case 'T':
      return ParseTopicRecord(obj, id);
    case 'C':
      return SkippedRec{"concept"};
    case 'F':
      return SkippedRec{"funder"};
    case 'P':
      return SkippedRec{"publisher"};
    default:
      throw FieldError{fmt::format("unsupported OpenAlex id \"{}\"", raw_id)};
  }
}

}  // namespace

Status RecordParser::Parse(std::string_view json, bool padded, std::vector<Record>* out,
                           size_t* error_offset) {
  if (error_offset) *error_offset = std::string_view::npos;
  dom::element doc;
  auto err = impl_->parser.parse(json.data(), json.size(), !padded).get(doc);
  if (err)
    return Status::MalformedInput(fmt::format("malformed JSON: {}", simdjson::error_message(err)));
  try {
    dom::array list;
    if (!doc.get_array().get(list)) {  // a JSON array of records
      for (dom::element r : list) {
        dom::object ro;
        if (r.get_object().get(ro)) Bad("[]", "an object");
        out->push_back(ParseObject(ro));
      }
      return Status::Ok();
    }
    dom::object obj;
    if (doc.get_object().get(obj)) return Status::MalformedInput("expected a JSON object");
    dom::element results;
    if (!obj["results"].get(results) && obj["id"].error()) {
      // An OpenAlex API page: {"meta": ..., "results": [...]}.
      for (dom::element r : Arr(results, "results")) {
        dom::object ro;
        if (r.get_object().get(ro)) Bad("results[]", "an object");
        out->push_back(ParseObject(ro));
      }
      return Status::Ok();
    }
    out->push_back(ParseObject(obj));
    return Status::Ok();
  } catch (const FieldError& e) {
    return Status::MalformedInput(e.message);
  } catch (const simdjson::simdjson_error& e) {
    return Status::MalformedInput(fmt::format("malformed record: {}", e.what()));
  }
}

}  // namespace litgraph
