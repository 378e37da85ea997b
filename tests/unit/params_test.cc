// Tests for params.h: ParamTable::Set for every value type (numbers, integers,
// sizes, strings with a list of choices), config files (comments, blank
// lines, quotes, dashed names, errors naming FILE:LINE) and the rule that a
// flag given on the command line wins over the config file. Also checks that
// the parameters of rwr.h and search.h are registered under their documented
// names.
#include "litgraph/params.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "litgraph/rwr.h"
#include "litgraph/search.h"
#include "test_util.h"
#include "tool.h"

namespace litgraph {
namespace {

using litgraph::testing::ScopedTempDir;
using litgraph::testing::WriteFile;

struct Values {
  double alpha = 0.15;
  int max_iter = 50;
  size_t cap = 500;
  std::string mode = "rwr";
  std::string name = "free";
};

void Register(ParamTable* t, Values* v) {
  t->Add("alpha", &v->alpha, "restart");
  t->Add("max_iter", &v->max_iter, "iterations");
  t->Add("per_hop_cap", &v->cap, "cap");
  t->Add("propagation", &v->mode, "propagation", {"rwr", "two-step"});
  t->Add("label", &v->name, "any string");
}

// Parses argv (program name first) with the table's flags.
void Parse(CLI::App* app, std::vector<std::string> args) {
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  app->parse(static_cast<int>(argv.size()), argv.data());
}

// ---- Set --------------------------------------------------------------------

TEST(ParamTableSetTest, Doubles) {
  Values v;
  ParamTable t;
  Register(&t, &v);
  EXPECT_TRUE(t.Set("alpha", "0.5").ok());
  EXPECT_DOUBLE_EQ(v.alpha, 0.5);
  EXPECT_TRUE(t.Set("alpha", "1e-3").ok());
  EXPECT_DOUBLE_EQ(v.alpha, 1e-3);
  EXPECT_TRUE(t.Set("alpha", "-2").ok());
  EXPECT_DOUBLE_EQ(v.alpha, -2.0);
  for (const char* bad : {"", "abc", "0.5x", "0.5 0.6", "x0.5"}) {
    Status st = t.Set("alpha", bad);
    EXPECT_EQ(st.code(), Code::kInvalidArgument) << bad;
    EXPECT_NE(st.message().find("alpha"), std::string::npos) << st.message();
  }
  EXPECT_DOUBLE_EQ(v.alpha, -2.0) << "a rejected value must not be stored";
}

TEST(ParamTableSetTest, NumbersMustBeFinite) {
  Values v;
  ParamTable t;
  Register(&t, &v);
  for (const char* bad : {"nan", "NaN", "-nan", "inf", "-inf", "infinity", "1e999", "-1e999"}) {
    Status st = t.Set("alpha", bad);
    EXPECT_EQ(st.code(), Code::kInvalidArgument) << bad;
    EXPECT_NE(st.message().find("finite"), std::string::npos) << st.message();
  }
  EXPECT_DOUBLE_EQ(v.alpha, 0.15);
}

TEST(ParamTableSetTest, Integers) {
  Values v;
  ParamTable t;
  Register(&t, &v);
  EXPECT_TRUE(t.Set("max_iter", "7").ok());
  EXPECT_EQ(v.max_iter, 7);
  EXPECT_TRUE(t.Set("max_iter", "-3").ok());
  EXPECT_EQ(v.max_iter, -3);
  for (const char* bad : {"", "3.5", "x", "7 ", "1e3", "99999999999999999999"})
    EXPECT_EQ(t.Set("max_iter", bad).code(), Code::kInvalidArgument) << bad;
  EXPECT_EQ(v.max_iter, -3);
}

TEST(ParamTableSetTest, Sizes) {
  Values v;
  ParamTable t;
  Register(&t, &v);
  EXPECT_TRUE(t.Set("per_hop_cap", "12").ok());
  EXPECT_EQ(v.cap, 12u);
  EXPECT_TRUE(t.Set("per_hop_cap", "0").ok());
  EXPECT_EQ(v.cap, 0u);
  for (const char* bad : {"-1", "1.0", "ten", ""})
    EXPECT_EQ(t.Set("per_hop_cap", bad).code(), Code::kInvalidArgument) << bad;
  EXPECT_EQ(v.cap, 0u);
}

TEST(ParamTableSetTest, StringsWithAndWithoutChoices) {
  Values v;
  ParamTable t;
  Register(&t, &v);
  EXPECT_TRUE(t.Set("propagation", "two-step").ok());
  EXPECT_EQ(v.mode, "two-step");
  Status st = t.Set("propagation", "three-step");
  EXPECT_EQ(st.code(), Code::kInvalidArgument);
  EXPECT_NE(st.message().find("three-step"), std::string::npos) << st.message();
  EXPECT_EQ(v.mode, "two-step");
  EXPECT_TRUE(t.Set("label", "anything at all").ok());
  EXPECT_EQ(v.name, "anything at all");
}

TEST(ParamTableSetTest, UnknownName) {
  Values v;
  ParamTable t;
  Register(&t, &v);
  Status st = t.Set("no_such_param", "1");
  EXPECT_EQ(st.code(), Code::kInvalidArgument);
  EXPECT_NE(st.message().find("no_such_param"), std::string::npos) << st.message();
  // Set takes the underscore name only; dashes are a config-file convenience.
  EXPECT_EQ(t.Set("max-iter", "3").code(), Code::kInvalidArgument);
}

// ---- LoadConfig -------------------------------------------------------------

TEST(LoadConfigTest, CommentsBlanksQuotesAndDashes) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("walk.conf");
  WriteFile(path,
            "# a comment line\n"
            "\n"
            "   \t  \n"
            "alpha = 0.3   # trailing comment\n"
            "max-iter=12\n"
            "  per_hop_cap   =   40  \r\n"
            "propagation = \"two-step\"\n"
            "label = \"quoted words\"\n");
  Values v;
  ParamTable t;
  Register(&t, &v);
  Status st = t.LoadConfig(path);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_DOUBLE_EQ(v.alpha, 0.3);
  EXPECT_EQ(v.max_iter, 12);
  EXPECT_EQ(v.cap, 40u);
  EXPECT_EQ(v.mode, "two-step");
  EXPECT_EQ(v.name, "quoted words");
}

TEST(LoadConfigTest, EmptyFileChangesNothing) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("empty.conf");
  WriteFile(path, "");
  Values v;
  ParamTable t;
  Register(&t, &v);
  ASSERT_TRUE(t.LoadConfig(path).ok());
  EXPECT_DOUBLE_EQ(v.alpha, 0.15);
  EXPECT_EQ(v.max_iter, 50);
}

