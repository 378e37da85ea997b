#include "litgraph/llm.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "litgraph/intern.h"
#include "litgraph/store.h"

namespace litgraph {

namespace {

using nlohmann::json;

constexpr const char* kSystemPrompt =
    "You label scientific papers with keywords for a knowledge graph that links papers "
    "sharing concepts. You answer with JSON only.";

constexpr const char* kUserPrompt =
    "Read the paper below and name the 3 to 8 concepts it is about, as keywords that many "
    "other papers would share.\n\n"
    "Each keyword is a short noun phrase of 1 to 4 words naming a research area, a kind of "
    "problem, a family of methods or a way of evaluating, in its general, canonical wording "
    "(for example: machine translation, protein folding, graph neural network, monte carlo "
    "simulation, fault detection, user study). Prefer the broader established term over the "
    "paper's own phrasing. Do not use names of the paper's own system, model or dataset, long "
    "descriptions copied from the text, implementation details, or promotional words such as "
    "novel, efficient or state of the art. If the text has few clear concepts, give fewer "
    "keywords.\n\n"
    "Rate how central each keyword is to this paper with an integer from 1 (marginal) to 10 "
    "(its main subject).\n\n"
    "Answer with exactly one JSON object and nothing else: "
    "{{\"keywords\": [\"keyword one\", \"keyword two\"], \"scores\": [9, 6]}}\n\n"
    "Title: {}\n\nAbstract: {}";

std::string CacheKey(const LlmOptions& o, const std::string& title, const std::string& abstract) {
  std::string material = fmt::format("kw-v{}\x1f{}\x1f{}\x1f{}", kKeywordPromptVersion, o.model,
                                     title, abstract.substr(0, o.max_chars));
  uint64_t a = StringInterner::Hash(material);
  uint64_t b = StringInterner::Hash(material + "\x1e");
  return fmt::format("kw:{:016x}{:016x}", a, b);
}

class LlmBackend : public KeywordBackend {
 public:
  LlmBackend(LlmOptions o, Store* cache) : o_(std::move(o)), cache_(cache), client_(o_.http) {}

  std::string name() const override { return "llm:" + o_.model; }

  Status Extract(const std::vector<PaperText>& papers, std::vector<std::vector<Keyword>>* out,
                 std::vector<std::string>* failures) override {
    out->assign(papers.size(), {});
    std::vector<std::string> keys(papers.size()), bodies;
    std::vector<size_t> pending;
    for (size_t i = 0; i < papers.size(); ++i) {
      keys[i] = CacheKey(o_, papers[i].title, papers[i].abstract);
      if (cache_) {
        std::string why;
        auto cached = cache_->CacheGet(keys[i]);
        if (cached && ParseKeywordAnswer(*cached, &(*out)[i], &why)) continue;
      }
      pending.push_back(i);
      bodies.push_back(KeywordRequestBody(o_, papers[i].title, papers[i].abstract));
    }
    if (pending.empty()) return Status::Ok();
    std::string url = EndpointUrl(o_.url, "/chat/completions");
    std::vector<std::vector<Keyword>> parsed(pending.size());
    auto results =
        client_.PostAll(url, bodies, [&](size_t j, const std::string& body, std::string* why) {
          return ParseKeywordAnswer(body, &parsed[j], why);
        });
    size_t failed = 0;
    for (size_t j = 0; j < pending.size(); ++j) {
      size_t i = pending[j];
      if (!results[j].error.empty()) {
        ++failed;
        failures->push_back(
            fmt::format("{}: {} after {} attempts",
                        papers[i].label.empty() ? std::to_string(papers[i].id) : papers[i].label,
                        results[j].error, results[j].attempts));
        continue;
      }
      (*out)[i] = parsed[j];
      if (cache_) cache_->CachePut(keys[i], results[j].body);
    }
    // A refused connection for every request, or an answer saying the
    // endpoint or key is wrong, is a backend error for the whole run; other
    // failures (timeouts, malformed answers) belong to single papers.
    bool all_unreachable = failed == pending.size();
    for (size_t j = 0; j < pending.size(); ++j) {
      long code = results[j].status;
      if (code == 401 || code == 403 || code == 404)
        return Status::IoError(fmt::format("LLM backend {}: {}", url, results[j].error));
      all_unreachable = all_unreachable && results[j].unreachable;
    }
    if (all_unreachable && failed > 0)
      return Status::IoError(fmt::format("LLM backend {}: {}", url, results[0].error));
    return Status::Ok();
  }

