// Minimal loopback HTTP and WebSocket clients (Boost.Beast) for the server tests.
#pragma once

#include <array>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <cctype>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "kernel/state.h"

namespace steppe::testing {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

struct Reply {
  int status = 0;
  Json body;
  std::string raw;
};

inline Reply http_request(uint16_t port, http::verb method, const std::string& target,
                          const std::string& body = "", const std::string& token = "") {
  net::io_context ioc;
  beast::tcp_stream stream(ioc);
  stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  http::request<http::string_body> req{method, target, 11};
  req.set(http::field::host, "127.0.0.1");
  if (!token.empty()) req.set(http::field::authorization, "Bearer " + token);
  if (!body.empty()) {
    req.set(http::field::content_type, "application/json");
    req.body() = body;
  }
  req.prepare_payload();
  http::write(stream, req);
  beast::flat_buffer buf;
  http::response_parser<http::string_body> parser;
  parser.body_limit(64 * 1024 * 1024);
  beast::error_code ec;
  http::read(stream, buf, parser, ec);
  Reply r;
  if (ec) {
    r.status = -1;
    r.raw = ec.message();
    return r;
  }
  auto res = parser.release();
  r.status = static_cast<int>(res.result_int());
  r.raw = res.body();
  r.body = Json::parse(r.raw, nullptr, false);
  stream.socket().shutdown(tcp::socket::shutdown_both, ec);
  return r;
}

inline Reply http_get(uint16_t port, const std::string& target, const std::string& token = "") {
  return http_request(port, http::verb::get, target, "", token);
}
inline Reply http_post(uint16_t port, const std::string& target, const Json& body,
                       const std::string& token = "") {
  return http_request(port, http::verb::post, target, body.dump(), token);
}

// Sends `request` as raw bytes and returns what the server answers until it closes the
// connection or `timeout_ms` passes (empty if it answers nothing): for requests a
// well-behaved client cannot build (invalid UTF-8 in a path, a WebSocket upgrade anywhere).
// `text` for a query string: everything but unreserved characters percent-encoded.
inline std::string url_encode(const std::string& text) {
  static const char* digits = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) != 0 || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += digits[c >> 4];
      out += digits[c & 15];
    }
  }
  return out;
}

// The legal actions a seat's view offers: its list and, when the view names the units that
// have actions instead of listing them all (beyond the server's cap), the actions of the
// unit `pick` chooses, asked per unit as a client does.
inline Json offered_actions(uint16_t port, const std::string& game_id, const std::string& token,
                            const Json& view, uint64_t pick) {
  Json out = view.value("legal_actions", Json::array());
  const Json units = view.value("legal_units", Json::array());
  if (!units.empty()) {
    const std::string unit = units[static_cast<size_t>(pick % units.size())];
    const Reply r = http_get(port, "/api/games/" + game_id + "/actions?unit=" + url_encode(unit), token);
    for (const auto& a : r.body.value("actions", Json::array())) out.push_back(a);
  }
  return out;
}

inline std::string raw_exchange(uint16_t port, const std::string& request, int timeout_ms = 5000) {
  net::io_context ioc;
  beast::tcp_stream stream(ioc);
  stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  beast::error_code ec;
  net::write(stream.socket(), net::buffer(request), ec);
  std::string out;
  if (ec) return out;
  std::array<char, 4096> buf{};
  std::function<void()> read_more = [&] {
    stream.async_read_some(net::buffer(buf), [&](beast::error_code rec, size_t n) {
      out.append(buf.data(), n);
      if (!rec) read_more();
    });
  };
  stream.expires_after(std::chrono::milliseconds(timeout_ms));
  read_more();
  ioc.run_for(std::chrono::milliseconds(timeout_ms + 500));
  return out;
}

// A WebSocket upgrade request for `target` as raw text.
inline std::string ws_upgrade_request(const std::string& target) {
  return "GET " + target +
         " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
}

// A WebSocket client that records every message it receives.
class WsClient {
 public:
  WsClient(uint16_t port, const std::string& target) : ws_(ioc_) {
    beast::get_lowest_layer(ws_).connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    ws_.handshake("127.0.0.1", target);
    start_read();
  }
  ~WsClient() {
    beast::error_code ec;
    beast::get_lowest_layer(ws_).socket().close(ec);
  }

  void send(const Json& msg) { ws_.write(net::buffer(msg.dump())); }
  void send_raw(const std::string& text) {
    beast::error_code ec;
    ws_.write(net::buffer(text), ec);
  }

  // Runs until `pred(messages)` holds or the timeout passes; returns whether it held.
  bool wait_for(const std::function<bool(const std::vector<std::string>&)>& pred, int timeout_ms = 3000) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (!pred(messages) && !closed && std::chrono::steady_clock::now() < deadline) {
      ioc_.restart();
      ioc_.run_for(std::chrono::milliseconds(20));
    }
    return pred(messages);
  }
  // Waits until at least `n` messages arrived.
  bool wait_count(size_t n, int timeout_ms = 3000) {
    return wait_for([n](const auto& m) { return m.size() >= n; }, timeout_ms);
  }
  // Drains what arrives within `ms`.
  void pump(int ms) {
    wait_for([](const auto&) { return false; }, ms);
  }

  std::vector<std::string> messages;
  bool closed = false;
  std::string close_reason;

 private:
  void start_read() {
    ws_.async_read(buf_, [this](beast::error_code ec, size_t) {
      if (ec) {
        closed = true;
        close_reason = ec.message();
        return;
      }
      messages.push_back(beast::buffers_to_string(buf_.data()));
      buf_.consume(buf_.size());
      start_read();
    });
  }

  net::io_context ioc_;
  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buf_;
};

}  // namespace steppe::testing
