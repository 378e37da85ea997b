#include "litgraph/fts_tokens.h"

#include <cstring>

#include "litgraph/coding.h"

namespace litgraph {

namespace {

// A recording: per token varint(tflags), varint(size), the token's bytes,
// varint(start), varint(end - start).
int Record(void* ctx, int tflags, const char* token, int n, int start, int end) {
  auto* out = static_cast<std::string*>(ctx);
  char head[20];
  char* p = PutVarint(static_cast<uint64_t>(n), PutVarint(static_cast<uint64_t>(tflags), head));
  out->append(head, p - head);
  out->append(token, static_cast<size_t>(n));
  p = PutVarint(static_cast<uint64_t>(end - start), PutVarint(static_cast<uint64_t>(start), head));
  out->append(head, p - head);
  return SQLITE_OK;
}

int Replay(std::string_view tokens, void* ctx,
           int (*token)(void*, int, const char*, int, int, int)) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(tokens.data());
  const uint8_t* end = p + tokens.size();
  while (p < end) {
    uint64_t flags, n, start, len;
    if (!GetVarint(&p, end, &flags) || !GetVarint(&p, end, &n) ||
        n > static_cast<uint64_t>(end - p))
      return SQLITE_CORRUPT;
    const char* bytes = reinterpret_cast<const char*>(p);
    p += n;
    if (!GetVarint(&p, end, &start) || !GetVarint(&p, end, &len)) return SQLITE_CORRUPT;
    int rc = token(ctx, static_cast<int>(flags), bytes, static_cast<int>(n),
                   static_cast<int>(start), static_cast<int>(start + len));
    if (rc != SQLITE_OK) return rc;
  }
  return SQLITE_OK;
}

bool IsPaperArgs(const char** args, int n) {
  constexpr int kN = sizeof(kPaperFtsTokenizerArgs) / sizeof(kPaperFtsTokenizerArgs[0]);
  if (n != kN) return false;
  for (int i = 0; i < n; ++i)
    if (std::strcmp(args[i], kPaperFtsTokenizerArgs[i]) != 0) return false;
  return true;
}

fts5_api* Fts5Api(sqlite3* db) {
  fts5_api* api = nullptr;
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &st, nullptr) != SQLITE_OK) return nullptr;
  sqlite3_bind_pointer(st, 1, &api, "fts5_api_ptr", nullptr);
  sqlite3_step(st);
  sqlite3_finalize(st);
  return api;
}

}  // namespace

// One tokenizer FTS5 created through the wrapper: the built-in one inside.
struct FtsTokens::Instance {
  FtsTokens* owner;
  Fts5Tokenizer* builtin;
  bool replays;  // created with paper_fts's arguments
};

Result<FtsTokens*> FtsTokens::Install(sqlite3* db) {
  fts5_api* api = Fts5Api(db);
  if (!api || api->iVersion < 2) return Status::Internal("SQLite has no FTS5 API");
  auto self = std::make_unique<FtsTokens>();
  if (api->xFindTokenizer(api, "porter", &self->builtin_data_, &self->builtin_) != SQLITE_OK)
    return Status::Internal("FTS5 has no porter tokenizer");
  fts5_tokenizer wrapper{&FtsTokens::Create, &FtsTokens::Delete, &FtsTokens::Tokenize};
  FtsTokens* raw = self.get();
  int rc = api->xCreateTokenizer(api, "porter", raw, &wrapper,
                                 [](void* p) { delete static_cast<FtsTokens*>(p); });
  if (rc != SQLITE_OK) return Status::Internal("cannot register the FTS5 token replay");
  self.release();  // the connection owns it now
  return raw;
}

int FtsTokens::Create(void* self, const char** args, int n, Fts5Tokenizer** out) {
  auto* owner = static_cast<FtsTokens*>(self);
  Fts5Tokenizer* builtin = nullptr;
  int rc = owner->builtin_.xCreate(owner->builtin_data_, args, n, &builtin);
  if (rc != SQLITE_OK) return rc;
  *out = reinterpret_cast<Fts5Tokenizer*>(new Instance{owner, builtin, IsPaperArgs(args, n)});
  return SQLITE_OK;
}

void FtsTokens::Delete(Fts5Tokenizer* t) {
  auto* inst = reinterpret_cast<Instance*>(t);
  inst->owner->builtin_.xDelete(inst->builtin);
  delete inst;
}

int FtsTokens::Tokenize(Fts5Tokenizer* t, void* ctx, int flags, const char* text, int n,
                        int (*token)(void*, int, const char*, int, int, int)) {
  auto* inst = reinterpret_cast<Instance*>(t);
  FtsTokens* owner = inst->owner;
  if (inst->replays && flags == FTS5_TOKENIZE_DOCUMENT && n > 0) {
    for (const Armed& a : owner->armed_) {
      if (a.text.size() == static_cast<size_t>(n) && std::memcmp(a.text.data(), text, n) == 0) {
        ++owner->replayed_;
        return Replay(a.tokens, ctx, token);
      }
    }
  }
  return owner->builtin_.xTokenize(inst->builtin, ctx, flags, text, n, token);
}

void FtsTokens::Arm(std::string_view text1, std::string_view tokens1, std::string_view text2,
                    std::string_view tokens2) {
  armed_[0] = {text1, tokens1};
  armed_[1] = {text2, tokens2};
}

void FtsTokens::Disarm() { armed_[0] = armed_[1] = {}; }

Result<std::unique_ptr<FtsTokens::Pretokenizer>> FtsTokens::NewPretokenizer() const {
  std::unique_ptr<Pretokenizer> p(new Pretokenizer());
  p->api_ = builtin_;
  int rc = builtin_.xCreate(builtin_data_, const_cast<const char**>(kPaperFtsTokenizerArgs),
                            sizeof(kPaperFtsTokenizerArgs) / sizeof(kPaperFtsTokenizerArgs[0]),
                            &p->tok_);
  if (rc != SQLITE_OK) return Status::Internal("cannot create the FTS5 porter tokenizer");
  return p;
}

FtsTokens::Pretokenizer::~Pretokenizer() {
  if (tok_) api_.xDelete(tok_);
}

bool FtsTokens::Pretokenizer::Tokenize(std::string_view text, std::string* out) {
  out->clear();
  if (text.empty()) return true;
  return api_.xTokenize(tok_, out, FTS5_TOKENIZE_DOCUMENT, text.data(),
                        static_cast<int>(text.size()), &Record) == SQLITE_OK;
}

}  // namespace litgraph