 private:
  LlmOptions o_;
  Store* cache_;
  HttpClient client_;
};

}  // namespace

std::string KeywordRequestBody(const LlmOptions& o, const std::string& title,
                               const std::string& abstract) {
  std::string abs = abstract.substr(0, o.max_chars);
  json body = {{"model", o.model},
               {"temperature", 0},
               {"response_format", {{"type", "json_object"}}},
               {"messages",
                {{{"role", "system"}, {"content", kSystemPrompt}},
                 {{"role", "user"}, {"content", fmt::format(kUserPrompt, title, abs)}}}}};
  return body.dump(-1, ' ', false, json::error_handler_t::replace);
}

namespace {

// The phrase as the model wrote it, whitespace runs made one space (the
// keyword's display form).
std::string CollapseSpaces(const std::string& s) {
  std::string out;
  for (char ch : s) {
    const bool space = ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : ch;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

bool ParseKeywordAnswer(const std::string& response_body, std::vector<Keyword>* out,
                        std::string* why) {
  out->clear();
  json r = json::parse(response_body, nullptr, false);
  if (r.is_discarded() || !r.is_object()) return *why = "response is not JSON", false;
  if (!r.contains("choices") || !r["choices"].is_array() || r["choices"].empty())
    return *why = "response has no choices", false;
  const json& msg = r["choices"][0]["message"];
  if (!msg.is_object() || !msg.contains("content") || !msg["content"].is_string())
    return *why = "response has no message content", false;
  std::string content = msg["content"].get<std::string>();
  // Tolerate a fenced block around the object; nothing else.
  size_t a = content.find('{'), b = content.rfind('}');
  if (a == std::string::npos || b == std::string::npos || b < a)
    return *why = "answer holds no JSON object", false;
  json k = json::parse(content.substr(a, b - a + 1), nullptr, false);
  if (k.is_discarded() || !k.is_object()) return *why = "answer is not a JSON object", false;
  if (!k.contains("keywords") || !k["keywords"].is_array() || !k.contains("scores") ||
      !k["scores"].is_array())
    return *why = "answer lacks keywords / scores arrays", false;
  const json& kws = k["keywords"];
  const json& scores = k["scores"];
  if (kws.size() != scores.size()) return *why = "keywords and scores differ in length", false;
  if (kws.empty() || kws.size() > 8) return *why = "expected 1 to 8 keywords", false;
  for (size_t i = 0; i < kws.size(); ++i) {
    if (!kws[i].is_string()) return *why = "a keyword is not a string", false;
    if (!scores[i].is_number()) return *why = "a score is not an integer", false;
    double d = scores[i].get<double>();
    if (d != std::floor(d)) return *why = "a score is not an integer", false;
    if (d < 1 || d > 10) return *why = "a score is outside 1..10", false;
    int s = static_cast<int>(d);
    std::string text = NormalizeKeyword(kws[i].get<std::string>());
    size_t words = text.empty() ? 0 : 1 + std::count(text.begin(), text.end(), ' ');
    if (words == 0 || words > 6) return *why = "a keyword is empty or longer than 6 words", false;
    bool dup = false;
    for (const auto& prev : *out) dup = dup || prev.text == text;
    if (!dup) out->push_back({text, s, CollapseSpaces(kws[i].get<std::string>())});
  }
  return true;
}

std::unique_ptr<KeywordBackend> MakeLlmKeywordBackend(LlmOptions options, Store* cache) {
  return std::make_unique<LlmBackend>(std::move(options), cache);
}

}  // namespace litgraph
