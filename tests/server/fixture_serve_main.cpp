// Test-only server binary: the real Service and Server with the Duel fixture game, so
// the kill-and-restart test can SIGKILL a separate process. Never installed.
#include <sys/resource.h>

#include <csignal>
#include <cstring>
#include <iostream>

#include "fixture_game.h"
#include "server/server.h"

int main(int argc, char** argv) {
  std::string db;
  std::string database;  // PostgreSQL URL: the two-instance tests
  uint16_t port = 0;
  int max_connections = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--db") == 0) db = argv[i + 1];
    if (std::strcmp(argv[i], "--database") == 0) database = argv[i + 1];
    if (std::strcmp(argv[i], "--port") == 0) port = static_cast<uint16_t>(std::atoi(argv[i + 1]));
    if (std::strcmp(argv[i], "--max-connections") == 0) max_connections = std::atoi(argv[i + 1]);
    // Lowers the soft file-descriptor limit, as `ulimit -n` would (tests of running out).
    if (std::strcmp(argv[i], "--nofile") == 0) {
      rlimit lim{};
      getrlimit(RLIMIT_NOFILE, &lim);
      lim.rlim_cur = static_cast<rlim_t>(std::atoi(argv[i + 1]));
      if (setrlimit(RLIMIT_NOFILE, &lim) != 0) {
        std::cerr << "cannot lower RLIMIT_NOFILE\n";
        return 1;
      }
    }
  }
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  auto store = database.empty() ? steppe::server::open_sqlite_store(db)
                                : steppe::server::open_postgres_store(database);
  if (!store) {
    std::cerr << store.error().to_string() << "\n";
    return 1;
  }
  steppe::server::ServiceOptions so;
  so.debug_state = true;
  auto service = std::make_shared<steppe::server::Service>(steppe::testing::duel_catalog(),
                                                           std::move(store).value(), so);
  service->resume_all();
  steppe::server::ServerOptions o;
  o.port = port;
  o.max_connections = max_connections;
  steppe::server::Server srv(service, o);
  if (auto s = srv.start(); !s.is_ok()) {
    std::cerr << s.error().to_string() << "\n";
    return 1;
  }
  std::cout << "Steppe is serving on http://127.0.0.1:" << srv.port() << "/" << std::endl;
  int sig = 0;
  sigwait(&stop, &sig);
  srv.stop();
  service->shutdown();
  return 0;
}
