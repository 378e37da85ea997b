#include "litgraph/report.h"

namespace litgraph {

namespace {

class Silent : public Reporter {
 public:
  void Progress(std::string_view) override {}
  void Note(std::string_view) override {}
  void Warn(std::string_view) override {}
};

}  // namespace

Reporter* NullReporter() {
  static Silent silent;
  return &silent;
}

}  // namespace litgraph
