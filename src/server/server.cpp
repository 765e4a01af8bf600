#include "server/server.h"

#include <sys/resource.h>

#include <array>
#include <atomic>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <charconv>
#include <deque>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "server/json_text.h"

namespace steppe::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

std::string percent_decode(std::string_view s) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
      out += static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2]));
      i += 2;
    } else {
      out += s[i] == '+' ? ' ' : s[i];
    }
  }
  return out;
}

struct Target {
  std::vector<std::string> segments;  // "/api/games/x" -> {"api", "games", "x"}
  std::map<std::string, std::string> query;
  std::string path;
  // False when a segment, query key or value is not UTF-8 once percent-decoded: such a
  // request is refused before any handler sees it (an id echoed in a reply must be text).
  bool utf8 = true;
};

Target parse_target(std::string_view t) {
  Target out;
  const size_t q = t.find('?');
  out.path = std::string(t.substr(0, q));
  auto add_segment = [&out](std::string_view raw) {
    out.segments.push_back(percent_decode(raw));
    out.utf8 = out.utf8 && is_valid_utf8(out.segments.back());
  };
  std::string seg;
  for (char c : out.path) {
    if (c == '/') {
      if (!seg.empty()) add_segment(seg);
      seg.clear();
    } else {
      seg += c;
    }
  }
  if (!seg.empty()) add_segment(seg);
  if (q != std::string_view::npos) {
    std::string_view rest = t.substr(q + 1);
    while (!rest.empty()) {
      const size_t amp = rest.find('&');
      const std::string_view kv = rest.substr(0, amp);
      const size_t eq = kv.find('=');
      std::string key = percent_decode(kv.substr(0, eq));
      std::string value = eq == std::string_view::npos ? "" : percent_decode(kv.substr(eq + 1));
      out.utf8 = out.utf8 && is_valid_utf8(key) && is_valid_utf8(value);
      out.query[std::move(key)] = std::move(value);
      if (amp == std::string_view::npos) break;
      rest = rest.substr(amp + 1);
    }
  }
  return out;
}

// The `since` parameter (the seq of the last event a client has): absent is `absent`; false
// when it is not a non-negative integer.
bool parse_since(const Target& t, size_t absent, size_t* since) {
  *since = absent;
  auto it = t.query.find("since");
  if (it == t.query.end()) return true;
  const std::string& v = it->second;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), *since);
  return ec == std::errc() && end == v.data() + v.size() && !v.empty();
}

Response json_response(const Request& req, const ApiResult& r) {
  Response res{static_cast<http::status>(r.status), req.version()};
  res.set(http::field::server, "steppe/" STEPPE_VERSION);
  res.set(http::field::content_type, "application/json; charset=utf-8");
  res.set(http::field::cache_control, "no-store");
  res.set("X-Content-Type-Options", "nosniff");
  res.keep_alive(req.keep_alive());
  if (r.retry_after_seconds > 0) res.set(http::field::retry_after, std::to_string(r.retry_after_seconds));
  res.body() = r.text();
  res.prepare_payload();
  return res;
}

std::string content_type(const std::filesystem::path& p) {
  static const std::map<std::string, std::string> types = {{".html", "text/html; charset=utf-8"},
                                                           {".js", "text/javascript; charset=utf-8"},
                                                           {".css", "text/css; charset=utf-8"},
                                                           {".svg", "image/svg+xml"},
                                                           {".png", "image/png"},
                                                           {".json", "application/json; charset=utf-8"},
                                                           {".ico", "image/x-icon"},
                                                           {".woff2", "font/woff2"},
                                                           {".map", "application/json"},
                                                           {".txt", "text/plain; charset=utf-8"}};
  auto it = types.find(p.extension().string());
  return it == types.end() ? "application/octet-stream" : it->second;
}

bool read_file(const std::filesystem::path& p, std::string& out) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

std::string bearer_token(const Request& req, const Target& t, const Json& body) {
  const auto auth = req[http::field::authorization];
  if (auth.starts_with("Bearer ")) return std::string(auth.substr(7));
  if (auto it = t.query.find("token"); it != t.query.end()) return it->second;
  if (body.is_object() && body.contains("token") && body["token"].is_string())
    return body["token"].get<std::string>();
  return {};
}

