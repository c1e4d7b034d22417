// A translation unit like real ones: large standard headers around a few
// call-sites. dpstub must cost little more than parsing it.
#include <dp/dp.hpp>

#include <algorithm>
#include <chrono>
#include <complex>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <iomanip>
#include <iostream>
#include <list>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <valarray>
#include <variant>
#include <vector>

int main(int argc, char **argv) {
  std::map<std::string, std::vector<double>> table;
  std::regex word("[a-z]+");
  for (int i = 1; i < argc; ++i)
    if (std::regex_match(argv[i], word))
      table[argv[i]].push_back(i);
  const dp::grid<1> g(1000);
  dp::field<1, double> x(g), y(g, 1.0);
  dp::forall(g, [](dp::index<1> i, double &v) { v = std::sqrt(double(i[0])); }, x);
  dp::scalar<double> dot(0.0);
  dp::reduce(g, std::plus<>(), dot, [](double a, double b) { return a * b; }, x, y);
  std::cout << std::setprecision(10) << dot.get() << " " << table.size() << "\n";
}