TEST(LoadConfigTest, UnknownNameNamesFileAndLine) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("bad.conf");
  WriteFile(path, "alpha = 0.2\n# comment\n\nbeta_unknown = 3\n");
  Values v;
  ParamTable t;
  Register(&t, &v);
  Status st = t.LoadConfig(path);
  EXPECT_EQ(st.code(), Code::kMalformedInput);
  EXPECT_NE(st.message().find(path + ":4:"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("beta_unknown"), std::string::npos) << st.message();
}

TEST(LoadConfigTest, BadNumberNamesFileAndLine) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("num.conf");
  WriteFile(path, "max_iter = 5\nalpha = fast\n");
  Values v;
  ParamTable t;
  Register(&t, &v);
  Status st = t.LoadConfig(path);
  EXPECT_EQ(st.code(), Code::kMalformedInput);
  EXPECT_NE(st.message().find(path + ":2:"), std::string::npos) << st.message();
  EXPECT_DOUBLE_EQ(v.alpha, 0.15);
}

TEST(LoadConfigTest, BadChoiceAndMissingEquals) {
  ScopedTempDir tmp;
  Values v;
  ParamTable t;
  Register(&t, &v);
  const std::string choice = tmp.File("choice.conf");
  WriteFile(choice, "propagation = sideways\n");
  Status st = t.LoadConfig(choice);
  EXPECT_EQ(st.code(), Code::kMalformedInput);
  EXPECT_NE(st.message().find(choice + ":1:"), std::string::npos) << st.message();
  const std::string noeq = tmp.File("noeq.conf");
  WriteFile(noeq, "\nalpha 0.3\n");
  st = t.LoadConfig(noeq);
  EXPECT_EQ(st.code(), Code::kMalformedInput);
  EXPECT_NE(st.message().find(noeq + ":2:"), std::string::npos) << st.message();
}