// The answer to a request whose header or body is over the limit (431 / 413); the
// connection closes after it.
Response limit_refusal(bool header) {
  Request dummy;
  dummy.version(11);
  dummy.keep_alive(false);
  Response res = json_response(
      dummy, header ? api_error(431, "header_too_large",
                                "the request line and header fields are larger than the limit of " +
                                    std::to_string(kMaxHeaderBytes) + " bytes")
                    : api_error(413, "too_large",
                                "the request body is larger than the limit of " +
                                    std::to_string(kMaxMessageBytes) + " bytes"));
  res.keep_alive(false);
  return res;
}

// The seat a WebSocket upgrade on `t` speaks for: ?token= first, else the Authorization header.
std::string ws_token(const Request& req, const Target& t) {
  auto it = t.query.find("token");
  return it != t.query.end() ? it->second : bearer_token(req, t, Json());
}

}  // namespace

struct Server::Impl {
  std::shared_ptr<Service> service;
  ServerOptions opts;
  net::io_context ioc;
  std::optional<tcp::acceptor> acceptor;
  std::vector<std::thread> threads;
  std::unique_ptr<net::thread_pool> workers;  // runs handle() and the WebSocket messages
  uint16_t bound_port = 0;
  bool running = false;
  int max_connections = 1000;
  std::atomic<int> connections{0};  // open HTTP and WebSocket sessions
  // Waits before the next accept after an accept error (out of file descriptors, say):
  // retrying at once would spin a core while the cause lasts.
  std::optional<net::steady_timer> accept_backoff;
  std::chrono::milliseconds accept_delay{0};

  Impl(std::shared_ptr<Service> s, ServerOptions o)
      : service(std::move(s)), opts(std::move(o)), ioc(o.io_threads) {}

  Response serve_static(const Request& req, const Target& t) {
    auto not_found = [&](const std::string& msg) {
      Response res{http::status::not_found, req.version()};
      res.set(http::field::content_type, "text/plain; charset=utf-8");
      res.keep_alive(req.keep_alive());
      res.body() = msg;
      res.prepare_payload();
      return res;
    };
    if (req.method() != http::verb::get && req.method() != http::verb::head) return not_found("not found\n");
    if (opts.web_dir.empty() || !std::filesystem::exists(opts.web_dir / "index.html"))
      return not_found(
          "The web UI is not built. Run scripts/build-web.sh, then serve with --web web/dist.\n");
    for (const auto& s : t.segments)
      if (s == ".." || s.find('\0') != std::string::npos || s.find('/') != std::string::npos)
        return not_found("not found\n");
    std::filesystem::path p = opts.web_dir;
    for (const auto& s : t.segments) p /= s;
    std::error_code ec;
    if (t.segments.empty() || !std::filesystem::is_regular_file(p, ec)) {
      // Client-side routes (/play/<id>, /replay/<id>) all load the single page.
      if (!t.segments.empty() && std::filesystem::path(t.segments.back()).has_extension())
        return not_found("not found\n");
      p = opts.web_dir / "index.html";
    }
    std::string body;
    if (!read_file(p, body)) return not_found("not found\n");
    Response res{http::status::ok, req.version()};
    res.set(http::field::content_type, content_type(p));
    // Vite puts a content hash in asset names, so those may be cached for long.
    res.set(http::field::cache_control, t.segments.size() >= 2 && t.segments[0] == "assets"
                                            ? "public, max-age=31536000, immutable"
                                            : "no-cache");
    res.keep_alive(req.keep_alive());
    if (req.method() == http::verb::head) {
      res.content_length(body.size());
    } else {
      res.body() = std::move(body);
      res.prepare_payload();
    }
    return res;
  }

