#include "litgraph/http.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>

namespace litgraph {

namespace {

// libcurl is loaded on first use: linked directly, its dependency tree
// (TLS, Kerberos, LDAP, ...) costs every tool ~7 ms of start-up although
// only the network backends need it (bench/results, find_s1m.csv).
struct CurlApi {
  bool ok = false;
  std::string error;
  CURLcode (*global_init)(long);
  CURL* (*easy_init)();
  CURLcode (*easy_setopt)(CURL*, CURLoption, ...);
  CURLcode (*easy_getinfo)(CURL*, CURLINFO, ...);
  void (*easy_cleanup)(CURL*);
  const char* (*easy_strerror)(CURLcode);
  curl_slist* (*slist_append)(curl_slist*, const char*);
  void (*slist_free_all)(curl_slist*);
  CURLM* (*multi_init)();
  CURLMcode (*multi_add_handle)(CURLM*, CURL*);
  CURLMcode (*multi_remove_handle)(CURLM*, CURL*);
  CURLMcode (*multi_perform)(CURLM*, int*);
  CURLMsg* (*multi_info_read)(CURLM*, int*);
  CURLMcode (*multi_wait)(CURLM*, curl_waitfd*, unsigned, int, int*);
  CURLMcode (*multi_cleanup)(CURLM*);
};

const CurlApi& Curl() {
  static CurlApi api = [] {
    CurlApi a;
    void* h = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      a.error = std::string("cannot load libcurl: ") + dlerror();
      return a;
    }
    bool all = true;
    auto sym = [&](auto* fp, const char* name) {
      void* p = dlsym(h, name);
      all = all && p;
      *fp = reinterpret_cast<std::remove_pointer_t<decltype(fp)>>(p);
    };
    sym(&a.global_init, "curl_global_init");
    sym(&a.easy_init, "curl_easy_init");
    sym(&a.easy_setopt, "curl_easy_setopt");
    sym(&a.easy_getinfo, "curl_easy_getinfo");
    sym(&a.easy_cleanup, "curl_easy_cleanup");
    sym(&a.easy_strerror, "curl_easy_strerror");
    sym(&a.slist_append, "curl_slist_append");
    sym(&a.slist_free_all, "curl_slist_free_all");
    sym(&a.multi_init, "curl_multi_init");
    sym(&a.multi_add_handle, "curl_multi_add_handle");
    sym(&a.multi_remove_handle, "curl_multi_remove_handle");
    sym(&a.multi_perform, "curl_multi_perform");
    sym(&a.multi_info_read, "curl_multi_info_read");
    sym(&a.multi_wait, "curl_multi_wait");
    sym(&a.multi_cleanup, "curl_multi_cleanup");
    if (!all) {
      a.error = "libcurl lacks an expected function";
      return a;
    }
    a.global_init(CURL_GLOBAL_DEFAULT);
    a.ok = true;
    return a;
  }();
  return api;
}

size_t Collect(char* data, size_t size, size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

}  // namespace

HttpClient::HttpClient(HttpOptions options) : options_(std::move(options)) {}

HttpClient::~HttpClient() = default;

std::string ApiKeyFromEnv(const std::vector<std::string>& names) {
  for (const auto& n : names) {
    const char* v = std::getenv(n.c_str());
    if (v && *v) return v;
  }
  return "";
}

std::string EndpointUrl(const std::string& base, const std::string& path) {
  std::string b = base;
  while (!b.empty() && b.back() == '/') b.pop_back();
  if (b.size() >= path.size() && b.compare(b.size() - path.size(), path.size(), path) == 0)
    return b;
  return b + path;
}

namespace {

// One PostAll call: requests in flight on a curl multi handle, one slot
// each, and the queue of requests waiting for a slot or their backoff.
class PostBatch {
 public:
  using Accept = std::function<bool(size_t, const std::string&, std::string*)>;
  PostBatch(const CurlApi& c, const HttpOptions& o, const std::string& url,
            const std::vector<std::string>& bodies, const Accept& accept)
      : c_(c),
        o_(o),
        url_(url),
        bodies_(bodies),
        accept_(accept),
        results_(bodies.size()),
        slots_(std::max(1, o.concurrency)),
        multi_(c.multi_init()) {
    auto now = std::chrono::steady_clock::now();
    for (size_t i = 0; i < bodies.size(); ++i) queue_.emplace_back(i, now);
  }
  ~PostBatch() { c_.multi_cleanup(multi_); }

