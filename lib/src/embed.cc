#include "litgraph/embed.h"

#include <fmt/format.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <xxhash.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <thread>

#include "litgraph/intern.h"
#include "litgraph/lexical.h"
#include "litgraph/log_count.h"
#include "litgraph/sqlite.h"
#include "litgraph/store.h"
#include "litgraph/text.h"

namespace litgraph {

bool Normalize(float* v, int dim) {
  double s = 0;
  for (int i = 0; i < dim; ++i) s += static_cast<double>(v[i]) * v[i];
  if (s <= 0) return false;
  float inv = static_cast<float>(1.0 / std::sqrt(s));
  for (int i = 0; i < dim; ++i) v[i] *= inv;
  return true;
}

namespace {

float DotPortable(const float* a, const float* b, int dim) {
  // Eight independent sums let the compiler keep vector registers busy.
  float s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int i = 0;
  for (; i + 8 <= dim; i += 8)
    for (int k = 0; k < 8; ++k) s[k] += a[i + k] * b[i + k];
  float t = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
  for (; i < dim; ++i) t += a[i] * b[i];
  return t;
}

#if defined(__x86_64__)
// Four chains of eight fused multiply-adds: the build's baseline (x86-64,
// SSE2) has neither 256-bit lanes nor FMA, and hnswlib's own kernels are
// chosen at compile time (SSE here).
__attribute__((target("avx2,fma"))) float DotAvx2(const float* a, const float* b, int dim) {
  __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
  int i = 0;
  for (; i + 32 <= dim; i += 32) {
    s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), s0);
    s1 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 8), _mm256_loadu_ps(b + i + 8), s1);
    s2 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 16), _mm256_loadu_ps(b + i + 16), s2);
    s3 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 24), _mm256_loadu_ps(b + i + 24), s3);
  }
  for (; i + 8 <= dim; i += 8)
    s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), s0);
  const __m256 s = _mm256_add_ps(_mm256_add_ps(s0, s1), _mm256_add_ps(s2, s3));
  __m128 h = _mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps(s, 1));
  h = _mm_add_ps(h, _mm_movehl_ps(h, h));
  h = _mm_add_ss(h, _mm_shuffle_ps(h, h, 1));
  float t = _mm_cvtss_f32(h);
  for (; i < dim; ++i) t += a[i] * b[i];
  return t;
}
#endif

}  // namespace

DotFn DotFunction() {
#if defined(__x86_64__)
  static const DotFn f = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? DotAvx2 : DotPortable;
  }();
  return f;
#else
  return DotPortable;
#endif
}

float Dot(const float* a, const float* b, int dim) { return DotFunction()(a, b, dim); }

namespace {

constexpr char kLsaMagic[8] = {'L', 'G', 'L', 'S', 'A', 0, 0, 1};
struct LsaHeader {
  char magic[8];
  uint32_t dim;
  uint32_t terms;
  uint64_t train_docs;
  uint64_t strings_bytes;
  double lexical_weight;  // 0 in files written before the lexical part existed
  uint64_t reserved[3];
};
static_assert(sizeof(LsaHeader) == 64);

// Sparse rows: the training matrix.
struct Csr {
  size_t rows = 0, cols = 0;
  std::vector<uint64_t> start;
  std::vector<uint32_t> col;
  std::vector<float> val;
};

// Runs fn(begin, end) over [0, n) split across threads.
template <typename Fn>
void Parallel(size_t n, int threads, Fn&& fn) {
  threads = std::max(1, std::min<int>(threads, static_cast<int>(n / 1024 + 1)));
  std::vector<std::thread> ts;
  for (int t = 0; t < threads; ++t) {
    size_t b = n * t / threads, e = n * (t + 1) / threads;
    ts.emplace_back([&, b, e] { fn(b, e); });
  }
  for (auto& t : ts) t.join();
}

// Y (rows x l) = A X, X (cols x l), all row-major.
void MulA(const Csr& a, const std::vector<float>& x, size_t l, std::vector<float>* y, int threads) {
  y->assign(a.rows * l, 0.0f);
  Parallel(a.rows, threads, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) {
      float* yi = y->data() + i * l;
      for (uint64_t k = a.start[i]; k < a.start[i + 1]; ++k) {
        const float v = a.val[k];
        const float* xj = x.data() + static_cast<size_t>(a.col[k]) * l;
        for (size_t c = 0; c < l; ++c) yi[c] += v * xj[c];
      }
    }
  });
}