  // `client`: the peer's address, for the limit on game creation.
  ApiResult route_api(const Request& req, const Target& t, const std::string& client) {
    const auto& s = t.segments;  // s[0] == "api"
    const auto m = req.method();
    Json body = Json::object();
    if (m == http::verb::post) {
      if (!req.body().empty()) {
        body = Json::parse(req.body(), nullptr, false);
        if (body.is_discarded()) return api_error(400, "bad_json", "the request body is not valid JSON");
        if (!body.is_object()) return api_error(400, "bad_json", "the request body must be a JSON object");
      }
    }
    auto method_not_allowed = [&] {
      return api_error(405, "method_not_allowed",
                       std::string(req.method_string()) + " is not allowed on " + t.path);
    };
    const std::string token = bearer_token(req, t, body);
    auto str_field = [&](const char* name) -> std::optional<std::string> {
      if (!body.contains(name) || !body[name].is_string()) return std::nullopt;
      return body[name].get<std::string>();
    };
    if (s.size() == 2 && s[1] == "health")
      return m == http::verb::get ? service->health() : method_not_allowed();
    if (s.size() == 2 && s[1] == "catalog")
      return m == http::verb::get ? service->catalog() : method_not_allowed();
    if (s.size() == 4 && s[1] == "catalog" && s[3] == "map")
      return m == http::verb::get ? service->catalog_map(s[2]) : method_not_allowed();
    if (s.size() == 5 && s[1] == "catalog" && s[3] == "data")
      return m == http::verb::get ? service->game_data(s[2], s[4]) : method_not_allowed();
    if (s.size() >= 2 && s[1] == "games") {
      if (s.size() == 2) {
        if (m == http::verb::get) return service->list_games();
        if (m == http::verb::post) return service->create_game(body, client);
        return method_not_allowed();
      }
      const std::string& id = s[2];
      if (s.size() == 3) return m == http::verb::get ? service->game_info(id) : method_not_allowed();
      const std::string& what = s[3];
      if (s.size() == 4) {
        if (what == "map") return m == http::verb::get ? service->game_map(id) : method_not_allowed();
        if (what == "timeline")
          return m == http::verb::get ? service->timeline(id, token) : method_not_allowed();
        if (what == "save") return m == http::verb::get ? service->save(id, token) : method_not_allowed();
        if (what == "view") return m == http::verb::get ? service->view(id, token) : method_not_allowed();
        if (what == "log") {
          if (m != http::verb::get) return method_not_allowed();
          size_t since = 0;
          if (!parse_since(t, 0, &since))
            return api_error(400, "bad_request", "since must be a non-negative integer (an event's seq)");
          return service->log(id, token, since);
        }
        if (what == "replay") {
          if (m != http::verb::get) return method_not_allowed();
          int step = 0;
          try {
            step = std::stoi(t.query.count("step") != 0 ? t.query.at("step") : "0");
          } catch (...) {
            return api_error(400, "bad_request", "step must be an integer");
          }
          return service->replay(id, token, step);
        }
        if (what == "action") {
          if (m != http::verb::post) return method_not_allowed();
          auto a = str_field("action");
          if (!a)
            return api_error(400, "bad_request", "field 'action' (string, kernel notation) is required");
          std::string key(req["Idempotency-Key"]);
          if (auto k = str_field("idempotency_key")) key = *k;
          return service->act(id, token, *a, key);
        }
        if (what == "undo") return m == http::verb::post ? service->undo(id, token) : method_not_allowed();
        if (what == "resign")
          return m == http::verb::post ? service->resign(id, token) : method_not_allowed();
        // Typed views, asked with the seat's token (docs/api.md).
        auto param = [&](const char* name) {
          auto it = t.query.find(name);
          return it != t.query.end() ? it->second : std::string();
        };
        if (what == "preview")
          return m == http::verb::get ? service->preview(id, token, param("action")) : method_not_allowed();
        if (what == "reach")
          return m == http::verb::get ? service->reach(id, token, param("unit")) : method_not_allowed();
        if (what == "actions")
          return m == http::verb::get ? service->unit_actions(id, token, param("unit"))
                                      : method_not_allowed();
        if (what == "agent") {
          if (m != http::verb::post) return method_not_allowed();
          auto c = str_field("command");
          if (!c) return api_error(400, "bad_request", "field 'command' ('cancel' or 'resume') is required");
          return service->agent_control(id, token, *c);
        }
      }
      if (s.size() == 5 && what == "debug" && s[4] == "hash")
        return m == http::verb::get ? service->debug_hash(id) : method_not_allowed();
    }
    return api_error(404, "not_found", "no API endpoint " + std::string(req.method_string()) + " " + t.path);
  }

