// A `steppe serve`-like child process for the kill-and-restart tests. The handle kills the
// child when it goes out of scope, so a failed ASSERT cannot leave a server running that
// holds ctest's output pipe open (ctest then waits for it until its timeout).
#pragma once

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace steppe::testing {

class ChildServer {
 public:
  ChildServer() = default;
  ChildServer(pid_t child, uint16_t listening_port) : pid(child), port(listening_port) {}
  ChildServer(const ChildServer&) = delete;
  ChildServer& operator=(const ChildServer&) = delete;
  ChildServer(ChildServer&& o) noexcept : pid(o.pid), port(o.port) { o.pid = -1; }
  ChildServer& operator=(ChildServer&& o) noexcept {
    if (this != &o) {
      kill_hard();
      pid = o.pid;
      port = o.port;
      o.pid = -1;
    }
    return *this;
  }
  ~ChildServer() { kill_hard(); }

  // SIGKILL, as a crash or the OOM killer would; reaps the child.
  void kill_hard() { stop(SIGKILL); }
  // SIGTERM: a clean shutdown; reaps the child.
  void stop_gently() { stop(SIGTERM); }
  // The child was killed by someone else (a killer thread): reap it.
  void reap() {
    if (pid <= 0) return;
    int st = 0;
    waitpid(pid, &st, 0);
    pid = -1;
  }

  pid_t pid = -1;
  uint16_t port = 0;

 private:
  void stop(int sig) {
    if (pid <= 0) return;
    kill(pid, sig);
    reap();
  }
};

// Starts `args` (args[0] is the binary) and waits up to 20 s for its
// "serving on http://127.0.0.1:PORT/" line; port 0 in the result means it did not start.
inline ChildServer spawn_server(const std::vector<std::string>& args) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(fds[1]);
  ChildServer p(pid, 0);
  std::string out;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd pfd{fds[0], POLLIN, 0};
    if (poll(&pfd, 1, 200) <= 0) continue;
    char buf[256];
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
    const auto at = out.find("127.0.0.1:");
    if (at != std::string::npos && out.find('/', at) != std::string::npos) {
      p.port = static_cast<uint16_t>(std::stoi(out.substr(at + 10)));
      break;
    }
  }
  close(fds[0]);  // the child's later output goes to a closed pipe: it must not print more
  return p;
}

// A fresh scratch directory for one test's database.
inline std::filesystem::path server_temp_dir(const std::string& name) {
  namespace fs = std::filesystem;
  fs::path p = fs::temp_directory_path() / ("steppe-kill-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

}  // namespace steppe::testing
