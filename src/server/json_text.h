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

// Whether `s` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, at most
// U+10FFFF).
bool is_valid_utf8(std::string_view s);

}  // namespace steppe::server