  Response handle(const Request& req, const std::string& client) {
    const Target t = parse_target(req.target());
    if (!t.utf8) return json_response(req, invalid_target_error());
    if (!t.segments.empty() && t.segments[0] == "api") {
      try {
        return json_response(req, route_api(req, t, client));
      } catch (const std::exception& e) {
        return json_response(req, api_error(500, "internal", std::string("internal error: ") + e.what()));
      }
    }
    return serve_static(req, t);
  }

  // handle() for the worker threads: nothing may escape a handler (an exception on a
  // thread of the pool or of the I/O loop ends the process).
  Response handle_guarded(const Request& req, const std::string& client) noexcept {
    try {
      return handle(req, client);
    } catch (...) {
      Response res{http::status::internal_server_error, req.version()};
      res.set(http::field::content_type, "application/json; charset=utf-8");
      res.keep_alive(false);
      res.body() = R"({"ok":false,"error":{"code":"internal","message":"internal error"}})";
      res.prepare_payload();
      return res;
    }
  }

  // handle_ws_message as text; nothing escapes to the worker thread.
  std::string handle_ws_message_guarded(const std::string& game_id, const std::string& token,
                                        const std::string& text) noexcept {
    try {
      return handle_ws_message(game_id, token, text).text();
    } catch (...) {
      return R"({"type":"result","status":500,"ok":false,"error":{"code":"internal","message":"internal error"}})";
    }
  }

  // One message of a WebSocket upgraded on /api/games/{game_id}/ws for `token` (docs/api.md).
  ApiResult handle_ws_message(const std::string& game_id, const std::string& token, const std::string& text) {
    const Json msg = Json::parse(text, nullptr, false);
    auto reply = [&](ApiResult r) {
      r.body["type"] = "result";
      r.body["status"] = r.status;
      if (msg.is_object() && msg.contains("request_id")) r.body["request_id"] = msg["request_id"];
      return r;
    };
    if (msg.is_discarded() || !msg.is_object() || !msg.contains("type") || !msg["type"].is_string())
      return reply(api_error(400, "bad_json", "a message must be a JSON object with a string 'type'"));
    const std::string type = msg["type"].get<std::string>();
    auto& svc = *service;
    try {
      if (type == "action") {
        if (!msg.contains("action") || !msg["action"].is_string())
          return reply(api_error(400, "bad_request", "field 'action' (string) is required"));
        std::string key;
        if (msg.contains("idempotency_key") && msg["idempotency_key"].is_string())
          key = msg["idempotency_key"].get<std::string>();
        return reply(svc.act(game_id, token, msg["action"].get<std::string>(), key));
      }
      if (type == "undo") return reply(svc.undo(game_id, token));
      if (type == "resign") return reply(svc.resign(game_id, token));
      if (type == "view") return reply(svc.view(game_id, token));
      // The typed views, as over HTTP: {"type": "preview", "action": ...}, {"type": "reach",
      // "unit": ...}, {"type": "actions", "unit": ...}.
      auto field = [&](const char* name) {
        return msg.contains(name) && msg[name].is_string() ? msg[name].get<std::string>() : std::string();
      };
      if (type == "preview") return reply(svc.preview(game_id, token, field("action")));
      if (type == "reach") return reply(svc.reach(game_id, token, field("unit")));
      if (type == "actions") return reply(svc.unit_actions(game_id, token, field("unit")));
      if (type == "ping") return reply(ApiResult{200, Json{{"ok", true}, {"pong", true}}});
    } catch (const std::exception& e) {
      return reply(api_error(500, "internal", std::string("internal error: ") + e.what()));
    }
    return reply(api_error(400, "bad_request", "unknown message type '" + type + "'"));
  }

  static ApiResult invalid_target_error() {
    return api_error(400, "bad_request", "the request path or query is not valid UTF-8 once percent-decoded");
  }
};

