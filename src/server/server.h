// The HTTP + WebSocket front of the game service (Boost.Beast, header-only, over Asio).
// Serves the built web UI from `web_dir` and the JSON API documented in docs/api.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "server/service.h"

namespace steppe::server {

// Any request or WebSocket message larger than this is refused (413 / close 1009).
constexpr size_t kMaxMessageBytes = size_t{64} * 1024;
// A request's start line and header fields together at most (431 beyond).
constexpr size_t kMaxHeaderBytes = size_t{16} * 1024;

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
  // Open connections (HTTP and WebSocket) at most; one more is answered 503 and closed at
  // once, so that idle clients cannot take every file descriptor and stop the accept loop.
  // 0: min(1000, 3/4 of the soft RLIMIT_NOFILE), leaving the rest for the database, logs
  // and the event loop.
  int max_connections = 0;
  // A keep-alive HTTP connection must send a complete request header within this time of
  // the previous reply (or of connecting): idle and slow-header connections are cut.
  int request_timeout_seconds = 20;
  // A WebSocket client that does not read its messages: once this many messages, or bytes,
  // wait to be sent on its socket, it is dropped (closed with 1013 "try again later" and a
  // reason; it may reconnect and gets the whole view again), so its queue cannot grow
  // without bound.
  size_t ws_max_queued_messages = 256;
  size_t ws_max_queued_bytes = size_t{16} * 1024 * 1024;
  // SO_SNDBUF of each WebSocket, bytes (0: the kernel's default, which grows to megabytes).
  int ws_send_buffer_bytes = 0;
};

// The connection cap max_connections = 0 stands for (see ServerOptions).
int default_max_connections();

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

  // The request router and the WebSocket message handler in-process, with no socket and no
  // start() (fuzz/fuzz_server.cpp): `request` is parsed as a connection parses it (the same
  // parser and limits) and answered as the connection answers it; the result is the response
  // as sent, or "" where the connection would close without one. An upgrade accepted on
  // /api/games/{id}/ws answers "HTTP/1.1 101 Switching Protocols\r\n", then each of
  // `ws_messages` is handled as that socket's message, one reply a line. (The socket is not
  // subscribed to the game's events: there is nothing to push them to.)
  std::string answer_in_process(std::string_view request, const std::vector<std::string>& ws_messages,
                                const std::string& client);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace steppe::server