TEST(LoadConfigTest, AnyLineEndsAndAByteOrderMark) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("mac.conf");
  WriteFile(
      path,
      "\xEF\xBB\xBF# saved by an old editor\ralpha = 0.3\rmax_iter = 12\r\nper_hop_cap = x\r");
  Values v;
  ParamTable t;
  Register(&t, &v);
  Status st = t.LoadConfig(path);
  EXPECT_EQ(st.code(), Code::kMalformedInput);
  EXPECT_NE(st.message().find(path + ":4:"), std::string::npos) << st.message();
  EXPECT_DOUBLE_EQ(v.alpha, 0.3);
  EXPECT_EQ(v.max_iter, 12);
}

TEST(LoadConfigTest, DirectoryIsAnIoError) {
  ScopedTempDir tmp;
  Values v;
  ParamTable t;
  Register(&t, &v);
  Status st = t.LoadConfig(tmp.path());
  EXPECT_EQ(st.code(), Code::kIoError);
  EXPECT_EQ(st.message(), tmp.path() + ": is a directory");
}

TEST(LoadConfigTest, MissingFileIsAnIoError) {
  ScopedTempDir tmp;
  Values v;
  ParamTable t;
  Register(&t, &v);
  Status st = t.LoadConfig(tmp.File("nowhere.conf"));
  EXPECT_EQ(st.code(), Code::kIoError);
  EXPECT_NE(st.message().find("nowhere.conf"), std::string::npos);
}

// ---- Flags ------------------------------------------------------------------

TEST(ParamFlagsTest, FlagsUseDashedNames) {
  Values v;
  ParamTable t;
  Register(&t, &v);
  CLI::App app("test");
  AddParamFlags(&app, &t, "Walk");
  Parse(&app, {"prog", "--alpha", "0.4", "--max-iter", "9", "--per-hop-cap", "3", "--propagation",
               "two-step"});
  EXPECT_DOUBLE_EQ(v.alpha, 0.4);
  EXPECT_EQ(v.max_iter, 9);
  EXPECT_EQ(v.cap, 3u);
  EXPECT_EQ(v.mode, "two-step");
  // The choices are checked on the command line too.
  Values w;
  ParamTable t2;
  Register(&t2, &w);
  CLI::App app2("test");
  AddParamFlags(&app2, &t2, "Walk");
  EXPECT_THROW(Parse(&app2, {"prog", "--propagation", "sideways"}), CLI::ParseError);
}

TEST(ParamFlagsTest, CommandLineFlagWinsOverConfigFile) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("walk.conf");
  WriteFile(path, "alpha = 0.5\nmax_iter = 11\nper-hop-cap = 7\n");
  Values v;
  ParamTable t;
  Register(&t, &v);
  CLI::App app("test");
  AddParamFlags(&app, &t, "Walk");
  Parse(&app, {"prog", "--alpha", "0.15"});
  ASSERT_TRUE(t.LoadConfig(path).ok());
  EXPECT_DOUBLE_EQ(v.alpha, 0.15) << "the flag must win";
  EXPECT_EQ(v.max_iter, 11);
  EXPECT_EQ(v.cap, 7u);
}

TEST(ParamFlagsTest, FlagGivenWithItsDefaultValueStillWins) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("walk.conf");
  WriteFile(path, "max_iter = 99\n");
  Values v;
  ParamTable t;
  Register(&t, &v);
  CLI::App app("test");
  AddParamFlags(&app, &t, "Walk");
  Parse(&app, {"prog", "--max-iter", "50"});
  ASSERT_TRUE(t.LoadConfig(path).ok());
  EXPECT_EQ(v.max_iter, 50);
}

TEST(ParamFlagsTest, WithoutFlagsTheFileApplies) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("walk.conf");
  WriteFile(path, "alpha = 0.5\n");
  Values v;
  ParamTable t;
  Register(&t, &v);
  CLI::App app("test");
  AddParamFlags(&app, &t, "Walk");
  Parse(&app, {"prog"});
  ASSERT_TRUE(t.LoadConfig(path).ok());
  EXPECT_DOUBLE_EQ(v.alpha, 0.5);
}