namespace {

// One open connection counted in Server::Impl::connections for as long as the slot lives;
// moved from the HTTP session to the WebSocket session on an upgrade.
class ConnectionSlot {
 public:
  explicit ConnectionSlot(std::atomic<int>& count) : count_(&count) { count_->fetch_add(1); }
  ConnectionSlot(ConnectionSlot&& o) noexcept : count_(std::exchange(o.count_, nullptr)) {}
  ConnectionSlot& operator=(ConnectionSlot&&) = delete;
  ConnectionSlot(const ConnectionSlot&) = delete;
  ConnectionSlot& operator=(const ConnectionSlot&) = delete;
  ~ConnectionSlot() {
    if (count_ != nullptr) count_->fetch_sub(1);
  }

 private:
  std::atomic<int>* count_;
};

// The one place WebSocket upgrades are served: /api/games/{id}/ws (docs/api.md).
bool is_ws_target(const Target& t) {
  return t.segments.size() == 4 && t.segments[0] == "api" && t.segments[1] == "games" &&
         t.segments[3] == "ws";
}

// An upgrade on a target that is not a game's socket (or not UTF-8) is refused, and the
// connection closed, before anything echoes the target.
std::optional<Response> refuse_upgrade(const Request& req, const Target& t) {
  if (t.utf8 && is_ws_target(t)) return std::nullopt;
  Response res = json_response(
      req, t.utf8 ? api_error(404, "not_found", "WebSocket upgrades are served only at /api/games/{id}/ws")
                  : Server::Impl::invalid_target_error());
  res.keep_alive(false);
  return res;
}

class WsSession : public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(tcp::socket&& socket, Server::Impl& server, ConnectionSlot slot)
      : ws_(std::move(socket)), server_(server), slot_(std::move(slot)) {}
  ~WsSession() {
    if (sub_ != 0) server_.service->unsubscribe(game_id_, sub_);
  }

  // `t` is the request's target, already checked by is_ws_target.
  void run(const Request& req, const Target& t) {
    game_id_ = t.segments[2];
    token_ = ws_token(req, t);
    since_ok_ = parse_since(t, Service::kNoEvents, &since_);
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.read_message_max(kMaxMessageBytes);
    ws_.async_accept(req, beast::bind_front_handler(&WsSession::on_accept, shared_from_this()));
  }

 private:
  void on_accept(beast::error_code ec) {
    if (ec) return;
    if (server_.opts.ws_send_buffer_bytes > 0) {
      beast::error_code ignored;
      beast::get_lowest_layer(ws_).socket().set_option(
          net::socket_base::send_buffer_size(server_.opts.ws_send_buffer_bytes), ignored);
    }
    std::weak_ptr<WsSession> weak = shared_from_this();
    auto exec = ws_.get_executor();
    // Called with the room's lock held: only queue; the session is locked on its strand.
    auto sub =
        since_ok_
            ? server_.service->subscribe(
                  game_id_, token_,
                  [weak, exec](std::shared_ptr<const std::string> msg) {
                    net::post(exec, [weak, m = std::move(msg)]() mutable {
                      if (auto self = weak.lock()) self->send(std::move(m));
                    });
                  },
                  since_)
            : Service::Subscription{
                  0, api_error(400, "bad_request", "since must be a non-negative integer (an event's seq)")};
    if (sub.id == 0) {
      Json refusal = sub.refusal.body;
      refusal["type"] = "error";
      refusal["status"] = sub.refusal.status;
      send(std::make_shared<const std::string>(to_json_text(refusal)));
      closing_ = true;
      return;
    }
    sub_ = sub.id;
    do_read();
  }

  void do_read() {
    ws_.async_read(buffer_, beast::bind_front_handler(&WsSession::on_read, shared_from_this()));
  }

  void on_read(beast::error_code ec, size_t) {
    if (ec) return;  // closed, or too big (Beast closes with 1009 itself)
    std::string text = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    // Handle on a worker; the next read starts once the reply is queued, so a connection's
    // messages are answered in order.
    net::post(*server_.workers, [self = shared_from_this(), text = std::move(text)] {
      std::string reply = self->server_.handle_ws_message_guarded(self->game_id_, self->token_, text);
      net::post(self->ws_.get_executor(), [self, reply = std::move(reply)]() mutable {
        self->send(std::make_shared<const std::string>(std::move(reply)));
        self->do_read();
      });
    });
  }

