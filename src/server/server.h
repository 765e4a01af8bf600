// The HTTP + WebSocket front of the game service (Boost.Beast, header-only, over Asio).
// Serves the built web UI from `web_dir` and the JSON API documented in docs/api.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "server/service.h"

namespace steppe::server {

// Any request or WebSocket message larger than this is refused (413 / close 1009).
constexpr size_t kMaxMessageBytes = size_t{64} * 1024;

struct ServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 8080;           // 0: any free port (see Server::port())
  std::filesystem::path web_dir;  // the built UI (web/dist); empty: API only
  int io_threads = 2;
  // Requests are handled on these threads, not on the I/O threads: a request that waits for
  // a game's lock or an SQLite commit must not stop the I/O threads from accepting and reading
  // other connections. 0: max(4, 2 x hardware threads), since most of a request's time is spent
  // waiting for a lock or the disk, not computing.
  int worker_threads = 0;
};

class Server {
 public:
  Server(std::shared_ptr<Service> service, ServerOptions opts);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds and starts serving on background threads.
  Status start();
  uint16_t port() const;
  // Stops accepting, closes connections, joins the threads.
  void stop();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace steppe::server