// Z (cols x l) = A^T Y, Y (rows x l).
void MulAt(const Csr& a, const std::vector<float>& y, size_t l, std::vector<float>* z,
           int threads) {
  int t = std::max(1, threads);
  std::vector<std::vector<float>> parts(t, std::vector<float>(a.cols * l, 0.0f));
  std::vector<std::thread> ts;
  for (int k = 0; k < t; ++k) {
    ts.emplace_back([&, k] {
      size_t b = a.rows * k / t, e = a.rows * (k + 1) / t;
      float* zp = parts[k].data();
      for (size_t i = b; i < e; ++i) {
        const float* yi = y.data() + i * l;
        for (uint64_t n = a.start[i]; n < a.start[i + 1]; ++n) {
          const float v = a.val[n];
          float* zj = zp + static_cast<size_t>(a.col[n]) * l;
          for (size_t c = 0; c < l; ++c) zj[c] += v * yi[c];
        }
      }
    });
  }
  for (auto& th : ts) th.join();
  *z = std::move(parts[0]);
  for (int k = 1; k < t; ++k)
    for (size_t i = 0; i < z->size(); ++i) (*z)[i] += parts[k][i];
}

// Gram matrix G = M^T M (l x l, double) of M (rows x l).
std::vector<double> Gram(const std::vector<float>& m, size_t rows, size_t l) {
  std::vector<double> g(l * l, 0.0);
  for (size_t i = 0; i < rows; ++i) {
    const float* r = m.data() + i * l;
    for (size_t p = 0; p < l; ++p) {
      double rp = r[p];
      if (rp == 0) continue;
      for (size_t q = p; q < l; ++q) g[p * l + q] += rp * r[q];
    }
  }
  for (size_t p = 0; p < l; ++p)
    for (size_t q = 0; q < p; ++q) g[p * l + q] = g[q * l + p];
  return g;
}

// Orthonormalizes the columns of M (rows x l) by Cholesky QR, twice.
void Orthonormalize(std::vector<float>* m, size_t rows, size_t l) {
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<double> g = Gram(*m, rows, l);
    double trace = 0;
    for (size_t p = 0; p < l; ++p) trace += g[p * l + p];
    double jitter = 1e-10 * (trace / l + 1e-30);
    // Cholesky: G = R^T R, R upper triangular.
    std::vector<double> r(l * l, 0.0);
    for (size_t j = 0; j < l; ++j) {
      double d = g[j * l + j] + jitter;
      for (size_t k = 0; k < j; ++k) d -= r[k * l + j] * r[k * l + j];
      d = d > 1e-300 ? std::sqrt(d) : 1e-150;
      r[j * l + j] = d;
      for (size_t i = j + 1; i < l; ++i) {
        double s = g[j * l + i];
        for (size_t k = 0; k < j; ++k) s -= r[k * l + j] * r[k * l + i];
        r[j * l + i] = s / d;
      }
    }
    // M <- M R^{-1}: solve row by row (x R = m).
    std::vector<double> x(l);
    for (size_t i = 0; i < rows; ++i) {
      float* row = m->data() + i * l;
      for (size_t j = 0; j < l; ++j) {
        double s = row[j];
        for (size_t k = 0; k < j; ++k) s -= x[k] * r[k * l + j];
        x[j] = s / r[j * l + j];
      }
      for (size_t j = 0; j < l; ++j) row[j] = static_cast<float>(x[j]);
    }
  }
}