  void send(std::shared_ptr<const std::string> msg) {
    if (dropping_) return;
    queued_bytes_ += msg->size();
    queue_.push_back(std::move(msg));
    // (More than one: the front is being written; a lone message, however big, is sent.)
    if (queue_.size() > 1 && (queue_.size() > server_.opts.ws_max_queued_messages ||
                              queued_bytes_ > server_.opts.ws_max_queued_bytes))
      return drop_slow_client();
    if (queue_.size() == 1) do_write();
  }

  // The client does not read what it is sent: forget what waits (all but the message being
  // written), close with a reason once that write ends, and cut the socket if it does not
  // end within 5 s (a client that reads nothing never lets it end).
  void drop_slow_client() {
    dropping_ = true;
    while (queue_.size() > 1) {
      queued_bytes_ -= queue_.back()->size();
      queue_.pop_back();
    }
    if (sub_ != 0) {
      server_.service->unsubscribe(game_id_, sub_);
      sub_ = 0;
    }
    drop_deadline_.expires_after(std::chrono::seconds(5));
    drop_deadline_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec) return;
      beast::error_code ignored;
      beast::get_lowest_layer(self->ws_).socket().close(ignored);
    });
  }

  void do_write() {
    ws_.text(true);
    ws_.async_write(net::buffer(*queue_.front()),
                    beast::bind_front_handler(&WsSession::on_write, shared_from_this()));
  }

  void on_write(beast::error_code ec, size_t) {
    if (ec) return;
    queued_bytes_ -= queue_.front()->size();
    queue_.pop_front();
    if (dropping_) {
      ws_.async_close(websocket::close_reason(websocket::close_code::try_again_later,
                                              "send queue full: the client does not read its messages; "
                                              "reconnect to get the whole view again"),
                      [self = shared_from_this()](beast::error_code) { self->drop_deadline_.cancel(); });
    } else if (!queue_.empty()) {
      do_write();
    } else if (closing_) {
      ws_.async_close(websocket::close_code::policy_error, [self = shared_from_this()](beast::error_code) {});
    }
  }

  websocket::stream<beast::tcp_stream> ws_;
  Server::Impl& server_;
  ConnectionSlot slot_;
  beast::flat_buffer buffer_;
  std::deque<std::shared_ptr<const std::string>> queue_;
  size_t queued_bytes_ = 0;
  net::steady_timer drop_deadline_{ws_.get_executor()};
  std::string game_id_, token_;
  size_t since_ = Service::kNoEvents;  // the client's last event (?since=), if it has one
  bool since_ok_ = true;
  int sub_ = 0;
  bool closing_ = false;
  bool dropping_ = false;  // a slow client being dropped: nothing more is queued
};

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& socket, Server::Impl& server, ConnectionSlot slot)
      : stream_(std::move(socket)), server_(server), slot_(std::move(slot)) {
    beast::error_code ec;
    const auto peer = stream_.socket().remote_endpoint(ec);
    if (!ec) client_ = peer.address().to_string();
  }

  void run() {
    net::dispatch(stream_.get_executor(),
                  beast::bind_front_handler(&HttpSession::do_read, shared_from_this()));
  }

 private:
  void do_read() {
    parser_.emplace();
    parser_->body_limit(kMaxMessageBytes);
    parser_->header_limit(static_cast<uint32_t>(kMaxHeaderBytes));
    stream_.expires_after(std::chrono::seconds(std::max(1, server_.opts.request_timeout_seconds)));
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
  }

  void on_read(beast::error_code ec, size_t) {
    if (ec == http::error::end_of_stream) {
      beast::error_code ignored;
      stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
      return;
    }
    if (ec == http::error::body_limit || ec == http::error::header_limit)
      return write(limit_refusal(ec == http::error::header_limit));
    if (ec) return;
    Request req = parser_->release();
    if (websocket::is_upgrade(req)) {
      // The upgrade is answered here, on the I/O thread: refuse a target that is not a
      // game's socket before anything echoes it.
      const Target t = parse_target(req.target());
      if (auto refusal = refuse_upgrade(req, t)) return write(std::move(*refusal));
      stream_.expires_never();
      std::make_shared<WsSession>(stream_.release_socket(), server_, std::move(slot_))->run(req, t);
      return;
    }
    // Handle on a worker, write back on this connection's strand (see worker_threads).
    net::post(*server_.workers, [self = shared_from_this(), req = std::move(req)] {
      Response res = self->server_.handle_guarded(req, self->client_);
      net::post(self->stream_.get_executor(),
                [self, res = std::move(res)]() mutable { self->write(std::move(res)); });
    });
  }

  void write(Response res) {
    auto sp = std::make_shared<Response>(std::move(res));
    http::async_write(stream_, *sp, [self = shared_from_this(), sp](beast::error_code ec, size_t) {
      if (ec) return;
      if (sp->need_eof()) {
        beast::error_code ignored;
        self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        self->linger();
        return;
      }
      self->do_read();
    });
  }

  // After the last reply (413, 431, Connection: close) the client may still be sending a body
  // we refused. Closing a socket with unread input sends a reset, which can destroy the reply
  // before the client reads it; so read and drop what comes, for 2 s and 1 MiB at most.
  void linger() {
    stream_.expires_after(std::chrono::seconds(2));
    drain();
  }
  void drain() {
    stream_.async_read_some(net::buffer(drain_buf_),
                            [self = shared_from_this()](beast::error_code ec, size_t n) {
                              self->drained_ += n;
                              if (!ec && self->drained_ < (size_t{1} << 20)) self->drain();
                            });
  }

  beast::tcp_stream stream_;
  Server::Impl& server_;
  ConnectionSlot slot_;
  std::string client_;  // the peer's address
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::array<char, 4096> drain_buf_{};
  size_t drained_ = 0;
};

