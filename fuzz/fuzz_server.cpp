// Fuzzes the server's HTTP request router and WebSocket message handler in-process
// (Server::answer_in_process: the connection's own parser and limits, the router, the
// message handler), with the Duel fixture game of tests/server on an in-memory SQLite store.
//
// An input is one HTTP request as bytes, then optionally WebSocket messages, each after a
// line "#ws" (they are handled when the request is an accepted upgrade). Before parsing,
// $GAME, $RED, $BLUE and $CREATOR are replaced by the id of a freshly created game, its two
// seats' tokens and its creator token, so that seeds reach the handlers behind the
// authorisation. Each input gets a new service and game: inputs do not depend on each other.
//
// Beyond not crashing: every JSON answer (HTTP body or WebSocket reply) must be valid JSON
// (issue 21: a reply echoing invalid UTF-8 once killed the server), and the service must still
// answer /api/health with 200 after the input.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "fixture_game.h"
#include "server/server.h"

namespace {

using Json = nlohmann::json;

void replace_all(std::string& s, std::string_view what, const std::string& with) {
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + with.size()))
    s.replace(at, what.size(), with);
}

void must_be_json(std::string_view text, const char* where) {
  if (!nlohmann::json::accept(text)) {
    std::fprintf(stderr, "fuzz_server: %s is not valid JSON: %.*s\n", where, static_cast<int>(text.size()),
                 text.data());
    __builtin_trap();
  }
}

// An HTTP answer whose content type is JSON must carry a valid JSON body.
void check_http_answer(const std::string& answer) {
  const size_t head_end = answer.find("\r\n\r\n");
  if (head_end == std::string::npos) return;
  if (answer.substr(0, head_end).find("application/json") == std::string::npos) return;
  must_be_json(std::string_view(answer).substr(head_end + 4), "an HTTP answer's body");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto store = steppe::server::open_sqlite_store(":memory:");
  if (!store) __builtin_trap();
  steppe::server::ServiceOptions so;
  so.agent_threads = 1;
  so.agent_budget_ms = 50;  // an agent game the input creates must not hold the shutdown
  so.create_per_minute = 0;
  auto service = std::make_shared<steppe::server::Service>(steppe::testing::duel_catalog(),
                                                           std::move(store).value(), so);
  const steppe::server::ApiResult made =
      service->create_game(Json{{"game", "duel"}, {"scenario", "short"}, {"seed", 7}});
  if (made.status != 200) __builtin_trap();
  steppe::server::Server server(service, steppe::server::ServerOptions{});

  std::string input(reinterpret_cast<const char*>(data), size);
  replace_all(input, "$GAME", made.body["game"]["id"].get<std::string>());
  replace_all(input, "$RED", made.body["seats"][0]["token"].get<std::string>());
  replace_all(input, "$BLUE", made.body["seats"][1]["token"].get<std::string>());
  replace_all(input, "$CREATOR", made.body["creator_token"].get<std::string>());

  std::vector<std::string> messages;
  const std::string_view marker = "\n#ws\n";
  size_t cut = input.find(marker);
  const std::string request = input.substr(0, cut);
  while (cut != std::string::npos) {
    const size_t from = cut + marker.size();
    cut = input.find(marker, from);
    messages.push_back(input.substr(from, cut == std::string::npos ? std::string::npos : cut - from));
  }

  const std::string answer = server.answer_in_process(request, messages, "198.51.100.7");
  if (answer.starts_with("HTTP/1.1 101 ")) {
    std::string_view rest(answer);
    rest.remove_prefix(rest.find('\n') + 1);
    while (!rest.empty()) {
      const size_t nl = rest.find('\n');
      must_be_json(rest.substr(0, nl), "a WebSocket reply");
      rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
    }
  } else {
    check_http_answer(answer);
  }
  const std::string health = server.answer_in_process("GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n", {}, "");
  if (!health.starts_with("HTTP/1.1 200 ")) {
    std::fprintf(stderr, "fuzz_server: /api/health after the input: %s\n", health.c_str());
    __builtin_trap();
  }
  service->shutdown();
  return 0;
}
