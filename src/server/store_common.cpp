#include <ctime>

#include "server/store.h"

namespace steppe::server {

Json seats_to_json(const std::vector<StoredSeat>& seats) {
  Json a = Json::array();
  for (const auto& s : seats)
    a.push_back({{"side", s.side}, {"kind", s.kind}, {"agent", s.agent}, {"token", s.token}});
  return a;
}

std::vector<StoredSeat> seats_from_json(const Json& a) {
  std::vector<StoredSeat> seats;
  if (!a.is_array()) return seats;
  for (const auto& j : a) {
    StoredSeat s;
    s.side = j.value("side", 0);
    s.kind = j.value("kind", "human");
    s.agent = j.value("agent", "");
    s.token = j.value("token", "");
    seats.push_back(std::move(s));
  }
  return seats;
}

std::vector<std::string> history_from_json(const Json& a) {
  std::vector<std::string> out;
  if (!a.is_array()) return out;
  for (const auto& x : a)
    if (x.is_string()) out.push_back(x.get<std::string>());
  return out;
}

std::string now_iso() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace steppe::server
