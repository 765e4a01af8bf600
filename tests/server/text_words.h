// Text helpers of the hidden-information tests (real_serve_test.cpp, fog_guard_test.cpp):
// the strings of a JSON message and the words of a text, to look for unit labels in them.
#pragma once

#include <set>
#include <sstream>
#include <string>

#include "kernel/state.h"

namespace steppe::testing {

// Every string (object keys and values) anywhere in `j`.
inline void strings_in(const Json& j, std::set<std::string>& out) {
  if (j.is_string()) {
    out.insert(j.get<std::string>());
  } else if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      out.insert(k);
      strings_in(v, out);
    }
  } else if (j.is_array()) {
    for (const auto& v : j) strings_in(v, out);
  }
}

// The words of a text, without the punctuation and quotes around them ("16A," -> "16A").
inline std::set<std::string> words_of(const std::string& text) {
  std::set<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) {
    while (!w.empty() && std::string(",.:;()'\"").find(w.back()) != std::string::npos) w.pop_back();
    while (!w.empty() && std::string("('\"").find(w.front()) != std::string::npos) w.erase(0, 1);
    if (!w.empty()) out.insert(w);
  }
  return out;
}

}  // namespace steppe::testing