TEST(ParamFlagsTest, RefusedValueNamesTheFlag) {
  RwrParams p;
  ParamTable t;
  p.Register(&t);
  CLI::App app("test");
  AddParamFlags(&app, &t, "Walk");
  try {
    Parse(&app, {"prog", "--alpha", "nan"});
    ADD_FAILURE() << "--alpha nan was accepted";
  } catch (const CLI::ValidationError& e) {
    EXPECT_EQ(std::string(e.what()), "--alpha: \"nan\" is not a number > 0 and <= 1");
  }
}

// ---- The registered parameters of rwr.h and search.h --------------------------

TEST(RegisteredParamsTest, RwrNamesMatchTheirFields) {
  RwrParams p;
  ParamTable t;
  p.Register(&t);
  ASSERT_TRUE(t.Set("beta_cite", "0.25").ok());
  ASSERT_TRUE(t.Set("beta_hk", "2").ok());
  ASSERT_TRUE(t.Set("eps_kw", "0.5").ok());
  ASSERT_TRUE(t.Set("alpha", "0.3").ok());
  ASSERT_TRUE(t.Set("max_iter", "7").ok());
  ASSERT_TRUE(t.Set("per_hop_cap", "9").ok());
  ASSERT_TRUE(t.Set("hops", "1").ok());
  ASSERT_TRUE(t.Set("propagation", "two-step").ok());
  EXPECT_DOUBLE_EQ(p.beta_cite, 0.25);
  EXPECT_DOUBLE_EQ(p.beta_hk, 2.0);
  EXPECT_DOUBLE_EQ(p.eps_kw, 0.5);
  EXPECT_DOUBLE_EQ(p.alpha, 0.3);
  EXPECT_EQ(p.max_iter, 7);
  EXPECT_EQ(p.per_hop_cap, 9u);
  EXPECT_EQ(p.hops, 1);
  EXPECT_EQ(p.propagation, Propagation::kTwoStep);
  EXPECT_EQ(t.Set("propagation", "pagerank").code(), Code::kInvalidArgument);
}

// Every numeric parameter of tri-search (a superset of rwr-rank's) has a
// finite range: NaN, infinities, negative and huge values are refused.
TEST(RegisteredParamsTest, EveryNumberHasAFiniteRange) {
  SearchParams p;
  ParamTable t;
  p.Register(&t);
  int numeric = 0;
  for (const ParamTable::Info& info : t.List()) {
    if (!info.numeric) continue;
    ++numeric;
    for (const char* bad :
         {"nan", "inf", "-inf", "1e999", "-1", "1e300", "99999999999999999999", "", "1x"})
      EXPECT_EQ(t.Set(info.name, bad).code(), Code::kInvalidArgument) << info.name << " " << bad;
    EXPECT_TRUE(t.Set(info.name, info.default_value).ok()) << info.name;
  }
  EXPECT_GT(numeric, 30);
}

TEST(RegisteredParamsTest, SearchSharesTheWalkParameters) {
  SearchParams p;
  ParamTable t;
  p.Register(&t);
  ASSERT_TRUE(t.Set("alpha", "0.4").ok());
  ASSERT_TRUE(t.Set("lambda_pre", "0.5").ok());
  ASSERT_TRUE(t.Set("gate_floor", "0.1").ok());
  ASSERT_TRUE(t.Set("importance", "uniform").ok());
  ASSERT_TRUE(t.Set("sem_top", "5").ok());
  EXPECT_DOUBLE_EQ(p.rwr.alpha, 0.4);
  EXPECT_DOUBLE_EQ(p.lambda_pre, 0.5);
  EXPECT_DOUBLE_EQ(p.gate_floor, 0.1);
  EXPECT_EQ(p.importance, Importance::kUniform);
  EXPECT_EQ(p.sem_top, 5u);
  EXPECT_EQ(t.Set("importance", "linear").code(), Code::kInvalidArgument);
}

}  // namespace
}  // namespace litgraph