  std::vector<HttpResult> Run() {
    while (!queue_.empty() || running_ > 0) {
      StartReady();
      int still = 0;
      c_.multi_perform(multi_, &still);
      int msgs = 0;
      while (CURLMsg* m = c_.multi_info_read(multi_, &msgs))
        if (m->msg == CURLMSG_DONE) Done(m);
      if (running_ > 0) {
        int fds = 0;
        c_.multi_wait(multi_, nullptr, 0, 50, &fds);
      } else if (!queue_.empty()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
    }
    return std::move(results_);
  }

 private:
  struct Slot {
    CURL* easy = nullptr;
    size_t index = 0;
    std::string body;
    curl_slist* headers = nullptr;
  };

  // Fills free slots with queued requests whose backoff has passed.
  void StartReady() {
    auto now = std::chrono::steady_clock::now();
    for (Slot& s : slots_) {
      if (s.easy || queue_.empty()) continue;
      auto it = std::find_if(queue_.begin(), queue_.end(),
                             [&](const auto& q) { return q.second <= now; });
      if (it == queue_.end()) break;
      size_t i = it->first;
      queue_.erase(it);
      Start(s, i);
    }
  }

  void Start(Slot& s, size_t i) {
    s.index = i;
    s.body.clear();
    s.easy = c_.easy_init();
    s.headers = c_.slist_append(nullptr, "Content-Type: application/json");
    if (!o_.api_key.empty())
      s.headers = c_.slist_append(s.headers, ("Authorization: Bearer " + o_.api_key).c_str());
    c_.easy_setopt(s.easy, CURLOPT_URL, url_.c_str());
    c_.easy_setopt(s.easy, CURLOPT_HTTPHEADER, s.headers);
    c_.easy_setopt(s.easy, CURLOPT_POSTFIELDS, bodies_[i].c_str());
    c_.easy_setopt(s.easy, CURLOPT_POSTFIELDSIZE, static_cast<long>(bodies_[i].size()));
    c_.easy_setopt(s.easy, CURLOPT_WRITEFUNCTION, Collect);
    c_.easy_setopt(s.easy, CURLOPT_WRITEDATA, &s.body);
    c_.easy_setopt(s.easy, CURLOPT_TIMEOUT_MS, static_cast<long>(o_.timeout_ms));
    c_.easy_setopt(s.easy, CURLOPT_CONNECTTIMEOUT_MS, std::min<long>(o_.timeout_ms, 10000));
    c_.easy_setopt(s.easy, CURLOPT_NOSIGNAL, 1L);
    c_.easy_setopt(s.easy, CURLOPT_PRIVATE, &s);
    c_.multi_add_handle(multi_, s.easy);
    ++results_[i].attempts;
    ++running_;
  }

  // A finished request: its result, and a retry after backoff when the
  // failure may pass (transport errors, 408, 429, 5xx, rejected answers).
  void Done(CURLMsg* m) {
    Slot* s = nullptr;
    c_.easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, reinterpret_cast<char**>(&s));
    HttpResult& r = results_[s->index];
    long code = 0;
    c_.easy_getinfo(m->easy_handle, CURLINFO_RESPONSE_CODE, &code);
    r.status = code;
    bool retry = false;
    if (m->data.result != CURLE_OK) {
      r.error = c_.easy_strerror(m->data.result);
      r.unreachable = m->data.result == CURLE_COULDNT_CONNECT ||
                      m->data.result == CURLE_COULDNT_RESOLVE_HOST ||
                      m->data.result == CURLE_COULDNT_RESOLVE_PROXY;
      retry = true;
    } else if (code < 200 || code >= 300) {
      r.unreachable = false;
      r.error = fmt::format("HTTP {}", code);
      retry = code == 408 || code == 429 || code >= 500;
    } else {
      std::string why;
      r.unreachable = false;
      if (accept_(s->index, s->body, &why)) {
        r.error.clear();
        r.body = std::move(s->body);
      } else {
        r.error = why.empty() ? "rejected answer" : why;
        retry = true;
      }
    }
    if (!r.error.empty()) r.body = s->body;  // kept for diagnostics
    size_t index = s->index;
    c_.multi_remove_handle(multi_, s->easy);
    c_.easy_cleanup(s->easy);
    c_.slist_free_all(s->headers);
    s->easy = nullptr;
    s->headers = nullptr;
    --running_;
    if (retry && r.attempts <= o_.retries) {
      auto delay = std::chrono::milliseconds(o_.backoff_ms << (r.attempts - 1));
      queue_.emplace_back(index, std::chrono::steady_clock::now() + delay);
    }
  }

  const CurlApi& c_;
  const HttpOptions& o_;
  const std::string& url_;
  const std::vector<std::string>& bodies_;
  const Accept& accept_;
  std::vector<HttpResult> results_;
  std::vector<Slot> slots_;
  CURLM* multi_;
  std::deque<std::pair<size_t, std::chrono::steady_clock::time_point>> queue_;
  size_t running_ = 0;
};

}  // namespace

std::vector<HttpResult> HttpClient::PostAll(
    const std::string& url, const std::vector<std::string>& bodies,
    const std::function<bool(size_t, const std::string&, std::string*)>& accept) {
  const CurlApi& c = Curl();
  if (!c.ok) {
    std::vector<HttpResult> results(bodies.size());
    for (auto& r : results) {
      r.error = c.error;
      r.unreachable = true;
    }
    return results;
  }
  return PostBatch(c, options_, url, bodies, accept).Run();
}

}  // namespace litgraph
