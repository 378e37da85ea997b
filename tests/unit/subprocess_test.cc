#include "litgraph/subprocess.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <cstdlib>
#include <thread>

namespace litgraph {
namespace {

using std::chrono::milliseconds;

class SubprocessTest : public ::testing::Test {
 protected:
  void SetUp() override { signal(SIGPIPE, SIG_IGN); }
};

TEST_F(SubprocessTest, PassesInputAndCollectsOutputAndExitCode) {
  auto r = RunProcess({"/bin/sh", "-c", "cat; echo oops >&2; exit 3"}, "line 1\nline 2\n",
                      milliseconds(20000));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->out, "line 1\nline 2\n");
  EXPECT_EQ(r->err, "oops\n");
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_FALSE(r->timed_out || r->cancelled);
}

TEST_F(SubprocessTest, LargeInputThatIsNotReadDoesNotBlock) {
  auto r = RunProcess({"/bin/true"}, std::string(1 << 20, 'x'), milliseconds(20000));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 0);
}

TEST_F(SubprocessTest, TimeLimitKillsTheProcessGroup) {
  // The shell's child (sleep) holds the output pipe: only a kill of the whole
  // group ends the run.
  auto r = RunProcess({"/bin/sh", "-c", "sleep 30 & sleep 30"}, "", milliseconds(200));
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->timed_out);
  EXPECT_EQ(r->signal, SIGKILL);
  EXPECT_LT(r->seconds, 20);
}

TEST_F(SubprocessTest, CancelKillsTheProcess) {
  std::atomic<bool> cancel{false};
  std::thread t([&] {
    std::this_thread::sleep_for(milliseconds(100));
    cancel = true;
  });
  auto r = RunProcess({"/bin/sleep", "30"}, "", milliseconds(60000), &cancel);
  t.join();
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->cancelled);
  EXPECT_FALSE(r->timed_out);
  EXPECT_LT(r->seconds, 20);
}

TEST_F(SubprocessTest, AMissingProgramIsAnIoError) {
  auto r = RunProcess({"/nonexistent/litgraph-x"}, "", milliseconds(1000));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kIoError);
  EXPECT_NE(r.status().message().find("/nonexistent/litgraph-x: cannot run"), std::string::npos);
}

TEST_F(SubprocessTest, FindProgramSearchesPath) {
  const char* old = std::getenv("PATH");
  const std::string saved = old ? old : "";
  setenv("PATH", "/nonexistent:/bin", 1);
  EXPECT_EQ(FindProgram("sh"), "/bin/sh");
  EXPECT_EQ(FindProgram("litgraph-no-such-program"), "");
  EXPECT_EQ(FindProgram("/bin/sh"), "/bin/sh");  // a path is checked as it is
  EXPECT_EQ(FindProgram("/nonexistent/sh"), "");
  EXPECT_EQ(FindProgram(""), "");
  setenv("PATH", "/nonexistent", 1);
  EXPECT_EQ(FindProgram("sh"), "");
  setenv("PATH", saved.c_str(), 1);
}

}  // namespace
}  // namespace litgraph
