#include "kernel/json_data.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace steppe {

namespace {

const Json& null_json() {
  static const Json kNull;
  return kNull;
}

const char* type_name(const Json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "a boolean";
  if (v.is_number_integer() || v.is_number_unsigned()) return "an integer";
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_array()) return "an array";
  return "an object";
}

}  // namespace

Result<Json> parse_json_text(std::string_view text, const std::string& origin) {
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    // e.byte is 1-based and points just past the offending character; turn it into a
    // line and column an editor can jump to.
    const size_t byte = e.byte == 0 ? 0 : e.byte - 1;
    size_t line = 1, col = 1;
    for (size_t i = 0; i < byte && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    std::string what = e.what();
    // nlohmann prefixes "[json.exception.parse_error.101] parse error at line L, column C: ".
    const auto colon = what.find(": ", what.find("parse error"));
    if (colon != std::string::npos) what = what.substr(colon + 2);
    return Error{"JSON syntax error at line " + std::to_string(line) + ", column " + std::to_string(col) +
                     " (byte " + std::to_string(byte) + "): " + what,
                 "", origin};
  } catch (const Json::exception& e) {
    // Not a syntax error but a value the parser cannot hold, e.g. a number that overflows
    // a double (nlohmann's out_of_range 406): still bad input, never an escaping exception.
    std::string what = e.what();
    const auto close = what.find("] ");
    if (close != std::string::npos) what = what.substr(close + 2);
    return Error{"JSON value out of range: " + what, "", origin};
  }
}

Result<Json> load_json_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Error{"cannot open file", "", file.string()};
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return Error{"cannot read file", "", file.string()};
  return parse_json_text(ss.str(), file.string());
}

std::string json_excerpt(const Json& v, size_t max_chars) {
  std::string s = v.dump();
  if (s.size() > max_chars) s = s.substr(0, max_chars) + "...";
  return s;
}