// Eigen-decomposition of a symmetric l x l matrix by cyclic Jacobi: returns
// eigenvalues (descending) and eigenvectors as columns of v (row-major).
void SymmetricEigen(std::vector<double> a, size_t l, std::vector<double>* values,
                    std::vector<double>* vectors) {
  std::vector<double> v(l * l, 0.0);
  for (size_t i = 0; i < l; ++i) v[i * l + i] = 1;
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0;
    for (size_t p = 0; p < l; ++p)
      for (size_t q = p + 1; q < l; ++q) off += a[p * l + q] * a[p * l + q];
    if (off < 1e-22) break;
    for (size_t p = 0; p < l; ++p) {
      for (size_t q = p + 1; q < l; ++q) {
        double apq = a[p * l + q];
        if (std::abs(apq) < 1e-300) continue;
        double theta = (a[q * l + q] - a[p * l + p]) / (2 * apq);
        double t = (theta >= 0 ? 1 : -1) / (std::abs(theta) + std::sqrt(theta * theta + 1));
        double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (size_t k = 0; k < l; ++k) {
          double akp = a[k * l + p], akq = a[k * l + q];
          a[k * l + p] = c * akp - s * akq;
          a[k * l + q] = s * akp + c * akq;
        }
        for (size_t k = 0; k < l; ++k) {
          double apk = a[p * l + k], aqk = a[q * l + k];
          a[p * l + k] = c * apk - s * aqk;
          a[q * l + k] = s * apk + c * aqk;
        }
        for (size_t k = 0; k < l; ++k) {
          double vkp = v[k * l + p], vkq = v[k * l + q];
          v[k * l + p] = c * vkp - s * vkq;
          v[k * l + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  std::vector<size_t> order(l);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](size_t x, size_t y) { return a[x * l + x] > a[y * l + y]; });
  values->resize(l);
  vectors->assign(l * l, 0.0);
  for (size_t j = 0; j < l; ++j) {
    (*values)[j] = a[order[j] * l + order[j]];
    for (size_t k = 0; k < l; ++k) (*vectors)[k * l + j] = v[k * l + order[j]];
  }
}

// Tokenizes documents into (term, tf) lists with one shared vocabulary.
// Memory is bounded whatever the corpus's vocabulary (a multilingual corpus
// has tens of millions of distinct words, most of them used once): past
// `max_tracked` distinct stems the rarest so far are dropped with their
// postings (lossy counting; the vocabulary keeps only terms with df >= 2
// anyway), and the word -> stem cache is cleared past as many words.
class Corpus {
 public:
  explicit Corpus(size_t max_tracked) : max_tracked_(std::max<size_t>(max_tracked, 1024)) {}

  void Add(std::string_view text) {
    tids_.clear();
    if (words_.size() >= max_tracked_) {
      words_ = StringInterner();
      word_term_.clear();
    }
    ForEachWord(text, [&](std::string_view w) {
      bool added = false;
      uint32_t wid = words_.Intern(w, &added);
      if (added)
        word_term_.push_back(w.size() >= 2 && !IsStopword(w) ? stems_.Intern(Stem(w)) : kNone);
      if (word_term_[wid] != kNone) tids_.push_back(word_term_[wid]);
    });
    std::sort(tids_.begin(), tids_.end());
    doc_start_.push_back(term_.size());
    for (size_t i = 0; i < tids_.size();) {
      size_t j = i;
      while (j < tids_.size() && tids_[j] == tids_[i]) ++j;
      term_.push_back(tids_[i]);
      tf_.push_back(static_cast<uint16_t>(std::min<size_t>(j - i, 65535)));
      i = j;
    }
    if (stems_.size() > max_tracked_) Prune();
  }
  size_t docs() const { return doc_start_.size(); }
  size_t dropped() const { return dropped_; }

  // Builds the weighted, row-normalized matrix over the chosen vocabulary.
  void Build(size_t max_terms, Csr* a, std::vector<std::string>* vocab, std::vector<float>* idf) {
    const double n = static_cast<double>(docs());
    doc_start_.push_back(term_.size());  // closes the last document's range
    std::vector<uint32_t> df(stems_.size(), 0);
    for (uint32_t t : term_) ++df[t];
    std::vector<uint32_t> cand;
    for (uint32_t t = 0; t < df.size(); ++t)
      if (df[t] >= 2) cand.push_back(t);
    std::sort(cand.begin(), cand.end(), [&](uint32_t x, uint32_t y) {
      return df[x] != df[y] ? df[x] > df[y] : stems_.str(x) < stems_.str(y);
    });
    if (cand.size() > max_terms) cand.resize(max_terms);
    std::sort(cand.begin(), cand.end(),
              [&](uint32_t x, uint32_t y) { return stems_.str(x) < stems_.str(y); });
    std::vector<int64_t> col_of(stems_.size(), -1);
    vocab->clear();
    idf->clear();
    for (size_t c = 0; c < cand.size(); ++c) {
      col_of[cand[c]] = static_cast<int64_t>(c);
      vocab->emplace_back(stems_.str(cand[c]));
      idf->push_back(static_cast<float>(std::log((1 + n) / (1 + df[cand[c]])) + 1));
    }
    a->rows = 0;
    a->cols = cand.size();
    a->start = {0};
    size_t nonzeros = 0;
    for (uint32_t t : term_) nonzeros += col_of[t] >= 0;
    a->col.reserve(nonzeros);
    a->val.reserve(nonzeros);
    a->start.reserve(docs() + 1);
    for (size_t d = 0; d + 1 < doc_start_.size(); ++d) {
      size_t before = a->col.size();
      double norm = 0;
      for (uint64_t k = doc_start_[d]; k < doc_start_[d + 1]; ++k) {
        int64_t c = col_of[term_[k]];
        if (c < 0) continue;
        float w = static_cast<float>((1 + LogOfCount(tf_[k])) * (*idf)[c]);
        a->col.push_back(static_cast<uint32_t>(c));
        a->val.push_back(w);
        norm += static_cast<double>(w) * w;
      }
      if (a->col.size() == before) continue;
      float inv = static_cast<float>(1 / std::sqrt(norm));
      for (size_t k = before; k < a->col.size(); ++k) a->val[k] *= inv;
      a->start.push_back(a->col.size());
      ++a->rows;
    }
    *this = Corpus(max_tracked_);  // the matrix holds what training needs
  }

 private:
  // Drops the stems of the lowest document frequencies so far, keeping at
  // most half of max_tracked_, and their postings; the word cache with them.
  void Prune() {
    std::vector<uint32_t> df(stems_.size(), 0);
    for (uint32_t t : term_) ++df[t];
    std::vector<size_t> at_least(2, 0);  // at_least[f]: stems with df >= f
    for (uint32_t f : df) {
      if (f >= at_least.size()) at_least.resize(f + 1, 0);
      ++at_least[f];
    }
    for (size_t f = at_least.size() - 1; f-- > 0;) at_least[f] += at_least[f + 1];
    uint32_t min_df = 2;
    while (min_df < at_least.size() && at_least[min_df] > max_tracked_ / 2) ++min_df;
    StringInterner kept;
    std::vector<uint32_t> remap(stems_.size(), kNone);
    for (uint32_t t = 0; t < stems_.size(); ++t)
      if (df[t] >= min_df) remap[t] = kept.Intern(stems_.str(t));
    dropped_ += stems_.size() - kept.size();
    stems_ = std::move(kept);
    size_t out = 0;
    for (size_t d = 0; d < doc_start_.size(); ++d) {
      uint64_t b = doc_start_[d], e = d + 1 < doc_start_.size() ? doc_start_[d + 1] : term_.size();
      doc_start_[d] = out;
      for (uint64_t k = b; k < e; ++k)
        if (remap[term_[k]] != kNone) {
          term_[out] = remap[term_[k]];
          tf_[out++] = tf_[k];
        }
    }
    term_.resize(out);
    tf_.resize(out);
    words_ = StringInterner();
    word_term_.clear();
  }

  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  size_t max_tracked_, dropped_ = 0;
  StringInterner words_, stems_;
  std::vector<uint32_t> word_term_, tids_, term_;
  std::vector<uint16_t> tf_;
  std::vector<uint64_t> doc_start_;
};

Status TrainFromCorpus(Corpus& corpus, const LsaTrainOptions& o, const std::string& path,
                       const FileIdentity& id, LsaTrainStats* stats) {
  auto t0 = std::chrono::steady_clock::now();
  Csr a;
  std::vector<std::string> vocab;
  std::vector<float> idf;
  stats->dropped_terms = corpus.dropped();
  corpus.Build(o.max_terms, &a, &vocab, &idf);
  const size_t dim = static_cast<size_t>(o.dim);
  if (a.rows < 2 || a.cols < 2)
    return Status::IoError(
        "too little text to train the embedding model (need a few papers with "
        "titles or abstracts)");
  const size_t l = std::min(dim + static_cast<size_t>(o.oversample), std::min(a.rows, a.cols));
  const size_t k = std::min(dim, l);
  // Gaussian sketch of the row space, refined by power iterations.
  std::mt19937_64 rng(o.seed);
  std::normal_distribution<float> gauss(0.0f, 1.0f);
  std::vector<float> omega(a.cols * l);
  for (float& x : omega) x = gauss(rng);
  std::vector<float> y, z;
  MulA(a, omega, l, &y, o.threads);
  omega = decltype(omega)();
  Orthonormalize(&y, a.rows, l);
  for (int it = 0; it < o.power_iterations; ++it) {
    MulAt(a, y, l, &z, o.threads);
    Orthonormalize(&z, a.cols, l);
    MulA(a, z, l, &y, o.threads);
    Orthonormalize(&y, a.rows, l);
  }
  MulAt(a, y, l, &z, o.threads);  // z = A^T Q = B^T (cols x l)
  std::vector<double> values, vecs;
  SymmetricEigen(Gram(z, a.cols, l), l, &values, &vecs);
  // Right singular vectors: V = B^T U / sigma (cols x k).
  std::vector<float> w(a.cols * dim, 0.0f);
  for (size_t j = 0; j < k; ++j) {
    double sigma = std::sqrt(std::max(values[j], 1e-30));
    for (size_t t = 0; t < a.cols; ++t) {
      const float* zt = z.data() + t * l;
      double s = 0;
      for (size_t c = 0; c < l; ++c) s += zt[c] * vecs[c * l + j];
      w[t * dim + j] = static_cast<float>(s / sigma);
    }
  }
  // Model file.
  LsaHeader h{};
  std::memcpy(h.magic, kLsaMagic, 8);
  h.dim = static_cast<uint32_t>(dim);
  h.terms = static_cast<uint32_t>(vocab.size());
  h.train_docs = a.rows;
  h.lexical_weight = o.lexical_weight;
  std::string strings;
  std::vector<uint64_t> offsets;
  for (const auto& t : vocab) {
    offsets.push_back(strings.size());
    strings += t;
  }
  offsets.push_back(strings.size());
  h.strings_bytes = strings.size();
  std::string file(reinterpret_cast<const char*>(&h), sizeof h);
  file.append(reinterpret_cast<const char*>(offsets.data()), offsets.size() * 8);
  file.append(reinterpret_cast<const char*>(idf.data()), idf.size() * 4);
  file.append(reinterpret_cast<const char*>(w.data()), w.size() * 4);
  file += strings;
  Status st = WriteCheckedFile(path, id, file);
  stats->docs = a.rows;
  stats->terms = vocab.size();
  stats->nonzeros = a.col.size();
  stats->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return st;
}

}  // namespace

Status TrainLsaOnTexts(const std::vector<std::string>& texts, const LsaTrainOptions& options,
                       const std::string& path, LsaTrainStats* stats, const FileIdentity& id) {
  Corpus corpus(options.max_tracked_terms);
  for (const auto& t : texts) corpus.Add(t);
  return TrainFromCorpus(corpus, options, path, id, stats);
}

Status TrainLsa(Store* store, const LsaTrainOptions& options, const std::string& path,
                const FileIdentity& id, LsaTrainStats* stats) {
  try {
    Corpus corpus(options.max_tracked_terms);
    // Every step-th paper, at most max_docs of them.
    int64_t n = store->PaperCount();
    const auto docs = static_cast<int64_t>(std::max<size_t>(1, options.max_docs));
    int64_t step = std::max<int64_t>(1, (n + docs - 1) / docs);
    std::string text;
    store->ForEachPaperText(
        [&](int64_t, std::string_view title, std::string_view abstract) {
          text.assign(title);
          text += ". ";
          text += abstract;
          corpus.Add(text);
        },
        step);
    return TrainFromCorpus(corpus, options, path, id, stats);
  } catch (const StatusError& e) {
    return e.status();
  }
}

Status LsaModel::Open(const std::string& path, const FileIdentity& id) {
  LITGRAPH_RETURN_IF_ERROR(file_.Open(path, id));
  LsaHeader h;
  const uint8_t* hp = file_.Read(0, sizeof h);
  if (!hp) return Status::Corruption(path + ": truncated model");
  std::memcpy(&h, hp, sizeof h);
  if (std::memcmp(h.magic, kLsaMagic, 8) != 0)
    return Status::Corruption(path + ": not a litgraph model");
  const uint64_t size = file_.size();
  if (h.dim == 0 || h.dim > 65536 || h.terms > size / 8 || h.strings_bytes > size)
    return Status::Corruption(path + ": corrupt model");
  const uint64_t need = sizeof h + (uint64_t{h.terms} + 1) * 8 + uint64_t{h.terms} * 4 +
                        uint64_t{h.terms} * h.dim * 4 + h.strings_bytes;
  if (size != need) return Status::Corruption(path + ": corrupt model");
  dim_ = static_cast<int>(h.dim);
  terms_ = h.terms;
  train_docs_ = h.train_docs;
  lexical_weight_ = std::isfinite(h.lexical_weight) ? std::clamp(h.lexical_weight, 0.0, 1.0) : 0.0;
  offsets_at_ = sizeof h;
  idf_at_ = offsets_at_ + (uint64_t{terms_} + 1) * 8;
  vectors_at_ = idf_at_ + uint64_t{terms_} * 4;
  strings_at_ = vectors_at_ + uint64_t{terms_} * dim_ * 4;
  return Status::Ok();
}

std::string LsaModel::model_id() const {
  std::call_once(id_once_, [this] {
    // Identity: a hash over the header and a sample of what follows.
    const uint64_t sample = std::min<uint64_t>(file_.size(), 1 << 20);
    const uint8_t* p = file_.Read(0, sample);
    id_ = p ? fmt::format("lsa:{:016x}", StringInterner::Hash(std::string_view(
                                             reinterpret_cast<const char*>(p), sample)))
            : "lsa:damaged";
  });
  return id_;
}

int64_t LsaModel::Find(std::string_view term) const {
  return FindSortedString(file_, offsets_at_, strings_at_, terms_, term);
}

float LsaModel::Idf(uint32_t term) const {
  const uint8_t* p = file_.Read(idf_at_ + uint64_t{term} * 4, 4);
  float v = 0;
  if (p) std::memcpy(&v, p, 4);
  return v;
}

const float* LsaModel::TermVector(uint32_t term) const {
  const uint64_t bytes = static_cast<uint64_t>(dim_) * 4;
  return reinterpret_cast<const float*>(file_.Read(vectors_at_ + term * bytes, bytes));
}

std::vector<std::pair<uint32_t, float>> LsaModel::TermWeights(std::string_view text,
                                                              WordCache* cache,
                                                              bool unknown) const {
  // The words AnalyzeTerms keeps, as term ids (unknown words hashed above the
  // vocabulary), each word stemmed and looked up once per cache.
  std::vector<uint32_t>& ids = cache->ids_;
  ids.clear();
  if (cache->terms_.size() > (1u << 20)) cache->terms_.clear();  // bounded
  ForEachWord(text, [&](std::string_view w) {
    const int64_t t = CachedTerm(w, cache);
    if (t >= 0 && (unknown || t < terms_)) ids.push_back(static_cast<uint32_t>(t));
  });
  std::sort(ids.begin(), ids.end());
  // Words the model has not seen are rarer than any it kept: the idf of a
  // word in one training document.
  const float unknown_idf =
      static_cast<float>(std::log((1.0 + static_cast<double>(train_docs_)) / 2.0) + 1);
  std::vector<std::pair<uint32_t, float>> out;
  for (size_t i = 0; i < ids.size();) {
    size_t j = i;
    while (j < ids.size() && ids[j] == ids[i]) ++j;
    const double tf = 1 + LogOfCount(j - i);
    out.emplace_back(ids[i],
                     static_cast<float>(tf * (ids[i] < terms_ ? Idf(ids[i]) : unknown_idf)));
    i = j;
  }
  return out;
}

int64_t LsaModel::CachedTerm(std::string_view word, WordCache* cache) const {
  auto it = cache->terms_.find(word);
  if (it != cache->terms_.end()) return it->second;
  int64_t t = -2;
  if (word.size() >= 2 && !IsStopword(word)) {
    const std::string stem = Stem(word);
    t = Find(stem);
    if (t < 0) t = UnknownTermId(stem);
  }
  cache->terms_.emplace(std::string(word), t);
  return t;
}

uint32_t LsaModel::UnknownTermId(std::string_view term) const {
  // Above every vocabulary id; 2^31 slots make collisions negligible.
  return terms_ + static_cast<uint32_t>(XXH3_64bits(term.data(), term.size()) & 0x7fffffffu);
}

bool LsaModel::EmbedOne(std::string_view text, float* out, WordCache* cache) const {
  WordCache own;
  std::fill(out, out + dim_, 0.0f);
  std::vector<std::pair<uint32_t, float>> tw = TermWeights(text, cache ? cache : &own, false);
  for (const auto& [t, w] : tw) {
    const float* v = TermVector(t);
    if (!v) return false;  // damaged: status() says so
    for (int d = 0; d < dim_; ++d) out[d] += w * v[d];
  }
  return !tw.empty() && Normalize(out, dim_);
}

SparseVector LsaModel::EmbedSparse(std::string_view text, WordCache* cache) const {
  WordCache own;
  SparseVector out;
  double norm = 0;
  for (const auto& [t, w] : TermWeights(text, cache ? cache : &own, true)) {
    out.terms.push_back(t);
    out.weights.push_back(w);
    norm += static_cast<double>(w) * w;
  }
  const float inv = norm > 0 ? static_cast<float>(1 / std::sqrt(norm)) : 0.0f;
  for (float& w : out.weights) w *= inv;
  return out;
}

float SparseDot(const SparseVector& a, const SparseVector& b) {
  float s = 0;
  size_t i = 0, j = 0;
  while (i < a.terms.size() && j < b.terms.size()) {
    if (a.terms[i] < b.terms[j])
      ++i;
    else if (a.terms[i] > b.terms[j])
      ++j;
    else
      s += a.weights[i++] * b.weights[j++];
  }
  return s;
}

Status LsaModel::Embed(const std::vector<std::string>& texts, std::vector<float>* out) {
  out->assign(texts.size() * static_cast<size_t>(dim_), 0.0f);
  WordCache cache;
  for (size_t i = 0; i < texts.size(); ++i) EmbedOne(texts[i], out->data() + i * dim_, &cache);
  return status();
}

HttpEmbedder::HttpEmbedder(HttpEmbedOptions o) : o_(std::move(o)), client_(o_.http) {}

Status HttpEmbedder::Probe() {
  std::vector<float> v;
  return Embed({"litgraph"}, &v);
}

Status HttpEmbedder::Embed(const std::vector<std::string>& texts, std::vector<float>* out) {
  using nlohmann::json;
  out->clear();
  if (texts.empty()) return Status::Ok();
  std::vector<std::string> bodies;
  for (size_t i = 0; i < texts.size(); i += o_.batch) {
    json input = json::array();
    for (size_t j = i; j < texts.size() && j < i + o_.batch; ++j) input.push_back(texts[j]);
    bodies.push_back(json({{"model", o_.model}, {"input", input}})
                         .dump(-1, ' ', false, json::error_handler_t::replace));
  }
  std::vector<std::vector<std::vector<float>>> parsed(bodies.size());
  std::string url = EndpointUrl(o_.url, "/embeddings");
  auto results =
      client_.PostAll(url, bodies, [&](size_t b, const std::string& body, std::string* why) {
        json r = json::parse(body, nullptr, false);
        if (r.is_discarded() || !r.contains("data") || !r["data"].is_array())
          return *why = "embedding response lacks a data array", false;
        size_t want = std::min(o_.batch, texts.size() - b * o_.batch);
        if (r["data"].size() != want)
          return *why = "embedding response has the wrong number of vectors", false;
        std::vector<std::vector<float>> vecs(want);
        for (const auto& item : r["data"]) {
          size_t idx = item.contains("index") && item["index"].is_number_integer()
                           ? item["index"].get<size_t>()
                           : 0;
          if (idx >= want || !item.contains("embedding") || !item["embedding"].is_array())
            return *why = "malformed embedding item", false;
          for (const auto& x : item["embedding"]) {
            if (!x.is_number()) return *why = "non-numeric embedding value", false;
            vecs[idx].push_back(x.get<float>());
          }
        }
        size_t d = vecs[0].size();
        for (const auto& v : vecs)
          if (v.empty() || v.size() != d) return *why = "embeddings of different dimensions", false;
        parsed[b] = std::move(vecs);
        return true;
      });
  for (const auto& r : results)
    if (!r.error.empty())
      return Status::IoError(fmt::format("embedding backend {}: {}", url, r.error));
  int d = static_cast<int>(parsed[0][0].size());
  if (dim_ == 0) dim_ = d;
  if (d != dim_)
    return Status::IoError(
        fmt::format("embedding backend returned {} dimensions, expected {}", d, dim_));
  out->assign(texts.size() * static_cast<size_t>(dim_), 0.0f);
  size_t row = 0;
  for (auto& batch : parsed)
    for (auto& v : batch) {
      std::copy(v.begin(), v.end(), out->begin() + row * dim_);
      Normalize(out->data() + row * dim_, dim_);
      ++row;
    }
  return Status::Ok();
}

}  // namespace litgraph