// Answers a connection over the cap with 503 and closes it. The socket is fresh, so the
// short reply fits its send buffer: a non-blocking write never waits.
void refuse_connection(tcp::socket& socket) {
  static const std::string body =
      R"({"ok":false,"error":{"code":"too_many_connections","message":"too many open connections"}})";
  static const std::string reply =
      "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"
      "Retry-After: 1\r\nConnection: close\r\nContent-Length: " +
      std::to_string(body.size()) + "\r\n\r\n" + body;
  beast::error_code ec;
  socket.non_blocking(true, ec);
  socket.write_some(net::buffer(reply), ec);
  socket.shutdown(tcp::socket::shutdown_both, ec);
  socket.close(ec);
}

void do_accept(Server::Impl& impl);

// After an accept error, waits 10 ms, doubling up to 200 ms while errors go on.
void accept_after_backoff(Server::Impl& impl) {
  impl.accept_delay =
      std::clamp(impl.accept_delay * 2, std::chrono::milliseconds(10), std::chrono::milliseconds(200));
  impl.accept_backoff->expires_after(impl.accept_delay);
  impl.accept_backoff->async_wait([&impl](beast::error_code ec) {
    if (ec || !impl.acceptor->is_open()) return;
    do_accept(impl);
  });
}

void do_accept(Server::Impl& impl) {
  impl.acceptor->async_accept(net::make_strand(impl.ioc), [&impl](beast::error_code ec, tcp::socket socket) {
    if (ec) {
      if (ec == net::error::operation_aborted || !impl.acceptor->is_open()) return;
      return accept_after_backoff(impl);
    }
    impl.accept_delay = std::chrono::milliseconds(0);
    if (impl.connections.load() >= impl.max_connections) {
      refuse_connection(socket);
    } else {
      std::make_shared<HttpSession>(std::move(socket), impl, ConnectionSlot(impl.connections))->run();
    }
    do_accept(impl);
  });
}

}  // namespace

int default_max_connections() {
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY) return 1000;
  return static_cast<int>(std::clamp<rlim_t>(lim.rlim_cur / 4 * 3, 1, 1000));
}

Server::Server(std::shared_ptr<Service> service, ServerOptions opts)
    : impl_(std::make_unique<Impl>(std::move(service), std::move(opts))) {}

