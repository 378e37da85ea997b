#include "litgraph/model.h"

namespace litgraph {

namespace {

using W = RelationWeights;
using enum NodeType;

constexpr const char* kPositionAttr = "position << 1 | is_corresponding";
constexpr const char* kTopicAttr = "score x 1000 << 1 | is_primary";
constexpr const char* kCiteHelp = "CITES weight";
constexpr const char* kAuthHelp = "AUTHORED weight";
constexpr const char* kAffilHelp = "AFFILIATED_WITH weight (0 = off)";
constexpr const char* kPublishedHelp = "PUBLISHED_IN weight (0 = off)";
constexpr const char* kTopicHelp = "HAS_TOPIC weight x topic score (0 = off)";
constexpr const char* kHierarchyHelp = "SUBFIELD_OF / FIELD_OF / DOMAIN_OF weight (0 = off)";
constexpr const char* kKeywordHelp = "HAS_KEYWORD base weight";

// One row per direction, in Rel order (checked below).
constexpr RelInfo kRelations[kRelCount] = {
    {Rel::kCitesOut, "cites.out", "CITES", kPaper, kPaper, true, Rel::kCitesIn, "", false,
     RankKey::kNone, &W::beta_cite, "beta_cite", kCiteHelp, EdgeWeight::kConstant, "citation",
     EdgeSide::kMembers},
    {Rel::kCitesIn, "cites.in", "CITES", kPaper, kPaper, false, Rel::kCitesOut, "", true,
     RankKey::kNone, &W::beta_cite, "beta_cite", kCiteHelp, EdgeWeight::kConstant, "citation",
     EdgeSide::kNone},
    {Rel::kRelated, "related", "RELATED_TO", kPaper, kPaper, true, Rel::kRelated,
     "1: listed by this paper, 2: lists this paper (or both)", false, RankKey::kNone, &W::beta_rel,
     "beta_rel", "RELATED_TO weight", EdgeWeight::kConstant, "related", EdgeSide::kExpanded},
    {Rel::kAuthors, "authors", "AUTHORED", kPaper, kAuthor, false, Rel::kAuthoredPapers,
     kPositionAttr, false, RankKey::kNone, &W::beta_auth, "beta_auth", kAuthHelp,
     EdgeWeight::kAuthorship, "authorship", EdgeSide::kMembers},
    {Rel::kAuthoredPapers, "authored", "AUTHORED", kAuthor, kPaper, true, Rel::kAuthors,
     kPositionAttr, true, RankKey::kNone, &W::beta_auth, "beta_auth", kAuthHelp,
     EdgeWeight::kAuthorship, "authorship", EdgeSide::kNone},
    {Rel::kCoauthor, "coauthor", "COAUTHOR", kAuthor, kAuthor, true, Rel::kCoauthor, "joint papers",
     true, RankKey::kAttr, &W::beta_coauth, "beta_coauth", "COAUTHOR base weight",
     EdgeWeight::kCount, "coauthorship", EdgeSide::kExpanded},
    {Rel::kAffiliations, "affiliations", "AFFILIATED_WITH", kAuthor, kInstitution, true,
     Rel::kInstitutionAuthors, "papers", false, RankKey::kNone, &W::beta_affil, "beta_affil",
     kAffilHelp, EdgeWeight::kConstant, "", EdgeSide::kMembers},
    {Rel::kInstitutionAuthors, "institution.authors", "AFFILIATED_WITH", kInstitution, kAuthor,
     false, Rel::kAffiliations, "papers", false, RankKey::kNone, &W::beta_affil, "beta_affil",
     kAffilHelp, EdgeWeight::kConstant, "", EdgeSide::kNone},
    {Rel::kPublishedIn, "published_in", "PUBLISHED_IN", kPaper, kSource, true, Rel::kSourcePapers,
     "", false, RankKey::kNone, &W::beta_published, "beta_published", kPublishedHelp,
     EdgeWeight::kConstant, "", EdgeSide::kMembers},
    {Rel::kSourcePapers, "source.papers", "PUBLISHED_IN", kSource, kPaper, false, Rel::kPublishedIn,
     "", true, RankKey::kNone, &W::beta_published, "beta_published", kPublishedHelp,
     EdgeWeight::kConstant, "", EdgeSide::kNone},
    {Rel::kTopics, "topics", "HAS_TOPIC", kPaper, kTopic, true, Rel::kTopicPapers, kTopicAttr,
     false, RankKey::kNone, &W::beta_topic, "beta_topic", kTopicHelp, EdgeWeight::kTopicScore, "",
     EdgeSide::kMembers},
    {Rel::kTopicPapers, "topic.papers", "HAS_TOPIC", kTopic, kPaper, false, Rel::kTopics,
     kTopicAttr, true, RankKey::kAttrHigh, &W::beta_topic, "beta_topic", kTopicHelp,
     EdgeWeight::kTopicScore, "", EdgeSide::kNone},
    {Rel::kTopicSubfield, "topic.subfield", "SUBFIELD_OF", kTopic, kSubfield, true,
     Rel::kSubfieldTopics, "", false, RankKey::kNone, &W::beta_hierarchy, "beta_hierarchy",
     kHierarchyHelp, EdgeWeight::kConstant, "", EdgeSide::kMembers},
    {Rel::kSubfieldTopics, "subfield.topics", "SUBFIELD_OF", kSubfield, kTopic, false,
     Rel::kTopicSubfield, "", false, RankKey::kNone, &W::beta_hierarchy, "beta_hierarchy",
     kHierarchyHelp, EdgeWeight::kConstant, "", EdgeSide::kNone},
    {Rel::kSubfieldField, "subfield.field", "FIELD_OF", kSubfield, kField, true,
     Rel::kFieldSubfields, "", false, RankKey::kNone, &W::beta_hierarchy, "beta_hierarchy",
     kHierarchyHelp, EdgeWeight::kConstant, "", EdgeSide::kMembers},
    {Rel::kFieldSubfields, "field.subfields", "FIELD_OF", kField, kSubfield, false,
     Rel::kSubfieldField, "", false, RankKey::kNone, &W::beta_hierarchy, "beta_hierarchy",
     kHierarchyHelp, EdgeWeight::kConstant, "", EdgeSide::kNone},
    {Rel::kFieldDomain, "field.domain", "DOMAIN_OF", kField, kDomain, true, Rel::kDomainFields, "",
     false, RankKey::kNone, &W::beta_hierarchy, "beta_hierarchy", kHierarchyHelp,
     EdgeWeight::kConstant, "", EdgeSide::kMembers},
    {Rel::kDomainFields, "domain.fields", "DOMAIN_OF", kDomain, kField, false, Rel::kFieldDomain,
     "", false, RankKey::kNone, &W::beta_hierarchy, "beta_hierarchy", kHierarchyHelp,
     EdgeWeight::kConstant, "", EdgeSide::kNone},
    {Rel::kKeywords, "keywords", "HAS_KEYWORD", kPaper, kKeyword, true, Rel::kKeywordPapers,
     "importance 1..10", false, RankKey::kNone, &W::beta_hk, "beta_hk", kKeywordHelp,
     EdgeWeight::kKeyword, "keyword", EdgeSide::kMembers},
    {Rel::kKeywordPapers, "keyword.papers", "HAS_KEYWORD", kKeyword, kPaper, false, Rel::kKeywords,
     "importance 1..10", true, RankKey::kAttr, &W::beta_hk, "beta_hk", kKeywordHelp,
     EdgeWeight::kKeyword, "keyword", EdgeSide::kNone},
    {Rel::kCooccur, "cooccur", "COOCCUR", kKeyword, kKeyword, true, Rel::kCooccur,
     "papers with both", true, RankKey::kAttr, &W::beta_cooc, "beta_cooc", "COOCCUR base weight",
     EdgeWeight::kCount, "cooccurrence", EdgeSide::kExpanded},
};

constexpr bool TableInRelOrder() {
  for (int i = 0; i < kRelCount; ++i) {
    const RelInfo& r = kRelations[i];
    if (static_cast<int>(r.rel) != i) return false;
    const RelInfo& back = kRelations[static_cast<int>(r.reverse)];
    // Directions pair up, and exactly one of them is read by the walk.
    if (back.reverse != r.rel || back.from != r.to || back.to != r.from) return false;
    if ((r.edge_side == EdgeSide::kNone) == (back.edge_side == EdgeSide::kNone) &&
        back.rel != r.rel)
      return false;
  }
  return true;
}
static_assert(TableInRelOrder(), "kRelations rows must follow Rel and pair their directions");

constexpr const char* kNodeTypeNames[kNodeTypeCount] = {
    "paper", "author", "institution", "source", "topic", "subfield", "field", "domain", "keyword"};

}  // namespace

const char* NodeTypeName(NodeType t) { return kNodeTypeNames[static_cast<int>(t)]; }

bool ParseNodeType(std::string_view s, NodeType* t) {
  for (int i = 0; i < kNodeTypeCount; ++i) {
    if (s == kNodeTypeNames[i]) {
      *t = static_cast<NodeType>(i);
      return true;
    }
  }
  if (s == "venue") {
    *t = NodeType::kSource;
    return true;
  }
  return false;
}

const RelInfo& GetRelInfo(Rel r) { return kRelations[static_cast<int>(r)]; }

std::span<const RelInfo> AllRelations() { return kRelations; }

Rel CanonicalRel(Rel r) {
  const RelInfo& info = GetRelInfo(r);
  return info.edge_side != EdgeSide::kNone ? r : info.reverse;
}

uint32_t RankedAttr(Rel r, uint32_t attr) {
  switch (GetRelInfo(r).rank_key) {
    case RankKey::kNone:
      return 0;
    case RankKey::kAttr:
      return attr;
    case RankKey::kAttrHigh:
      return attr >> 1;
  }
  return 0;
}

}  // namespace litgraph
