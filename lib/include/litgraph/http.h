// A small HTTP client for the optional network backends (LLM keyword
// extraction, embeddings, reranking): JSON POSTs over libcurl, run with
// bounded concurrency, per-request timeouts and bounded retries.
//
// The API key comes from the environment (the caller picks the variable) and
// is sent as "Authorization: Bearer ..."; it is never logged or put in error
// messages. Thread-safety: one HttpClient per thread.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "litgraph/status.h"

namespace litgraph {

struct HttpOptions {
  int concurrency = 4;     // requests in flight
  int timeout_ms = 60000;  // per attempt
  int retries = 2;         // extra attempts after a failed or rejected answer
  int backoff_ms = 250;    // doubled per attempt
  std::string api_key;     // empty: no Authorization header
};

struct HttpResult {
  long status = 0;  // HTTP status; 0 when no answer (timeout, refused)
  std::string body;
  std::string error;         // transport error or why the answer was rejected
  bool unreachable = false;  // could not connect or resolve the host
  int attempts = 0;
};

class HttpClient {
 public:
  explicit HttpClient(HttpOptions options);
  ~HttpClient();

  // POSTs `bodies[i]` (JSON) to `url` for every i, concurrently. An answer is
  // accepted when it is HTTP 2xx and `accept(i, body, &why)` returns true;
  // otherwise (transport error, 429, 5xx, rejected body) it is retried up to
  // options.retries times. 4xx other than 408/429 is not retried. Results
  // come back in input order.
  std::vector<HttpResult> PostAll(
      const std::string& url, const std::vector<std::string>& bodies,
      const std::function<bool(size_t, const std::string&, std::string*)>& accept);

 private:
  HttpOptions options_;
};

// The API key from the first non-empty environment variable of `names`.
std::string ApiKeyFromEnv(const std::vector<std::string>& names);

// base + path unless base already ends with path ("http://h/v1" ->
// "http://h/v1/chat/completions").
std::string EndpointUrl(const std::string& base, const std::string& path);

}  // namespace litgraph
