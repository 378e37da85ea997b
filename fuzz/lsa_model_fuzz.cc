// LsaModel (embed.h): a model file opened, then texts embedded (dense and
// lexical parts) and compared. A damaged model embeds texts as empty and
// latches in status().
#include <cstddef>
#include <cstdint>

#include "fuzz_util.h"
#include "litgraph/embed.h"

using namespace litgraph;
using namespace litgraph::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Input in = Decode(data, size);
  const std::string name = "model";
  const std::string path = ScratchDir() + "/" + name;
  WriteInput(path, Identity(name), in);
  LsaModel m;
  if (!m.Open(path, Identity(name)).ok()) return 0;
  Check(m.dim() > 0, "a model of dimension 0 opened");
  Check(m.lexical_weight() >= 0 && m.lexical_weight() <= 1, "lexical weight outside [0, 1]");
  std::vector<float> out(static_cast<size_t>(m.dim()));
  float sum = 0;
  std::vector<std::string> texts = SampleTexts();
  // Strings of the model's own table, as texts: terms it knows.
  if (in.bytes.size() > 64) texts.emplace_back(in.bytes.substr(in.bytes.size() - 64));
  for (const std::string& t : texts) {
    if (m.EmbedOne(t, out.data())) sum += out[0];
    SparseVector s = m.EmbedSparse(t);
    Check(s.terms.size() == s.weights.size(), "sparse vector lengths differ");
    for (size_t i = 1; i < s.terms.size(); ++i)
      Check(s.terms[i - 1] < s.terms[i], "sparse terms not ascending");
    // Terms the model does not know have hashed ids above the vocabulary
    // (LsaModel::EmbedSparse), so any id is valid here.
    sum += SparseDot(s, s);
  }
  std::vector<float> all;
  Use(m.Embed(texts, &all));
  Check(all.size() == texts.size() * static_cast<size_t>(m.dim()), "Embed output size");
  Use(m.model_id());
  Use(sum);
  Use(m.status());
  return 0;
}