std::string json_pointer_escape(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

JsonReader::JsonReader(const Json& value, std::string file, std::string path)
    : value_(&value),
      file_(std::move(file)),
      path_(std::move(path)),
      diag_(std::make_shared<JsonDiagnostics>()) {}

JsonReader::JsonReader(const Json* value, std::string file, std::string path,
                       std::shared_ptr<JsonDiagnostics> diag, bool missing)
    : value_(value),
      file_(std::move(file)),
      path_(std::move(path)),
      diag_(std::move(diag)),
      missing_(missing) {}

std::string JsonReader::where() const { return path_.empty() ? file_ : file_ + ": " + path_; }

void JsonReader::fail(std::string message) const {
  diag_->errors.push_back(Error{std::move(message), "", where()});
}

void JsonReader::fail_value(std::string message) const {
  fail(std::move(message) + " (value: " + json_excerpt(*value_) + ")");
}

Error JsonReader::error() const {
  if (diag_->errors.empty()) return Error{"no error", "", where()};
  Error e = diag_->errors.front();
  if (diag_->errors.size() > 1)
    e.message += " (and " + std::to_string(diag_->errors.size() - 1) + " more error" +
                 (diag_->errors.size() > 2 ? "s" : "") + " in this file)";
  return e;
}

bool JsonReader::type_ok(bool cond, const char* expected) const {
  if (missing_) return false;  // the absence was reported once already
  if (!cond)
    fail(std::string("expected ") + expected + ", found " + type_name(*value_) +
         " (value: " + json_excerpt(*value_) + ")");
  return cond;
}

bool JsonReader::has(std::string_view key) const {
  return value_->is_object() && value_->find(key) != value_->end();
}

JsonReader JsonReader::at(std::string_view key) const {
  const std::string child = path_ + "/" + json_pointer_escape(key);
  if (!type_ok(value_->is_object(), "an object")) return JsonReader(&null_json(), file_, child, diag_, true);
  auto it = value_->find(key);
  if (it == value_->end()) {
    JsonReader absent(&null_json(), file_, child, diag_, true);
    std::string msg = "missing required field ";
    msg += quoted(key);
    absent.fail(std::move(msg));
    return absent;
  }
  return JsonReader(&*it, file_, child, diag_, false);
}

JsonReader JsonReader::at(size_t index) const {
  const std::string child = path_ + "/" + std::to_string(index);
  if (!type_ok(value_->is_array(), "an array")) return JsonReader(&null_json(), file_, child, diag_, true);
  if (index >= value_->size()) {
    JsonReader absent(&null_json(), file_, child, diag_, true);
    absent.fail("array has " + std::to_string(value_->size()) + " elements, element " +
                std::to_string(index) + " is required");
    return absent;
  }
  return JsonReader(&(*value_)[index], file_, child, diag_, false);
}

std::optional<JsonReader> JsonReader::opt(std::string_view key) const {
  if (missing_ || !value_->is_object()) return std::nullopt;
  auto it = value_->find(key);
  if (it == value_->end() || it->is_null()) return std::nullopt;
  return JsonReader(&*it, file_, path_ + "/" + json_pointer_escape(key), diag_, false);
}

std::vector<JsonReader> JsonReader::elements() const {
  std::vector<JsonReader> out;
  if (!type_ok(value_->is_array(), "an array")) return out;
  out.reserve(value_->size());
  for (size_t i = 0; i < value_->size(); ++i)
    out.push_back(JsonReader(&(*value_)[i], file_, path_ + "/" + std::to_string(i), diag_, false));
  return out;
}

std::vector<std::pair<std::string, JsonReader>> JsonReader::members() const {
  std::vector<std::pair<std::string, JsonReader>> out;
  if (!type_ok(value_->is_object(), "an object")) return out;
  for (auto it = value_->begin(); it != value_->end(); ++it)
    out.emplace_back(
        it.key(), JsonReader(&it.value(), file_, path_ + "/" + json_pointer_escape(it.key()), diag_, false));
  return out;
}

size_t JsonReader::size() const { return (value_->is_array() || value_->is_object()) ? value_->size() : 0; }

std::string JsonReader::as_str() const {
  if (!type_ok(value_->is_string(), "a string")) return {};
  return value_->get<std::string>();
}

int64_t JsonReader::as_int() const {
  if (!type_ok(value_->is_number_integer() || value_->is_number_unsigned(), "an integer")) return 0;
  if (value_->is_number_unsigned() && value_->get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
    fail_value("integer too large");
    return 0;
  }
  return value_->get<int64_t>();
}

int JsonReader::as_int_in(int lo, int hi) const {
  if (missing_) return lo;
  const bool was_ok = value_->is_number_integer() || value_->is_number_unsigned();
  const int64_t v = as_int();
  if (!was_ok) return lo;
  if (v < lo || v > hi) {
    fail("expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi) +
         " (value: " + json_excerpt(*value_) + ")");
    return lo;
  }
  return static_cast<int>(v);
}

double JsonReader::as_number() const {
  if (!type_ok(value_->is_number(), "a number")) return 0.0;
  return value_->get<double>();
}

bool JsonReader::as_bool() const {
  if (!type_ok(value_->is_boolean(), "a boolean")) return false;
  return value_->get<bool>();
}

int JsonReader::as_word(std::span<const char* const> names) const {
  const std::string w = as_str();
  for (size_t i = 0; i < names.size(); ++i)
    if (w == names[i]) return static_cast<int>(i);
  if (value_->is_string()) {
    std::string list;
    for (const char* n : names) list += (list.empty() ? "" : ", ") + std::string(n);
    fail_value("expected one of " + list);
  }
  return 0;
}

std::vector<std::string> JsonReader::as_str_list() const {
  std::vector<std::string> out;
  for (const JsonReader& e : elements()) out.push_back(e.as_str());
  return out;
}

std::string JsonReader::str_or(std::string_view key, std::string def) const {
  auto r = opt(key);
  if (r) return r->as_str();
  return def;
}
int64_t JsonReader::integer_or(std::string_view key, int64_t def) const {
  auto r = opt(key);
  return r ? r->as_int() : def;
}
double JsonReader::number_or(std::string_view key, double def) const {
  auto r = opt(key);
  return r ? r->as_number() : def;
}
bool JsonReader::boolean_or(std::string_view key, bool def) const {
  auto r = opt(key);
  return r ? r->as_bool() : def;
}
std::vector<std::string> JsonReader::str_list_or_empty(std::string_view key) const {
  auto r = opt(key);
  return r ? r->as_str_list() : std::vector<std::string>{};
}

void JsonReader::allow_only(std::initializer_list<std::string_view> allowed) const {
  if (missing_ || !value_->is_object()) return;
  for (auto it = value_->begin(); it != value_->end(); ++it) {
    if (std::find(allowed.begin(), allowed.end(), std::string_view(it.key())) == allowed.end()) {
      std::string list;
      for (auto a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      JsonReader(&it.value(), file_, path_ + "/" + json_pointer_escape(it.key()), diag_, false)
          .fail("unknown field \"" + it.key() + "\" (allowed: " + list + ")");
    }
  }
}

void JsonReader::check_reconstructed() const {
  if (missing_ || !value_->is_object()) return;
  auto rec = opt("reconstructed");
  if (!rec) return;
  if (!rec->as_bool()) return;
  auto src = opt("source");
  if (!src) {
    fail("\"reconstructed\": true needs a \"source\" saying where the value came from");
    return;
  }
  if (src->as_str().empty() && src->json().is_string())
    src->fail("\"source\" of reconstructed data must be a non-empty string");
}

bool JsonReader::is_reconstructed() const {
  if (missing_ || !value_->is_object()) return false;
  auto it = value_->find("reconstructed");
  return it != value_->end() && it->is_boolean() && it->get<bool>();
}

std::string hash_hex(uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

Result<std::string> rules_hash(const std::filesystem::path& base,
                               const std::vector<std::filesystem::path>& files) {
  std::vector<std::pair<std::string, std::filesystem::path>> named;
  named.reserve(files.size());
  for (const auto& f : files) named.emplace_back(std::filesystem::relative(f, base).generic_string(), f);
  std::sort(named.begin(), named.end());
  uint64_t h = kFnv64Basis;
  for (const auto& [name, path] : named) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{"cannot open file for the rules hash", "", path.string()};
    std::ostringstream ss;
    ss << in.rdbuf();
    h = fnv1a64(name, h);
    h = fnv1a64(std::string_view("\0", 1), h);  // separator: "ab"+"c" differs from "a"+"bc"
    const std::string bytes = ss.str();
    h = fnv1a64(bytes, h);
    h = fnv1a64(std::string_view("\0", 1), h);
  }
  return hash_hex(h);
}

Result<std::string> rules_hash_of_dir(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return Error{"not a directory", "", dir.string()};
  std::vector<std::filesystem::path> files;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    // sections.json lists the rulebook's section numbers for the coverage report
    // (tools/coverage.py): no rule reads it, so editing it leaves stored games playable.
    if (it->is_regular_file() && it->path().extension() == ".json" &&
        it->path().filename() != "sections.json")
      files.push_back(it->path());
  }
  if (ec) return Error{"cannot list directory: " + ec.message(), "", dir.string()};
  return rules_hash(dir, files);
}

}  // namespace steppe
