// A throw-away PostgreSQL cluster for the tests: initdb into a fresh temporary folder, the
// postmaster on a free loopback port with its unix socket in that folder, stopped and the
// folder removed when the test process ends (also when it dies: the postmaster gets
// SIGQUIT when its parent does). Started once per test process, on first use.
//
// The binaries are Debian's (/usr/lib/postgresql/VERSION/bin, from scripts/deps.sh), or
// $STEPPE_PG_BIN. Missing binaries make the tests that need the cluster FAIL, never skip:
// the PostgreSQL store is part of what the test command checks.
//
// PostgreSQL refuses to run as root, so as root the cluster runs as the user `postgres`
// (or `nobody`), which owns the temporary folder.
#pragma once

#include <fcntl.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <pqxx/pqxx>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace steppe::testing {

class PgCluster {
 public:
  // The cluster of this test process; check ok() (and error()) before use.
  static PgCluster& shared() {
    static PgCluster cluster;
    return cluster;
  }

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  uint16_t port() const { return port_; }
  const std::filesystem::path& bin_dir() const { return bin_; }

  std::string url(const std::string& database) const {
    return "postgresql://steppe@127.0.0.1:" + std::to_string(port_) + "/" + database;
  }

  // Creates an empty database and returns its URL.
  std::string fresh_database() {
    const std::string name = "t" + std::to_string(getpid()) + "_" + std::to_string(next_db_++);
    pqxx::connection c(url("postgres"));
    pqxx::nontransaction w(c);
    w.exec("CREATE DATABASE " + name);
    return url(name);
  }

  PgCluster(const PgCluster&) = delete;
  PgCluster& operator=(const PgCluster&) = delete;
  ~PgCluster() { stop(); }

 private:
  PgCluster() { start(); }

  static std::filesystem::path find_bin() {
    namespace fs = std::filesystem;
    if (const char* b = std::getenv("STEPPE_PG_BIN"); b != nullptr && *b != '\0') return b;
    fs::path best;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/usr/lib/postgresql", ec))
      if (fs::exists(e.path() / "bin" / "initdb") &&
          (best.empty() || e.path().filename() > best.parent_path().filename()))
        best = e.path() / "bin";
    return best;
  }

  static uint16_t free_port() {
    const int s = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t len = sizeof a;
    uint16_t port = 0;
    if (bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) == 0)
      port = ntohs(a.sin_port);
    close(s);
    return port;
  }

  // Runs `args` as the cluster's user with output to `log`; `wait`: returns the exit
  // status, else the pid. The child gets SIGQUIT (PostgreSQL's immediate shutdown) if we die.
  pid_t run(const std::vector<std::string>& args, bool wait) {
    const pid_t pid = fork();
    if (pid == 0) {
      const int fd = open(log_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      if (fd >= 0) {
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
      }
      if (geteuid() == 0 && (setgid(gid_) != 0 || setuid(uid_) != 0)) _exit(126);
      // After setuid, which clears it.
      prctl(PR_SET_PDEATHSIG, SIGQUIT);
      std::vector<char*> argv;
      for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    if (!wait || pid < 0) return pid;
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
  }

  std::string log_text() const {
    std::ifstream in(log_);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  void start() {
    namespace fs = std::filesystem;
    bin_ = find_bin();
    if (bin_.empty() || !fs::exists(bin_ / "initdb") || !fs::exists(bin_ / "postgres")) {
      error_ =
          "PostgreSQL server binaries not found (/usr/lib/postgresql/*/bin or $STEPPE_PG_BIN): "
          "run scripts/deps.sh (packages postgresql, libpqxx-dev)";
      return;
    }
    std::string tmpl = (fs::temp_directory_path() / "steppe-pg-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) {
      error_ = "cannot create a temporary folder for the cluster";
      return;
    }
    dir_ = tmpl;
    log_ = dir_ / "cluster.log";
    if (geteuid() == 0) {
      const passwd* pw = getpwnam("postgres");
      if (pw == nullptr) pw = getpwnam("nobody");
      if (pw == nullptr) {
        error_ = "running as root and neither user 'postgres' nor 'nobody' exists to run PostgreSQL";
        return;
      }
      uid_ = pw->pw_uid;
      gid_ = pw->pw_gid;
      if (chown(dir_.c_str(), uid_, gid_) != 0) {
        error_ = "cannot give the temporary folder to the PostgreSQL user";
        return;
      }
    }
    const std::string data = (dir_ / "data").string();
    if (const int rc = run({(bin_ / "initdb").string(), "-D", data, "-U", "steppe", "-A", "trust", "-E",
                            "UTF8", "--no-locale", "--no-sync"},
                           true);
        rc != 0) {
      error_ = "initdb failed (exit " + std::to_string(rc) + "): " + log_text();
      return;
    }
    for (int attempt = 0; attempt < 3 && pid_ <= 0; ++attempt) {
      port_ = free_port();
      const pid_t pid =
          run({(bin_ / "postgres").string(), "-D", data, "-p", std::to_string(port_), "-k", dir_.string(),
               "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "max_connections=200"},
              false);
      // Ready when it accepts a connection; gone if the port was taken meanwhile.
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
      while (std::chrono::steady_clock::now() < deadline) {
        int st = 0;
        if (waitpid(pid, &st, WNOHANG) == pid) break;
        try {
          pqxx::connection c(url("postgres"));
          pid_ = pid;
          break;
        } catch (const std::exception&) {
          std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
      }
      if (pid_ <= 0) {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
      }
    }
    if (pid_ <= 0) error_ = "the PostgreSQL server did not start: " + log_text();
  }

  void stop() {
    if (pid_ > 0) {
      kill(pid_, SIGINT);  // fast shutdown
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      int st = 0;
      while (waitpid(pid_, &st, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
          kill(pid_, SIGKILL);
          waitpid(pid_, &st, 0);
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
      pid_ = -1;
    }
    if (!dir_.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(dir_, ec);
      dir_.clear();
    }
  }

  std::filesystem::path bin_, dir_, log_;
  uid_t uid_ = 0;
  gid_t gid_ = 0;
  uint16_t port_ = 0;
  pid_t pid_ = -1;
  std::string error_;
  std::atomic<int> next_db_{0};
};

}  // namespace steppe::testing
