// `steppe serve`: the HTTP + WebSocket server and the browser UI.
#include <csignal>
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/command.h"
#include "games/all_games.h"
#include "server/server.h"

namespace steppe::cli {
namespace {

struct ServeArgs {
  std::string host = "127.0.0.1";
  uint16_t port = 8080;
  std::string db;
  std::string database;  // postgresql://...: shared by several instances (docs/deploy.md)
  std::string web;
  std::string data;
  int agent_threads = 0;  // 0: max(2, hardware threads)
  double agent_ms = 5000;
  bool debug_state = false;
  int max_connections = 0;  // 0: min(1000, 3/4 of the open-file limit)
  double create_per_minute = server::ServiceOptions{}.create_per_minute;
  int create_burst = server::ServiceOptions{}.create_burst;
  int max_agent_games = server::ServiceOptions{}.max_agent_games;
};

// Every installed game (src/games/all_games.h), loaded from `data_dir`.
server::GameCatalog installed_catalog(const std::filesystem::path& data_dir) {
  server::GameCatalog cat;
  for (const auto& g : installed_games()) {
    server::CatalogEntry e{g.id, g.name, nullptr, {}};
    auto loaded = g.load(data_dir);
    if (loaded)
      e.game = std::shared_ptr<const Game>(std::move(loaded).value());
    else
      e.load_error = loaded.error().to_string();
    cat.push_back(std::move(e));
  }
  return cat;
}

// The built UI: web/dist beside the source tree's data/ unless --web says otherwise.
std::filesystem::path default_web_dir() {
  return std::filesystem::path(STEPPE_DEFAULT_DATA_DIR).parent_path() / "web" / "dist";
}

void run_serve(const ServeArgs& a) {
  // Block the stop signals in every thread; this thread waits for them below.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  const std::filesystem::path db = a.db.empty() ? server::default_db_path() : std::filesystem::path(a.db);
  auto store = a.database.empty() ? server::open_sqlite_store(db) : server::open_postgres_store(a.database);
  if (!store) {
    std::cerr << "steppe serve: " << store.error().to_string() << "\n";
    throw CLI::RuntimeError(1);
  }
  const std::filesystem::path data = a.data.empty() ? default_data_dir() : std::filesystem::path(a.data);
  auto catalog = installed_catalog(data);
  for (const auto& e : catalog)
    if (e.game == nullptr)
      std::cerr << "steppe serve: game '" << e.id << "' not available: " << e.load_error << "\n";
  if (catalog.empty()) std::cerr << "steppe serve: warning: no game is installed yet\n";
  server::ServiceOptions sopts;
  sopts.agent_threads = a.agent_threads;
  sopts.agent_budget_ms = a.agent_ms;
  sopts.debug_state = a.debug_state;
  sopts.data_dir = data;
  sopts.create_per_minute = a.create_per_minute;
  sopts.create_burst = a.create_burst;
  sopts.max_agent_games = a.max_agent_games;
  const std::string store_name = (*store)->describe();
  auto service = std::make_shared<server::Service>(std::move(catalog), std::move(store).value(), sopts);
  const int resumed = service->resume_all();

  server::ServerOptions opts;
  opts.host = a.host;
  opts.port = a.port;
  opts.max_connections = a.max_connections;
  opts.web_dir = a.web.empty() ? default_web_dir() : std::filesystem::path(a.web);
  server::Server srv(service, opts);
  if (Status s = srv.start(); !s.is_ok()) {
    std::cerr << "steppe serve: " << s.error().to_string() << "\n";
    throw CLI::RuntimeError(1);
  }
  const std::string host = a.host == "0.0.0.0" ? "127.0.0.1" : a.host;
  std::cout << "Steppe is serving on http://" << host << ":" << srv.port() << "/  (open it in a browser)\n"
            << "  database: " << store_name << " (" << resumed << " game(s) resumed)\n";
  if (!std::filesystem::exists(opts.web_dir / "index.html"))
    std::cout << "  web UI not built (" << opts.web_dir.string() << "): run scripts/build-web.sh\n";
  std::cout << "  stop with Ctrl-C" << std::endl;

  int sig = 0;
  sigwait(&stop_signals, &sig);
  std::cout << "steppe serve: stopping" << std::endl;
  srv.stop();
  service->shutdown();
}

const CommandRegistrar kServe{
    "serve", [](CLI::App& app) {
      auto args = std::make_shared<ServeArgs>();
      auto* sub = app.add_subcommand("serve", "Serve the browser UI and the game API");
      sub->add_option("--host", args->host, "Address to listen on")->capture_default_str();
      sub->add_option("--port", args->port, "TCP port (0: any free port)")->capture_default_str();
      auto* db_opt =
          sub->add_option("--db", args->db, "SQLite database (default $XDG_DATA_HOME/steppe/steppe.db)");
      sub->add_option("--database", args->database,
                      "PostgreSQL URL (postgresql://user@host:port/db) shared by several server instances, "
                      "instead of the SQLite --db (docs/deploy.md)")
          ->excludes(db_opt)
          ->check([](const std::string& v) {
            return server::is_postgres_url(v) ? std::string()
                                              : std::string("--database takes a postgresql:// URL");
          });
      sub->add_option("--web", args->web, "Directory of the built web UI (web/dist)");
      sub->add_option("--data", args->data, "Game data directory (default: data/)");
      sub->add_option("--agent-threads", args->agent_threads,
                      "Worker threads for searching computer opponents (0: max(2, hardware threads))")
          ->capture_default_str()
          ->check(CLI::Range(0, 64));
      sub->add_option("--agent-ms", args->agent_ms,
                      "Time budget of one computer decision in milliseconds (0: none); the search then "
                      "plays the best move found so far")
          ->capture_default_str()
          ->check(CLI::Range(0.0, 3.6e6));
      sub->add_flag("--debug-state", args->debug_state,
                    "Expose full-state hashes (tests only: may leak hidden information)");
      sub->add_option("--max-connections", args->max_connections,
                      "Open connections at most; more are answered 503 (0: min(1000, 3/4 of the open-file "
                      "limit))")
          ->capture_default_str()
          ->check(CLI::Range(0, 1000000));
      sub->add_option("--create-per-minute", args->create_per_minute,
                      "Games one client address may create per minute, after a burst of --create-burst (0: "
                      "no limit)")
          ->capture_default_str()
          ->check(CLI::Range(0.0, 1e6));
      sub->add_option("--create-burst", args->create_burst, "Games one client address may create at once")
          ->capture_default_str()
          ->check(CLI::Range(1, 1000000));
      sub->add_option("--max-agent-games", args->max_agent_games,
                      "Games between computer opponents running at once at most (0: no limit)")
          ->capture_default_str()
          ->check(CLI::Range(0, 1000000));
      sub->callback([args] { run_serve(*args); });
    }};

}  // namespace
}  // namespace steppe::cli
