// Tests for fts_tokens.h: FTS5 fed recorded tokens builds the index the
// built-in tokenizer builds, byte for byte; anything not armed falls back to
// the built-in tokenizer; ingest uses the replay.
#include "litgraph/fts_tokens.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "litgraph/ingest.h"
#include "litgraph/sqlite.h"
#include "litgraph/store.h"
#include "test_util.h"

namespace litgraph {
namespace {

using litgraph::testing::ScopedTempDir;
using litgraph::testing::TestData;

constexpr char kTable[] =
    "CREATE VIRTUAL TABLE t USING fts5(title, abstract, "
    "tokenize='porter unicode61 remove_diacritics 2')";

struct Doc {
  std::string title, abstract;
};

const std::vector<Doc>& Docs() {
  static const std::vector<Doc> kDocs = {
      {"Graph Neural Networks for Citation Recommendation",
       "We propose relational message passing over heterogeneous scholarly graphs."},
      {"Résumé: naïve Bayes über Straße",
       "Diacritics, ümlauts and CAPITALS are folded; "
       "connections connected connecting reduce to one stem."},
      {"", "A paper without a title, with numbers 2024 and 3.14 and hyphen-ated words."},
      {"Only a title", ""},
      {"!!! ??? ...", "--- *** ///"},
      {std::string(100, 'x') + " long tokens stay unstemmed " + std::string(70, 'y') + "ing",
       "running runner runs ran"},
      {"日本語のタイトル and mixed 中文 text", "Emoji 🙂 between words."},
  };
  return kDocs;
}

std::string Blocks(Db& db) {
  std::string out;
  Stmt st = db.Prepare("SELECT id, block FROM t_data ORDER BY id");
  while (st.Step()) {
    out += std::to_string(st.Int(0));
    out += ':';
    out += st.Blob(1);
    out += '\n';
  }
  return out;
}

class FtsTokensTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(replay_db_.Open(dir_.path() + "/replay.sqlite", true, true).ok());
    ASSERT_TRUE(plain_db_.Open(dir_.path() + "/plain.sqlite", true, true).ok());
    auto fts = FtsTokens::Install(replay_db_.raw());
    ASSERT_TRUE(fts.ok()) << fts.status().message();
    fts_ = fts.value();
    replay_db_.Exec(kTable);
    plain_db_.Exec(kTable);
  }

  ScopedTempDir dir_;
  Db replay_db_, plain_db_;
  FtsTokens* fts_ = nullptr;
};

TEST_F(FtsTokensTest, RecordedTokensBuildTheBuiltinIndex) {
  auto pre = fts_->NewPretokenizer();
  ASSERT_TRUE(pre.ok());
  Stmt a = replay_db_.Prepare("INSERT INTO t(rowid, title, abstract) VALUES(?, ?, ?)");
  Stmt b = plain_db_.Prepare("INSERT INTO t(rowid, title, abstract) VALUES(?, ?, ?)");
  int64_t texts = 0;
  for (size_t i = 0; i < Docs().size(); ++i) {
    const Doc& d = Docs()[i];
    std::string tt, ta;
    ASSERT_TRUE(pre.value()->Tokenize(d.title, &tt));
    ASSERT_TRUE(pre.value()->Tokenize(d.abstract, &ta));
    texts += !d.title.empty() + !d.abstract.empty();
    fts_->Arm(d.title, tt, d.abstract, ta);
    a.Bind(1, static_cast<int64_t>(i + 1)).Bind(2, d.title).Bind(3, d.abstract).Exec();
    fts_->Disarm();
    b.Bind(1, static_cast<int64_t>(i + 1)).Bind(2, d.title).Bind(3, d.abstract).Exec();
  }
  EXPECT_EQ(fts_->replayed(), texts);
  EXPECT_FALSE(Blocks(plain_db_).empty());
  EXPECT_EQ(Blocks(replay_db_), Blocks(plain_db_));
  replay_db_.Exec("INSERT INTO t(t) VALUES('integrity-check')");
  for (const char* q : {"resume", "connect", "graph AND citation", "\"naive bayes\"", "runner"}) {
    std::string sql = std::string("SELECT group_concat(rowid) FROM t WHERE t MATCH '") + q + "'";
    Stmt x = replay_db_.Prepare(sql), y = plain_db_.Prepare(sql);
    ASSERT_TRUE(x.Step());
    ASSERT_TRUE(y.Step());
    EXPECT_EQ(x.Str(0), y.Str(0)) << q;
    EXPECT_FALSE(y.Str(0).empty()) << q;
  }
}

TEST_F(FtsTokensTest, TextsNotArmedUseTheBuiltinTokenizer) {
  auto pre = fts_->NewPretokenizer();
  ASSERT_TRUE(pre.ok());
  std::string wrong;
  ASSERT_TRUE(pre.value()->Tokenize("completely different words", &wrong));
  Stmt a = replay_db_.Prepare("INSERT INTO t(rowid, title, abstract) VALUES(?, ?, ?)");
  Stmt b = plain_db_.Prepare("INSERT INTO t(rowid, title, abstract) VALUES(?, ?, ?)");
  const Doc& d = Docs()[0];
  // Armed with other texts: nothing matches, nothing is replayed.
  fts_->Arm("another title", wrong, "another abstract", wrong);
  a.Bind(1, 1).Bind(2, d.title).Bind(3, d.abstract).Exec();
  fts_->Disarm();
  b.Bind(1, 1).Bind(2, d.title).Bind(3, d.abstract).Exec();
  EXPECT_EQ(fts_->replayed(), 0);
  EXPECT_EQ(Blocks(replay_db_), Blocks(plain_db_));
  // Not armed at all.
  a.Bind(1, 2).Bind(2, Docs()[1].title).Bind(3, Docs()[1].abstract).Exec();
  b.Bind(1, 2).Bind(2, Docs()[1].title).Bind(3, Docs()[1].abstract).Exec();
  EXPECT_EQ(fts_->replayed(), 0);
  EXPECT_EQ(Blocks(replay_db_), Blocks(plain_db_));
}

TEST(FtsTokensIngestTest, IngestReplaysRecordedTokens) {
  ScopedTempDir dir;
  auto store = Store::Open(dir.path() + "/db", Store::Mode::kWrite, true);
  ASSERT_TRUE(store.ok());
  IngestStats stats;
  IngestOptions options;
  ASSERT_TRUE(Ingest(store.value().get(), {TestData("search-biodiversity-finance.works.jsonl")},
                     options, &stats)
                  .ok());
  ASSERT_GT(stats.works, 0);
  ASSERT_NE(store.value()->fts_tokens(), nullptr);
  // Title and abstract of every work (a work without an abstract has one).
  EXPECT_GE(store.value()->fts_tokens()->replayed(), stats.works);
  store.value()->db().Exec("INSERT INTO paper_fts(paper_fts) VALUES('integrity-check')");
}

}  // namespace
}  // namespace litgraph
