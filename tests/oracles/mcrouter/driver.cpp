// Oracle driver for mcrouter's CH3 / WeightedCh3 hashing (run by generate.sh, line protocol of
// tests/oracles/lib/families.py run_line_driver). Linked with mcrouter's own
// mcrouter/lib/fbi/hash.c (furc_hash, murmur_hash_64A), mcrouter/lib/WeightedCh3HashFunc.cpp and
// folly/hash/SpookyHashV2.cpp, compiled from their sources by generate.sh (not committed).
// Per job, params = <op> [...]:
//   ch3          servers = (host, port, weight): Ch3HashFunc(n)(key) -> index (x when the
//                constructor throws: n == 0 or n > furc_maximum_pool_size())
//   wch3         WeightedCh3HashFunc(weights)(key) with weights[i] = double(w_i) / double(max w)
//   raw n1 n2 .. one line per key: murmur_hash_64A(key, len, 4193360111) (u64), SpookyHashV2
//                Hash32(key, len, 0), Hash32(key, len, 0xface2014), Hash64(key, len, 0) (u64),
//                then furc_hash(key, len, n_j) for each n_j; all decimal, space-separated
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <folly/hash/SpookyHashV2.h>
#include "mcrouter/lib/Ch3HashFunc.h"
#include "mcrouter/lib/WeightedCh3HashFunc.h"
#include "mcrouter/lib/fbi/hash.h"

using facebook::memcache::Ch3HashFunc;
using facebook::memcache::WeightedCh3HashFunc;

static std::string unhex(const std::string& h) {
  std::string out;
  for (size_t i = 0; i + 1 < h.size(); i += 2) out.push_back((char)std::stoi(h.substr(i, 2), nullptr, 16));
  return out;
}

static std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> f;
  size_t i = 0;
  while (true) {
    size_t j = s.find(' ', i);
    f.push_back(s.substr(i, j == std::string::npos ? std::string::npos : j - i));
    if (j == std::string::npos) break;
    i = j + 1;
  }
  return f;
}

int main() {
  std::ios::sync_with_stdio(false);
  std::string line;
  std::vector<std::string> params;
  std::vector<std::vector<std::string>> servers;
  std::vector<std::string> keys;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    auto f = split(line);
    if (f[0] == "T") {
      params.assign(f.begin() + 1, f.end());
      servers.clear();
      keys.clear();
    } else if (f[0] == "S") {
      std::vector<std::string> s;
      for (size_t i = 1; i < f.size(); i++) s.push_back(unhex(f[i]));
      servers.push_back(s);
    } else if (f[0] == "K") {
      keys.push_back(f.size() > 1 ? unhex(f[1]) : std::string());
    } else if (f[0] == "E") {
      std::cout << "R\n";
      const std::string& op = params.at(0);
      if (op == "ch3") {
        Ch3HashFunc* fn = nullptr;
        try {
          fn = new Ch3HashFunc(servers.size());
        } catch (const std::logic_error&) {
        }
        for (auto& k : keys) {
          if (fn) std::cout << (*fn)(folly::StringPiece(k.data(), k.size())) << "\n";
          else std::cout << "x\n";
        }
        delete fn;
      } else if (op == "wch3") {
        double mx = 0;
        for (auto& s : servers) mx = std::max(mx, (double)std::stoll(s.at(2)));
        std::vector<double> w;
        for (auto& s : servers) w.push_back((double)std::stoll(s.at(2)) / mx);
        WeightedCh3HashFunc fn(w);
        for (auto& k : keys) std::cout << fn(folly::StringPiece(k.data(), k.size())) << "\n";
      } else if (op == "raw") {
        for (auto& k : keys) {
          std::cout << murmur_hash_64A(k.data(), k.size(), 4193360111u) << " "
                    << folly::hash::SpookyHashV2::Hash32(k.data(), k.size(), 0) << " "
                    << folly::hash::SpookyHashV2::Hash32(k.data(), k.size(), 0xface2014) << " "
                    << folly::hash::SpookyHashV2::Hash64(k.data(), k.size(), 0);
          for (size_t j = 1; j < params.size(); j++)
            std::cout << " " << furc_hash(k.data(), k.size(), (uint32_t)std::stoull(params[j]));
          std::cout << "\n";
        }
      } else {
        throw std::invalid_argument(op);
      }
      std::cout << "D\n";
    }
  }
  std::cout.flush();
  return 0;
}
