// Validated loading of JSON data files (maps, tables, counters, scenarios).
//
// Every datum a game reads comes through a JsonReader: a cursor that knows the file it
// came from and the JSON-pointer path of the value it points at. A bad value is reported
// as steppe::Error{message naming the value, "", "data/bd/map.json: /hexes/3/terrain"},
// so an owner typing in printed values can find and fix the line. Readers collect every
// problem instead of stopping at the first (all errors of a file in one run), and
// accessors return a harmless default after an error so loaders can be written straight
// through and check `r.status()` once at the end. Loaders return Result<T>: nothing
// half-loaded ever escapes.
//
//   auto doc = load_json_file("data/bd/map.json");
//   if (!doc) return doc.error();
//   JsonReader r(*doc, "data/bd/map.json");
//   for (JsonReader h : r.at("hexes").elements()) terrain = h.str("terrain");
//   if (!r.ok()) return r.error();
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kernel/error.h"

namespace steppe {

using Json = nlohmann::json;

// Reads and parses a JSON file. Errors name the file and, for syntax errors, the line,
// column and byte offset of the parse failure.
Result<Json> load_json_file(const std::filesystem::path& file);
// Parses JSON text that came from `origin` (a file name or "request"), same error style.
Result<Json> parse_json_text(std::string_view text, const std::string& origin);

// Short, readable rendering of a JSON value for error messages (long values are cut).
std::string json_excerpt(const Json& v, size_t max_chars = 60);

// Shared error list of one document; JsonReaders made from the same root share it.
struct JsonDiagnostics {
  std::vector<Error> errors;
};

class JsonReader {
 public:
  // `file` is printed in every error; `path` is the JSON pointer of `value` in that file.
  JsonReader(const Json& value, std::string file, std::string path = "");

  const Json& json() const { return *value_; }
  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }
  // "file: /hexes/3" (or "file" at the root): the Error::where of this value.
  std::string where() const;

  // --- Structure -----------------------------------------------------------------
  bool is_object() const { return value_->is_object(); }
  bool is_array() const { return value_->is_array(); }
  bool is_null() const { return value_->is_null(); }
  bool has(std::string_view key) const;
  // Required member / element. A missing one records an error and returns a reader on
  // null (whose accessors then record nothing further: one error per missing field).
  JsonReader at(std::string_view key) const;
  JsonReader at(size_t index) const;
  // Optional member: nullopt if absent or null.
  std::optional<JsonReader> opt(std::string_view key) const;
  // Elements of an array (records an error if this is not an array).
  std::vector<JsonReader> elements() const;
  // Members of an object in file order... nlohmann sorts keys, so in key order.
  std::vector<std::pair<std::string, JsonReader>> members() const;
  size_t size() const;  // array/object size, 0 otherwise

  // --- Values at this cursor ------------------------------------------------------
  std::string as_str() const;
  int64_t as_int() const;
  // Integer in [lo, hi]; out of range is an error naming the range.
  int as_int_in(int lo, int hi) const;
  double as_number() const;
  bool as_bool() const;
  std::vector<std::string> as_str_list() const;
  // A string that must be one of `names` (a game's words for its phases, places, ...): its
  // index, or 0 with an error listing the choices.
  int as_word(std::span<const char* const> names) const;

  // --- Members (shorthand for at(key).as_...) ------------------------------------
  std::string str(std::string_view key) const { return at(key).as_str(); }
  int64_t integer(std::string_view key) const { return at(key).as_int(); }
  int int_in(std::string_view key, int lo, int hi) const { return at(key).as_int_in(lo, hi); }
  double number(std::string_view key) const { return at(key).as_number(); }
  bool boolean(std::string_view key) const { return at(key).as_bool(); }
  std::vector<std::string> str_list(std::string_view key) const { return at(key).as_str_list(); }
  // Optional members with defaults (absent or null -> default; wrong type -> error).
  std::string str_or(std::string_view key, std::string def) const;
  int64_t integer_or(std::string_view key, int64_t def) const;
  double number_or(std::string_view key, double def) const;
  bool boolean_or(std::string_view key, bool def) const;
  std::vector<std::string> str_list_or_empty(std::string_view key) const;

  // Checks that every member key is one of `allowed`; unknown keys are errors (catches
  // typos like "terain" in hand-edited files). Use only where extra fields are not kept.
  void allow_only(std::initializer_list<std::string_view> allowed) const;
  // Reconstructed data: if "reconstructed" is present it must be a bool, and if true,
  // "source" must be a non-empty string saying where the value came from.
  void check_reconstructed() const;
  bool is_reconstructed() const;

  // --- Errors ---------------------------------------------------------------------
  // Records an error at this value's path. `message` should name the bad value; use
  // fail_value() to have it appended ("... (value: "swamp")").
  void fail(std::string message) const;
  void fail_value(std::string message) const;
  bool ok() const { return diag_->errors.empty(); }
  const std::vector<Error>& errors() const { return diag_->errors; }
  // The first error, with the count of further ones in its message.
  Error error() const;
  Status status() const { return ok() ? Status::ok() : Status(error()); }

 private:
  JsonReader(const Json* value, std::string file, std::string path, std::shared_ptr<JsonDiagnostics> diag,
             bool missing);
  bool type_ok(bool cond, const char* expected) const;

  const Json* value_;
  std::string file_;
  std::string path_;
  std::shared_ptr<JsonDiagnostics> diag_;
  bool missing_ = false;  // the reader stands for a member that was absent (already reported)
};

// "\"name\"": a value quoted for an error message. Built by appending, because GCC 12
// at -O2 reports a false -Wrestrict on `"\"" + std::string(...)`.
inline std::string quoted(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  out += s;
  out += '"';
  return out;
}

// Escapes a key for a JSON pointer ("~" -> "~0", "/" -> "~1").
std::string json_pointer_escape(std::string_view key);

// --- Rules hash ---------------------------------------------------------------------
// FNV-1a 64 over bytes: stable across platforms and runs (unlike std::hash), so saves can
// record which rules data they were made with.
constexpr uint64_t kFnv64Basis = 14695981039346656037ULL;
constexpr uint64_t kFnv64Prime = 1099511628211ULL;
inline uint64_t fnv1a64(std::string_view bytes, uint64_t h = kFnv64Basis) {
  for (unsigned char c : bytes) h = (h ^ c) * kFnv64Prime;
  return h;
}
std::string hash_hex(uint64_t h);  // 16 lowercase hex digits
// Hash of the contents of `files`, each preceded by its name relative to `base` (so a
// renamed file changes the hash too). Files are hashed in sorted order of that name.
Result<std::string> rules_hash(const std::filesystem::path& base,
                               const std::vector<std::filesystem::path>& files);
// Every *.json under `dir`, recursively, but sections.json (the rulebook's section list for
// the coverage report, read by no rule): the usual rules hash of data/<game>/.
Result<std::string> rules_hash_of_dir(const std::filesystem::path& dir);

}  // namespace steppe
