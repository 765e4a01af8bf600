// Safe text for everything the server sends: a reply may echo a client's input (a game id
// from the path, a query word), and nlohmann's strict dump() throws on invalid UTF-8. A
// throw on an I/O thread ends the process, so every message the server serialises goes
// through to_json_text, which replaces invalid bytes with U+FFFD instead.
#pragma once

#include <string>
#include <string_view>

#include "kernel/state.h"

namespace steppe::server {

// `j` as compact JSON text; invalid UTF-8 in any string becomes U+FFFD. Never throws
// for a string's bytes.
inline std::string to_json_text(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// The text of object `j` with one more member, `key`, whose value is `raw`, JSON text made
// elsewhere (a cached view): splices instead of parsing and serialising it again. `j` must
// be an object without `key`.
inline std::string to_json_text_with(const Json& j, std::string_view key, std::string_view raw) {
  std::string s = to_json_text(j);
  s.pop_back();  // '}'
  if (s.size() > 1) s += ',';
  s += '"';
  s += key;
  s += "\":";
  s += raw;
  s += '}';
  return s;
}

// Whether `s` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, at most
// U+10FFFF).
bool is_valid_utf8(std::string_view s);

}  // namespace steppe::server