Server::~Server() { stop(); }

Status Server::start() {
  auto& i = *impl_;
  beast::error_code ec;
  const auto addr = net::ip::make_address(i.opts.host, ec);
  if (ec) return Error{"bad listen address '" + i.opts.host + "': " + ec.message(), "", "--host"};
  const tcp::endpoint ep{addr, i.opts.port};
  i.acceptor.emplace(i.ioc);
  if (i.acceptor->open(ep.protocol(), ec); ec) return Error{"cannot open socket: " + ec.message(), "", ""};
  if (i.acceptor->set_option(net::socket_base::reuse_address(true), ec); ec)
    return Error{"cannot set SO_REUSEADDR: " + ec.message(), "", ""};
  if (i.acceptor->bind(ep, ec); ec)
    return Error{"cannot listen on " + i.opts.host + ":" + std::to_string(i.opts.port) + ": " + ec.message(),
                 "", ""};
  if (i.acceptor->listen(net::socket_base::max_listen_connections, ec); ec)
    return Error{"cannot listen: " + ec.message(), "", ""};
  i.bound_port = i.acceptor->local_endpoint().port();
  i.max_connections = i.opts.max_connections > 0 ? i.opts.max_connections : default_max_connections();
  i.accept_backoff.emplace(i.ioc);
  const int hw = static_cast<int>(std::thread::hardware_concurrency());
  const int workers = i.opts.worker_threads > 0 ? i.opts.worker_threads : std::max(4, 2 * hw);
  i.workers = std::make_unique<net::thread_pool>(static_cast<size_t>(workers));
  do_accept(i);
  i.running = true;
  for (int t = 0; t < std::max(1, i.opts.io_threads); ++t) i.threads.emplace_back([&i] { i.ioc.run(); });
  return Status::ok();
}

uint16_t Server::port() const { return impl_->bound_port; }

void Server::stop() {
  auto& i = *impl_;
  if (!i.running) return;
  i.running = false;
  net::post(i.ioc, [&i] {
    beast::error_code ec;
    if (i.acceptor) i.acceptor->close(ec);
    if (i.accept_backoff) i.accept_backoff->cancel();
  });
  i.ioc.stop();
  for (auto& t : i.threads) t.join();
  i.threads.clear();
  // Requests being handled finish (their replies go nowhere: the I/O loop has stopped), so no
  // worker touches the service after stop() returns.
  i.workers->join();
  i.workers.reset();
}

std::string Server::answer_in_process(std::string_view request, const std::vector<std::string>& ws_messages,
                                      const std::string& client) {
  auto& i = *impl_;
  auto as_text = [](const Response& res) {
    std::ostringstream out;
    out << res;
    return out.str();
  };
  http::request_parser<http::string_body> parser;
  parser.body_limit(kMaxMessageBytes);
  parser.header_limit(static_cast<uint32_t>(kMaxHeaderBytes));
  parser.eager(true);
  beast::error_code ec;
  net::const_buffer rest(request.data(), request.size());
  while (rest.size() > 0 && !parser.is_done()) {
    const size_t used = parser.put(rest, ec);
    if (ec == http::error::need_more) ec = {};
    if (ec || used == 0) break;
    rest += used;
  }
  if (!ec && !parser.is_done()) parser.put_eof(ec);  // the client closed: a body up to EOF ends here
  if (ec == http::error::body_limit || ec == http::error::header_limit)
    return as_text(limit_refusal(ec == http::error::header_limit));
  if (ec || !parser.is_done()) return {};  // the connection closes without a reply
  Request req = parser.release();
  if (websocket::is_upgrade(req)) {
    const Target t = parse_target(req.target());
    if (auto refusal = refuse_upgrade(req, t)) return as_text(*refusal);
    std::string out = "HTTP/1.1 101 Switching Protocols\r\n";
    const std::string token = ws_token(req, t);
    for (const auto& m : ws_messages) out += i.handle_ws_message_guarded(t.segments[2], token, m) + "\n";
    return out;
  }
  return as_text(i.handle_guarded(req, client));
}

}  // namespace steppe::server
