// The LLM keyword backend: an OpenAI-compatible chat-completions endpoint
// (llama.cpp server, Ollama, vLLM, OpenAI) asked, with a prompt of our own,
// for the same contract as the built-in extractor: 3-8 canonical, reusable
// keywords with integer importance 1-10, as strict JSON
// {"keywords": [...], "scores": [...]}.
//
// Answers are validated (JSON object, arrays of equal length, 1-8 non-empty
// keywords of at most 6 words, integer scores 1-10) and malformed answers are
// retried a bounded number of times. Accepted answers are cached in the
// store's backend_cache table keyed by a hash of (model, prompt version,
// title, abstract), so a re-run pays nothing twice; the key comes from
// LITGRAPH_LLM_API_KEY or OPENAI_API_KEY and is never printed.
#pragma once

#include <memory>
#include <string>

#include "litgraph/http.h"
#include "litgraph/keyword_store.h"

namespace litgraph {

struct LlmOptions {
  std::string url;  // base URL ("http://localhost:8080/v1") or the full endpoint
  std::string model;
  HttpOptions http;
  int max_chars = 6000;  // abstract characters sent
};

// The prompt's version: part of the cache key, bumped when the prompt changes.
inline constexpr int kKeywordPromptVersion = 1;

// The chat-completions request body for one paper (exposed for tests).
std::string KeywordRequestBody(const LlmOptions& options, const std::string& title,
                               const std::string& abstract);
// Parses and validates a chat-completions response; false with *why when it
// breaks the contract.
bool ParseKeywordAnswer(const std::string& response_body, std::vector<Keyword>* out,
                        std::string* why);

// cache: the store whose answer cache to use (Store::CacheGet); may be null.
std::unique_ptr<KeywordBackend> MakeLlmKeywordBackend(LlmOptions options, Store* cache);

}  // namespace litgraph
