#include "litgraph/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace litgraph {

namespace {

using Clock = std::chrono::steady_clock;

// Both ends of a pipe, closed on destruction.
struct Pipe {
  int fd[2] = {-1, -1};
  ~Pipe() { CloseBoth(); }
  bool Open() { return pipe2(fd, O_CLOEXEC) == 0; }
  void Close(int i) {
    if (fd[i] >= 0) close(fd[i]);
    fd[i] = -1;
  }
  void CloseBoth() { Close(0), Close(1); }
};

// In the child, between fork and exec: async-signal-safe calls only.
[[noreturn]] void ExecChild(char* const* argv, Pipe& in, Pipe& out, Pipe& err, Pipe& exec_err,
                            pid_t parent) {
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);  // the parent died before prctl
  signal(SIGPIPE, SIG_DFL);
  if (dup2(in.fd[0], 0) < 0 || dup2(out.fd[1], 1) < 0 || dup2(err.fd[1], 2) < 0) _exit(127);
  execv(argv[0], argv);
  int e = errno;
  (void)!write(exec_err.fd[1], &e, sizeof e);
  _exit(127);
}

// Appends what is readable on `fd` to `to`; false at end of file.
bool Drain(int fd, std::string* to) {
  char buf[65536];
  ssize_t n = read(fd, buf, sizeof buf);
  if (n > 0) {
    to->append(buf, static_cast<size_t>(n));
    return true;
  }
  return n < 0 && (errno == EINTR || errno == EAGAIN);
}

}  // namespace

Result<ProcessResult> RunProcess(const std::vector<std::string>& argv, const std::string& input,
                                 std::chrono::milliseconds limit, const std::atomic<bool>* cancel) {
  if (argv.empty()) return Status::InvalidArgument("no program to run");
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  Pipe in, out, err, exec_err;
  if (!in.Open() || !out.Open() || !err.Open() || !exec_err.Open())
    return Status::IoError(std::string("cannot create pipes: ") + std::strerror(errno));
  const Clock::time_point start = Clock::now();
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) return Status::IoError(std::string("cannot fork: ") + std::strerror(errno));
  if (pid == 0) ExecChild(args.data(), in, out, err, exec_err, parent);
  setpgid(pid, pid);  // also here, so a kill right away reaches the group
  in.Close(0), out.Close(1), err.Close(1), exec_err.Close(1);
  int exec_errno = 0;
  if (read(exec_err.fd[0], &exec_errno, sizeof exec_errno) == sizeof exec_errno) {
    waitpid(pid, nullptr, 0);
    return Status::IoError(argv[0] + ": cannot run: " + std::strerror(exec_errno));
  }
  for (int fd : {in.fd[1], out.fd[0], err.fd[0]}) fcntl(fd, F_SETFL, O_NONBLOCK);

  ProcessResult r;
  size_t written = 0;
  if (input.empty()) in.Close(1);
  bool out_open = true, err_open = true;
  while (out_open || err_open) {
    if (cancel && cancel->load()) r.cancelled = true;
    if (Clock::now() - start >= limit) r.timed_out = true;
    if (r.cancelled || r.timed_out) {
      kill(-pid, SIGKILL);
      break;
    }
    pollfd fds[3] = {{out_open ? out.fd[0] : -1, POLLIN, 0},
                     {err_open ? err.fd[0] : -1, POLLIN, 0},
                     {in.fd[1], POLLOUT, 0}};
    if (poll(fds, 3, 50) < 0 && errno != EINTR) break;
    if (fds[0].revents) out_open = Drain(out.fd[0], &r.out);
    if (fds[1].revents) err_open = Drain(err.fd[0], &r.err);
    if (fds[2].revents & (POLLERR | POLLHUP)) in.Close(1);  // it does not read its input
    if (fds[2].revents & POLLOUT) {
      ssize_t n = write(in.fd[1], input.data() + written, input.size() - written);
      if (n > 0) written += static_cast<size_t>(n);
      if (written == input.size() || (n < 0 && errno != EAGAIN && errno != EINTR)) in.Close(1);
    }
  }
  in.Close(1);
  int status = 0;
  // Its output is closed; it may still run (a daemon), so the limit holds here too.
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if ((cancel && cancel->load()) || Clock::now() - start >= limit) {
      r.cancelled = r.cancelled || (cancel && cancel->load());
      r.timed_out = !r.cancelled;
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    usleep(1000);
  }
  // A grandchild may still hold the group; the group dies with the call.
  if (r.cancelled || r.timed_out) kill(-pid, SIGKILL);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

std::string FindProgram(const std::string& name) {
  if (name.empty()) return "";
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  const std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  for (size_t at = 0; at <= dirs.size();) {
    size_t colon = dirs.find(':', at);
    if (colon == std::string::npos) colon = dirs.size();
    std::string dir = dirs.substr(at, colon - at);
    std::string file = (dir.empty() ? "." : dir) + "/" + name;
    struct stat st;
    if (stat(file.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(file.c_str(), X_OK) == 0)
      return file;
    at = colon + 1;
  }
  return "";
}

}  // namespace litgraph
