// litgraph-gen-works: a deterministic synthetic OpenAlex works corpus.
//
// Reads nothing. Writes N works to stdout (or --out FILE), one compact
// OpenAlex-shaped JSON object per line, and a one-line summary to stderr.
// Same N and seed give byte-identical output on every platform: sampling uses
// its own PRNG (xoshiro256**), alias tables with integer thresholds, and a
// log/exp built from + - * / only -- never <random> or libm's transcendental
// functions, whose results differ between standard libraries.
//
//   litgraph-gen-works --works N [--seed S] [--profile default|hubs]
//                      [--out FILE|-] [--gzip-free]
//
// Exit status: 0 success, 1 I/O error, 2 usage error.
//
// Two profiles. "default" (below) is the corpus the benchmarks were tuned on;
// its output never changes. "hubs" is deliberately different on every axis
// (see the hubs sections further down and bench/gen/README.md): no English
// function word anywhere in titles or abstracts, 15 synthetic languages in 8
// scripts (zh and ja without spaces), abstracts from none to 8,000 words,
// ~43 references per work with 23% none and some 500-3,000, 28-29% dangling,
// citation hubs cited by tens of thousands at 1M, collaborations of
// 120-5,000 authors on ~2% of works, conflated author ids with ~20,000 works,
// authors without ids, 2,000 topics, N/100 venues with mega-journals, ids
// that cross 2^32. Same discipline: own PRNG, alias tables, DetLog/DetExp.
//
// The default world (scaled with N):
//   - 4 domains, the 26 real OpenAlex fields, 252 real subfield names, 4,500
//     topics; a topic always has the same subfield, field and domain.
//   - Text: abstracts (80-250 words) are built from ~50 sentence templates
//     that carry the English function words at realistic rates ("the" ~7%,
//     "of" ~4.5%, "and" ~3.5%); their slots take Zipf-weighted academic nouns,
//     adjectives and verbs, and the topic's own vocabulary: 50-200 terms (real
//     terms of the field, e.g. "protein", "graph", plus ~1,500 generated
//     stems per field such as "photocatalytic" or "cytomorphic", shared by
//     the topics of a field and subfield), recurring multi-word phrases (real
//     ones such as "graph neural network" and generated ones), and a per-topic
//     long tail of generated rare terms. Keywords are the work's phrases;
//     titles are 6-15 Title Case words from the same vocabulary and are unique
//     except a few generic book-chapter titles ("Introduction").
//   - Citations: works are numbered in publication order (1990-2025, growing
//     ~5.5% a year). A reference goes to an earlier work of the same topic
//     (most often), subfield, field or anywhere: 80% by preferential
//     attachment (probability proportional to in-degree so far), 20% by a
//     recency-biased pick where the fittest of four candidates wins (a fixed
//     per-work quality), which leaves ~17% of works uncited. ~3% go to slightly
//     later works of the same topic (so the graph has cycles) and 10% dangle
//     (ids below W1000000000, not in the set). The graph is built in a first
//     pass so cited_by_count is the final in-set in-degree times a factor in
//     [1, 3] plus a few external citations.
//   - Authors: 0.9 N, each with a home subfield, a home institution (N/50
//     institutions), a name from the institution's country, and a lab of 3-12
//     collaborators; productivity is power-law (Lotka-like, some authors
//     have hundreds of works); teams are drawn mostly from circles, so
//     coauthor pairs recur. One work in 5,000 has 100-300 authors.
//
// The JSON writer is hand-rolled although the style guide asks for the JSON
// library: this file must stay dependency-free and write ~7.6 GB in well under
// a minute, and every string still goes through one escaping routine (JsonStr).

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>  // frexp, ldexp, floor: exact operations, deterministic
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#ifdef __clang__
// Fused multiply-add would change rounding and so the output on FMA targets.
#pragma clang fp contract(off)
#endif

namespace {

// ---------------------------------------------------------------------------
// Deterministic math.

constexpr double kLn2 = 0.693147180559945309417232121458;

double DetLog(double x) {
  int e = 0;
  double m = std::frexp(x, &e);  // x = m * 2^e, m in [0.5, 1)
  if (m < 0.70710678118654752440) {
    m *= 2;
    --e;
  }
  const double z = (m - 1) / (m + 1);  // |z| < 0.172
  const double z2 = z * z;
  double term = z, sum = 0;
  for (int k = 1; k <= 31; k += 2) {
    sum += term / k;
    term *= z2;
  }
  return 2 * sum + e * kLn2;
}

double DetExp(double x) {
  if (x < -700) return 0;
  if (x > 700) x = 700;
  const double k = std::floor(x / kLn2 + 0.5);
  const double r = x - k * kLn2;  // |r| <= 0.35
  double term = 1, sum = 1;
  for (int n = 1; n <= 22; ++n) {
    term *= r / n;
    sum += term;
  }
  return std::ldexp(sum, static_cast<int>(k));
}

double DetPow(double b, double e) { return DetExp(e * DetLog(b)); }

// ---------------------------------------------------------------------------
// Random numbers.

uint64_t Mix(uint64_t z) {  // splitmix64 finalizer: a good stateless hash
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

uint64_t Mix2(uint64_t a, uint64_t b) { return Mix(a ^ Mix(b + 0x632BE59BD9B4E019ULL)); }

class Rng {  // xoshiro256**
 public:
  explicit Rng(uint64_t seed) {
    for (auto& s : s_) {
      seed += 0x9E3779B97F4A7C15ULL;
      s = Mix(seed);
    }
  }
  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, n); n < 2^32. Lemire's multiply-shift (bias < 2^-32).
  uint32_t Below(uint32_t n) {
    return static_cast<uint32_t>(((Next() >> 32) * static_cast<uint64_t>(n)) >> 32);
  }
  uint64_t Below64(uint64_t n) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(Next()) * n) >> 64);
  }
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }  // [0,1)
  bool Chance(double p) { return Unit() < p; }
  // Approximately standard normal (Irwin-Hall of 4 uniforms), bounded +-3.46.
  // Draws are sequenced one statement at a time: the order of evaluation of
  // operands and function arguments differs between compilers.
  double Normal() {
    double sum = Unit();
    sum += Unit();
    sum += Unit();
    sum += Unit();
    return (sum - 2.0) * 1.7320508075688772;
  }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

// Alias tables (Vose) for O(1) sampling from fixed discrete distributions.
// Several groups share flat arrays; group g holds entries [off[g], off[g+1]).
class MultiAlias {
 public:
  MultiAlias() { off_.push_back(0); }
  // Appends a group and returns its index. Zero total weight samples uniformly.
  uint32_t Add(const std::vector<double>& w) {
    const size_t n = w.size(), base = thresh_.size();
    thresh_.resize(base + n, 0xFFFFFFFFu);
    alias_.resize(base + n);
    for (size_t k = 0; k < n; ++k) alias_[base + k] = static_cast<uint32_t>(k);
    double total = 0;
    for (double x : w) total += x;
    if (n > 0 && total > 0) {
      std::vector<double> p(n);
      std::vector<uint32_t> small, large;
      for (size_t k = 0; k < n; ++k) {
        p[k] = w[k] * static_cast<double>(n) / total;
        (p[k] < 1.0 ? small : large).push_back(static_cast<uint32_t>(k));
      }
      while (!small.empty() && !large.empty()) {
        const uint32_t s = small.back(), l = large.back();
        small.pop_back();
        thresh_[base + s] = static_cast<uint32_t>(p[s] * 4294967296.0);
        alias_[base + s] = l;
        p[l] = (p[l] + p[s]) - 1.0;
        if (p[l] < 1.0) {
          large.pop_back();
          small.push_back(l);
        }
      }
    }
    off_.push_back(static_cast<uint32_t>(thresh_.size()));
    return static_cast<uint32_t>(off_.size() - 2);
  }
  uint32_t Size(uint32_t g) const { return off_[g + 1] - off_[g]; }
  // Returns an index local to group g; the group must not be empty.
  uint32_t Sample(uint32_t g, Rng& rng) const {
    const uint32_t base = off_[g], n = off_[g + 1] - base;
    const uint64_t x = rng.Next();
    const uint32_t col = static_cast<uint32_t>(((x >> 32) * n) >> 32);
    return static_cast<uint32_t>(x) < thresh_[base + col] ? col : alias_[base + col];
  }

 private:
  std::vector<uint32_t> off_, thresh_, alias_;
};

std::vector<double> ZipfWeights(size_t n, double s, double q) {
  std::vector<double> w(n);
  for (size_t k = 0; k < n; ++k) w[k] = 1.0 / DetPow(static_cast<double>(k) + 1.0 + q, s);
  return w;
}

// Continuous Zipf-like draw in [0, n): density proportional to (x+1)^-s, s !=
// 1; top must be ZipfTop(n, s).
double ZipfTop(uint64_t n, double s) { return DetPow(static_cast<double>(n) + 1.0, 1.0 - s); }
uint64_t ZipfDraw(Rng& rng, uint64_t n, double s, double top) {
  const double a = 1.0 - s;
  const double u = rng.Unit();
  const double x = DetPow(1.0 + u * (top - 1.0), 1.0 / a) - 1.0;
  uint64_t k = x <= 0 ? 0 : static_cast<uint64_t>(x);
  return k >= n ? n - 1 : k;
}

// ---------------------------------------------------------------------------
// Output: one big buffer, flushed with fwrite.

class Out {
 public:
  explicit Out(FILE* f) : f_(f), buf_(new char[cap_]) {}
  ~Out() { delete[] buf_; }
  Out(const Out&) = delete;
  Out& operator=(const Out&) = delete;

  bool Flush() {
    if (n_ > 0 && std::fwrite(buf_, 1, n_, f_) != n_) ok_ = false;
    bytes_ += n_;
    n_ = 0;
    return ok_;
  }
  bool ok() const { return ok_; }
  uint64_t bytes() const { return bytes_ + n_; }

  void Ensure(size_t n) {
    if (n_ + n > cap_) Flush();
    if (n > cap_) Grow(n);
  }
  void Raw(const char* p, size_t n) {
    Ensure(n);
    std::memcpy(buf_ + n_, p, n);
    n_ += n;
  }
  void Raw(std::string_view s) { Raw(s.data(), s.size()); }
  template <size_t K>
  void Lit(const char (&s)[K]) {
    Raw(s, K - 1);
  }
  void Ch(char c) {
    Ensure(1);
    buf_[n_++] = c;
  }
  void U64(uint64_t v) {
    char tmp[24];
    int k = 0;
    do {
      tmp[k++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v);
    Ensure(k);
    while (k) buf_[n_++] = tmp[--k];
  }
  // Fixed-point value v/10^4 in [0, 1], printed like Python would ("0.9969",
  // "0.5", "1.0").
  void Frac4(uint32_t v) {
    if (v >= 10000) {
      Lit("1.0");
      return;
    }
    char d[4] = {static_cast<char>('0' + v / 1000), static_cast<char>('0' + v / 100 % 10),
                 static_cast<char>('0' + v / 10 % 10), static_cast<char>('0' + v % 10)};
    int k = 4;
    while (k > 1 && d[k - 1] == '0') --k;
    Lit("0.");
    Raw(d, k);
  }
  void Bool(bool b) {
    if (b)
      Lit("true");
    else
      Lit("false");
  }
  void Null() { Lit("null"); }
  // A JSON string: quotes, backslashes and control characters escaped; UTF-8
  // passes through.
  void JsonStr(std::string_view s) {
    Ensure(s.size() * 6 + 2);
    char* p = buf_ + n_;
    *p++ = '"';
    for (unsigned char c : s) {
      if (c >= 0x20 && c != '"' && c != '\\') {
        *p++ = static_cast<char>(c);
      } else {
        *p++ = '\\';
        switch (c) {
          case '"':
            *p++ = '"';
            break;
          case '\\':
            *p++ = '\\';
            break;
          case '\n':
            *p++ = 'n';
            break;
          case '\t':
            *p++ = 't';
            break;
          case '\r':
            *p++ = 'r';
            break;
          default: {
            static const char kHex[] = "0123456789abcdef";
            *p++ = 'u';
            *p++ = '0';
            *p++ = '0';
            *p++ = kHex[c >> 4];
            *p++ = kHex[c & 15];
          }
        }
      }
    }
    *p++ = '"';
    n_ = static_cast<size_t>(p - buf_);
  }
  // "prefix<number>" as a JSON string, e.g. "https://openalex.org/W1000000007".
  template <size_t K>
  void IdStr(const char (&prefix)[K], uint64_t v) {
    Ensure(K + 22);
    buf_[n_++] = '"';
    std::memcpy(buf_ + n_, prefix, K - 1);  // constant size: inlined
    n_ += K - 1;
    U64(v);
    buf_[n_++] = '"';
  }

 private:
  void Grow(size_t n) {
    char* b = new char[n];
    std::memcpy(b, buf_, n_);
    delete[] buf_;
    buf_ = b;
    cap_ = n;
  }
  FILE* f_;
  size_t cap_ = size_t{8} << 20;
  char* buf_;
  size_t n_ = 0;
  uint64_t bytes_ = 0;
  bool ok_ = true;
};

// ---------------------------------------------------------------------------
// Static data. Field and subfield names and ids are OpenAlex's (Scopus ASJC).

const char* const kDomains[] = {"", "Life Sciences", "Social Sciences", "Physical Sciences",
                                "Health Sciences"};

struct FieldDef {
  int id;
  int domain;
  double weight;  // relative share of works
  const char* name;
  const char* words;    // real single technical terms, space separated
  const char* phrases;  // real technical phrases, '|' separated
};

const FieldDef kFields[] = {
    {11, 1, 1.0, "Agricultural and Biological Sciences",
     "crop yield soil plant species biodiversity habitat forest seed root leaf "
     "nitrogen irrigation "
     "wheat maize rice cultivar livestock grazing pollination insect pest "
     "herbivore phenology "
     "drought fertilizer photosynthesis canopy biomass germination rhizosphere "
     "breeding genotype "
     "phenotype foraging predator ecosystem population agronomic horticultural "
     "fisheries",
     "crop yield|soil organic carbon|plant growth|species richness|habitat "
     "fragmentation|nitrogen "
     "fertilization|drought stress|seed germination|insect pest "
     "management|pollinator "
     "decline|forest biomass|grain quality|root architecture|species "
     "distribution model"},
    {12, 2, 0.5, "Arts and Humanities",
     "narrative historical medieval literary discourse philosophy ethics "
     "aesthetics poetry novel "
     "archive manuscript religion theology linguistic semantics syntax grammar "
     "translation "
     "rhetoric identity memory colonial modernity cultural heritage museum "
     "music performance "
     "visual painting renaissance epistemology ontology metaphysics moral "
     "interpretation textual "
     "authorship genre",
     "cultural heritage|literary theory|moral philosophy|historical "
     "narrative|second language "
     "acquisition|religious identity|colonial archive|visual "
     "culture|philosophy of mind|semantic "
     "change|oral history|digital humanities"},
    {13, 1, 1.6, "Biochemistry, Genetics and Molecular Biology",
     "protein gene genome expression transcription enzyme mutation chromatin "
     "DNA RNA sequencing "
     "kinase receptor signaling pathway cell apoptosis methylation ribosome "
     "mitochondrial peptide "
     "ligand binding folding phosphorylation transcriptome proteomic metabolic "
     "embryonic stem "
     "differentiation tumor oncogene CRISPR allele locus epigenetic variant "
     "polymorphism membrane",
     "gene expression|protein structure prediction|DNA methylation|signal "
     "transduction|single-cell "
     "RNA sequencing|genome-wide association study|stem cell "
     "differentiation|protein-protein "
     "interaction|cell cycle regulation|mitochondrial "
     "dysfunction|transcription factor "
     "binding|CRISPR-Cas9 genome editing|oxidative stress|tumor "
     "microenvironment"},
    {14, 2, 0.7, "Business, Management and Accounting",
     "firm corporate governance management innovation strategy marketing "
     "consumer brand "
     "entrepreneurship accounting audit disclosure earnings supply chain "
     "organizational "
     "leadership employee stakeholder tourism hospitality customer "
     "satisfaction loyalty "
     "competitive advantage knowledge capability digital transformation "
     "sustainability reporting "
     "managerial board ownership startup retail",
     "corporate governance|supply chain management|consumer behavior|brand "
     "loyalty|organizational performance|earnings management|corporate social "
     "responsibility|digital transformation|customer satisfaction|knowledge "
     "management|open "
     "innovation|human resource management"},
    {15, 3, 0.6, "Chemical Engineering",
     "reactor catalyst catalytic adsorption membrane separation distillation "
     "fluidized kinetics "
     "heat mass transfer flow viscosity surfactant colloidal emulsion "
     "crystallization filtration "
     "extraction solvent bioreactor fermentation hydrogenation oxidation "
     "pyrolysis gasification "
     "zeolite porous diffusion interfacial wettability foam slurry "
     "purification",
     "mass transfer|heat transfer coefficient|membrane separation|catalytic "
     "activity|fluidized bed "
     "reactor|adsorption isotherm|reaction kinetics|process "
     "intensification|liquid-liquid "
     "extraction|computational fluid dynamics|packed bed|supercritical carbon "
     "dioxide"},
    {16, 3, 1.1, "Chemistry",
     "synthesis molecule molecular compound ligand complex organic inorganic "
     "polymer spectroscopy "
     "NMR crystal electrochemical electrode oxidation reduction reaction "
     "catalyst chiral aromatic "
     "bond ion metal nanoparticle fluorescence photochemical solvent isomer "
     "coordination radical "
     "functional group quantum DFT selectivity reagent spectra chromatography "
     "titration",
     "density functional theory|crystal structure|organic "
     "synthesis|metal-organic "
     "framework|electrochemical performance|fluorescence probe|coordination "
     "polymer|asymmetric "
     "catalysis|mass spectrometry|X-ray diffraction|reaction "
     "mechanism|cross-coupling reaction"},
    {17, 3, 1.8, "Computer Science",
     "neural network learning graph algorithm deep training inference "
     "embedding transformer "
     "attention convolutional classification clustering optimization "
     "reinforcement retrieval "
     "semantic language image vision detection segmentation recommendation "
     "query database "
     "distributed parallel cloud privacy security encryption blockchain "
     "software compiler "
     "scheduling latency memory cache robot sensor federated adversarial "
     "generative",
     "graph neural network|deep learning|machine learning|natural language "
     "processing|convolutional neural network|reinforcement learning|object "
     "detection|image "
     "segmentation|knowledge graph|federated learning|large language "
     "model|recommender "
     "system|information retrieval|anomaly detection|transfer "
     "learning|attention mechanism"},
    {18, 2, 0.5, "Decision Sciences",
     "decision stochastic uncertainty probability risk optimization inventory "
     "scheduling queueing "
     "forecasting Bayesian estimator regression heuristic integer programming "
     "simulation "
     "operations logistics routing multi-criteria fuzzy utility preference "
     "game equilibrium "
     "sampling variance bootstrap likelihood prior posterior survey "
     "reliability",
     "multi-criteria decision making|vehicle routing problem|mixed integer "
     "programming|Bayesian "
     "inference|stochastic optimization|inventory management|fuzzy set|risk "
     "assessment|Monte Carlo "
     "simulation|demand forecasting|game theory|maximum likelihood estimation"},
    {19, 3, 0.9, "Earth and Planetary Sciences",
     "seismic earthquake fault tectonic sediment rock mineral magma volcanic "
     "geochemical isotope "
     "groundwater aquifer precipitation atmospheric aerosol cloud ocean sea "
     "ice glacier "
     "permafrost climate monsoon rainfall erosion landslide basin "
     "stratigraphic fossil planetary "
     "lunar Martian crust mantle subduction geothermal hydrological sensing "
     "satellite",
     "climate change|sea level rise|remote sensing|seismic hazard|groundwater "
     "recharge|sea surface "
     "temperature|atmospheric circulation|sediment transport|fault zone|ice "
     "sheet|stable "
     "isotope|landslide susceptibility"},
    {20, 2, 0.7, "Economics, Econometrics and Finance",
     "economic growth inflation monetary fiscal policy market price trade "
     "income inequality "
     "labor wage employment investment financial bank credit stock volatility "
     "asset portfolio "
     "return equity debt tax welfare household consumption productivity GDP "
     "exchange rate "
     "econometric panel causal elasticity",
     "economic growth|monetary policy|income inequality|financial crisis|stock "
     "market|exchange "
     "rate|foreign direct investment|asset pricing|labor market|panel "
     "data|fiscal "
     "policy|difference-in-differences"},
    {21, 3, 0.8, "Energy",
     "energy solar photovoltaic wind turbine battery lithium hydrogen fuel "
     "combustion biomass "
     "grid power renewable storage efficiency thermal nuclear reactor emission "
     "carbon electricity "
     "converter inverter microgrid charging electrolyte anode cathode biofuel "
     "biogas heat pump",
     "lithium-ion battery|solar cell|renewable energy|energy storage|wind "
     "turbine|hydrogen "
     "production|fuel cell|power system|smart grid|carbon capture|energy "
     "efficiency|electric "
     "vehicle"},
    {22, 3, 1.7, "Engineering",
     "structural concrete steel beam vibration control controller actuator "
     "sensor circuit signal "
     "antenna wireless fatigue fracture stress strain finite element "
     "mechanical manufacturing "
     "additive welding composite aerodynamic turbulence vehicle autonomous "
     "robotic power "
     "converter frequency fault diagnosis reliability seismic damping",
     "finite element analysis|fault diagnosis|model predictive "
     "control|additive "
     "manufacturing|structural health monitoring|reinforced concrete|sliding "
     "mode "
     "control|wireless sensor network|fatigue life|power electronics|vibration "
     "control|unmanned "
     "aerial vehicle"},
    {23, 3, 1.0, "Environmental Science",
     "pollution pollutant contamination metal wastewater treatment emission "
     "air quality "
     "particulate microplastic pesticide ecosystem ecological urban climate "
     "carbon "
     "sequestration biodiversity conservation watershed runoff nutrient "
     "eutrophication toxicity "
     "exposure degradation remediation sludge landfill recycling "
     "sustainability greenhouse",
     "heavy metal contamination|wastewater treatment|air pollution|land use "
     "change|ecosystem "
     "services|greenhouse gas emissions|microplastic pollution|carbon "
     "sequestration|water "
     "quality|life cycle assessment|climate change adaptation|particulate "
     "matter"},
    {24, 1, 0.8, "Immunology and Microbiology",
     "bacterial viral virus infection immune antibody antigen T-cell "
     "macrophage cytokine "
     "inflammation vaccine pathogen microbiome gut host resistance antibiotic "
     "antimicrobial strain "
     "biofilm fungal parasite influenza coronavirus SARS-CoV-2 HIV innate "
     "adaptive lymphocyte "
     "interferon virulence replication",
     "immune response|antimicrobial resistance|gut microbiota|T cell "
     "activation|innate "
     "immunity|viral replication|vaccine efficacy|biofilm "
     "formation|host-pathogen "
     "interaction|antibody response|inflammatory cytokines|SARS-CoV-2 "
     "infection"},
    {25, 3, 1.2, "Materials Science",
     "nanoparticle nanostructure film graphene perovskite alloy ceramic "
     "composite polymer "
     "coating corrosion microstructure grain mechanical tensile hardness "
     "magnetic dielectric "
     "semiconductor optical conductivity doping crystalline amorphous porous "
     "hydrogel fiber "
     "interface annealing sintering deposition oxide",
     "thin film|mechanical properties|perovskite solar cell|corrosion "
     "resistance|graphene "
     "oxide|microstructure evolution|shape memory alloy|dielectric "
     "properties|high-entropy "
     "alloy|carbon nanotube|magnetic properties|grain boundary"},
    {26, 3, 0.8, "Mathematics",
     "theorem proof equation operator algebra manifold topology group ring "
     "lattice polynomial "
     "matrix eigenvalue convergence stability nonlinear differential partial "
     "boundary solution "
     "existence uniqueness inequality graph combinatorial stochastic numerical "
     "finite integral "
     "Hilbert Banach space function bounded convex iterative",
     "partial differential equation|boundary value problem|finite element "
     "method|existence and "
     "uniqueness|nonlinear dynamics|random graph|numerical scheme|convex "
     "optimization|Lie "
     "algebra|stochastic process|fixed point theorem|spectral theory"},
    {27, 4, 3.0, "Medicine",
     "patients clinical treatment therapy disease diagnosis mortality risk "
     "cohort trial "
     "randomized surgical surgery chronic acute cancer tumor cardiovascular "
     "diabetes hypertension "
     "stroke outcome prognosis hospital care screening prevalence incidence "
     "symptoms pediatric "
     "elderly imaging MRI COVID-19 infection dose adverse biomarker",
     "randomized controlled trial|risk factors|overall survival|cardiovascular "
     "disease|type 2 "
     "diabetes|breast cancer|retrospective cohort study|quality of "
     "life|intensive care "
     "unit|magnetic resonance imaging|COVID-19 pandemic|systematic review and "
     "meta-analysis|chronic "
     "kidney disease|adverse events"},
    {28, 1, 0.8, "Neuroscience",
     "neural neuron brain cortex cortical hippocampus synaptic plasticity "
     "cognitive memory "
     "neurodegeneration dopamine receptor axon glial astrocyte microglia EEG "
     "fMRI connectivity "
     "network motor sensory visual auditory Alzheimer's Parkinson's epilepsy "
     "spike oscillation "
     "neurotransmitter circuit behavior stimulation",
     "synaptic plasticity|functional connectivity|Alzheimer's "
     "disease|Parkinson's "
     "disease|working memory|prefrontal cortex|deep brain stimulation|neural "
     "circuit|motor "
     "cortex|resting-state fMRI|cognitive decline|spinal cord injury"},
    {29, 4, 0.4, "Nursing",
     "nursing nurses nurse care patient caregiver education training workload "
     "burnout "
     "communication wellbeing nutrition dietary intake obesity elderly "
     "community home midwifery "
     "maternal pregnancy breastfeeding palliative compassion competence "
     "simulation student "
     "clinical practice guideline intervention adherence",
     "nursing care|patient safety|nurse burnout|dietary intake|palliative "
     "care|nursing "
     "education|quality of care|caregiver burden|breastfeeding "
     "duration|evidence-based "
     "practice|home care|maternal health"},
    {30, 1, 0.6, "Pharmacology, Toxicology and Pharmaceutics",
     "drug pharmacokinetic pharmacological toxicity dose inhibitor compound "
     "formulation delivery "
     "nanocarrier bioavailability receptor agonist antagonist metabolism "
     "cytotoxicity efficacy "
     "clinical screening docking target oral release solubility excipient "
     "liposome herbal "
     "extract antioxidant anti-inflammatory hepatotoxicity",
     "drug delivery|molecular docking|drug discovery|pharmacokinetic "
     "parameters|drug "
     "resistance|controlled release|cytotoxic activity|adverse drug "
     "reactions|structure-activity "
     "relationship|oral bioavailability|drug-drug interaction|virtual "
     "screening"},
    {31, 3, 1.3, "Physics and Astronomy",
     "quantum photon laser optical spin magnetic superconducting topological "
     "lattice phonon "
     "electron plasma galaxy stellar cosmic matter gravitational neutrino "
     "particle collider scattering spectroscopy interferometer entanglement "
     "qubit semiconductor "
     "bandgap thermal acoustic nonlinear soliton radiation detector",
     "quantum entanglement|dark matter|black hole|topological "
     "insulator|gravitational waves|band "
     "structure|quantum computing|star formation|high energy physics|nonlinear "
     "optics|spin-orbit "
     "coupling|cosmic microwave background"},
    {32, 2, 0.8, "Psychology",
     "psychological anxiety depression stress emotion cognitive attention "
     "personality behavior "
     "motivation self-esteem wellbeing adolescents children parenting "
     "attachment trauma "
     "resilience mindfulness therapy intervention perception decision bias "
     "social identity "
     "prejudice memory learning reading development survey questionnaire scale",
     "mental health|social support|emotion regulation|cognitive behavioral "
     "therapy|working "
     "memory|posttraumatic stress disorder|self-efficacy|life "
     "satisfaction|executive "
     "function|attachment style|implicit bias|subjective well-being"},
    {33, 2, 1.2, "Social Sciences",
     "social policy education students teachers school learning political "
     "governance democracy "
     "election migration urban rural gender inequality poverty community "
     "public media "
     "communication digital health law legal rights citizenship welfare "
     "development transport "
     "mobility demographic population culture sociology institutional",
     "higher education|public policy|social media|gender equality|climate "
     "policy|urban "
     "planning|migration policy|political participation|online learning|public "
     "health|social "
     "capital|sustainable development"},
    {34, 4, 0.3, "Veterinary",
     "veterinary dogs cats cattle horses pigs poultry sheep dairy canine "
     "feline bovine equine "
     "porcine avian animal welfare clinical infection parasite vaccination "
     "lameness mastitis herd "
     "farm zoonotic antimicrobial diagnosis surgery anesthesia",
     "animal welfare|dairy cattle|antimicrobial use|companion animals|bovine "
     "mastitis|African "
     "swine fever|avian influenza|canine parvovirus|feed efficiency|zoonotic "
     "disease|equine "
     "colic|herd health"},
    {35, 4, 0.3, "Dentistry",
     "dental oral teeth tooth caries periodontal implant orthodontic enamel "
     "dentin restoration "
     "endodontic gingival mandibular maxillary occlusal resin adhesive bond "
     "strength "
     "fluoride plaque saliva prosthesis crown bracket alveolar bone",
     "dental caries|periodontal disease|dental implant|bond strength|oral "
     "health|root canal "
     "treatment|orthodontic treatment|composite resin|alveolar bone loss|oral "
     "hygiene|peri-implantitis|tooth extraction"},
    {36, 4, 0.4, "Health Professions",
     "rehabilitation physiotherapy exercise training athletes sport injury "
     "gait balance muscle "
     "strength mobility occupational therapy speech hearing language disorder "
     "stroke recovery "
     "functional assessment outcome pain musculoskeletal fitness performance "
     "kinematics "
     "prosthetic wearable telehealth",
     "physical therapy|exercise training|gait analysis|muscle strength|speech "
     "therapy|hearing "
     "loss|occupational therapy|sports injury|low back pain|balance "
     "training|functional "
     "outcome|range of motion"},
};
constexpr int kNumFields = sizeof(kFields) / sizeof(kFields[0]);
static_assert(kNumFields == 26);

struct SubfieldDef {
  int id;  // field id * 100 + k
  const char* name;
};

const SubfieldDef kSubfields[] = {
    {1100, "General Agricultural and Biological Sciences"},
    {1102, "Agronomy and Crop Science"},
    {1103, "Animal Science and Zoology"},
    {1104, "Aquatic Science"},
    {1105, "Ecology, Evolution, Behavior and Systematics"},
    {1106, "Food Science"},
    {1107, "Forestry"},
    {1108, "Horticulture"},
    {1109, "Insect Science"},
    {1110, "Plant Science"},
    {1111, "Soil Science"},
    {1200, "General Arts and Humanities"},
    {1202, "History"},
    {1203, "Language and Linguistics"},
    {1204, "Archeology"},
    {1206, "Conservation"},
    {1207, "History and Philosophy of Science"},
    {1208, "Literature and Literary Theory"},
    {1210, "Music"},
    {1211, "Philosophy"},
    {1212, "Religious Studies"},
    {1213, "Visual Arts and Performing Arts"},
    {1300, "General Biochemistry, Genetics and Molecular Biology"},
    {1302, "Aging"},
    {1303, "Biochemistry"},
    {1304, "Biophysics"},
    {1305, "Biotechnology"},
    {1306, "Cancer Research"},
    {1307, "Cell Biology"},
    {1309, "Developmental Biology"},
    {1310, "Endocrinology"},
    {1311, "Genetics"},
    {1312, "Molecular Biology"},
    {1313, "Molecular Medicine"},
    {1314, "Physiology"},
    {1315, "Structural Biology"},
    {1400, "General Business, Management and Accounting"},
    {1402, "Accounting"},
    {1403, "Business and International Management"},
    {1404, "Management Information Systems"},
    {1405, "Management of Technology and Innovation"},
    {1406, "Marketing"},
    {1407, "Organizational Behavior and Human Resource Management"},
    {1408, "Strategy and Management"},
    {1409, "Tourism, Leisure and Hospitality Management"},
    {1500, "General Chemical Engineering"},
    {1502, "Bioengineering"},
    {1503, "Catalysis"},
    {1505, "Colloid and Surface Chemistry"},
    {1506, "Filtration and Separation"},
    {1507, "Fluid Flow and Transfer Processes"},
    {1508, "Process Chemistry and Technology"},
    {1600, "General Chemistry"},
    {1602, "Analytical Chemistry"},
    {1603, "Electrochemistry"},
    {1604, "Inorganic Chemistry"},
    {1605, "Organic Chemistry"},
    {1606, "Physical and Theoretical Chemistry"},
    {1607, "Spectroscopy"},
    {1700, "General Computer Science"},
    {1702, "Artificial Intelligence"},
    {1703, "Computational Theory and Mathematics"},
    {1704, "Computer Graphics and Computer-Aided Design"},
    {1705, "Computer Networks and Communications"},
    {1706, "Computer Science Applications"},
    {1707, "Computer Vision and Pattern Recognition"},
    {1708, "Hardware and Architecture"},
    {1709, "Human-Computer Interaction"},
    {1710, "Information Systems"},
    {1711, "Signal Processing"},
    {1712, "Software"},
    {1800, "General Decision Sciences"},
    {1802, "Information Systems and Management"},
    {1803, "Management Science and Operations Research"},
    {1804, "Statistics, Probability and Uncertainty"},
    {1900, "General Earth and Planetary Sciences"},
    {1902, "Atmospheric Science"},
    {1904, "Earth-Surface Processes"},
    {1906, "Geochemistry and Petrology"},
    {1907, "Geology"},
    {1908, "Geophysics"},
    {1909, "Geotechnical Engineering and Engineering Geology"},
    {1910, "Oceanography"},
    {1911, "Paleontology"},
    {1912, "Space and Planetary Science"},
    {1913, "Stratigraphy"},
    {2000, "General Economics, Econometrics and Finance"},
    {2002, "Economics and Econometrics"},
    {2003, "Finance"},
    {2100, "General Energy"},
    {2102, "Energy Engineering and Power Technology"},
    {2103, "Fuel Technology"},
    {2104, "Nuclear Energy and Engineering"},
    {2105, "Renewable Energy, Sustainability and the Environment"},
    {2200, "General Engineering"},
    {2202, "Aerospace Engineering"},
    {2203, "Automotive Engineering"},
    {2204, "Biomedical Engineering"},
    {2205, "Civil and Structural Engineering"},
    {2206, "Computational Mechanics"},
    {2207, "Control and Systems Engineering"},
    {2208, "Electrical and Electronic Engineering"},
    {2209, "Industrial and Manufacturing Engineering"},
    {2210, "Mechanical Engineering"},
    {2211, "Mechanics of Materials"},
    {2212, "Ocean Engineering"},
    {2213, "Safety, Risk, Reliability and Quality"},
    {2214, "Media Technology"},
    {2215, "Building and Construction"},
    {2216, "Architecture"},
    {2300, "General Environmental Science"},
    {2302, "Ecological Modeling"},
    {2303, "Ecology"},
    {2304, "Environmental Chemistry"},
    {2305, "Environmental Engineering"},
    {2306, "Global and Planetary Change"},
    {2308, "Management, Monitoring, Policy and Law"},
    {2309, "Nature and Landscape Conservation"},
    {2310, "Pollution"},
    {2311, "Waste Management and Disposal"},
    {2312, "Water Science and Technology"},
    {2400, "General Immunology and Microbiology"},
    {2402, "Applied Microbiology and Biotechnology"},
    {2403, "Immunology"},
    {2404, "Microbiology"},
    {2406, "Virology"},
    {2500, "General Materials Science"},
    {2502, "Biomaterials"},
    {2503, "Ceramics and Composites"},
    {2504, "Electronic, Optical and Magnetic Materials"},
    {2505, "Materials Chemistry"},
    {2506, "Metals and Alloys"},
    {2507, "Polymers and Plastics"},
    {2508, "Surfaces, Coatings and Films"},
    {2600, "General Mathematics"},
    {2602, "Algebra and Number Theory"},
    {2603, "Analysis"},
    {2604, "Applied Mathematics"},
    {2605, "Computational Mathematics"},
    {2606, "Control and Optimization"},
    {2607, "Discrete Mathematics and Combinatorics"},
    {2608, "Geometry and Topology"},
    {2610, "Mathematical Physics"},
    {2611, "Modeling and Simulation"},
    {2612, "Numerical Analysis"},
    {2613, "Statistics and Probability"},
    {2614, "Theoretical Computer Science"},
    {2700, "General Medicine"},
    {2703, "Anesthesiology and Pain Medicine"},
    {2705, "Cardiology and Cardiovascular Medicine"},
    {2706, "Critical Care and Intensive Care Medicine"},
    {2707, "Complementary and Alternative Medicine"},
    {2708, "Dermatology"},
    {2711, "Emergency Medicine"},
    {2712, "Endocrinology, Diabetes and Metabolism"},
    {2713, "Epidemiology"},
    {2715, "Gastroenterology"},
    {2717, "Geriatrics and Gerontology"},
    {2718, "Health Informatics"},
    {2719, "Health Policy"},
    {2720, "Hematology"},
    {2721, "Hepatology"},
    {2723, "Immunology and Allergy"},
    {2724, "Internal Medicine"},
    {2725, "Infectious Diseases"},
    {2727, "Nephrology"},
    {2728, "Neurology"},
    {2729, "Obstetrics and Gynecology"},
    {2730, "Oncology"},
    {2731, "Ophthalmology"},
    {2732, "Orthopedics and Sports Medicine"},
    {2733, "Otorhinolaryngology"},
    {2734, "Pathology and Forensic Medicine"},
    {2735, "Pediatrics, Perinatology and Child Health"},
    {2738, "Psychiatry and Mental health"},
    {2739, "Public Health, Environmental and Occupational Health"},
    {2740, "Pulmonary and Respiratory Medicine"},
    {2741, "Radiology, Nuclear Medicine and Imaging"},
    {2742, "Rehabilitation"},
    {2743, "Reproductive Medicine"},
    {2745, "Rheumatology"},
    {2746, "Surgery"},
    {2747, "Transplantation"},
    {2748, "Urology"},
    {2800, "General Neuroscience"},
    {2802, "Behavioral Neuroscience"},
    {2803, "Biological Psychiatry"},
    {2804, "Cellular and Molecular Neuroscience"},
    {2805, "Cognitive Neuroscience"},
    {2806, "Developmental Neuroscience"},
    {2808, "Neurology"},
    {2809, "Sensory Systems"},
    {2900, "General Nursing"},
    {2902, "Advanced and Specialized Nursing"},
    {2905, "Community and Home Care"},
    {2906, "Critical Care Nursing"},
    {2909, "Gerontology"},
    {2911, "Leadership and Management"},
    {2913, "Maternity and Midwifery"},
    {2916, "Nutrition and Dietetics"},
    {2921, "Psychiatric Mental Health"},
    {2922, "Research and Theory"},
    {3000, "General Pharmacology, Toxicology and Pharmaceutics"},
    {3002, "Drug Discovery"},
    {3003, "Pharmaceutical Science"},
    {3004, "Pharmacology"},
    {3005, "Toxicology"},
    {3100, "General Physics and Astronomy"},
    {3102, "Acoustics and Ultrasonics"},
    {3103, "Astronomy and Astrophysics"},
    {3104, "Condensed Matter Physics"},
    {3105, "Instrumentation"},
    {3106, "Nuclear and High Energy Physics"},
    {3107, "Atomic and Molecular Physics, and Optics"},
    {3108, "Radiation"},
    {3109, "Statistical and Nonlinear Physics"},
    {3200, "General Psychology"},
    {3202, "Applied Psychology"},
    {3203, "Clinical Psychology"},
    {3204, "Developmental and Educational Psychology"},
    {3205, "Experimental and Cognitive Psychology"},
    {3206, "Neuropsychology and Physiological Psychology"},
    {3207, "Social Psychology"},
    {3300, "General Social Sciences"},
    {3303, "Development"},
    {3304, "Education"},
    {3305, "Geography, Planning and Development"},
    {3307, "Human Factors and Ergonomics"},
    {3308, "Law"},
    {3309, "Library and Information Sciences"},
    {3310, "Linguistics and Language"},
    {3311, "Safety Research"},
    {3312, "Sociology and Political Science"},
    {3313, "Transportation"},
    {3314, "Anthropology"},
    {3315, "Communication"},
    {3316, "Cultural Studies"},
    {3317, "Demography"},
    {3318, "Gender Studies"},
    {3320, "Political Science and International Relations"},
    {3321, "Public Administration"},
    {3322, "Urban Studies"},
    {3400, "General Veterinary"},
    {3404, "Small Animals"},
    {3500, "General Dentistry"},
    {3504, "Oral Surgery"},
    {3505, "Orthodontics"},
    {3506, "Periodontics"},
    {3600, "General Health Professions"},
    {3608, "Occupational Therapy"},
    {3611, "Physical Therapy, Sports Therapy and Rehabilitation"},
    {3615, "Speech and Hearing"},
};
constexpr int kNumSubfields = sizeof(kSubfields) / sizeof(kSubfields[0]);
static_assert(kNumSubfields == 252);

constexpr int kNumTopics = 4500;

// Abstract sentences are drawn from templates; slots are filled from the lists
// below (Zipfian by list order) and from the work's topic. Slots: {P} topic or
// keyword phrase, {T} topic term, {N} noun, {J} adjective, {V} base verb,
// {S} third-person verb, {W} plural verb, {D} participle, {R} rare term, {#}
// number. Punctuation and parentheses may be attached to a slot. The
// templates carry the function words ("the", "of", "and", "in", "we", ...) at
// frequencies close to real abstracts.
const char* const kSentenceTemplates[] = {
    "We {V} a {J} {P} for the {N} of {T} {N}.",
    "The {N} of {T} {N} {S} the {J} {N} in {P}.",
    "In this study, we {V} the {N} of {P} in a {T} {T}.",
    "{P} {S} a {J} {N} for the {N} and {N} of {T} {N}.",
    "Here, we {V} {P} using {R} and {T} {N} to {V} the {N}.",
    "Our results {W} that {T} {N} {S} {P}, with {#} {N} in the {N}.",
    "These {N} {W} the {N} of {T} {T} in the {J} {N} of {T} {N}.",
    "However, the {N} of {P} remains {J} due to {T} {N} and {R}.",
    "To {V} this {N}, we {V} a {T} {N} based on {P} and the {N} of {T} {N}.",
    "{J} {N} {W} that {P} {S} the {T} {N} by {#}.",
    "Compared with {J} {N}, the {D} {N} {S} the {N} and {N} of {T} {N}.",
    "The {D} {N} was {D} on {#} {T} {N} from {R} of the {T} {N}.",
    "We also {V} the {N} between {T} {N} and {P}.",
    "{T} {N} and {T} {N} were {D} in {#} {N} to {V} the {N}.",
    "This {N} {S} the {T} {N} and {S} {J} {N} for {P}.",
    "In addition, {P} {S} the {N} and {N} in {T} {N} with a {J} {N}.",
    "Experimental results on {R} {W} that the {D} {N} {S} {J} {N}.",
    "A {J} {N} of the {T} {N} is {D} to {V} {P}.",
    "Furthermore, we {V} the {N} of the {T} {N} to {V} {P}.",
    "The {N} {S} {#} {N} in {N} compared to the {J} {N}.",
    "These findings {W} the {N} of {P} for {T} {N} and {T} {N}.",
    "Despite {J} {N} in {P}, the {N} of the {T} {N} remains {J}.",
    "Using {P} and {R}, the {N} in {T} {T} was {D} with {#} {N}.",
    "Overall, this {N} {S} {J} {N} into {P} and the {T} {N}.",
    "{P} is a {J} {N} in {T} {N}, and its {N} to {T} {N} is {J}.",
    "The {N} of {T} {N} on {P} was {D} by the {T} {N} and {R} {N}.",
    "We {V} {#} {T} {N} and {V} their {N} with {P}.",
    "Finally, the {D} {P} is {D} on the {N} of a {T} {N}.",
    "In particular, the {T} {N} {S} the {N} in {T} {T} by {#}.",
    "Our {N} {S} that {P} can {V} the {T} {N} in {J} {N}.",
    "The {T} {N} in {P} has been {D} in {J} {N}, and the {N} of {T} {N} {S} "
    "the {N}.",
    "There is a {J} {N} for {P} in the {T} {N}.",
    "It is {J} to {V} the {N} and {N} of {T} {N} for {P}.",
    "The {N} {S} the {P} {N}, which {S} the {N} of a {T} {N}.",
    "In the {N} of {P}, {T} {N} and {T} {N} are {J}.",
    "Although {P} has been {D} in {T} {N}, its {N} to {T} {N} and {R} remains "
    "{J}.",
    "We {V} the {T} {N} in {#} {N} and {W} that {P} {S} the {N}.",
    "The {N} was {D} by {T} {N} ({R}) and a {J} {N}.",
    "As a result, {T} {N} {S} the {N} to {P} in {J} {N}.",
    "The {J} {N} of {P} is {J}, whereas {T} {N} {S} {J} {N}.",
    "{T} {T} {N} were {D} from {#} {R} {N} and {T} {N}.",
    "Moreover, {T} {N} {S} the {N} to {V} {P} at a {J} {N}.",
    "This {N} aims to {V} a {J} {N} for {T} {N} and {T} {T}.",
    "To this end, the {N} of a {T} {N} is {D} to {V} {P}.",
    "The {N} of {P} is {D} in the {J} {N} of {T} {N}.",
    "We {V} a {T} {N} and {V} it to {T} {N} and {P}.",
    "{P} and {T} {N} are {D} to {V} the {N} of the {T} {N}.",
    "The {T} {N} of the {J} {N} {S} a {J} {N} with {P}.",
};

const char kNouns[] =
    "results method model analysis approach performance data system framework "
    "algorithm study "
    "network structure process effect problem information accuracy properties "
    "mechanism behavior "
    "efficiency dynamics distribution features parameters conditions quality "
    "design strategy "
    "technique techniques methods models systems effects mechanisms factors "
    "changes levels "
    "patterns interactions relationship correlation variability stability "
    "sensitivity robustness "
    "complexity resolution potential role impact evidence understanding "
    "insights implications "
    "limitations challenges applications application evaluation assessment "
    "characterization "
    "prediction estimation detection classification identification "
    "optimization simulation "
    "simulations experiments measurements observations samples datasets "
    "benchmarks baselines "
    "metrics capacity capability response responses activity activities "
    "concentration "
    "concentrations rate rates ratio frequency intensity magnitude variation "
    "variations "
    "differences similarity uncertainty error errors bias noise signal signals "
    "cost costs "
    "benefits tradeoff constraints assumptions hypothesis theory principles "
    "concepts criteria "
    "protocol procedure pipeline workflow platform implementation integration "
    "combination "
    "selection representation interpretation investigation reconstruction "
    "approximation "
    "calibration quantification generation transformation extraction formation "
    "growth production "
    "degradation accumulation regulation evolution transition propagation "
    "outcomes scenarios "
    "components architecture modules trends indicators scores index measure "
    "estimates "
    "predictions contribution objective scope context environment settings "
    "regions sites "
    "populations participants subjects cases groups period stage phase types "
    "class domain scale "
    "size";
const char kAdjectives[] =
    "novel significant different new efficient robust accurate high large "
    "important effective "
    "comprehensive systematic quantitative empirical theoretical practical "
    "numerical statistical "
    "computational experimental global local spatial temporal dynamic complex "
    "multiple key "
    "critical fundamental previous recent existing standard optimal consistent "
    "substantial strong "
    "positive negative direct relative overall specific general common major "
    "limited extensive "
    "potential reliable precise simple improved enhanced reduced increased "
    "lower higher greater "
    "better scalable adaptive interpretable unified hierarchical probabilistic "
    "multiscale "
    "data-driven large-scale long-term real-time state-of-the-art "
    "cost-effective nonlinear "
    "heterogeneous sparse stable promising challenging";
const char kVerbs[] =
    "propose present develop investigate introduce evaluate examine analyze "
    "describe study design "
    "implement derive construct apply compare identify quantify characterize "
    "assess address "
    "explore establish estimate demonstrate show find report improve predict "
    "measure model";
const char kVerbs3[] =
    "improves shows provides reduces increases enables outperforms captures "
    "achieves reveals "
    "affects enhances determines influences requires supports predicts "
    "explains controls "
    "regulates describes combines extends exhibits yields";
const char kVerbsPlural[] = "show indicate suggest demonstrate reveal confirm highlight support";
const char kParticiples[] =
    "proposed developed evaluated obtained observed measured analyzed "
    "investigated validated "
    "tested applied estimated compared identified performed used trained "
    "designed implemented "
    "collected derived examined characterized quantified assessed reported "
    "simulated optimized";

const char kHeadNouns[] =
    "model network analysis method framework system process dynamics structure "
    "activity "
    "mechanism prediction estimation detection classification response "
    "regulation expression "
    "signaling design control assessment synthesis behavior properties "
    "performance pathway "
    "interaction formation transport imaging therapy modeling mapping "
    "inference monitoring";

const char kTitleNouns[] =
    "Analysis Approach Framework Model Study Evaluation Assessment "
    "Characterization "
    "Investigation Method Perspective Comparison Design Strategy Mechanisms "
    "Dynamics Effects "
    "Implications Evidence Insights Applications Performance Modeling "
    "Optimization Prediction "
    "Detection Estimation Synthesis Properties Patterns Determinants "
    "Validation";
const char kTitleAdjectives[] =
    "Novel Efficient Robust Comprehensive Systematic Comparative Integrated "
    "Scalable Adaptive "
    "Unified Quantitative Experimental Theoretical Multiscale Data-Driven "
    "Interpretable "
    "Longitudinal Hierarchical Probabilistic Generalized Improved Lightweight "
    "Accurate "
    "Large-Scale Cross-Sectional Multimodal Sustainable";
const char kTitleGerunds[] =
    "Learning Modeling Predicting Understanding Characterizing Improving "
    "Quantifying Mapping "
    "Optimizing Exploring Assessing Revisiting Rethinking Designing Estimating "
    "Detecting";

// Morphemes for ~40,000 pseudo-technical stems. Prefixes by domain (index =
// OpenAlex domain id), then hyphenated prefixes for every domain.
const char* const kDomainPrefixes[] = {
    "",
    "neuro cyto immuno myco phyto micro macro poly endo exo hetero homo allo "
    "cardio hemato osteo "
    "gastro hepato nephro pneumo bio chemo glyco lipo proteo nucleo angio "
    "fibro myelo onco patho "
    "pharmaco toxico enzymo xeno meta para",
    "socio econo techno crypto geo multi inter trans meta micro macro neo "
    "proto hyper psycho "
    "info bio eco",
    "hydro thermo electro photo geo chemo micro nano macro poly iso para meta "
    "proto hetero homo "
    "aero astro spectro magneto piezo opto radio seismo hypo hyper infra ultra "
    "multi inter trans "
    "litho halo carbo silico ferro cryo baro oligo pyro sono tribo quasi super",
    "neuro cyto immuno cardio hemato osteo dermato gastro hepato nephro pneumo "
    "psycho onco patho "
    "pharmaco toxico myo endo peri intra para poly micro bio tele physio",
};
const char kHyphenPrefixes[] = "non- post- pre- anti- co- cross- self- semi- sub- multi-";
const char kRoots[] =
    "lyt morph gen troph phil kin plast spher chrom phor graph scop tect lith "
    "therm dyn mer "
    "sacchar lip prot nucl sulf carb ferr silic vasc cort neur myel fibr angi "
    "lymph tox path phag "
    "zym cyt bar cardi derm gastr hem hepat log lys mor nephr oste ped pneum "
    "sarc som stat tax top "
    "trop ven vir zo phen mat fluor cycl ox nitr phos chlor brom amin ethyl "
    "meth prop but pent hex";
const char kSuffixes[] =
    "ic al ase osis ine ide ite ate ene ol one ium oid ism ity ation ization "
    "ometry ology ogenic "
    "otropic ography ance ant ive ous in ome omics yl ane ics ar ure ent ency "
    "atic etic ator imer";

// Syllables for generated rare terms and synthetic place names.
const char kSyllables[] =
    "ba ke lo mi nu ra si to vu za dre pho chi gla stri tro ven mor lix quo "
    "tal ner pex dor sul "
    "fen gri hol jas kav lum mab nob pir qua rus sev tiv ulm vax wen xer yal "
    "zor bra cle dri fla "
    "gro ple sca sno spe tha vel kor dan rel tes min gal bor cas";
const char kRareSuffixes[] =
    "ase ine ide ol ate in ium ane ene one oid ic ysin amide azole mycin "
    "statin ferin omab tide "
    "plex zyme gen lin ose";

// Name cultures: first names | last names | place-name endings.
struct Culture {
  const char* first;
  const char* last;
  const char* place_end;
};
const Culture kCultures[] = {
    {"James,John,Robert,Michael,William,David,Richard,Joseph,Thomas,"
     "Christopher,Daniel,Matthew,"
     "Andrew,Mark,Paul,Steven,Kevin,Brian,Sarah,Jennifer,Elizabeth,Emily,"
     "Jessica,Laura,Rachel,"
     "Rebecca,Emma,Hannah,Olivia,Catherine,Anna,Mary,Susan,Karen,Amy,Megan,"
     "Claire,Helen",
     "Smith,Johnson,Williams,Brown,Jones,Miller,Davis,Wilson,Anderson,Taylor,"
     "Thomas,Moore,Martin,"
     "Jackson,Thompson,White,Harris,Clark,Lewis,Robinson,Walker,Young,Allen,"
     "King,Wright,Scott,Hill,"
     "Green,Adams,Baker,Nelson,Carter,Mitchell,Roberts,Campbell,Evans,Edwards,"
     "Collins,Stewart,"
     "Murphy,Cook,Morgan,Bell,Murray,Kelly,Hughes,Ward,Reed,Cooper,Bennett,O'"
     "Brien,O'Connor",
     "ville,ton,field,port,wood,dale,ford,bury"},
    {"Wei,Jing,Li,Yang,Hui,Xin,Jun,Ying,Lei,Hao,Yu,Jie,Min,Yan,Ming,Tao,Chen,"
     "Qiang,Fang,Ping,Lin,"
     "Xiaoming,Xiaoyu,Jian,Bo,Peng,Rui,Zhen,Hong,Yun,Na,Lu,Kai,Dong,Feng,Xue,"
     "Shu,Zhi,Yi,Zhiwei",
     "Wang,Li,Zhang,Liu,Chen,Yang,Huang,Zhao,Wu,Zhou,Xu,Sun,Ma,Zhu,Hu,Guo,He,"
     "Lin,Gao,Luo,Zheng,"
     "Liang,Xie,Song,Tang,Han,Feng,Deng,Cao,Peng,Zeng,Xiao,Tian,Dong,Pan,Yuan,"
     "Cai,Jiang,Yu,Du",
     "zhou,yang,shan,ning,an,jiang,chang"},
    {"Thomas,Michael,Andreas,Stefan,Christian,Markus,Martin,Matthias,Alexander,"
     "Tobias,Florian,"
     "Jan,Sebastian,Julia,Katharina,Anna,Sabine,Claudia,Stefanie,Susanne,Lena,"
     "Laura,Maria,"
     "Jürgen,Klaus,Wolfgang,Uwe,Jörg",
     "Müller,Schmidt,Schneider,Fischer,Weber,Meyer,Wagner,Becker,Schulz,"
     "Hoffmann,Schäfer,Koch,"
     "Bauer,Richter,Klein,Wolf,Schröder,Neumann,Schwarz,Zimmermann,Braun,"
     "Krüger,Hofmann,"
     "Hartmann,Lange,Schmitt,Werner,Krause,Meier,Lehmann",
     "burg,stadt,heim,berg,dorf,hausen,au"},
    {"Jean,Pierre,Nicolas,Philippe,François,Julien,Sébastien,Laurent,Olivier,"
     "Thomas,Antoine,"
     "Mathieu,Guillaume,Marie,Sophie,Isabelle,Nathalie,Céline,Camille,Claire,"
     "Julie,Aurélie,"
     "Émilie,Hélène,Anne,Élodie",
     "Martin,Bernard,Dubois,Thomas,Robert,Richard,Petit,Durand,Leroy,Moreau,"
     "Simon,Laurent,"
     "Lefebvre,Michel,Garcia,David,Bertrand,Roux,Vincent,Fournier,Morel,Girard,"
     "André,Lefèvre,"
     "Mercier,Dupont,Lambert,Bonnet,François,Martinez",
     "ville,mont,court,ac,ières,y"},
    {"José,Juan,Carlos,Luis,Miguel,Javier,Antonio,Francisco,Manuel,Pedro,"
     "Alejandro,Diego,"
     "Fernando,Jorge,Pablo,Ricardo,María,Ana,Carmen,Laura,Isabel,Lucía,Marta,"
     "Paula,Sofía,"
     "Gabriela,Fernanda,Juliana,João,Rafael,Marcelo",
     "García,Rodríguez,Martínez,López,González,Hernández,Pérez,Sánchez,Ramírez,"
     "Torres,Flores,"
     "Rivera,Gómez,Díaz,Cruz,Morales,Ortiz,Gutiérrez,Chávez,Ramos,Ruiz,Álvarez,"
     "Jiménez,Moreno,"
     "Romero,Silva,Santos,Oliveira,Souza,Costa,Pereira,Almeida,Ferreira",
     "ia,ada,ena,illa,osa,ópolis"},
    {"Rahul,Amit,Ankit,Vijay,Rajesh,Suresh,Sanjay,Arjun,Vikram,Anil,Sunil,"
     "Deepak,Manish,Priya,"
     "Anjali,Neha,Pooja,Kavita,Sneha,Divya,Lakshmi,Ramesh,Karthik,Aditya,Rohit,"
     "Srinivas,"
     "Venkatesh,Meera,Shalini,Gaurav",
     "Kumar,Sharma,Singh,Patel,Gupta,Reddy,Rao,Jain,Verma,Mishra,Agarwal,Iyer,"
     "Nair,Menon,Das,"
     "Banerjee,Chatterjee,Mukherjee,Bose,Joshi,Mehta,Shah,Pandey,Yadav,"
     "Srivastava,Krishnan,"
     "Pillai,Chopra,Malhotra,Desai",
     "pur,abad,nagar,garh,ganj"},
    {"Hiroshi,Takashi,Kenji,Satoshi,Yuki,Daisuke,Kazuhiro,Takeshi,Naoki,Shinji,"
     "Makoto,Akira,"
     "Koji,Tomoko,Yoko,Keiko,Naoko,Akiko,Yumi,Haruka,Ryo,Sho,Kenta,Yusuke,"
     "Masaki,Aya,Mai",
     "Sato,Suzuki,Takahashi,Tanaka,Watanabe,Ito,Yamamoto,Nakamura,Kobayashi,"
     "Kato,Yoshida,Yamada,"
     "Sasaki,Yamaguchi,Matsumoto,Inoue,Kimura,Hayashi,Shimizu,Yamazaki,Mori,"
     "Abe,Ikeda,Hashimoto,"
     "Ishikawa,Ogawa,Fujita,Okada,Goto,Hasegawa",
     "yama,kawa,saki,hara,ta,shima"},
    {"Min-jun,Seo-yeon,Ji-hoon,Hyun-woo,Sung-min,Jae-hyun,Young-ho,Dong-hyun,"
     "Ji-won,Eun-ji,"
     "Soo-jin,Hye-jin,Jin-woo,Sang-hoon,Kyung-soo,Myung-hee,Jung-ho,Seung-woo,"
     "Yoon-seo,Ha-eun",
     "Kim,Lee,Park,Choi,Jung,Kang,Cho,Yoon,Jang,Lim,Han,Oh,Seo,Shin,Kwon,Hwang,"
     "Ahn,Song,Yoo,Hong",
     "ju,won,san,cheon,pyeong"},
    {"Marco,Giuseppe,Giovanni,Francesco,Luca,Alessandro,Andrea,Matteo,Stefano,"
     "Roberto,Paolo,"
     "Davide,Simone,Federico,Giulia,Francesca,Chiara,Sara,Valentina,Elena,"
     "Alessandra,Silvia,"
     "Martina,Federica,Lorenzo,Niccolò",
     "Rossi,Russo,Ferrari,Esposito,Bianchi,Romano,Colombo,Ricci,Marino,Greco,"
     "Bruno,Gallo,Conti,"
     "De "
     "Luca,Mancini,Costa,Giordano,Rizzo,Lombardi,Moretti,Barbieri,Fontana,"
     "Santoro,Mariani,"
     "Rinaldi,Caruso,Ferrara,Galli,Martini,Leone",
     "ino,ano,ella,ona,ento"},
    {"Lars,Anders,Erik,Johan,Henrik,Mikael,Jonas,Niklas,Søren,Pieter,Jeroen,"
     "Sander,Bas,Anna,Eva,"
     "Ingrid,Karin,Sanne,Lotte,Maja,Sofie,Emma,Linnea,Astrid,Fleur,Joost,Thijs,"
     "Mette",
     "Jansen,de Vries,van den Berg,Bakker,Visser,Smit,Meijer,de "
     "Jong,Mulder,Bos,Andersson,"
     "Johansson,Karlsson,Nilsson,Eriksson,Larsson,Olsen,Hansen,Nielsen,Jensen,"
     "Pedersen,Virtanen,"
     "Korhonen,Lindqvist,Berg,Dahl,Holm,Lund,Strand,Vos",
     "holm,by,stad,vik,sund,drecht"},
    {"Alexander,Dmitry,Sergey,Andrey,Alexey,Ivan,Mikhail,Nikolai,Vladimir,"
     "Pavel,Igor,Olga,Elena,"
     "Natalia,Irina,Tatiana,Anna,Maria,Svetlana,Ekaterina,Piotr,Tomasz,"
     "Katarzyna,Agnieszka,"
     "Jakub,Marek,Jan,Petra",
     "Ivanov,Smirnov,Kuznetsov,Popov,Vasiliev,Petrov,Sokolov,Mikhailov,Novikov,"
     "Fedorov,Morozov,"
     "Volkov,Kozlov,Lebedev,Nowak,Kowalski,Wiśniewski,Wójcik,Kowalczyk,"
     "Kamiński,Lewandowski,"
     "Novák,Svoboda,Dvořák,Shevchenko,Bondarenko,Kovalenko,Popescu,Horváth,"
     "Nagy",
     "ov,sk,grad,ice,ow,insk"},
    {"Mehmet,Ahmet,Mustafa,Ali,Hasan,Hüseyin,Emre,Zeynep,Elif,Ayşe,Fatma,"
     "Mohammad,Reza,Hossein,"
     "Mahdi,Amir,Sara,Maryam,Fatemeh,Zahra,Ahmed,Mohamed,Omar,Khaled,Youssef,"
     "Nour,Layla,Hana,"
     "Karim,Tariq",
     "Yılmaz,Kaya,Demir,Şahin,Çelik,Yıldız,Yıldırım,Öztürk,Aydın,Özdemir,"
     "Hosseini,Ahmadi,"
     "Mohammadi,Rezaei,Karimi,Moradi,Hashemi,Rahimi,Jafari,Abbasi,Hassan,"
     "Ibrahim,Mahmoud,"
     "Abdullah,Saleh,Mansour,Haddad,Khalil,Nasser,Farouk",
     "abad,iyeh,an,ar,shahr"},
    {"Oluwaseun,Chinedu,Adebayo,Ngozi,Chioma,Emeka,Kwame,Kofi,Ama,Abena,Thabo,"
     "Sipho,Lerato,"
     "Nomvula,Wanjiru,Kamau,Otieno,Achieng,Tesfaye,Abebe,Yohannes,Fatima,Aisha,"
     "Ibrahim,Musa,"
     "Tunde,Funmilayo,Blessing",
     "Okafor,Adeyemi,Okonkwo,Eze,Nwosu,Oyelaran,Mensah,Boateng,Owusu,Asante,"
     "Nkosi,Dlamini,Ndlovu,"
     "Khumalo,Mokoena,Mwangi,Kariuki,Odhiambo,Otieno,Wanjala,Tesfaye,Bekele,"
     "Haile,Girma,"
     "Abdullahi,Bello,Musa,Okeke,Adewale,Osei",
     "ville,burg,ani,oko,ini"},
};
constexpr int kNumCultures = sizeof(kCultures) / sizeof(kCultures[0]);

struct CountryDef {
  const char* code;
  const char* name;
  double weight;
  int culture;
  const char* cities;  // ',' separated
};
const CountryDef kCountries[] = {
    {"US", "United States", 24, 0,
     "Boston,Stanford,Berkeley,Chicago,Seattle,Houston,Atlanta,Pittsburgh,Ann "
     "Arbor,Austin,"
     "Madison,Minneapolis,Baltimore,Philadelphia,San "
     "Diego,Denver,Nashville,Rochester,Columbus,"
     "Tucson"},
    {"CN", "China", 16, 1,
     "Beijing,Shanghai,Wuhan,Nanjing,Hangzhou,Guangzhou,Chengdu,Xi'an,Harbin,"
     "Tianjin,Changsha,"
     "Jinan,Dalian,Hefei,Shenzhen,Chongqing"},
    {"GB", "United Kingdom", 6, 0,
     "Oxford,Cambridge,London,Edinburgh,Manchester,Bristol,Leeds,Glasgow,"
     "Birmingham,Sheffield"},
    {"DE", "Germany", 5.5, 2,
     "Munich,Berlin,Heidelberg,Hamburg,Freiburg,Göttingen,Aachen,Dresden,Bonn,"
     "Tübingen"},
    {"JP", "Japan", 4, 6, "Tokyo,Kyoto,Osaka,Sendai,Nagoya,Fukuoka,Sapporo,Tsukuba,Kobe,Hiroshima"},
    {"FR", "France", 3.5, 3,
     "Paris,Lyon,Marseille,Toulouse,Grenoble,Bordeaux,Lille,Strasbourg,"
     "Montpellier,Nantes"},
    {"IN", "India", 4, 5,
     "Delhi,Mumbai,Bangalore,Chennai,Kolkata,Hyderabad,Pune,Kanpur,Kharagpur,"
     "Roorkee"},
    {"IT", "Italy", 3, 8, "Milan,Rome,Bologna,Padua,Turin,Naples,Pisa,Florence,Genoa,Trieste"},
    {"CA", "Canada", 3, 0, "Toronto,Montreal,Vancouver,Ottawa,Calgary,Waterloo,Edmonton,Halifax"},
    {"AU", "Australia", 2.5, 0, "Sydney,Melbourne,Brisbane,Perth,Adelaide,Canberra,Hobart"},
    {"ES", "Spain", 2.5, 4, "Madrid,Barcelona,Valencia,Seville,Granada,Salamanca,Zaragoza,Bilbao"},
    {"KR", "South Korea", 2.5, 7, "Seoul,Busan,Daejeon,Pohang,Incheon,Gwangju,Daegu,Suwon"},
    {"BR", "Brazil", 2.5, 4,
     "São Paulo,Rio de Janeiro,Campinas,Porto Alegre,Belo "
     "Horizonte,Curitiba,Brasília,Recife"},
    {"NL", "Netherlands", 1.8, 9,
     "Amsterdam,Utrecht,Leiden,Delft,Groningen,Rotterdam,Nijmegen,Eindhoven"},
    {"SE", "Sweden", 1, 9, "Stockholm,Uppsala,Lund,Gothenburg,Linköping,Umeå"},
    {"DK", "Denmark", 0.7, 9, "Copenhagen,Aarhus,Aalborg,Odense"},
    {"NO", "Norway", 0.6, 9, "Oslo,Bergen,Trondheim,Tromsø"},
    {"FI", "Finland", 0.6, 9, "Helsinki,Turku,Oulu,Tampere"},
    {"CH", "Switzerland", 1.3, 2, "Zurich,Geneva,Basel,Bern,Lausanne"},
    {"AT", "Austria", 0.7, 2, "Vienna,Graz,Innsbruck,Salzburg"},
    {"BE", "Belgium", 0.9, 3, "Leuven,Ghent,Brussels,Liège,Antwerp"},
    {"RU", "Russia", 1.5, 10, "Moscow,Saint Petersburg,Novosibirsk,Kazan,Tomsk,Yekaterinburg"},
    {"PL", "Poland", 1.2, 10, "Warsaw,Kraków,Wrocław,Poznań,Gdańsk,Łódź"},
    {"CZ", "Czechia", 0.5, 10, "Prague,Brno,Olomouc"},
    {"TR", "Türkiye", 1.5, 11, "Istanbul,Ankara,Izmir,Bursa,Konya"},
    {"IR", "Iran", 1.5, 11, "Tehran,Isfahan,Shiraz,Tabriz,Mashhad"},
    {"SA", "Saudi Arabia", 0.7, 11, "Riyadh,Jeddah,Dhahran"},
    {"EG", "Egypt", 0.7, 11, "Cairo,Alexandria,Mansoura,Assiut"},
    {"MX", "Mexico", 0.7, 4, "Mexico City,Guadalajara,Monterrey,Puebla"},
    {"AR", "Argentina", 0.4, 4, "Buenos Aires,Córdoba,La Plata,Rosario"},
    {"CL", "Chile", 0.3, 4, "Santiago,Valparaíso,Concepción"},
    {"PT", "Portugal", 0.6, 4, "Lisbon,Porto,Coimbra,Braga"},
    {"NG", "Nigeria", 0.6, 12, "Lagos,Ibadan,Nsukka,Zaria"},
    {"ZA", "South Africa", 0.6, 12, "Cape Town,Johannesburg,Pretoria,Durban,Stellenbosch"},
    {"KE", "Kenya", 0.3, 12, "Nairobi,Mombasa,Eldoret"},
    {"TW", "Taiwan", 1.0, 1, "Taipei,Hsinchu,Tainan,Taichung"},
    {"SG", "Singapore", 0.6, 1, "Singapore"},
    {"IL", "Israel", 0.6, 0, "Tel Aviv,Jerusalem,Haifa,Rehovot"},
    {"IE", "Ireland", 0.4, 0, "Dublin,Cork,Galway"},
};
constexpr int kNumCountries = sizeof(kCountries) / sizeof(kCountries[0]);

const char* const kInstTypes[] = {"education", "healthcare", "facility", "government", "company"};

// ---------------------------------------------------------------------------
// Small string helpers.

std::vector<std::string> Split(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i <= s.size()) {
    size_t j = s.find(sep, i);
    if (j == std::string_view::npos) j = s.size();
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

void AppendU64(std::string& s, uint64_t v) {
  char tmp[24];
  int k = 0;
  do {
    tmp[k++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  while (k) s.push_back(tmp[--k]);
}

void AppendJsonStr(std::string& s, std::string_view v) {
  s.push_back('"');
  for (unsigned char c : v) {
    if (c == '"' || c == '\\') {
      s.push_back('\\');
      s.push_back(static_cast<char>(c));
    } else if (c < 0x20) {
      static const char kHex[] = "0123456789abcdef";
      s += "\\u00";
      s.push_back(kHex[c >> 4]);
      s.push_back(kHex[c & 15]);
    } else {
      s.push_back(static_cast<char>(c));
    }
  }
  s.push_back('"');
}

bool IsLowerAscii(char c) { return c >= 'a' && c <= 'z'; }
char Upper(char c) { return IsLowerAscii(c) ? static_cast<char>(c - 32) : c; }

bool IsMinorWord(std::string_view w) {
  static const char* const kMinor[] = {"a",  "an",   "the",   "of",   "and",  "in",   "for",
                                       "on", "with", "via",   "to",   "by",   "from", "at",
                                       "as", "or",   "under", "over", "into", "vs."};
  for (const char* m : kMinor)
    if (w == m) return true;
  return false;
}

// Appends w in title case: lowercase words get initial capitals (also after
// '-'); words that already carry capitals (DNA, fMRI) are kept; minor words
// stay lowercase unless first.
void AppendTitleWord(std::string& out, std::string_view w, bool first) {
  if (!first && IsMinorWord(w)) {
    out += w;
    return;
  }
  bool all_lower = true;
  for (char c : w)
    if (c >= 'A' && c <= 'Z') all_lower = false;
  if (!all_lower) {
    out += w;
    return;
  }
  bool cap = true;
  for (char c : w) {
    out.push_back(cap ? Upper(c) : c);
    cap = (c == '-');
  }
}

// ---------------------------------------------------------------------------
// Vocabulary: every word string once, addressed by a dense id.

class Vocab {
 public:
  uint32_t Intern(std::string_view w) {
    auto it = index_.find(std::string(w));
    if (it != index_.end()) return it->second;
    const uint32_t id = static_cast<uint32_t>(off_.size());
    off_.push_back(static_cast<uint32_t>(arena_.size()));
    len_.push_back(static_cast<uint16_t>(w.size()));
    arena_ += w;
    index_.emplace(std::string(w), id);
    return id;
  }
  bool Contains(std::string_view w) const { return index_.count(std::string(w)) != 0; }
  std::string_view Word(uint32_t id) const { return {arena_.data() + off_[id], len_[id]}; }
  size_t size() const { return off_.size(); }

 private:
  std::string arena_;
  std::vector<uint32_t> off_;
  std::vector<uint16_t> len_;
  std::unordered_map<std::string, uint32_t> index_;
};

// Generated rare term number r: unique syllable string (a bijection of r) plus
// an ending, or now and then a gene/compound-like code. Written into out.
void RareTerm(uint64_t r, std::string& out, const std::vector<std::string>& syl,
              const std::vector<std::string>& ends) {
  out.clear();
  const uint64_t h = Mix(r * 0x9E3779B97F4A7C15ULL + 17);
  if (h % 7 == 0) {  // code-like: e.g. "KLT4", "Vorx-12"
    uint64_t x = r;
    out.push_back(static_cast<char>('A' + x % 26));
    x /= 26;
    out.push_back(static_cast<char>('A' + x % 26));
    x /= 26;
    out.push_back(static_cast<char>('A' + x % 26));
    x /= 26;
    if (h & 8) out.push_back('-');
    AppendU64(out, x + 1);
    return;
  }
  const uint64_t n = syl.size();
  uint64_t x = r;
  do {
    out += syl[x % n];
    x /= n;
  } while (x);
  if (r < n) out += syl[(h >> 8) % n];  // no one-syllable stems
  out += ends[(h >> 20) % ends.size()];
}

// ---------------------------------------------------------------------------
// The "hubs" profile's text: synthetic languages. None of their words is an
// English function word (checked against a superset of litgraph's stopword
// list after folding diacritics, as litgraph folds them).

enum Script : uint8_t { kLatin, kCyrillic, kGreek, kHan, kKana, kHangul, kArabic, kDevanagari };

struct LangDef {
  const char* code;  // OpenAlex `language`
  Script script;
  double weight;  // share of works whose authors' country does not decide
  // Alphabetic scripts: syllable = onset + nucleus + coda, ' ' separated, '-'
  // for none; a language keeps ~170 of the combinations.
  const char* onsets;
  const char* nuclei;
  const char* codas;
  const char* endings;  // inflections of content words, '-' for none
  const char* comma;
  const char* stop;  // sentence end
  const char* qopen;
  const char* qclose;
  bool spaces;         // words separated by spaces (not zh, ja)
  bool noun_caps;      // German capitalizes nouns
  bool decimal_comma;  // "12,5 %"
  bool word_pairs;     // Vietnamese: a content word is two spaced syllables
};

const LangDef kLangs[] = {
    {"de", kLatin, 0.08, "b d f g h k l m n p r s t w z sch st sp pf kr tr br gr fl kl schw",
     "a e i o u ä ö ü ei au ie eu", "- - - n r s t l m ch ck ng nd st rt lt",
     "- - - - ung ungen keit heit lich lichen isch ische en er es e te", ",", ".", "\xE2\x80\x9E",
     "\xE2\x80\x9C", true, true, true, false},
    {"fr", kLatin, 0.08, "b c d f g j l m n p r s t v ch pl tr qu gr br cr fr",
     "a e i o u é è ê ou ai au eau oi an on in", "- - - r s l n x",
     "- - - ion ions ité ités ique iques ement ant ante ée és eur eurs aux", ",", ".",
     "\xC2\xAB\xC2\xA0", "\xC2\xA0\xC2\xBB", true, false, true, false},
    {"es", kLatin, 0.08, "b c d f g j l m n p r s t v ll ch pr tr gr bl cl fr",
     "a e i o u á é í ó ú ia ie ue io", "- - - n s r l",
     "- - - ción ciones idad idades ico ica icos mente ado ada ados ez", ",", ".", "\xE2\x80\x9C",
     "\xE2\x80\x9D", true, false, true, false},
    {"pt", kLatin, 0.08, "b c d f g j l m n p r s t v lh nh ch pr tr gr br",
     "a e i o u ã õ á é ê ó ô ão ei ou", "- - - s r l m",
     "- - - ção ções dade dades ico ica mente ado ada ões eiro", ",", ".", "\xE2\x80\x9C",
     "\xE2\x80\x9D", true, false, true, false},
    {"pl", kLatin, 0.04, "b c d g j k l m n p r s t w z cz sz rz dz ch ł ś ż prz trz st",
     "a e i o u y ą ę ó ie ia io", "- - - k n s ł ń ć ść w j",
     "- - - ość ości anie ania owy owa owe ów ach ami ych ej", ",", ".", "\xE2\x80\x9E",
     "\xE2\x80\x9D", true, false, true, false},
    {"tr", kLatin, 0.04, "b c ç d f g h k l m n p r s ş t v y z", "a e ı i o ö u ü",
     "- - n r l k m s t ş z", "- - - ler lar lerin ların de da nin ın sel sal lik lık", ",", ".",
     "\xE2\x80\x9C", "\xE2\x80\x9D", true, false, true, false},
    {"vi", kLatin, 0.05, "b c d đ g h k l m n p r s t v x ch gi kh ng nh ph th tr qu",
     "a à á ả ã ạ ă ắ ằ ặ â ấ ầ ậ e è é ẹ ê ế ề ệ i ì í ị o ò ó ọ ô ố ồ ộ ơ ớ ờ ợ u ù ú ụ ư ứ "
     "ừ ự y ý",
     "- - - c m n ng nh p t", "-", ",", ".", "\xE2\x80\x9C", "\xE2\x80\x9D", true, false, true,
     true},
    {"ru", kCyrillic, 0.10, "б в г д ж з к л м н п р с т ф х ц ч ш щ пр ст тр кр бл",
     "а е и о у ы я ю ё э", "- - - н р с т л й в к",
     "- - - ов ий ая ое ые ых ами ения ение ость ости ого ому ую ский ская", ",", ".", "\xC2\xAB",
     "\xC2\xBB", true, false, true, false},
    {"el", kGreek, 0.04, "β γ δ ζ θ κ λ μ ν ξ π ρ σ τ φ χ ψ στ πρ τρ",
     "α ε η ι ο υ ω ά έ ή ί ό ύ ώ αι ει ου", "- - - ν σ ρ",
     "- - - ος ης ων ικός ική ισμός ότητα ες ας ία ών", ",", ".", "\xC2\xAB", "\xC2\xBB", true,
     false, true, false},
    {"zh", kHan, 0.14, "", "", "", "-", "\xEF\xBC\x8C", "\xE3\x80\x82", "\xE2\x80\x9C",
     "\xE2\x80\x9D", false, false, false, false},
    {"ja", kKana, 0.06, "", "", "", "-", "\xE3\x80\x81", "\xE3\x80\x82", "\xE3\x80\x8C",
     "\xE3\x80\x8D", false, false, false, false},
    {"ko", kHangul, 0.04, "", "", "", "-", ",", ".", "\xE2\x80\x9C", "\xE2\x80\x9D", true, false,
     false, false},
    {"ar", kArabic, 0.04, "ب ت ث ج ح خ د ذ ر ز س ش ص ض ط ظ ع غ ف ق ك ل م ن ه و ي", "- ا و ي",
     "- - - ن م ر", "- - - ة ات ية ين ي", "\xD8\x8C", ".", "\xC2\xAB", "\xC2\xBB", true, false,
     false, false},
    {"fa", kArabic, 0.03, "ب پ ت ج چ خ د ر ز ژ س ش ف ق ک گ ل م ن ه و ی", "- ا و ی", "- - - ن م ر ت",
     "- - - ها ی ان ه ای", "\xD8\x8C", ".", "\xC2\xAB", "\xC2\xBB", true, false, false, false},
    {"hi", kDevanagari, 0.03, "क ख ग घ च छ ज झ ट ठ ड ढ ण त थ द ध न प फ ब भ म य र ल व श ष स ह",
     "- ा ि ी ु ू े ै ो ौ", "- - - ं", "- - - ों ें ता ती ना कर", ",", "\xE0\xA5\xA4", "\xE2\x80\x9C",
     "\xE2\x80\x9D", true, false, false, false},
};
constexpr int kNumLangs = sizeof(kLangs) / sizeof(kLangs[0]);

// Per country (kCountries order): the share of hubs-profile institutions and
// the language its authors write in when the country decides (-1: none).
struct HubsCountry {
  double weight;
  const char* lang;
};
const HubsCountry kHubsCountries[] = {
    {6, nullptr}, {18, "zh"},     {2, nullptr},   {7, "de"},      {6, "ja"},      {5, "fr"},
    {4, "hi"},    {2, nullptr},   {1.5, "fr"},    {1, nullptr},   {4, "es"},      {3, "ko"},
    {5, "pt"},    {1, nullptr},   {0.5, nullptr}, {0.3, nullptr}, {0.3, nullptr}, {0.3, nullptr},
    {1, "de"},    {0.7, "de"},    {0.7, "fr"},    {9, "ru"},      {3, "pl"},      {1, nullptr},
    {3, "tr"},    {3, "fa"},      {1.5, "ar"},    {1.5, "ar"},    {1.5, "es"},    {1, "es"},
    {0.6, "es"},  {1.5, "pt"},    {0.6, nullptr}, {0.4, nullptr}, {0.3, nullptr}, {1.5, "zh"},
    {0.4, "zh"},  {0.3, nullptr}, {0.2, nullptr},
};
static_assert(sizeof(kHubsCountries) / sizeof(kHubsCountries[0]) == kNumCountries);

// Field shares of the hubs profile (kFields order): physics, medicine and the
// life sciences dominate, as in a corpus with large collaborations.
const double kHubsFieldWeights[] = {0.8, 0.3, 2.2, 0.3, 0.4, 1.0, 1.0, 0.2, 1.1,
                                    0.4, 0.6, 1.2, 0.7, 1.0, 1.0, 0.7, 3.6, 0.9,
                                    0.2, 0.4, 3.0, 0.6, 0.5, 0.6, 0.3, 0.2};
static_assert(sizeof(kHubsFieldWeights) / sizeof(kHubsFieldWeights[0]) == kNumFields);

// Author names in native script for a third of the authors of some countries.
struct NativeNames {
  const char* country;
  const char* first;  // ' ' separated
  const char* last;
  bool family_first, spaced;
};
const NativeNames kNativeNames[] = {
    {"RU",
     "Александр Дмитрий Сергей Андрей Алексей Иван Михаил Николай Ольга Елена Наталья Ирина "
     "Татьяна Анна Мария Светлана",
     "Иванов Смирнов Кузнецов Попов Васильев Петров Соколов Михайлов Новиков Фёдоров Морозов "
     "Волков Козлов Лебедев",
     false, true},
    {"CN", "伟 静 磊 敏 军 洋 勇 艳 杰 涛 明 超 秀英 丽 强 芳 娜 建华 志强 海燕",
     "王 李 张 刘 陈 杨 黄 赵 吴 周 徐 孙 马 朱 胡 郭 何 林 高 罗", true, false},
    {"TW", "志明 淑芬 家豪 怡君 俊傑 雅婷 建宏 美玲", "陳 林 黃 張 李 王 吳 劉", true, false},
    {"JP", "健 翔 大輔 陽子 裕子 直樹 美咲 拓也 恵 誠",
     "佐藤 鈴木 高橋 田中 渡辺 伊藤 山本 中村 小林 加藤", true, true},
    {"KR", "민준 서연 지훈 현우 성민 재현 영호 동현 지원 은지", "김 이 박 최 정 강 조 윤 장 임",
     true, false},
    {"SA", "محمد أحمد علي عمر خالد يوسف فاطمة مريم نور ليلى",
     "حسن إبراهيم محمود عبدالله صالح منصور حداد خليل ناصر فاروق", false, true},
    {"EG", "محمد أحمد مصطفى عمر خالد يوسف فاطمة منى هبة سارة",
     "حسن إبراهيم محمود عبدالرحمن السيد عثمان سليمان", false, true},
};

// English function words a synthetic word must never fold to: litgraph's
// stopword list plus the title minor words, sorted for binary search.
const char* const kEnglishFunctionWords[] = {
    "a",       "about",   "above",  "after",   "again",  "against",   "all",        "also",
    "am",      "an",      "and",    "any",     "are",    "as",        "at",         "be",
    "because", "been",    "before", "being",   "below",  "between",   "both",       "but",
    "by",      "can",     "could",  "did",     "do",     "does",      "doing",      "down",
    "during",  "each",    "either", "et",      "etc",    "few",       "for",        "from",
    "further", "had",     "has",    "have",    "having", "he",        "her",        "here",
    "hers",    "herself", "him",    "himself", "his",    "how",       "however",    "i",
    "if",      "in",      "into",   "is",      "it",     "its",       "itself",     "just",
    "may",     "me",      "might",  "more",    "most",   "must",      "my",         "myself",
    "no",      "nor",     "not",    "now",     "of",     "off",       "on",         "once",
    "only",    "or",      "other",  "our",     "ours",   "ourselves", "out",        "over",
    "own",     "same",    "shall",  "she",     "should", "so",        "some",       "such",
    "than",    "that",    "the",    "their",   "theirs", "them",      "themselves", "then",
    "there",   "these",   "they",   "this",    "those",  "through",   "thus",       "to",
    "too",     "under",   "until",  "up",      "upon",   "us",        "very",       "via",
    "vs",      "was",     "we",     "were",    "what",   "when",      "where",      "whether",
    "which",   "while",   "who",    "whom",    "why",    "will",      "with",       "within",
    "without", "would",   "yet",    "you",     "your",   "yours",     "yourself",   "yourselves"};

// Base letters of Latin Extended-A (U+0100-U+017F), as litgraph folds them.
const char* const kExtAFold[] = {
    "a", "a", "a",  "a",  "a", "a", "c", "c", "c", "c", "c", "c", "c", "c", "d", "d",
    "d", "d", "e",  "e",  "e", "e", "e", "e", "e", "e", "e", "e", "g", "g", "g", "g",
    "g", "g", "g",  "g",  "h", "h", "h", "h", "i", "i", "i", "i", "i", "i", "i", "i",
    "i", "i", "ij", "ij", "j", "j", "k", "k", "k", "l", "l", "l", "l", "l", "l", "l",
    "l", "l", "l",  "n",  "n", "n", "n", "n", "n", "n", "n", "n", "o", "o", "o", "o",
    "o", "o", "oe", "oe", "r", "r", "r", "r", "r", "r", "s", "s", "s", "s", "s", "s",
    "s", "s", "t",  "t",  "t", "t", "t", "t", "u", "u", "u", "u", "u", "u", "u", "u",
    "u", "u", "u",  "u",  "w", "w", "y", "y", "y", "z", "z", "z", "z", "z", "z", "s"};
static_assert(sizeof(kExtAFold) / sizeof(kExtAFold[0]) == 128);

uint32_t DecodeCp(std::string_view s, size_t& i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  if (c < 0x80 || i + 1 >= s.size()) {
    ++i;
    return c;
  }
  if (c < 0xE0) {
    const uint32_t cp = ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(s[i + 1]) & 0x3Fu);
    i += 2;
    return cp;
  }
  if (c < 0xF0 && i + 2 < s.size()) {
    const uint32_t cp = ((c & 0x0Fu) << 12) |
                        ((static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 6) |
                        (static_cast<unsigned char>(s[i + 2]) & 0x3Fu);
    i += 3;
    return cp;
  }
  ++i;
  return c;
}

void PutCp(uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// Upper case of the lowercase letters the languages use; others unchanged.
// Turkish dotted i becomes U+0130.
uint32_t UpperCp(uint32_t cp, bool turkish) {
  if (cp >= 'a' && cp <= 'z') return turkish && cp == 'i' ? 0x130 : cp - 32;
  if (cp == 0x131) return 'I';                                   // Turkish dotless i
  if (cp >= 0xE0 && cp <= 0xFE && cp != 0xF7) return cp - 0x20;  // Latin-1
  if (cp >= 0x100 && cp <= 0x137) return cp & 1 ? cp - 1 : cp;   // Ext-A, pairs
  if (cp >= 0x139 && cp <= 0x148) return cp & 1 ? cp : cp - 1;
  if (cp >= 0x14A && cp <= 0x177) return cp & 1 ? cp - 1 : cp;
  if (cp >= 0x179 && cp <= 0x17E) return cp & 1 ? cp : cp - 1;
  if (cp == 0x1A1 || cp == 0x1B0) return cp - 1;                    // Vietnamese o, u horn
  if (cp >= 0x1EA0 && cp <= 0x1EF9) return cp & 1 ? cp - 1 : cp;    // Vietnamese tones
  if (cp >= 0x3B1 && cp <= 0x3C9 && cp != 0x3C2) return cp - 0x20;  // Greek
  if (cp == 0x3AC) return 0x386;
  if (cp >= 0x3AD && cp <= 0x3AF) return cp - 0x25;
  if (cp == 0x3CC) return 0x38C;
  if (cp == 0x3CD || cp == 0x3CE) return cp - 0x3F;
  if (cp >= 0x430 && cp <= 0x44F) return cp - 0x20;  // Cyrillic
  if (cp >= 0x450 && cp <= 0x45F) return cp - 0x50;
  return cp;
}

void CapitalizeFirst(std::string& w, size_t from, bool turkish) {
  if (from >= w.size()) return;
  size_t i = from;
  const uint32_t cp = DecodeCp(w, i);
  const uint32_t up = UpperCp(cp, turkish);
  if (up == cp) return;
  std::string u;
  PutCp(up, u);
  w.replace(from, i - from, u);
}

void UpperAll(std::string& w, bool turkish) {
  std::string out;
  for (size_t i = 0; i < w.size();) PutCp(UpperCp(DecodeCp(w, i), turkish), out);
  w.swap(out);
}

// Folds w as litgraph's word splitter would see it, for the function-word
// check: Latin letters (Latin-1, Extended-A, and conservatively Vietnamese
// tone letters) to lowercase ASCII, letters of other scripts to '#' (they
// make a word non-English), everything else to ' ' (a separator).
void FoldForCheck(std::string_view w, std::string& out) {
  out.clear();
  for (size_t i = 0; i < w.size();) {
    const uint32_t cp = DecodeCp(w, i);
    if (cp >= 'A' && cp <= 'Z') {
      out.push_back(static_cast<char>(cp + 32));
    } else if (cp >= 'a' && cp <= 'z') {
      out.push_back(static_cast<char>(cp));
    } else if (cp < 0xC0 || cp == 0xD7 || cp == 0xF7) {
      out.push_back(' ');
    } else if (cp <= 0xFF) {
      static const char kL1[] = "aaaaaaaceeeeiiiidnooooo ouuuuyts";
      const uint32_t k = (cp - 0xC0) & 31;
      if (k == 6)
        out += "ae";
      else if (k == 30)
        out += "th";
      else if (cp == 0xDF)
        out += "ss";
      else if (cp == 0xFF)
        out.push_back('y');
      else
        out.push_back(kL1[k]);
    } else if (cp <= 0x17F) {
      out += kExtAFold[cp - 0x100];
    } else if (cp == 0x1A0 || cp == 0x1A1) {
      out.push_back('o');
    } else if (cp == 0x1AF || cp == 0x1B0) {
      out.push_back('u');
    } else if (cp >= 0x1EA0 && cp <= 0x1EF9) {
      out.push_back(cp < 0x1EB8   ? 'a'
                    : cp < 0x1EC8 ? 'e'
                    : cp < 0x1ECC ? 'i'
                    : cp < 0x1EE4 ? 'o'
                    : cp < 0x1EF2 ? 'u'
                                  : 'y');
    } else if ((cp >= 0x2000 && cp <= 0x206F) || (cp >= 0x3000 && cp <= 0x303F) ||
               (cp >= 0xFF00 && cp <= 0xFF20) || cp == 0x60C || cp == 0x964) {
      out.push_back(' ');
    } else {
      out.push_back('#');
    }
  }
}

bool IsEnglishFunctionWord(std::string_view w) {
  return std::binary_search(std::begin(kEnglishFunctionWords), std::end(kEnglishFunctionWords), w,
                            [](std::string_view a, std::string_view b) { return a < b; });
}

// True if some word of s, split as litgraph splits (digits split too, to be
// safe), is an English function word.
bool HasEnglishFunctionWord(std::string_view s, std::string& scratch) {
  FoldForCheck(s, scratch);
  size_t b = 0;
  for (size_t k = 0; k <= scratch.size(); ++k) {
    if (k == scratch.size() || scratch[k] == ' ') {
      if (k > b && IsEnglishFunctionWord(std::string_view(scratch).substr(b, k - b))) return true;
      b = k + 1;
    }
  }
  return false;
}

// One language at run time: syllables (alphabetic scripts) or characters,
// function words (the most frequent ranks) and inflection endings.
struct Lang {
  const LangDef* def = nullptr;
  int index = 0;
  std::vector<std::string> syl;     // content-word units
  std::vector<std::string> func;    // function words, most frequent first
  std::vector<std::string> ends;    // inflection endings ("" = none)
  std::vector<std::string> kana;    // ja: katakana units; ko/ja: particles in func
  std::vector<std::string> digits;  // native digits (ar, fa, hi), else empty
  bool turkish = false;
  bool al = false;  // Arabic: the article al- on some nouns
};

constexpr uint32_t kFuncWords = 48;  // ranks below this are function words

// Builds the units of language l. Deterministic in seed.
void BuildLang(Lang& L, int l, uint64_t seed) {
  const LangDef& d = kLangs[l];
  L.def = &d;
  L.index = l;
  L.turkish = std::strcmp(d.code, "tr") == 0;
  L.al = std::strcmp(d.code, "ar") == 0;
  Rng rng(Mix2(seed ^ 0x1A4617, static_cast<uint64_t>(l)));
  std::string fold;
  auto shuffle = [&](std::vector<std::string>& v) {
    for (size_t k = v.size(); k > 1; --k)
      std::swap(v[k - 1], v[rng.Below(static_cast<uint32_t>(k))]);
  };
  auto cp_range = [&](uint32_t base, uint32_t span, uint32_t stride, uint32_t count,
                      std::vector<std::string>& out, uint32_t offset = 7) {
    for (uint32_t k = 0; k < count; ++k) {
      std::string s;
      PutCp(base + static_cast<uint32_t>((uint64_t{k} * stride + offset) % span), s);
      out.push_back(s);
    }
  };
  switch (d.script) {
    case kHan:  // CJK Unified Ideographs U+4E00-U+9FA5
      cp_range(0x4E00, 20902, 7919, 3000, L.syl);
      L.func.assign(L.syl.begin(), L.syl.begin() + kFuncWords);
      break;
    case kKana: {
      cp_range(0x4E00, 20902, 6007, 2500, L.syl);  // kanji
      cp_range(0x30A1, 82, 1, 82, L.kana);         // katakana
      std::vector<std::string> hira;
      cp_range(0x3041, 83, 1, 83, hira);
      shuffle(hira);
      for (uint32_t k = 0; L.func.size() < kFuncWords; ++k)
        L.func.push_back(k < 20 ? hira[k] : hira[k % 83] + hira[(k * 7 + 3) % 83]);
      break;
    }
    case kHangul:
      cp_range(0xAC00, 11172, 389, 1200, L.syl);
      L.func.assign(L.syl.begin(), L.syl.begin() + kFuncWords);
      break;
    default: {
      const auto on = Split(d.onsets, ' '), nu = Split(d.nuclei, ' '), co = Split(d.codas, ' ');
      std::vector<std::string> all;
      for (const auto& o : on)
        for (const auto& n : nu)
          for (const auto& c : co) {
            std::string s = (o == "-" ? "" : o) + (n == "-" ? "" : n) + (c == "-" ? "" : c);
            if (!s.empty() && std::find(all.begin(), all.end(), s) == all.end()) all.push_back(s);
          }
      shuffle(all);
      // Short syllables first (stable: ties keep the shuffled order), so
      // words are about as long as real ones.
      auto cps = [](const std::string& x) {
        size_t k = 0;
        for (unsigned char ch : x) k += (ch & 0xC0) != 0x80;
        return k;
      };
      std::stable_sort(all.begin(), all.end(), [&](const std::string& a, const std::string& b) {
        return std::min<size_t>(cps(a), 3) < std::min<size_t>(cps(b), 3);
      });
      // Function words: the shortest syllables that are no English word.
      for (const auto& s : all) {
        if (L.func.size() >= kFuncWords) break;
        if (HasEnglishFunctionWord(s, fold)) continue;
        L.func.push_back(s);
      }
      for (const auto& s : all)
        if (L.syl.size() < 170 && !HasEnglishFunctionWord(s, fold) &&
            std::find(L.func.begin(), L.func.end(), s) == L.func.end())
          L.syl.push_back(s);
    }
  }
  for (const auto& e : Split(d.endings, ' ')) L.ends.push_back(e == "-" ? "" : e);
  if (d.script == kArabic && std::strcmp(d.code, "fa") == 0)
    cp_range(0x6F0, 10, 1, 10, L.digits, 0);
  else if (d.script == kArabic)
    cp_range(0x660, 10, 1, 10, L.digits, 0);
  else if (d.script == kDevanagari)
    cp_range(0x966, 10, 1, 10, L.digits, 0);
}

// The word of rank r in language L (r < kFuncWords: a function word). Content
// words have at least two units; the rank's digits in base |units| pick them,
// so frequent words are short. Written into out; never an English function
// word.
void LangWord(const Lang& L, uint64_t r, std::string& out, std::string& fold) {
  out.clear();
  if (r < kFuncWords) {
    out = L.func[r];
    return;
  }
  uint64_t x = r - kFuncWords;
  const Script sc = L.def->script;
  if (sc == kKana && Mix(x * 31 + 5) % 10 >= 6) {  // katakana loanword, 3+ units
    const uint64_t n = L.kana.size();
    x += n * n;
    do {
      out += L.kana[x % n];
      x /= n;
    } while (x);
    return;
  }
  const uint64_t n = L.syl.size();
  x += n;
  bool first = true;
  do {
    if (!first && L.def->word_pairs) out.push_back(' ');  // Vietnamese: spaced syllables
    out += L.syl[x % n];
    x /= n;
    first = false;
  } while (x);
  if (sc == kGreek && out.size() >= 2 && out.compare(out.size() - 2, 2, "\xCF\x83") == 0)
    out.replace(out.size() - 2, 2, "\xCF\x82");  // final sigma
  if (sc == kArabic && std::strcmp(L.def->code, "fa") == 0 && Mix(r) % 12 == 0)
    out.insert(0, "\xD9\x85\xDB\x8C\xE2\x80\x8C");  // "mi" + zero-width non-joiner
  if (sc == kLatin && HasEnglishFunctionWord(out, fold)) out += L.syl[r % n];
}

// ---------------------------------------------------------------------------
// The world: taxonomy, vocabulary, topics, institutions, sources, authors.

struct PosList {  // words of one part of speech, Zipfian by list order
  std::vector<uint32_t> ids;
  uint32_t group = 0;
};

struct TemplateItem {  // a literal word, or a slot with attached punctuation
  char slot = 0;
  std::string text, pre, post;
};

struct Topic {
  uint16_t subfield = 0;  // index into kSubfields
  uint8_t field = 0;      // index into kFields
  uint32_t term_group = 0, term_off = 0, term_n = 0;
  uint32_t phrase_group = 0, phrase_off = 0, phrase_n = 0;
  uint64_t rare_base = 0;
  uint32_t rare_n = 0;
  double rare_top = 1;
  double weight = 1, trend = 0;
  std::string name;
  std::string json_head;  // {"id":...,"display_name":...,"score":
  std::string json_tail;  // ,"subfield":{...},"field":{...},"domain":{...}}
};

struct Institution {
  uint8_t country = 0;
  std::string json;  // the complete {"id":...} object
};

struct Source {
  std::string json;  // the complete {"id":...} object
  std::string slug;
  bool is_oa = false;
};

// The default profile uses the first five types; the hubs profile all ten.
enum WorkType : uint8_t {
  kArticle,
  kPreprint,
  kBookChapter,
  kDataset,
  kReview,
  kLetter,
  kEditorial,
  kErratum,
  kParatext,
  kDissertation,
  kNumTypes
};
const char* const kTypeNames[] = {"article",  "preprint",    "book-chapter", "dataset",
                                  "review",   "letter",      "editorial",    "erratum",
                                  "paratext", "dissertation"};
static_assert(sizeof(kTypeNames) / sizeof(kTypeNames[0]) == kNumTypes);
const double kTypeWeights[] = {0.82, 0.07, 0.05, 0.02, 0.04};

constexpr int kFirstYear = 1990, kLastYear = 2025, kNumYears = kLastYear - kFirstYear + 1;

class World {
 public:
  World(uint64_t n, uint64_t seed, bool hubs) : n_(n), seed_(seed), hubs_(hubs) {
    if (hubs_) {
      num_topics_ = 2000;
      topic_id_base_ = 20000;
      topic_sigma_ = 1.7;
    }
  }

  void Build() {
    Rng rng(Mix2(seed_, 1));
    BuildVocab(rng);
    BuildTopics(rng);
    if (hubs_) {
      BuildLangs();
      BuildInstitutionsHubs(rng);
      BuildSourcesHubs(rng);
      return;
    }
    BuildInstitutions(rng);
    BuildSources(rng);
  }

  // --- vocabulary ---------------------------------------------------------
  void BuildVocab(Rng& rng) {
    auto word_list = [&](const char* words, double zipf_s, double q, PosList& out) {
      for (const auto& w : Split(words, ' ')) out.ids.push_back(vocab_.Intern(w));
      out.group = aliases_.Add(ZipfWeights(out.ids.size(), zipf_s, q));
    };
    word_list(kNouns, 0.9, 6, nouns_);
    word_list(kAdjectives, 0.9, 4, adjectives_);
    word_list(kVerbs, 0.8, 2, verbs_);
    word_list(kVerbs3, 0.8, 2, verbs3_);
    word_list(kVerbsPlural, 0.7, 1, verbs_plural_);
    word_list(kParticiples, 0.8, 2, participles_);
    for (const char* t : kSentenceTemplates) {
      std::vector<TemplateItem> items;
      for (const auto& chunk : Split(t, ' ')) {
        TemplateItem it;
        const size_t open = chunk.find('{');
        if (open == std::string::npos) {
          it.text = chunk;
        } else {
          const size_t close = chunk.find('}', open);
          it.pre = chunk.substr(0, open);
          it.slot = chunk[open + 1];
          it.post = chunk.substr(close + 1);
        }
        items.push_back(std::move(it));
      }
      templates_.push_back(std::move(items));
    }
    for (const auto& w : Split(kHeadNouns, ' ')) head_ids_.push_back(vocab_.Intern(w));
    title_nouns_ = Split(kTitleNouns, ' ');
    title_adjs_ = Split(kTitleAdjectives, ' ');
    title_gerunds_ = Split(kTitleGerunds, ' ');
    syllables_ = Split(kSyllables, ' ');
    rare_ends_ = Split(kRareSuffixes, ' ');

    for (int f = 0; f < kNumFields; ++f) {
      for (const auto& w : Split(kFields[f].words, ' '))
        field_words_[f].push_back(vocab_.Intern(w));
      for (const auto& p : Split(kFields[f].phrases, '|'))
        field_phrases_[f].push_back(AddPhrase(p));
    }

    // Pseudo-technical stems, ~1,500 per field: a domain prefix on one of the
    // field's real words ("photo" + "catalytic", "post-" + "treatment"),
    // prefix+root+suffix ("cytomorphic") and root+suffix ("lytic").
    const auto roots = Split(kRoots, ' '), suf = Split(kSuffixes, ' ');
    const auto hyphen = Split(kHyphenPrefixes, ' ');
    auto make = [&](const std::string& p, const std::string& rest) {
      std::string w = p;
      if (!w.empty() && w.back() == 'o' && std::strchr("aeiou", rest[0])) w.pop_back();
      w += rest;
      return w;
    };
    std::vector<std::string> root_suffix;
    for (const auto& r : roots)
      for (const auto& sf : suf) root_suffix.push_back(r + sf);
    for (int f = 0; f < kNumFields; ++f) {
      std::vector<uint32_t>& out = field_stems_[f];
      std::unordered_set<uint32_t> seen;
      auto add = [&](const std::string& w) {
        if (w.empty()) return;
        const uint32_t id = vocab_.Intern(w);
        if (seen.insert(id).second) out.push_back(id);
      };
      auto pre = Split(kDomainPrefixes[kFields[f].domain], ' ');
      std::vector<std::string> bases;
      for (const auto& w : Split(kFields[f].words, ' ')) {
        bool ok = w.size() >= 4;
        for (char ch : w) ok = ok && IsLowerAscii(ch);
        if (ok) bases.push_back(w);
      }
      // Prefixed real words: a random ~60% of all combinations.
      for (const auto& b : bases) {
        for (const auto& p : pre)
          if (rng.Chance(0.6)) add(make(p, b));
        for (const auto& p : hyphen)
          if (rng.Chance(0.15)) add(p + b);
      }
      while (out.size() < 1100) {
        const std::string& p = pre[rng.Below(pre.size())];
        const std::string& r = roots[rng.Below(roots.size())];
        add(make(p, r + suf[rng.Below(suf.size())]));
      }
      while (out.size() < 1500) add(root_suffix[rng.Below(root_suffix.size())]);
      for (size_t k = out.size(); k > 1; --k) std::swap(out[k - 1], out[rng.Below(k)]);
    }
  }

  uint32_t AddPhrase(std::string_view p) {
    const uint32_t id = static_cast<uint32_t>(phrase_off_.size());
    phrase_off_.push_back(static_cast<uint32_t>(phrase_words_.size()));
    for (const auto& w : Split(p, ' ')) phrase_words_.push_back(vocab_.Intern(w));
    phrase_end_.push_back(static_cast<uint32_t>(phrase_words_.size()));
    return id;
  }
  uint32_t AddPhrase(const std::vector<uint32_t>& words) {
    const uint32_t id = static_cast<uint32_t>(phrase_off_.size());
    phrase_off_.push_back(static_cast<uint32_t>(phrase_words_.size()));
    phrase_words_.insert(phrase_words_.end(), words.begin(), words.end());
    phrase_end_.push_back(static_cast<uint32_t>(phrase_words_.size()));
    return id;
  }
  std::string PhraseTitle(uint32_t p) const {
    std::string s;
    for (uint32_t k = phrase_off_[p]; k < phrase_end_[p]; ++k) {
      if (k > phrase_off_[p]) s.push_back(' ');
      AppendTitleWord(s, vocab_.Word(phrase_words_[k]), k == phrase_off_[p]);
    }
    return s;
  }

  bool PhraseHasFunctionWord(uint32_t p) const {
    std::string fold;
    for (uint32_t k = phrase_off_[p]; k < phrase_end_[p]; ++k)
      if (HasEnglishFunctionWord(vocab_.Word(phrase_words_[k]), fold)) return true;
    return false;
  }

  // --- hubs profile: languages, institutions, sources ---------------------
  void BuildLangs() {
    langs_.resize(kNumLangs);
    std::vector<double> w;
    for (int l = 0; l < kNumLangs; ++l) {
      BuildLang(langs_[l], l, seed_);
      w.push_back(kLangs[l].weight);
    }
    lang_group_ = aliases_.Add(w);
    for (int c = 0; c < kNumCountries; ++c) {
      country_lang_[c] = -1;
      if (kHubsCountries[c].lang)
        country_lang_[c] = static_cast<int8_t>(LangIndex(kHubsCountries[c].lang));
    }
  }

  static int LangIndex(const char* code) {
    for (int l = 0; l < kNumLangs; ++l)
      if (std::strcmp(kLangs[l].code, code) == 0) return l;
    return -1;
  }

  // A capitalized content word of language l picked by key (for names).
  std::string NameWord(int l, uint64_t key) const {
    std::string w, fold;
    LangWord(langs_[l], kFuncWords + 100 + Mix(key) % 20000, w, fold);
    CapitalizeFirst(w, 0, langs_[l].turkish);
    return w;
  }

  // Fills a pattern: '%' the place, '#' a word of language l.
  std::string FillPattern(std::string_view pat, const std::string& place, int l,
                          uint64_t key) const {
    std::string out;
    for (char ch : pat) {
      if (ch == '%')
        out += place;
      else if (ch == '#')
        out += NameWord(l < 0 ? 0 : l, key++);
      else
        out.push_back(ch);
    }
    return out;
  }

  void BuildInstitutionsHubs(Rng& rng) {
    // Names in the country's language: edu|health|facility|gov|company
    // patterns, '|' between types and ';' between variants.
    struct Pat {
      const char* lang;
      const char* pats;
    };
    static const Pat kPats[] = {
        {"",
         "% University;% State University;% Technical University;% Polytechnic|% University "
         "Hospital;% General Hospital;% Medical Center|% National Laboratory;% Research "
         "Institute;% Research Center|% Geological Survey;% Public Health Agency|% "
         "Technologies;% Pharmaceuticals;% Labs"},
        {"de",
         "Universität %;Technische Universität %;Hochschule %|Universitätsklinikum "
         "%;Klinikum %|#-Institut %;Forschungszentrum %|Bundesanstalt # %;Landesamt % #|% "
         "# GmbH;% AG"},
        {"fr",
         "Université de %;École Polytechnique de %;Université % #|CHU de %;Hôpital %|"
         "Institut # de %;Laboratoire # %|Agence # de %|% SA;% # SAS"},
        {"es",
         "Universidad de %;Universidad Nacional de %;Universidad Politécnica de "
         "%|Hospital Universitario de %;Hospital General de %|Instituto # de %;Centro de "
         "Investigación # %|Agencia # de %|% S.A.;Laboratorios % S.L."},
        {"pt",
         "Universidade de %;Universidade Federal de %;Universidade Estadual de "
         "%|Hospital das Clínicas de %;Hospital de %|Instituto # de %;Fundação # %|Agência "
         "# de %|% Ltda.;% S.A."},
        {"pl",
         "Uniwersytet %;Politechnika %;Akademia # %|Szpital Uniwersytecki %;Szpital "
         "%|Instytut # %|Urząd # %|% sp. z o.o."},
        {"tr",
         "% Üniversitesi;% Teknik Üniversitesi|% Eğitim ve Araştırma Hastanesi|% # "
         "Enstitüsü|% # Müdürlüğü|% A.Ş."},
        {"ru",
         "% государственный университет;Университет %;% политехнический "
         "университет|Клиническая больница %|Институт # %;НИИ # %|Агентство # %|ООО «%»"},
        {"zh",
         "%大学;%理工大学;%师范大学|%人民医院;%大学附属医院|中国科学院%研究所;%研究院|%环境保护局|%"
         "科技有限公司"},
        {"ja", "%大学;%工業大学|%大学病院|%研究所|%庁|%株式会社"},
        {"ko", "%대학교;%과학기술원|%대학교병원|%연구원|%청|%주식회사"},
        {"ar", "جامعة %;جامعة % التقنية|مستشفى %|معهد % #|هيئة %|شركة %"},
        {"fa", "دانشگاه %;دانشگاه صنعتی %|بیمارستان %|پژوهشگاه %|سازمان %|شرکت %"},
        {"hi",
         "% विश्वविद्यालय;भारतीय प्रौद्योगिकी संस्थान %|% चिकित्सालय|% अनुसंधान संस्थान|% "
         "विभाग|% लिमिटेड"},
    };
    const uint64_t count = std::max<uint64_t>(40, n_ / 40);
    std::vector<double> cw;
    for (const auto& c : kHubsCountries) cw.push_back(c.weight);
    const uint32_t country_group = aliases_.Add(cw);
    const uint32_t type_group = aliases_.Add(std::vector<double>{0.70, 0.12, 0.10, 0.04, 0.04});
    std::vector<std::vector<std::string>> cities(kNumCountries);
    for (int c = 0; c < kNumCountries; ++c) cities[c] = Split(kCountries[c].cities, ',');
    std::vector<uint32_t> city_used(kNumCountries, 0);
    std::unordered_set<std::string> names;
    std::vector<double> weight;
    for (uint64_t k = 0; k < count; ++k) {
      const int c = static_cast<int>(aliases_.Sample(country_group, rng));
      const int type = static_cast<int>(aliases_.Sample(type_group, rng));
      const int l = country_lang_[c];
      const Pat* pat = &kPats[0];
      for (const auto& p : kPats)
        if (l >= 0 && std::strcmp(p.lang, kLangs[l].code) == 0) pat = &p;
      const auto types = Split(pat->pats, '|');
      const auto variants = Split(types[type], ';');
      const std::string& v = variants[rng.Below(static_cast<uint32_t>(variants.size()))];
      // Latin-script countries use real cities first, then synthetic places;
      // others a place word of their language.
      std::string place;
      const bool native = l >= 0 && kLangs[l].script != kLatin;
      if (native) {
        place = NameWord(l, k * 7 + 1);
      } else if (city_used[c] < cities[c].size() * 2) {
        place = cities[c][city_used[c]++ % cities[c].size()];
      } else {
        place = SyntheticPlace(k, kCountries[c].culture);
      }
      std::string name = FillPattern(v, place, l, k * 131);
      for (uint64_t extra = 1; names.count(name); ++extra)
        name = FillPattern(v,
                           native ? NameWord(l, k * 7 + 1 + extra * 977)
                                  : SyntheticPlace(k * 131 + extra, kCountries[c].culture),
                           l, k * 131 + extra);
      names.insert(name);

      Institution inst;
      inst.country = static_cast<uint8_t>(c);
      std::string& j = inst.json;
      j = "{\"id\":\"https://openalex.org/I";
      AppendU64(j, 200000000 + k * 4999);
      j += "\",\"display_name\":";
      AppendJsonStr(j, name);
      j += ",\"ror\":\"https://ror.org/0";
      static const char kRor[] = "0123456789abcdefghjkmnpqrstvwxyz";
      uint64_t x = (k * 2654435761ULL + 12345) & ((uint64_t{1} << 30) - 1);
      for (int d = 0; d < 6; ++d, x >>= 5) j.push_back(kRor[x & 31]);
      const uint64_t check = Mix(k + 77) % 98 + 1;
      j.push_back(static_cast<char>('0' + check / 10));
      j.push_back(static_cast<char>('0' + check % 10));
      j += "\",\"country_code\":\"";
      j += kCountries[c].code;
      j += "\",\"type\":\"";
      j += kInstTypes[type];
      j += "\"}";
      institutions_.push_back(std::move(inst));
      const double u = 1.0 - rng.Unit();
      weight.push_back(std::min(static_cast<double>(count / 5 + 50), DetPow(u, -1.0)));
    }
    inst_group_ = aliases_.Add(weight);
  }

  void BuildSourcesHubs(Rng& rng) {
    static const char* const kJournalPats[kNumLangs] = {
        "Zeitschrift für #;#-Forschung;Archiv für #;Berichte # #",           // de
        "Revue de #;Annales de #;Cahiers #;Bulletin # #",                    // fr
        "Revista de #;Anales de #;Boletín #;Revista Española de #",          // es
        "Revista Brasileira de #;Revista de #;Cadernos de #;Arquivos de #",  // pt
        "Przegląd #;Postępy #;Acta #;Kwartalnik #",                          // pl
        "# Dergisi;Türk # Dergisi;# Bülteni",                                // tr
        "Tạp chí #;Tạp chí # Việt Nam",                                      // vi
        "Вестник #;Журнал #;Известия #;Успехи #",                            // ru
        "Επιθεώρηση #;Αρχεία #",                                             // el
        "#学报;#杂志;中国#;#研究",                                           // zh
        "#学会誌;#研究;日本#学会誌",                                         // ja
        "#학회지;한국#학회논문지",                                           // ko
        "مجلة #;مجلة # العربية",                                             // ar
        "مجله #;فصلنامه #",                                                  // fa
        "# पत्रिका;भारतीय # पत्रिका",                                          // hi
    };
    static const char kIntl[] = "Acta #;Annales #;Scientia #;Archivum #;# Letters;# Reviews";
    const uint64_t count = std::max<uint64_t>(kNumSubfields, n_ / 100);
    std::unordered_set<std::string> names;
    std::vector<std::vector<double>> w(kNumSubfields);
    uint64_t k = 0;
    for (; k < count; ++k) {
      const int s = static_cast<int>(k < kNumSubfields ? k : rng.Below(kNumSubfields));
      const bool intl = rng.Chance(0.3);
      const int l = static_cast<int>(aliases_.Sample(lang_group_, rng));
      const auto pats = Split(intl ? kIntl : kJournalPats[l], ';');
      // International journals are named in a Latin-script language.
      const int nl = intl ? static_cast<int>(k % 7) : l;
      std::string name;
      for (int attempt = 0; attempt < 40 && (name.empty() || names.count(name)); ++attempt) {
        const std::string& pat = pats[rng.Below(static_cast<uint32_t>(pats.size()))];
        name = FillPattern(pat, "", nl,
                           uint64_t{static_cast<uint64_t>(s)} * 1000003 + k * 17 + attempt);
      }
      while (names.count(name)) name += " " + NameWord(nl, k * 3 + name.size());
      names.insert(name);
      const bool oa = rng.Chance(0.35);
      sub_sources_[s].push_back(AddSource(k, name, "journal", oa, rng.Chance(0.8)));
      const double u = 1.0 - rng.Unit();
      w[s].push_back(std::min(50000.0, DetPow(u, -1.0 / 0.8)));
    }
    for (int s = 0; s < kNumSubfields; ++s) sub_source_group_[s] = aliases_.Add(w[s]);
    // Three multidisciplinary mega-journals take 12% of journal articles.
    mega_journal_[0] = AddSource(k++, "Acta Scientiarum Universalis", "journal", true, true);
    mega_journal_[1] = AddSource(k++, "Scientia Aperta", "journal", true, true);
    mega_journal_[2] = AddSource(k++, "Nexus Multidisciplinaris", "journal", true, true);
    mega_journal_group_ = aliases_.Add(std::vector<double>{6, 3, 1});
    repo_arxiv_ = AddSource(k++, "arXiv (Cornell University)", "repository", true, false);
    repo_biorxiv_ =
        AddSource(k++, "bioRxiv (Cold Spring Harbor Laboratory)", "repository", true, false);
    repo_medrxiv_ =
        AddSource(k++, "medRxiv (Cold Spring Harbor Laboratory)", "repository", true, false);
    repo_ssrn_ = AddSource(k++, "SSRN Electronic Journal", "repository", true, false);
    repo_zenodo_ = AddSource(k++, "Zenodo (CERN)", "repository", true, false);
    repo_figshare_ = AddSource(k++, "Figshare", "repository", true, false);
    // Regional preprint servers for some languages.
    static const char* const kRegional[][2] = {
        {"fr", "HAL (Le Centre pour la Communication Scientifique Directe)"},
        {"ru", "КиберЛенинка"},
        {"zh", "ChinaXiv"},
        {"ja", "Jxiv"},
        {"es", "SciELO Preprints"},
        {"pt", "SciELO Preprints"}};
    for (int l = 0; l < kNumLangs; ++l) lang_repo_[l] = -1;
    std::unordered_map<std::string, int> regional;
    for (const auto& r : kRegional) {
      auto it = regional.find(r[1]);
      if (it == regional.end())
        it = regional
                 .emplace(r[1], static_cast<int>(AddSource(k++, r[1], "repository", true, false)))
                 .first;
      lang_repo_[LangIndex(r[0])] = it->second;
    }
    for (int f = 0; f < kNumFields; ++f) {
      std::string fname = kFields[f].name;
      for (size_t p; (p = fname.find(" and ")) != std::string::npos;) fname.replace(p, 5, " & ");
      book_series_[f] = AddSource(k++, "Monographiae: " + fname, "book series", false, true);
    }
  }

  // --- taxonomy and topics ------------------------------------------------
  void BuildTopics(Rng& rng) {
    for (int s = 0; s < kNumSubfields; ++s) {
      const int fid = kSubfields[s].id / 100;
      int f = 0;
      while (kFields[f].id != fid) ++f;
      sub_field_[s] = static_cast<uint8_t>(f);
      field_subs_[f].push_back(static_cast<uint16_t>(s));
    }
    // Subfield sizes: the field's share split unevenly among its subfields.
    std::vector<double> sub_w(kNumSubfields);
    double total = 0;
    for (int s = 0; s < kNumSubfields; ++s) {
      const int f = sub_field_[s];
      sub_w[s] = (hubs_ ? kHubsFieldWeights[f] : kFields[f].weight) /
                 static_cast<double>(field_subs_[f].size()) * DetExp(0.5 * rng.Normal());
      total += sub_w[s];
    }
    // Topics per subfield: 4 each plus the rest by subfield weight (largest
    // remainder).
    std::vector<int> per_sub(kNumSubfields, 4);
    const int rest = num_topics_ - 4 * kNumSubfields;
    std::vector<std::pair<double, int>> rem;
    int given = 0;
    for (int s = 0; s < kNumSubfields; ++s) {
      const double q = rest * sub_w[s] / total;
      per_sub[s] += static_cast<int>(q);
      given += static_cast<int>(q);
      rem.emplace_back(q - static_cast<int>(q), s);
    }
    std::stable_sort(rem.begin(), rem.end(), [](auto& a, auto& b) { return a.first > b.first; });
    for (int k = 0; given < rest; ++k, ++given) ++per_sub[rem[k].second];
    std::vector<uint16_t> topic_sub;
    for (int s = 0; s < kNumSubfields; ++s)
      for (int k = 0; k < per_sub[s]; ++k) topic_sub.push_back(static_cast<uint16_t>(s));
    for (size_t k = topic_sub.size(); k > 1; --k)
      std::swap(topic_sub[k - 1], topic_sub[rng.Below(k)]);

    // Per-subfield stems and phrases, shared by that subfield's topics.
    std::vector<std::vector<uint32_t>> sub_stems(kNumSubfields), sub_phr(kNumSubfields);
    for (int s = 0; s < kNumSubfields; ++s) {
      const auto& fs = field_stems_[sub_field_[s]];
      for (int k = 0; k < 120; ++k) sub_stems[s].push_back(fs[rng.Below(fs.size())]);
      for (int k = 0; k < 6; ++k) {
        std::vector<uint32_t> w = {sub_stems[s][rng.Below(40)],
                                   head_ids_[rng.Below(head_ids_.size())]};
        if (rng.Chance(0.3)) w.insert(w.begin(), sub_stems[s][rng.Below(120)]);
        sub_phr[s].push_back(AddPhrase(w));
      }
    }

    topics_.resize(num_topics_);
    std::unordered_set<std::string> names;
    for (int t = 0; t < num_topics_; ++t) {
      Topic& tp = topics_[t];
      const int s = topic_sub[t], f = sub_field_[s];
      tp.subfield = static_cast<uint16_t>(s);
      tp.field = static_cast<uint8_t>(f);
      sub_topics_[s].push_back(static_cast<uint32_t>(t));
      tp.weight = sub_w[s] / per_sub[s] * DetExp(topic_sigma_ * rng.Normal());
      tp.trend = 0.05 * rng.Normal();

      // Terms: real field words (boosted to the top ranks), subfield stems and
      // other stems of the field.
      const uint32_t n = 50 + rng.Below(151);
      std::vector<std::pair<double, uint32_t>> keyed;
      std::unordered_set<uint32_t> seen;
      auto add = [&](uint32_t w, double key) {
        if (seen.insert(w).second) keyed.emplace_back(key, w);
      };
      const auto& fw = field_words_[f];
      for (uint32_t k = 0; k < n * 15 / 100; ++k) {
        const uint32_t w = fw[rng.Below(fw.size())];
        add(w, 0.3 * rng.Unit());
      }
      for (uint32_t k = 0; k < n * 35 / 100; ++k) {
        const uint32_t w = sub_stems[s][rng.Below(120)];
        add(w, rng.Unit());
      }
      const auto& fs = field_stems_[f];
      for (uint32_t k = 0; k < n * 30 / 100; ++k) {
        const uint32_t w = fs[rng.Below(fs.size())];
        add(w, rng.Unit());
      }
      while (keyed.size() < n) {
        const uint32_t w = fs[rng.Below(fs.size())];
        add(w, rng.Unit());
      }
      std::stable_sort(keyed.begin(), keyed.end(),
                       [](auto& a, auto& b) { return a.first < b.first; });
      tp.term_off = static_cast<uint32_t>(topic_terms_.size());
      tp.term_n = static_cast<uint32_t>(keyed.size());
      for (auto& kv : keyed) topic_terms_.push_back(kv.second);
      tp.term_group = aliases_.Add(ZipfWeights(tp.term_n, 1.0, 1.5));

      // Phrases: topic-specific ones first (they name the topic), then real
      // field phrases and the subfield's shared phrases.
      std::vector<std::pair<double, uint32_t>> pk;
      const uint32_t own = 5 + rng.Below(7);
      for (uint32_t k = 0; k < own; ++k) {
        std::vector<uint32_t> w;
        const uint32_t top = std::min<uint32_t>(tp.term_n, 30);
        w.push_back(rng.Chance(0.4) ? fw[rng.Below(fw.size())]
                                    : topic_terms_[tp.term_off + rng.Below(top)]);
        if (rng.Chance(0.35)) w.push_back(topic_terms_[tp.term_off + rng.Below(top)]);
        w.push_back(rng.Chance(0.6) ? head_ids_[rng.Below(head_ids_.size())]
                                    : topic_terms_[tp.term_off + rng.Below(top)]);
        if (w[0] == w[1]) w.erase(w.begin());
        pk.emplace_back(k == 0 ? -2.0 : k == 1 ? -1.0 : rng.Unit() * 0.6, AddPhrase(w));
      }
      const auto& fp = field_phrases_[f];
      const uint32_t nreal = 3 + rng.Below(3);
      for (uint32_t k = 0; k < nreal; ++k) {
        const double key = 0.1 + rng.Unit();
        pk.emplace_back(key, fp[rng.Below(fp.size())]);
      }
      for (int k = 0; k < 2; ++k) {
        const double key = 0.3 + rng.Unit();
        pk.emplace_back(key, sub_phr[s][rng.Below(6)]);
      }
      std::stable_sort(pk.begin(), pk.end(), [](auto& a, auto& b) { return a.first < b.first; });
      tp.phrase_off = static_cast<uint32_t>(topic_phrases_.size());
      std::unordered_set<uint32_t> pseen;
      for (auto& kv : pk)
        if (pseen.insert(kv.second).second && !(hubs_ && PhraseHasFunctionWord(kv.second)))
          topic_phrases_.push_back(kv.second);
      tp.phrase_n = static_cast<uint32_t>(topic_phrases_.size()) - tp.phrase_off;
      tp.phrase_group = aliases_.Add(ZipfWeights(tp.phrase_n, 0.9, 1.0));

      // Name: "<Phrase> and <Phrase>", made unique.
      const uint32_t* ph = &topic_phrases_[tp.phrase_off];
      // (The hubs profile has no English function words, even in names.)
      std::string name = PhraseTitle(ph[0]) + (hubs_ ? ", " : " and ") + PhraseTitle(ph[1]);
      for (uint32_t k = 2; names.count(name) && k < tp.phrase_n; ++k)
        name = PhraseTitle(ph[0]) + (hubs_ ? ": " : " in ") + PhraseTitle(ph[k]);
      while (names.count(name)) name += " " + title_nouns_[rng.Below(title_nouns_.size())];
      names.insert(name);
      tp.name = name;

      tp.json_head = "{\"id\":\"https://openalex.org/T";
      AppendU64(tp.json_head, topic_id_base_ + static_cast<uint64_t>(t));
      tp.json_head += "\",\"display_name\":";
      AppendJsonStr(tp.json_head, name);
      tp.json_head += ",\"score\":";
      const FieldDef& fd = kFields[f];
      tp.json_tail = ",\"subfield\":{\"id\":\"https://openalex.org/subfields/";
      AppendU64(tp.json_tail, kSubfields[s].id);
      tp.json_tail += "\",\"display_name\":";
      AppendJsonStr(tp.json_tail, kSubfields[s].name);
      tp.json_tail += "},\"field\":{\"id\":\"https://openalex.org/fields/";
      AppendU64(tp.json_tail, fd.id);
      tp.json_tail += "\",\"display_name\":";
      AppendJsonStr(tp.json_tail, fd.name);
      tp.json_tail += "},\"domain\":{\"id\":\"https://openalex.org/domains/";
      AppendU64(tp.json_tail, fd.domain);
      tp.json_tail += "\",\"display_name\":";
      AppendJsonStr(tp.json_tail, kDomains[fd.domain]);
      tp.json_tail += "}}";
    }
  }

  // --- institutions -------------------------------------------------------
  std::string SyntheticPlace(uint64_t k, int culture) const {
    std::string p;
    const uint64_t n = syllables_.size();
    uint64_t x = k + n;  // at least two syllables
    while (x) {
      p += syllables_[x % n];
      x /= n;
    }
    const auto ends = Split(kCultures[culture].place_end, ',');
    p += ends[Mix(k) % ends.size()];
    p[0] = Upper(p[0]);
    return p;
  }

  void BuildInstitutions(Rng& rng) {
    const uint64_t count = std::max<uint64_t>(20, n_ / 50);
    std::vector<double> cw;
    for (const auto& c : kCountries) cw.push_back(c.weight);
    const uint32_t country_group = aliases_.Add(cw);
    const uint32_t type_group = aliases_.Add(std::vector<double>{0.75, 0.10, 0.07, 0.04, 0.04});
    std::vector<std::vector<std::string>> cities(kNumCountries);
    for (int c = 0; c < kNumCountries; ++c) cities[c] = Split(kCountries[c].cities, ',');
    std::vector<uint32_t> city_used(kNumCountries, 0);
    std::unordered_set<std::string> names;
    std::vector<double> weight;
    static const char* const kEdu[] = {"University of %",
                                       "% University",
                                       "% Institute of Technology",
                                       "% State University",
                                       "% University of Technology",
                                       "Technical University of %",
                                       "% Medical University",
                                       "% Polytechnic University",
                                       "% Normal University",
                                       "% College"};
    static const char* const kHealth[] = {"% University Hospital", "% General Hospital",
                                          "% Medical Center", "% Children's Hospital"};
    static const char* const kFacility[] = {"% National Laboratory", "% Research Institute",
                                            "% Institute for Advanced Study",
                                            "% Center for Applied Research"};
    static const char* const kGov[] = {"% Environmental Agency", "% Public Health Agency",
                                       "% Bureau of Standards", "% Geological Survey"};
    static const char* const kCompany[] = {"% Technologies", "% Pharmaceuticals", "% Labs",
                                           "% Instruments"};
    for (uint64_t k = 0; k < count; ++k) {
      const int c = static_cast<int>(aliases_.Sample(country_group, rng));
      const int type = static_cast<int>(aliases_.Sample(type_group, rng));
      const int culture = kCountries[c].culture;
      std::string place;
      bool real = false;
      if (city_used[c] < cities[c].size() * 2) {
        place = cities[c][city_used[c] % cities[c].size()];
        real = true;
      } else {
        place = SyntheticPlace(k, culture);
      }
      const char* pat;
      switch (type) {
        case 0: {
          uint32_t v = real ? city_used[c] / cities[c].size() : rng.Below(10);
          if (kCountries[c].culture != 1 && v == 8) v = 1;  // "Normal University" is Chinese
          pat = kEdu[v];
          break;
        }
        case 1:
          pat = kHealth[rng.Below(4)];
          break;
        case 2:
          pat = kFacility[rng.Below(4)];
          break;
        case 3:
          pat = kGov[rng.Below(4)];
          break;
        default:
          pat = kCompany[rng.Below(4)];
          break;
      }
      if (real) ++city_used[c];
      std::string name;
      for (const char* p = pat; *p; ++p) {
        if (*p == '%')
          name += place;
        else
          name.push_back(*p);
      }
      if (type == 4) name += std::string(" (") + kCountries[c].name + ")";
      for (uint64_t extra = 1; names.count(name); ++extra)
        name = std::string(pat).replace(std::string(pat).find('%'), 1,
                                        SyntheticPlace(k * 131 + extra, culture));
      names.insert(name);

      Institution inst;
      inst.country = static_cast<uint8_t>(c);
      std::string& j = inst.json;
      j = "{\"id\":\"https://openalex.org/I";
      AppendU64(j, 100000000 + k * 4999);
      j += "\",\"display_name\":";
      AppendJsonStr(j, name);
      j += ",\"ror\":\"https://ror.org/0";
      static const char kRor[] = "0123456789abcdefghjkmnpqrstvwxyz";
      uint64_t x = (k * 2654435761ULL + 977) & ((uint64_t{1} << 30) - 1);  // bijective mod 2^30
      for (int d = 0; d < 6; ++d, x >>= 5) j.push_back(kRor[x & 31]);
      const uint64_t check = Mix(k) % 98 + 1;
      j.push_back(static_cast<char>('0' + check / 10));
      j.push_back(static_cast<char>('0' + check % 10));
      j += "\",\"country_code\":\"";
      j += kCountries[c].code;
      j += "\",\"type\":\"";
      j += kInstTypes[type];
      j += "\"}";
      institutions_.push_back(std::move(inst));
      const double u = 1.0 - rng.Unit();
      weight.push_back(std::min(2000.0, DetPow(u, -1.0 / 1.1)) * (real ? 5.0 : 1.0));
    }
    inst_group_ = aliases_.Add(weight);
  }

  // --- sources ------------------------------------------------------------
  static std::string Issn(uint64_t k) {
    uint64_t x = (k * 104729 + 1000003) % 10000000;  // 7 digits
    int d[7];
    for (int i = 6; i >= 0; --i, x /= 10) d[i] = static_cast<int>(x % 10);
    int sum = 0;
    for (int i = 0; i < 7; ++i) sum += d[i] * (8 - i);
    const int c = (11 - sum % 11) % 11;
    std::string s;
    for (int i = 0; i < 7; ++i) {
      if (i == 4) s.push_back('-');
      s.push_back(static_cast<char>('0' + d[i]));
    }
    s.push_back(c == 10 ? 'X' : static_cast<char>('0' + c));
    return s;
  }

  uint32_t AddSource(uint64_t k, const std::string& name, const char* type, bool is_oa, bool issn) {
    Source src;
    src.is_oa = is_oa;
    std::string& j = src.json;
    j = "{\"id\":\"https://openalex.org/S";
    AppendU64(j, 100000000 + k * 7919);
    j += "\",\"display_name\":";
    AppendJsonStr(j, name);
    if (issn) {
      const std::string s = Issn(k);
      j += ",\"issn_l\":\"" + s + "\",\"issn\":[\"" + s + "\"]";
    } else {
      j += ",\"issn_l\":null,\"issn\":null";
    }
    j += ",\"is_oa\":";
    j += is_oa ? "true" : "false";
    j += ",\"type\":\"";
    j += type;
    j += "\"}";
    for (char c : name) {
      if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
        src.slug.push_back(c);
      else if (c >= 'A' && c <= 'Z')
        src.slug.push_back(static_cast<char>(c + 32));
      else if (!src.slug.empty() && src.slug.back() != '-')
        src.slug.push_back('-');
    }
    while (!src.slug.empty() && src.slug.back() == '-') src.slug.pop_back();
    if (src.slug.empty()) {  // a name without ASCII letters (hubs profile)
      src.slug = "s";
      AppendU64(src.slug, k);
    }
    sources_.push_back(std::move(src));
    return static_cast<uint32_t>(sources_.size() - 1);
  }

  void BuildSources(Rng& rng) {
    const uint64_t count = std::max<uint64_t>(kNumSubfields, n_ / 200);
    static const char* const kPat[] = {
        "Journal of %",          "% Letters",   "International Journal of %",
        "Advances in %",         "% Reviews",   "Annals of %",
        "European Journal of %", "% Research",  "Frontiers in %",
        "Current Opinion in %",  "Trends in %", "Asian Journal of %",
        "% Communications",      "Applied %",   "Journal of Applied %",
        "Progress in %",         "% Today",     "American Journal of %"};
    constexpr int kNumPat = sizeof(kPat) / sizeof(kPat[0]);
    std::unordered_set<std::string> names;
    std::vector<std::vector<double>> w(kNumSubfields);
    uint64_t k = 0;
    for (; k < count; ++k) {
      const int s = static_cast<int>(k < kNumSubfields ? k : rng.Below(kNumSubfields));
      std::string subject = kSubfields[s].name;
      if (subject.rfind("General ", 0) == 0) subject = subject.substr(8);
      std::string name;
      for (int attempt = 0; attempt < 40 && (name.empty() || names.count(name)); ++attempt) {
        std::string subj = subject;
        if (attempt > 0 || rng.Chance(0.5)) {
          // A journal named after one of the subfield's topic phrases.
          const auto& ts = sub_topics_[s];
          const Topic& tp = topics_[ts[rng.Below(ts.size())]];
          subj = PhraseTitle(topic_phrases_[tp.phrase_off + rng.Below(tp.phrase_n)]);
        }
        const std::string pat = kPat[rng.Below(kNumPat)];
        name = pat;
        name.replace(name.find('%'), 1, subj);
      }
      while (names.count(name)) name += " " + SyntheticPlace(k, 0);
      names.insert(name);
      const bool oa = rng.Chance(0.2);
      sub_sources_[s].push_back(AddSource(k, name, "journal", oa, true));
      const double u = 1.0 - rng.Unit();
      w[s].push_back(std::min(500.0, DetPow(u, -1.0 / 1.2)));
    }
    for (int s = 0; s < kNumSubfields; ++s) sub_source_group_[s] = aliases_.Add(w[s]);
    // Repositories and book series.
    repo_arxiv_ = AddSource(k++, "arXiv (Cornell University)", "repository", true, false);
    repo_biorxiv_ =
        AddSource(k++, "bioRxiv (Cold Spring Harbor Laboratory)", "repository", true, false);
    repo_medrxiv_ =
        AddSource(k++, "medRxiv (Cold Spring Harbor Laboratory)", "repository", true, false);
    repo_ssrn_ = AddSource(k++, "SSRN Electronic Journal", "repository", true, false);
    repo_zenodo_ = AddSource(k++, "Zenodo (CERN European Organization for Nuclear Research)",
                             "repository", true, false);
    repo_figshare_ = AddSource(k++, "Figshare", "repository", true, false);
    for (int f = 0; f < kNumFields; ++f)
      book_series_[f] = AddSource(k++, std::string("Lecture Notes in ") + kFields[f].name,
                                  "book series", false, true);
  }

  // --- data ---------------------------------------------------------------
  uint64_t n_, seed_;
  Vocab vocab_;
  MultiAlias aliases_;
  PosList nouns_, adjectives_, verbs_, verbs3_, verbs_plural_, participles_;
  std::vector<std::vector<TemplateItem>> templates_;
  std::vector<uint32_t> head_ids_;
  std::vector<std::string> title_nouns_, title_adjs_, title_gerunds_, syllables_, rare_ends_;
  std::vector<uint32_t> field_words_[kNumFields], field_phrases_[kNumFields],
      field_stems_[kNumFields];
  std::vector<uint32_t> phrase_off_, phrase_end_, phrase_words_;
  uint8_t sub_field_[kNumSubfields] = {};
  std::vector<uint16_t> field_subs_[kNumFields];
  std::vector<uint32_t> sub_topics_[kNumSubfields];
  std::vector<Topic> topics_;
  std::vector<uint32_t> topic_terms_, topic_phrases_;
  std::vector<Institution> institutions_;
  uint32_t inst_group_ = 0;
  std::vector<Source> sources_;
  std::vector<uint32_t> sub_sources_[kNumSubfields];
  uint32_t sub_source_group_[kNumSubfields] = {};
  uint32_t repo_arxiv_ = 0, repo_biorxiv_ = 0, repo_medrxiv_ = 0, repo_ssrn_ = 0, repo_zenodo_ = 0,
           repo_figshare_ = 0;
  uint32_t book_series_[kNumFields] = {};
  // Hubs profile.
  bool hubs_ = false;
  int num_topics_ = kNumTopics;
  uint64_t topic_id_base_ = 10000;
  double topic_sigma_ = 1.0;
  std::vector<Lang> langs_;
  uint32_t lang_group_ = 0;
  int8_t country_lang_[kNumCountries] = {};
  uint32_t mega_journal_[3] = {}, mega_journal_group_ = 0;
  int lang_repo_[kNumLangs] = {};
};

// ---------------------------------------------------------------------------
// Works in publication order, the citation graph and the author pool.

constexpr uint32_t kExternal = 0x80000000u;  // reference to a work outside the set
constexpr uint64_t kWorkIdBase = 1000000000, kWorkIdStep = 7;

struct Stats {
  uint64_t refs = 0, inset = 0, dangling = 0, forward = 0;
  uint64_t authorships = 0, distinct_authors = 0, max_author_works = 0;
  uint64_t max_indeg = 0, bytes = 0;
  uint64_t max_refs = 0, zero_ref_works = 0, max_team = 0, teams_100 = 0, unresolved = 0;
  uint64_t no_abstract = 0, long_abstracts = 0, max_abstract_words = 0;
};

class Corpus {
 public:
  Corpus(World& w, uint64_t n, uint64_t seed) : w_(w), n_(n), seed_(seed) {}

  // Years (growing output), types and primary topics, then lists of works per
  // topic, subfield and field in index order.
  void PrePass() {
    Rng rng(Mix2(seed_, 2));
    year_.resize(n_);
    type_.resize(n_);
    topic_.resize(n_);
    double yw[kNumYears], total = 0;
    for (int y = 0; y < kNumYears; ++y) {
      yw[y] = DetPow(1.055, y < kNumYears - 1 ? y : y - 1) * (y == kNumYears - 1 ? 0.55 : 1.0);
      total += yw[y];
    }
    uint64_t count[kNumYears], given = 0;
    std::vector<std::pair<double, int>> rem;
    for (int y = 0; y < kNumYears; ++y) {
      const double q = static_cast<double>(n_) * yw[y] / total;
      count[y] = static_cast<uint64_t>(q);
      given += count[y];
      rem.emplace_back(q - static_cast<double>(count[y]), y);
    }
    std::stable_sort(rem.begin(), rem.end(), [](auto& a, auto& b) { return a.first > b.first; });
    for (size_t k = 0; given < n_; ++k, ++given) ++count[rem[k % rem.size()].second];
    uint32_t year_group[kNumYears];
    for (int y = 0; y < kNumYears; ++y) {
      std::vector<double> tw(w_.num_topics_);
      for (int t = 0; t < w_.num_topics_; ++t)
        tw[t] = w_.topics_[t].weight * DetExp(w_.topics_[t].trend * (kFirstYear + y - 2008));
      year_group[y] = w_.aliases_.Add(tw);
    }
    const uint32_t type_group =
        w_.aliases_.Add(std::vector<double>(std::begin(kTypeWeights), std::end(kTypeWeights)));
    uint64_t i = 0;
    for (int y = 0; y < kNumYears; ++y) {
      for (uint64_t k = 0; k < count[y]; ++k, ++i) {
        year_[i] = static_cast<uint8_t>(y);
        topic_[i] = static_cast<uint16_t>(w_.aliases_.Sample(year_group[y], rng));
        uint8_t ty = static_cast<uint8_t>(w_.aliases_.Sample(type_group, rng));
        if ((ty == kPreprint && y < 4) || (ty == kDataset && y < 10)) ty = kArticle;
        type_[i] = ty;
      }
    }
    BuildCommunityLists();
  }

  // Lists of works per topic, subfield and field in index order, and each
  // topic's range of rare terms. Uses no random numbers.
  void BuildCommunityLists() {
    // Lists by community (counting sort keeps index order).
    auto build = [&](size_t groups, auto key, std::vector<uint32_t>& off,
                     std::vector<uint32_t>& list) {
      off.assign(groups + 1, 0);
      for (uint64_t j = 0; j < n_; ++j) ++off[key(j) + 1];
      for (size_t g = 0; g < groups; ++g) off[g + 1] += off[g];
      list.resize(n_);
      std::vector<uint32_t> fill(off.begin(), off.end() - 1);
      for (uint64_t j = 0; j < n_; ++j) list[fill[key(j)]++] = static_cast<uint32_t>(j);
    };
    build(
        w_.num_topics_, [&](uint64_t j) { return topic_[j]; }, topic_off_, topic_list_);
    build(
        kNumSubfields, [&](uint64_t j) { return w_.topics_[topic_[j]].subfield; }, sub_off_,
        sub_list_);
    build(
        kNumFields, [&](uint64_t j) { return w_.topics_[topic_[j]].field; }, field_off_,
        field_list_);
    // Each topic owns a range of rare terms proportional to its size.
    uint64_t base = 0;
    for (int t = 0; t < w_.num_topics_; ++t) {
      Topic& tp = w_.topics_[t];
      tp.rare_base = base;
      tp.rare_n = std::max<uint32_t>(40, (topic_off_[t + 1] - topic_off_[t]) * 3 / 2);
      tp.rare_top = ZipfTop(tp.rare_n, 1.1);
      base += tp.rare_n;
    }
  }

  uint32_t RefCount(Rng& rng, uint64_t i) const {
    const int ty = type_[i];
    if (rng.Chance(ty == kDataset ? 0.6 : 0.04)) return 0;
    double median = 12.0 + 14.0 * year_[i] / (kNumYears - 1);
    if (ty == kReview) median *= 3.0;
    if (ty == kBookChapter) median *= 1.2;
    if (ty == kDataset) median = 4;
    const double x = median * DetExp(0.55 * rng.Normal());
    return std::min<uint32_t>(150, static_cast<uint32_t>(x + 0.5));
  }

  // Citation graph, one pass in index order.
  void BuildGraph(Stats& st) {
    Rng rng(Mix2(seed_, 3));
    ext_count_ = std::min<uint64_t>(std::max<uint64_t>(1000, 2 * n_), 900000000);
    ext_stride_ = std::max<uint64_t>(1, 900000000 / ext_count_);
    const double ext_top = ZipfTop(ext_count_, 1.1);
    indeg_.assign(n_, 0);
    ref_off_.assign(n_ + 1, 0);
    refs_.reserve(n_ * 26);
    std::vector<std::vector<uint32_t>> tickets(w_.num_topics_);
    std::vector<uint64_t> tk_sub(kNumSubfields, 0), tk_field(kNumFields, 0);
    uint64_t tk_total = 0;
    std::vector<uint32_t> cnt_t(w_.num_topics_, 0), cnt_s(kNumSubfields, 0), cnt_f(kNumFields, 0);
    std::vector<uint8_t> is_forward;

    // Uniform ticket within a subfield / field / everything: walk the counts
    // down.
    auto pick_in_sub = [&](int s, uint64_t x) -> uint32_t {
      for (uint32_t u : w_.sub_topics_[s]) {
        if (x < tickets[u].size()) return tickets[u][x];
        x -= tickets[u].size();
      }
      return UINT32_MAX;
    };
    auto pick_in_field = [&](int f, uint64_t x) -> uint32_t {
      for (uint16_t s : w_.field_subs_[f]) {
        if (x < tk_sub[s]) return pick_in_sub(s, x);
        x -= tk_sub[s];
      }
      return UINT32_MAX;
    };

    // Tuned at 1M works: ~17% uncited, median in-degree 4, tail exponent 2.5-3,
    // maximum in the thousands (the real ACL network: 43% uncited,
    // exponent 2.3-2.6).
    constexpr double kPaShare = 0.8;  // preferential share of in-set picks
    constexpr int kTournament = 4;
    for (uint64_t i = 0; i < n_; ++i) {
      const uint32_t t = topic_[i];
      const int s = w_.topics_[t].subfield, f = w_.topics_[t].field;
      const uint32_t pos_t = cnt_t[t], pos_s = cnt_s[s], pos_f = cnt_f[f];
      const uint32_t tsize = topic_off_[t + 1] - topic_off_[t];
      const uint32_t* tlist = &topic_list_[topic_off_[t]];
      const uint32_t nref = RefCount(rng, i);
      const size_t first = refs_.size();
      is_forward.clear();
      for (uint32_t r = 0; r < nref; ++r) {
        // The kind of reference is decided once per slot, so duplicate retries
        // cannot shift the mix towards dangling ones.
        const double u = rng.Unit();
        const bool external = u < 0.10 || i == 0;
        const bool later = !external && u < 0.14;
        for (int attempt = 0; attempt < 6; ++attempt) {
          uint32_t target = UINT32_MAX;
          bool fwd = false;
          if (external) {
            target = kExternal | static_cast<uint32_t>(ZipfDraw(rng, ext_count_, 1.1, ext_top));
          } else if (later && attempt < 3) {
            const uint32_t k = pos_t + 1 + rng.Below(20);
            if (k < tsize && year_[tlist[k]] <= year_[i] + 1) {
              target = tlist[k];
              fwd = true;
            }
          }
          if (target == UINT32_MAX) {
            const double v = rng.Unit();
            int level = v < 0.62 ? 0 : v < 0.82 ? 1 : v < 0.93 ? 2 : 3;
            const uint64_t avail[4] = {pos_t, pos_s, pos_f, i};
            while (avail[level] == 0) ++level;
            const uint64_t tk[4] = {tickets[t].size(), tk_sub[s], tk_field[f], tk_total};
            if (tk[level] > 0 && rng.Chance(kPaShare)) {
              const uint64_t x = rng.Below64(tk[level]);
              if (level == 0) {
                target = tickets[t][x];
              } else if (level == 1) {
                target = pick_in_sub(s, x);
              } else if (level == 2) {
                target = pick_in_field(f, x);
              } else {
                uint64_t y = x;
                for (int g = 0; g < kNumFields; ++g) {
                  if (y < tk_field[g]) {
                    target = pick_in_field(g, y);
                    break;
                  }
                  y -= tk_field[g];
                }
              }
            } else {
              // Recency-biased pick; the fittest of kTournament candidates
              // wins, so intrinsic quality (a fixed hash of the work) spreads
              // the in-degrees and leaves many works uncited, as in real data.
              const uint64_t nav = avail[level];
              uint64_t best_fit = 0;
              for (int c = 0; c < kTournament; ++c) {
                const double q = rng.Unit();
                uint64_t d = static_cast<uint64_t>(static_cast<double>(nav) * q * q);
                if (d >= nav) d = nav - 1;
                const uint64_t k = nav - 1 - d;
                uint32_t cand;
                if (level == 0)
                  cand = tlist[k];
                else if (level == 1)
                  cand = sub_list_[sub_off_[s] + k];
                else if (level == 2)
                  cand = field_list_[field_off_[f] + k];
                else
                  cand = static_cast<uint32_t>(k);
                const uint64_t fit = Mix2(seed_ ^ 0xF17, cand);
                if (c == 0 || fit > best_fit) {
                  best_fit = fit;
                  target = cand;
                }
              }
            }
          }
          if (target == UINT32_MAX || target == i) continue;
          bool dup = false;
          for (size_t k = first; k < refs_.size(); ++k)
            if (refs_[k] == target) {
              dup = true;
              break;
            }
          if (dup) continue;
          refs_.push_back(target);
          is_forward.push_back(fwd);
          break;
        }
      }
      const uint64_t nr = refs_.size() - first;
      st.max_refs = std::max(st.max_refs, nr);
      if (nr == 0) ++st.zero_ref_works;
      for (size_t k = first; k < refs_.size(); ++k) {
        const uint32_t j = refs_[k];
        ++st.refs;
        if (j & kExternal) {
          ++st.dangling;
          continue;
        }
        ++st.inset;
        ++indeg_[j];
        if (is_forward[k - first]) {
          ++st.forward;
          continue;  // later works get their tickets only once they exist
        }
        const uint32_t tj = topic_[j];
        tickets[tj].push_back(j);
        ++tk_sub[w_.topics_[tj].subfield];
        ++tk_field[w_.topics_[tj].field];
        ++tk_total;
      }
      ref_off_[i + 1] = refs_.size();
      ++cnt_t[t];
      ++cnt_s[s];
      ++cnt_f[f];
    }
    for (uint32_t d : indeg_) st.max_indeg = std::max<uint64_t>(st.max_indeg, d);
  }

  uint64_t ExternalId(uint32_t k) const { return 1000000 + k * ext_stride_ + Mix(k) % ext_stride_; }

  // Authors: home subfield (by work share), home institution, power-law
  // productivity weight and a circle of collaborators from the same subfield.
  void BuildAuthors() {
    Rng rng(Mix2(seed_, 4));
    const uint64_t na = std::max<uint64_t>(10, n_ * 9 / 10);
    std::vector<double> sw(kNumSubfields);
    for (int s = 0; s < kNumSubfields; ++s) sw[s] = sub_off_[s + 1] - sub_off_[s] + 0.01;
    const uint32_t sub_group = w_.aliases_.Add(sw);
    author_sub_.resize(na);
    author_inst_.resize(na);
    std::vector<double> weight(na);
    for (uint64_t a = 0; a < na; ++a) {
      author_sub_[a] = static_cast<uint16_t>(w_.aliases_.Sample(sub_group, rng));
      author_inst_[a] = w_.aliases_.Sample(w_.inst_group_, rng);
      const double u = 1.0 - rng.Unit();
      weight[a] = std::min(400.0, DetPow(u, -1.0 / 1.5));
    }
    // Authors grouped by subfield; alias over weights within each group.
    auth_off_.assign(kNumSubfields + 1, 0);
    for (uint64_t a = 0; a < na; ++a) ++auth_off_[author_sub_[a] + 1];
    for (int s = 0; s < kNumSubfields; ++s) auth_off_[s + 1] += auth_off_[s];
    auth_list_.resize(na);
    {
      std::vector<uint32_t> fill(auth_off_.begin(), auth_off_.end() - 1);
      for (uint64_t a = 0; a < na; ++a)
        auth_list_[fill[author_sub_[a]]++] = static_cast<uint32_t>(a);
    }
    for (int s = 0; s < kNumSubfields; ++s) {
      std::vector<double> w;
      for (uint32_t k = auth_off_[s]; k < auth_off_[s + 1]; ++k) w.push_back(weight[auth_list_[k]]);
      auth_group_[s] = w_.aliases_.Add(w);
    }
    // Circles: each subfield's authors are split into labs of 3-12; an author's
    // circle is the rest of the lab plus, half the time, one productive outside
    // collaborator. Labs are symmetric, so the same pairs meet again.
    std::vector<uint32_t> lab_of(na), lab_off = {0}, lab_members;
    for (int s = 0; s < kNumSubfields; ++s) {
      std::vector<uint32_t> l(auth_list_.begin() + auth_off_[s],
                              auth_list_.begin() + auth_off_[s + 1]);
      for (size_t k = l.size(); k > 1; --k) std::swap(l[k - 1], l[rng.Below(k)]);
      for (size_t k = 0; k < l.size();) {
        const size_t end = std::min(l.size(), k + 3 + rng.Below(10));
        for (; k < end; ++k) {
          lab_of[l[k]] = static_cast<uint32_t>(lab_off.size() - 1);
          lab_members.push_back(l[k]);
        }
        lab_off.push_back(static_cast<uint32_t>(lab_members.size()));
      }
    }
    circle_off_.assign(na + 1, 0);
    for (uint64_t a = 0; a < na; ++a) {
      const uint32_t lab = lab_of[a];
      for (uint32_t k = lab_off[lab]; k < lab_off[lab + 1]; ++k)
        if (lab_members[k] != a) circle_.push_back(lab_members[k]);
      if (rng.Chance(0.5)) {
        const int s = author_sub_[a];
        const uint32_t m = auth_list_[auth_off_[s] + w_.aliases_.Sample(auth_group_[s], rng)];
        if (m != a && lab_of[m] != lab) circle_.push_back(m);
      }
      circle_off_[a + 1] = circle_.size();
    }
    // Names: split the culture lists once.
    for (int c = 0; c < kNumCultures; ++c) {
      first_names_[c] = Split(kCultures[c].first, ',');
      last_names_[c] = Split(kCultures[c].last, ',');
    }
  }

  uint64_t NumAuthors() const { return author_sub_.size(); }

  // Draws one author: senior-weighted within subfield s (or anywhere if s is
  // empty).
  uint32_t AuthorInSub(int s, Rng& rng) const {
    const uint32_t size = auth_off_[s + 1] - auth_off_[s];
    if (size == 0) return static_cast<uint32_t>(rng.Below64(NumAuthors()));
    return auth_list_[auth_off_[s] + w_.aliases_.Sample(auth_group_[s], rng)];
  }
  uint32_t AuthorUniformInSub(int s, Rng& rng) const {
    const uint32_t size = auth_off_[s + 1] - auth_off_[s];
    if (size == 0) return static_cast<uint32_t>(rng.Below64(NumAuthors()));
    return auth_list_[auth_off_[s] + rng.Below(size)];
  }

  // ---- hubs profile --------------------------------------------------------
  // Years 1950-2025 growing 6% a year; ten work types; topics drift more
  // slowly than in the default profile but start far earlier.
  void PrePassHubs() {
    Rng rng(Mix2(seed_, 2));
    first_year_ = 1950;
    num_years_ = kLastYear - first_year_ + 1;
    const int ny = num_years_;
    year_.resize(n_);
    type_.resize(n_);
    topic_.resize(n_);
    std::vector<double> yw(ny);
    double total = 0;
    for (int y = 0; y < ny; ++y) {
      yw[y] = DetPow(1.06, y < ny - 1 ? y : y - 1) * (y == ny - 1 ? 0.55 : 1.0);
      total += yw[y];
    }
    std::vector<uint64_t> count(ny);
    uint64_t given = 0;
    std::vector<std::pair<double, int>> rem;
    for (int y = 0; y < ny; ++y) {
      const double q = static_cast<double>(n_) * yw[y] / total;
      count[y] = static_cast<uint64_t>(q);
      given += count[y];
      rem.emplace_back(q - static_cast<double>(count[y]), y);
    }
    std::stable_sort(rem.begin(), rem.end(), [](auto& a, auto& b) { return a.first > b.first; });
    for (size_t k = 0; given < n_; ++k, ++given) ++count[rem[k % rem.size()].second];
    static const double kHubsTypeWeights[kNumTypes] = {0.70, 0.06, 0.07, 0.01, 0.05,
                                                       0.03, 0.03, 0.01, 0.02, 0.02};
    const uint32_t type_group = w_.aliases_.Add(
        std::vector<double>(std::begin(kHubsTypeWeights), std::end(kHubsTypeWeights)));
    uint64_t i = 0;
    w4_start_ = n_;
    for (int y = 0; y < ny; ++y) {
      std::vector<double> tw(w_.num_topics_);
      for (int t = 0; t < w_.num_topics_; ++t)
        tw[t] = w_.topics_[t].weight * DetExp(0.5 * w_.topics_[t].trend * (first_year_ + y - 2008));
      const uint32_t year_group = w_.aliases_.Add(tw);
      if (first_year_ + y >= 2022 && w4_start_ == n_) w4_start_ = i;
      for (uint64_t k = 0; k < count[y]; ++k, ++i) {
        year_[i] = static_cast<uint8_t>(y);
        topic_[i] = static_cast<uint16_t>(w_.aliases_.Sample(year_group, rng));
        uint8_t ty = static_cast<uint8_t>(w_.aliases_.Sample(type_group, rng));
        if ((ty == kPreprint && first_year_ + y < 1995) ||
            (ty == kDataset && first_year_ + y < 2005))
          ty = kArticle;
        type_[i] = ty;
      }
    }
    BuildCommunityLists();
  }

  // References per work: ~20% none (letters, editorials, missing metadata,
  // more often for old works); otherwise log-normal around a median growing
  // from 8 to 34, and for 6% of works (60% of reviews) a Pareto tail from 80
  // up to 3,000.
  uint32_t RefCountHubs(Rng& rng, uint64_t i) const {
    const int ty = type_[i];
    const double age = static_cast<double>(year_[i]) / (num_years_ - 1);  // 0 old .. 1 new
    if (ty >= kLetter && ty <= kParatext) return rng.Chance(0.8) ? 0 : 1 + rng.Below(8);
    if (ty == kDataset) return rng.Chance(0.6) ? 0 : 1 + rng.Below(10);
    if (rng.Chance(0.12 + 0.25 * (1.0 - age))) return 0;
    const double big_p = ty == kReview ? 0.6 : ty == kDissertation ? 0.5 : 0.06;
    if (rng.Chance(big_p)) {
      const double u = 1.0 - rng.Unit();
      return static_cast<uint32_t>(std::min(3000.0, 80.0 * DetPow(u, -1.0 / 1.35)));
    }
    const double median = 8.0 + 26.0 * age;
    const double x = median * DetExp(0.75 * rng.Normal());
    return std::min<uint32_t>(400, static_cast<uint32_t>(x + 0.5));
  }

  // Citation graph of the hubs profile. Differs from BuildGraph in: 28%
  // dangling references; 12% of picks across the whole corpus (default 7%);
  // 85% preferential picks whose tickets carry a per-work fitness
  // multiplicity (1, 2 or 4); and 100 old "classics" (methods papers) that
  // take 0.5% of in-set references, Zipf-weighted. Field-founding early works
  // and the top classics end up cited by a large share of their topic or
  // field (max ~49,000 at 1M works). Tuned at 1M. Duplicates are found with
  // stamps, as lists reach thousands.
  void BuildGraphHubs(Stats& st) {
    Rng rng(Mix2(seed_, 3));
    ext_count_ = std::min<uint64_t>(std::max<uint64_t>(1000, 4 * n_), 900000000);
    ext_stride_ = std::max<uint64_t>(1, 900000000 / ext_count_);
    const double ext_top = ZipfTop(ext_count_, 1.05);
    indeg_.assign(n_, 0);
    ref_off_.assign(n_ + 1, 0);
    refs_.reserve(n_ * 36);
    const int nt = w_.num_topics_;
    std::vector<std::vector<uint32_t>> tickets(nt);
    std::vector<uint64_t> tk_sub(kNumSubfields, 0), tk_field(kNumFields, 0);
    uint64_t tk_total = 0;
    std::vector<uint32_t> cnt_t(nt, 0), cnt_s(kNumSubfields, 0), cnt_f(kNumFields, 0);
    std::vector<uint8_t> is_forward;
    std::vector<uint32_t> stamp(n_, 0), ext_stamp(ext_count_, 0);

    constexpr int kClassics = 100;
    const uint64_t classic_range = std::max<uint64_t>(1, n_ / 5);
    uint32_t classics[kClassics];
    for (int k = 0; k < kClassics; ++k)
      classics[k] =
          static_cast<uint32_t>(Mix2(seed_ ^ 0xC1A55, static_cast<uint64_t>(k)) % classic_range);
    const uint32_t classic_group = w_.aliases_.Add(ZipfWeights(kClassics, 1.3, 0));
    auto multiplicity = [&](uint32_t j) -> int {
      const uint64_t h = Mix2(seed_ ^ 0xF177, j) % 100;
      return h < 88 ? 1 : h < 97 ? 2 : 4;
    };

    auto pick_in_sub = [&](int s, uint64_t x) -> uint32_t {
      for (uint32_t u : w_.sub_topics_[s]) {
        if (x < tickets[u].size()) return tickets[u][x];
        x -= tickets[u].size();
      }
      return UINT32_MAX;
    };
    auto pick_in_field = [&](int f, uint64_t x) -> uint32_t {
      for (uint16_t s : w_.field_subs_[f]) {
        if (x < tk_sub[s]) return pick_in_sub(s, x);
        x -= tk_sub[s];
      }
      return UINT32_MAX;
    };

    constexpr double kPaShare = 0.85;
    constexpr int kTournament = 4;
    for (uint64_t i = 0; i < n_; ++i) {
      const uint32_t t = topic_[i];
      const int s = w_.topics_[t].subfield, f = w_.topics_[t].field;
      const uint32_t pos_t = cnt_t[t], pos_s = cnt_s[s], pos_f = cnt_f[f];
      const uint32_t tsize = topic_off_[t + 1] - topic_off_[t];
      const uint32_t* tlist = &topic_list_[topic_off_[t]];
      const uint32_t nref = RefCountHubs(rng, i);
      const size_t first = refs_.size();
      const uint32_t mark = static_cast<uint32_t>(i + 1);
      is_forward.clear();
      for (uint32_t r = 0; r < nref; ++r) {
        const double u = rng.Unit();
        const bool external = u < 0.28 || i == 0;
        const bool later = !external && u < 0.31;
        const bool classic = !external && !later && u < 0.3136;  // 0.5% of in-set slots
        for (int attempt = 0; attempt < 6; ++attempt) {
          uint32_t target = UINT32_MAX;
          bool fwd = false;
          if (external) {
            target = kExternal | static_cast<uint32_t>(ZipfDraw(rng, ext_count_, 1.05, ext_top));
          } else if (later && attempt < 3) {
            const uint32_t k = pos_t + 1 + rng.Below(20);
            if (k < tsize && year_[tlist[k]] <= year_[i] + 1) {
              target = tlist[k];
              fwd = true;
            }
          } else if (classic && attempt < 3) {
            const uint32_t c = classics[w_.aliases_.Sample(classic_group, rng)];
            if (c < i) target = c;
          }
          if (target == UINT32_MAX) {
            const double v = rng.Unit();
            int level = v < 0.45 ? 0 : v < 0.62 ? 1 : v < 0.88 ? 2 : 3;
            const uint64_t avail[4] = {pos_t, pos_s, pos_f, i};
            while (avail[level] == 0) ++level;
            const uint64_t tk[4] = {tickets[t].size(), tk_sub[s], tk_field[f], tk_total};
            if (tk[level] > 0 && rng.Chance(kPaShare)) {
              const uint64_t x = rng.Below64(tk[level]);
              if (level == 0) {
                target = tickets[t][x];
              } else if (level == 1) {
                target = pick_in_sub(s, x);
              } else if (level == 2) {
                target = pick_in_field(f, x);
              } else {
                uint64_t y = x;
                for (int g = 0; g < kNumFields; ++g) {
                  if (y < tk_field[g]) {
                    target = pick_in_field(g, y);
                    break;
                  }
                  y -= tk_field[g];
                }
              }
            } else {
              const uint64_t nav = avail[level];
              uint64_t best_fit = 0;
              for (int c = 0; c < kTournament; ++c) {
                const double q = rng.Unit();
                uint64_t d = static_cast<uint64_t>(static_cast<double>(nav) * q * q);
                if (d >= nav) d = nav - 1;
                const uint64_t k = nav - 1 - d;
                uint32_t cand;
                if (level == 0)
                  cand = tlist[k];
                else if (level == 1)
                  cand = sub_list_[sub_off_[s] + k];
                else if (level == 2)
                  cand = field_list_[field_off_[f] + k];
                else
                  cand = static_cast<uint32_t>(k);
                const uint64_t fit = Mix2(seed_ ^ 0xF17, cand);
                if (c == 0 || fit > best_fit) {
                  best_fit = fit;
                  target = cand;
                }
              }
            }
          }
          if (target == UINT32_MAX || target == i) continue;
          uint32_t& st_slot = target & kExternal ? ext_stamp[target & ~kExternal] : stamp[target];
          if (st_slot == mark) continue;
          st_slot = mark;
          refs_.push_back(target);
          is_forward.push_back(fwd);
          break;
        }
      }
      const uint64_t nr = refs_.size() - first;
      st.max_refs = std::max(st.max_refs, nr);
      if (nr == 0) ++st.zero_ref_works;
      for (size_t k = first; k < refs_.size(); ++k) {
        const uint32_t j = refs_[k];
        ++st.refs;
        if (j & kExternal) {
          ++st.dangling;
          continue;
        }
        ++st.inset;
        ++indeg_[j];
        if (is_forward[k - first]) {
          ++st.forward;
          continue;
        }
        const uint32_t tj = topic_[j];
        const int m = multiplicity(j);
        for (int c = 0; c < m; ++c) tickets[tj].push_back(j);
        tk_sub[w_.topics_[tj].subfield] += m;
        tk_field[w_.topics_[tj].field] += m;
        tk_total += m;
      }
      ref_off_[i + 1] = refs_.size();
      ++cnt_t[t];
      ++cnt_s[s];
      ++cnt_f[f];
    }
    for (uint32_t d : indeg_) st.max_indeg = std::max<uint64_t>(st.max_indeg, d);
  }

  // Authors of the hubs profile: 1.1 N, heavier productivity (Pareto 1.1, up
  // to 20,000 draws weight), labs of 3-25; big collaborations (N/20,000 of
  // them, 100-5,000 members, in physics, medicine, the life and earth
  // sciences and computer science); 30 "conflated" authors that recur in ~8%
  // of works, as badly disambiguated author ids do.
  void BuildAuthorsHubs() {
    Rng rng(Mix2(seed_, 4));
    const uint64_t na = std::max<uint64_t>(10, n_ * 11 / 10);
    std::vector<double> sw(kNumSubfields);
    for (int s = 0; s < kNumSubfields; ++s) sw[s] = sub_off_[s + 1] - sub_off_[s] + 0.01;
    const uint32_t sub_group = w_.aliases_.Add(sw);
    author_sub_.resize(na);
    author_inst_.resize(na);
    std::vector<double> weight(na);
    for (uint64_t a = 0; a < na; ++a) {
      author_sub_[a] = static_cast<uint16_t>(w_.aliases_.Sample(sub_group, rng));
      author_inst_[a] = w_.aliases_.Sample(w_.inst_group_, rng);
      const double u = 1.0 - rng.Unit();
      weight[a] = std::min(20000.0, DetPow(u, -1.0 / 1.1));
    }
    auth_off_.assign(kNumSubfields + 1, 0);
    for (uint64_t a = 0; a < na; ++a) ++auth_off_[author_sub_[a] + 1];
    for (int s = 0; s < kNumSubfields; ++s) auth_off_[s + 1] += auth_off_[s];
    auth_list_.resize(na);
    {
      std::vector<uint32_t> fill(auth_off_.begin(), auth_off_.end() - 1);
      for (uint64_t a = 0; a < na; ++a)
        auth_list_[fill[author_sub_[a]]++] = static_cast<uint32_t>(a);
    }
    for (int s = 0; s < kNumSubfields; ++s) {
      std::vector<double> w;
      for (uint32_t k = auth_off_[s]; k < auth_off_[s + 1]; ++k) w.push_back(weight[auth_list_[k]]);
      auth_group_[s] = w_.aliases_.Add(w);
    }
    std::vector<uint32_t> lab_of(na), lab_off = {0}, lab_members;
    for (int s = 0; s < kNumSubfields; ++s) {
      std::vector<uint32_t> l(auth_list_.begin() + auth_off_[s],
                              auth_list_.begin() + auth_off_[s + 1]);
      for (size_t k = l.size(); k > 1; --k) std::swap(l[k - 1], l[rng.Below(k)]);
      for (size_t k = 0; k < l.size();) {
        const size_t end = std::min(l.size(), k + 3 + rng.Below(23));
        for (; k < end; ++k) {
          lab_of[l[k]] = static_cast<uint32_t>(lab_off.size() - 1);
          lab_members.push_back(l[k]);
        }
        lab_off.push_back(static_cast<uint32_t>(lab_members.size()));
      }
    }
    circle_off_.assign(na + 1, 0);
    for (uint64_t a = 0; a < na; ++a) {
      const uint32_t lab = lab_of[a];
      for (uint32_t k = lab_off[lab]; k < lab_off[lab + 1]; ++k)
        if (lab_members[k] != a) circle_.push_back(lab_members[k]);
      if (rng.Chance(0.5)) {
        const int s = author_sub_[a];
        const uint32_t m = auth_list_[auth_off_[s] + w_.aliases_.Sample(auth_group_[s], rng)];
        if (m != a && lab_of[m] != lab) circle_.push_back(m);
      }
      circle_off_[a + 1] = circle_.size();
    }
    for (int c = 0; c < kNumCultures; ++c) {
      first_names_[c] = Split(kCultures[c].first, ',');
      last_names_[c] = Split(kCultures[c].last, ',');
    }
    for (const auto& nn : kNativeNames) {
      native_first_.push_back(Split(nn.first, ' '));
      native_last_.push_back(Split(nn.last, ' '));
    }

    // Collaborations: field (by OpenAlex field id), share of the field's
    // works written by collaborations.
    static const int kCollabFields[] = {31, 27, 13, 19, 17};
    static const double kCollabShare[] = {0.5, 0.2, 0.15, 0.1, 0.05};
    static const double kCollabWorkP[] = {0.10, 0.02, 0.03, 0.04, 0.01};
    const uint32_t ncollab = static_cast<uint32_t>(std::max<uint64_t>(5, n_ / 20000));
    const uint32_t cf_group =
        w_.aliases_.Add(std::vector<double>(std::begin(kCollabShare), std::end(kCollabShare)));
    std::vector<uint32_t> mark(na, 0);
    collab_off_.assign(1, 0);
    std::vector<std::vector<uint32_t>> field_collabs(kNumFields);
    // Sizes 120-5,000 (median ~190), ascending: within a field the smaller
    // collaborations publish more (Zipf by index), so papers average ~200
    // authors and a few hundred have thousands.
    std::vector<double> sizes(ncollab);
    for (auto& z : sizes) {
      const double u = rng.Unit();
      z = std::min(5000.0, 120.0 * DetPow(50.0, u * u * u));
    }
    std::sort(sizes.begin(), sizes.end());
    for (uint32_t c = 0; c < ncollab; ++c) {
      const int ci =
          c < 5 ? static_cast<int>(c) : static_cast<int>(w_.aliases_.Sample(cf_group, rng));
      int f = 0;
      while (kFields[f].id != kCollabFields[ci]) ++f;
      field_collabs[f].push_back(c);
      // Field authors: the authors of its subfields, concatenated.
      uint64_t nf = 0;
      for (uint16_t s : w_.field_subs_[f]) nf += auth_off_[s + 1] - auth_off_[s];
      const uint64_t size = std::min<uint64_t>(static_cast<uint64_t>(sizes[c]), nf / 2);
      for (uint64_t tries = 0;
           collab_members_.size() - collab_off_.back() < size && tries < 4 * size; ++tries) {
        uint64_t x = rng.Below64(nf);
        uint32_t a = 0;
        for (uint16_t s : w_.field_subs_[f]) {
          const uint32_t sz = auth_off_[s + 1] - auth_off_[s];
          if (x < sz) {
            a = auth_list_[auth_off_[s] + x];
            break;
          }
          x -= sz;
        }
        if (mark[a] == c + 1) continue;
        mark[a] = c + 1;
        collab_members_.push_back(a);
      }
      collab_off_.push_back(collab_members_.size());
    }
    for (int f = 0; f < kNumFields; ++f) {
      collab_p_[f] = 0;
      if (field_collabs[f].empty()) continue;
      for (int k = 0; k < 5; ++k)
        if (kFields[f].id == kCollabFields[k]) collab_p_[f] = kCollabWorkP[k];
      field_collabs_[f] = field_collabs[f];
      collab_group_[f] = w_.aliases_.Add(ZipfWeights(field_collabs[f].size(), 1.0, 0.5));
    }
    for (int k = 0; k < kMegaAuthors; ++k)
      mega_authors_[k] = static_cast<uint32_t>(Mix2(seed_ ^ 0x3E6A, static_cast<uint64_t>(k)) % na);
    mega_group_ = w_.aliases_.Add(ZipfWeights(kMegaAuthors, 1.1, 0));
  }

  // Work ids: W2000000000 + 3i before 2022 and W4300000000 + 11i after, so
  // ids cross 2^32 as real OpenAlex ids do; the default profile keeps
  // W1000000000 + 7i.
  uint64_t WorkId(uint64_t j) const {
    if (!w_.hubs_) return kWorkIdBase + j * kWorkIdStep;
    return j < w4_start_ ? 2000000000ULL + j * 3 : 4300000000ULL + (j - w4_start_) * 11;
  }

  int first_year_ = kFirstYear, num_years_ = kNumYears;
  uint64_t w4_start_ = 0;
  static constexpr int kMegaAuthors = 30;
  uint32_t mega_authors_[kMegaAuthors] = {}, mega_group_ = 0;
  std::vector<uint64_t> collab_off_;
  std::vector<uint32_t> collab_members_;
  std::vector<uint32_t> field_collabs_[kNumFields];
  uint32_t collab_group_[kNumFields] = {};
  double collab_p_[kNumFields] = {};
  std::vector<std::vector<std::string>> native_first_, native_last_;

  World& w_;
  uint64_t n_, seed_;
  std::vector<uint8_t> year_, type_;
  std::vector<uint16_t> topic_;
  std::vector<uint32_t> topic_off_, topic_list_, sub_off_, sub_list_, field_off_, field_list_;
  std::vector<uint64_t> ref_off_;
  std::vector<uint32_t> refs_, indeg_;
  uint64_t ext_count_ = 0, ext_stride_ = 1;
  std::vector<uint16_t> author_sub_;
  std::vector<uint32_t> author_inst_;
  std::vector<uint32_t> auth_off_, auth_list_;
  uint32_t auth_group_[kNumSubfields] = {};
  std::vector<uint64_t> circle_off_;
  std::vector<uint32_t> circle_;
  std::vector<std::string> first_names_[kNumCultures], last_names_[kNumCultures];
};

// ---------------------------------------------------------------------------
// Writing one work.

// Set of 64-bit title hashes (open addressing); keeps titles unique.
class HashSet {
 public:
  explicit HashSet(uint64_t n) {
    uint64_t cap = 16;
    while (cap < 2 * n + 16) cap <<= 1;
    slots_.assign(cap, 0);
  }
  bool Insert(uint64_t h) {  // false if already present
    if (h == 0) h = 1;
    const uint64_t mask = slots_.size() - 1;
    for (uint64_t k = h & mask;; k = (k + 1) & mask) {
      if (slots_[k] == h) return false;
      if (slots_[k] == 0) {
        slots_[k] = h;
        return true;
      }
    }
  }

 private:
  std::vector<uint64_t> slots_;
};

uint64_t HashBytes(const char* p, size_t n) {
  uint64_t h = 0xCBF29CE484222325ULL;
  for (size_t k = 0; k < n; ++k) h = (h ^ static_cast<unsigned char>(p[k])) * 0x100000001B3ULL;
  return Mix(h);
}

const char* const kArticleTitles[] = {
    "{P} for {T} {N} in {Q}",
    "{A} {N} of {P} in {T} {T}",
    "Towards {A} {P} with {T} {N}",
    "{P}: A {A} {N} of {T} and {T}",
    "On the {N} of {T} {T} in {P}",
    "{T} {T} {N} for {A} {P}",
    "Effects of {T} {T} on {P} in {X} {N}",
    "{P} and {Q}: {A} {N} from {T} {N}",
    "{G} {P} via {T} {T} {N}",
    "A {A} {N} for {P} Using {T} {Q}",
    "{X}-Based {P} for {T} {N}",
    "Role of {T} {T} in {P}",
    "{G} the {N} of {P} with {X} {T}",
    "{T} {N} and {Q} in {A} {P}",
    "{P} under {T} {N}: Evidence from {X}",
    "{G} {T} {N} in {P} and {Q}",
};
const char* const kReviewTitles[] = {
    "{P}: A {A} Review of {T} {N}",          "Recent Advances in {P} and {Q}",
    "A Review of {P} for {T} {N}",           "{P} in {T} {N}: Progress and Challenges",
    "A Systematic Review of {T} {N} in {P}",
};
const char* const kDatasetTitles[] = {
    "{X}: A {A} Dataset for {P}",
    "A {T} Dataset of {P} in {X} {N}",
    "{P} Benchmark Dataset from {X} {T}",
};

class Writer {
 private:
  struct Span {
    uint32_t off, len;
  };

 public:
  Writer(const World& w, const Corpus& c, Out& out, uint64_t seed, Stats& st)
      : w_(w),
        c_(c),
        out_(out),
        seed_(seed),
        st_(st),
        titles_(c.n_),
        author_works_(c.NumAuthors(), 0) {
    if (w.hubs_) {
      team_mark_.assign(c.NumAuthors(), 0);
      inst_mark_.assign(w.institutions_.size(), 0);
      top_gen_ = ZipfTop(kGenVocab, 1.1);
      top_title_gen_ = ZipfTop(20000, 0.9);
      top_topic_ = ZipfTop(1500, 1.1);
      top_sub_ = ZipfTop(4000, 1.1);
      top_field_ = ZipfTop(15000, 1.1);
    }
  }

  void Finish() {
    for (uint32_t k : author_works_) {
      if (k) ++st_.distinct_authors;
      st_.max_author_works = std::max<uint64_t>(st_.max_author_works, k);
    }
  }

  void Work(uint64_t i) {
    if (w_.hubs_) {
      WorkHubs(i);
      return;
    }
    Rng rng(Mix2(seed_ ^ 0x5EED5EED5EEDULL, i));
    const uint32_t t = c_.topic_[i];
    const Topic& tp = w_.topics_[t];
    const int year = kFirstYear + c_.year_[i];
    const int type = c_.type_[i];
    const uint64_t wid = kWorkIdBase + i * kWorkIdStep;

    PickTopics(rng, t);
    PickKeywords(rng, tp);
    BuildTitle(rng, i, tp, type);
    PickTeam(rng, tp.subfield, year, i);

    // --- identity, dates ---
    out_.Lit("{\"id\":");
    out_.IdStr("https://openalex.org/W", wid);
    out_.Lit(",\"doi\":");
    out_.IdStr("https://doi.org/10.5555/synth.", i);
    out_.Lit(",\"title\":");
    out_.JsonStr(title_);
    out_.Lit(",\"display_name\":");
    out_.JsonStr(title_);
    out_.Lit(",\"publication_year\":");
    out_.U64(year);
    out_.Lit(",\"publication_date\":\"");
    PutDate(rng, year);
    out_.Lit("\",\"ids\":{\"openalex\":");
    out_.IdStr("https://openalex.org/W", wid);
    out_.Lit(",\"doi\":");
    out_.IdStr("https://doi.org/10.5555/synth.", i);
    out_.Lit("},\"language\":\"en\"");

    // --- venue and open access ---
    uint32_t src;
    if (type == kPreprint) {
      const int dom = kFields[tp.field].domain;
      src = dom == 3   ? w_.repo_arxiv_
            : dom == 1 ? w_.repo_biorxiv_
            : dom == 4 ? w_.repo_medrxiv_
                       : w_.repo_ssrn_;
    } else if (type == kDataset) {
      src = rng.Chance(0.6) ? w_.repo_zenodo_ : w_.repo_figshare_;
    } else if (type == kBookChapter) {
      src = w_.book_series_[tp.field];
    } else {
      const auto& list = w_.sub_sources_[tp.subfield];
      src = list[w_.aliases_.Sample(w_.sub_source_group_[tp.subfield], rng)];
    }
    const Source& so = w_.sources_[src];
    const char* status = "closed";
    const char* license = nullptr;
    bool pdf = false;
    if (type == kPreprint || type == kDataset) {
      status = "green";
      pdf = true;
      license = "cc-by";
    } else if (so.is_oa) {
      const bool diamond = rng.Chance(0.25);
      status = diamond ? "diamond" : "gold";
      license = diamond ? "cc-by-nc" : "cc-by";
      pdf = true;
    } else if (rng.Chance(0.12 + 0.35 * (year - kFirstYear) / (kNumYears - 1))) {
      const double u = rng.Unit();
      status = u < 0.3 ? "hybrid" : u < 0.6 ? "bronze" : "green";
      if (u < 0.3) license = "cc-by";
      pdf = u < 0.6;
    }
    const bool is_oa = status[0] != 'c';
    out_.Lit(",\"primary_location\":{\"is_oa\":");
    out_.Bool(pdf);
    out_.Lit(",\"landing_page_url\":");
    out_.IdStr("https://doi.org/10.5555/synth.", i);
    out_.Lit(",\"pdf_url\":");
    if (pdf)
      PutPdfUrl(so, i);
    else
      out_.Null();
    out_.Lit(",\"source\":");
    out_.Raw(so.json);
    out_.Lit(",\"license\":");
    if (license) {
      out_.Ch('"');
      out_.Raw(license, std::strlen(license));
      out_.Ch('"');
    } else {
      out_.Null();
    }
    out_.Lit(",\"version\":");
    if (type == kPreprint)
      out_.Lit("\"submittedVersion\"");
    else
      out_.Lit("\"publishedVersion\"");
    out_.Lit("},\"type\":\"");
    out_.Raw(kTypeNames[type], std::strlen(kTypeNames[type]));
    out_.Lit("\",\"open_access\":{\"is_oa\":");
    out_.Bool(is_oa);
    out_.Lit(",\"oa_status\":\"");
    out_.Raw(status, std::strlen(status));
    out_.Lit("\",\"oa_url\":");
    if (pdf) {
      PutPdfUrl(so, i);
    } else if (is_oa) {
      out_.Lit("\"https://repository.example.org/record/");
      out_.U64(i);
      out_.Lit("/files/paper.pdf\"");
    } else {
      out_.Null();
    }
    out_.Ch('}');

    PutAuthorships(rng);

    // --- citations count, topics, keywords ---
    const uint32_t indeg = c_.indeg_[i];
    const double f = rng.Unit();
    uint64_t cited = static_cast<uint64_t>(indeg * (1.0 + 2.0 * f * f));
    if (rng.Chance(0.3)) cited += 1 + rng.Below(3);
    out_.Lit(",\"cited_by_count\":");
    out_.U64(cited);
    out_.Lit(",\"primary_topic\":");
    PutTopic(0);
    out_.Lit(",\"topics\":[");
    for (int k = 0; k < num_topics_; ++k) {
      if (k) out_.Ch(',');
      PutTopic(k);
    }
    out_.Lit("],\"keywords\":[");
    for (int k = 0; k < num_kw_; ++k) {
      if (k) out_.Ch(',');
      PutKeyword(kw_[k]);
    }
    out_.Ch(']');

    // --- references and related works ---
    ids_.clear();
    for (uint64_t k = c_.ref_off_[i]; k < c_.ref_off_[i + 1]; ++k) {
      const uint32_t j = c_.refs_[k];
      ids_.push_back(j & kExternal ? c_.ExternalId(j & ~kExternal) : kWorkIdBase + j * kWorkIdStep);
    }
    std::sort(ids_.begin(), ids_.end());
    out_.Lit(",\"referenced_works_count\":");
    out_.U64(ids_.size());
    out_.Lit(",\"referenced_works\":[");
    for (size_t k = 0; k < ids_.size(); ++k) {
      if (k) out_.Ch(',');
      out_.IdStr("https://openalex.org/W", ids_[k]);
    }
    out_.Lit("],\"related_works\":[");
    PickRelated(rng, i, t);
    for (size_t k = 0; k < ids_.size(); ++k) {
      if (k) out_.Ch(',');
      out_.IdStr("https://openalex.org/W", ids_[k]);
    }
    out_.Ch(']');

    // --- abstract ---
    BuildAbstract(rng, tp);
    PutInvertedIndex();
    out_.Lit(",\"updated_date\":\"2025-01-01T00:00:00.000000\"}\n");
  }

 private:
  struct Keyword {
    const uint32_t* words;
    uint32_t n;
    uint32_t score;  // 1/10^4
  };

  // ---- hubs profile: one work ---------------------------------------------
  void WorkHubs(uint64_t i) {
    Rng rng(Mix2(seed_ ^ 0x5EED5EED5EEDULL, i));
    const uint32_t t = c_.topic_[i];
    const Topic& tp = w_.topics_[t];
    const int year = c_.first_year_ + c_.year_[i];
    const int type = c_.type_[i];
    const uint64_t wid = c_.WorkId(i);
    cur_topic_ = t;

    PickTopics(rng, t);
    PickKeywords(rng, tp);
    PickTeamHubs(rng, tp, year, i);
    // The senior author's country decides the language 65% of the time.
    const int home = w_.country_lang_[w_.institutions_[c_.author_inst_[senior_]].country];
    const int lang = home >= 0 && rng.Chance(0.65)
                         ? home
                         : static_cast<int>(w_.aliases_.Sample(w_.lang_group_, rng));
    const Lang& L = w_.langs_[lang];
    BuildTitleHubs(rng, i, tp, type, L);

    // --- identity, dates: 22% have no DOI, 1% a SICI-style one ---
    doi_.clear();
    const double du = rng.Unit();
    if (du >= 0.22) {
      doi_ = "https://doi.org/";
      if (du < 0.23) {
        doi_ += "10.1002/(sici)1097-4636(";
        AppendU64(doi_, static_cast<uint64_t>(year));
        doi_ += ")";
        AppendU64(doi_, 10 + i % 90);
        doi_ += ":";
        AppendU64(doi_, 1 + i % 4);
        doi_ += "<";
        AppendU64(doi_, 1 + i % 997);
        doi_ += "::aid-hub";
        AppendU64(doi_, i);
        doi_ += ">3.0.co;2-";
        doi_.push_back("0123456789x"[rng.Below(11)]);
      } else {
        doi_ += "10.4444/hubs.";
        AppendU64(doi_, static_cast<uint64_t>(year));
        doi_.push_back('.');
        AppendU64(doi_, i);
      }
    }
    out_.Lit("{\"id\":");
    out_.IdStr("https://openalex.org/W", wid);
    out_.Lit(",\"doi\":");
    if (doi_.empty())
      out_.Null();
    else
      out_.JsonStr(doi_);
    out_.Lit(",\"title\":");
    out_.JsonStr(title_);
    out_.Lit(",\"display_name\":");
    out_.JsonStr(title_);
    out_.Lit(",\"publication_year\":");
    out_.U64(year);
    out_.Lit(",\"publication_date\":\"");
    PutDate(rng, year);
    out_.Lit("\",\"ids\":{\"openalex\":");
    out_.IdStr("https://openalex.org/W", wid);
    if (!doi_.empty()) {
      out_.Lit(",\"doi\":");
      out_.JsonStr(doi_);
    }
    // Language: 1.5% unknown, 2% misdetected.
    out_.Lit("},\"language\":");
    const double lu = rng.Unit();
    if (lu < 0.015) {
      out_.Null();
    } else {
      const int shown = lu < 0.035 ? static_cast<int>(rng.Below(kNumLangs)) : lang;
      out_.Ch('"');
      out_.Raw(kLangs[shown].code, std::strlen(kLangs[shown].code));
      out_.Ch('"');
    }

    // --- venue: regional preprint servers, mega-journals, 3% unknown ---
    int src = -1;
    const int dom = kFields[tp.field].domain;
    if (type == kPreprint) {
      if (w_.lang_repo_[lang] >= 0 && rng.Chance(0.6))
        src = w_.lang_repo_[lang];
      else
        src = static_cast<int>(dom == 3   ? w_.repo_arxiv_
                               : dom == 1 ? w_.repo_biorxiv_
                               : dom == 4 ? w_.repo_medrxiv_
                                          : w_.repo_ssrn_);
    } else if (type == kDataset) {
      src = static_cast<int>(rng.Chance(0.6) ? w_.repo_zenodo_ : w_.repo_figshare_);
    } else if (type == kBookChapter) {
      src = static_cast<int>(w_.book_series_[tp.field]);
    } else if (type == kDissertation || rng.Chance(0.03)) {
      src = -1;
    } else if (type == kArticle && rng.Chance(0.12)) {
      src = static_cast<int>(w_.mega_journal_[w_.aliases_.Sample(w_.mega_journal_group_, rng)]);
    } else {
      const auto& list = w_.sub_sources_[tp.subfield];
      src = static_cast<int>(list[w_.aliases_.Sample(w_.sub_source_group_[tp.subfield], rng)]);
    }
    const Source* so = src >= 0 ? &w_.sources_[src] : nullptr;
    const char* status = "closed";
    const char* license = nullptr;
    bool pdf = false;
    if (type == kPreprint || type == kDataset) {
      status = "green";
      pdf = true;
      license = "cc-by";
    } else if (so && so->is_oa) {
      const bool diamond = rng.Chance(0.4);
      status = diamond ? "diamond" : "gold";
      license = diamond ? "cc-by-nc-nd" : "cc-by";
      pdf = true;
    } else if (rng.Chance(0.1 + 0.3 * (year - c_.first_year_) / (c_.num_years_ - 1))) {
      const double u = rng.Unit();
      status = u < 0.3 ? "hybrid" : u < 0.6 ? "bronze" : "green";
      if (u < 0.3) license = "cc-by";
      pdf = so != nullptr && u < 0.6;
    }
    const bool is_oa = status[0] != 'c';
    out_.Lit(",\"primary_location\":{\"is_oa\":");
    out_.Bool(pdf);
    out_.Lit(",\"landing_page_url\":");
    if (!doi_.empty()) {
      out_.JsonStr(doi_);
    } else {
      out_.IdStr("https://hubs.example.org/record/", i);
    }
    out_.Lit(",\"pdf_url\":");
    if (pdf)
      PutPdfUrl(*so, i);
    else
      out_.Null();
    out_.Lit(",\"source\":");
    if (so)
      out_.Raw(so->json);
    else
      out_.Null();
    out_.Lit(",\"license\":");
    if (license) {
      out_.Ch('"');
      out_.Raw(license, std::strlen(license));
      out_.Ch('"');
    } else {
      out_.Null();
    }
    out_.Lit(",\"version\":");
    if (type == kPreprint)
      out_.Lit("\"submittedVersion\"");
    else if (so)
      out_.Lit("\"publishedVersion\"");
    else
      out_.Null();
    out_.Lit("},\"type\":\"");
    out_.Raw(kTypeNames[type], std::strlen(kTypeNames[type]));
    out_.Lit("\",\"open_access\":{\"is_oa\":");
    out_.Bool(is_oa);
    out_.Lit(",\"oa_status\":\"");
    out_.Raw(status, std::strlen(status));
    out_.Lit("\",\"oa_url\":");
    if (pdf) {
      PutPdfUrl(*so, i);
    } else if (is_oa) {
      out_.Lit("\"https://repository.example.org/record/");
      out_.U64(i);
      out_.Lit("/files/paper.pdf\"");
    } else {
      out_.Null();
    }
    out_.Ch('}');

    PutAuthorshipsHubs(rng);

    // --- citations count, topics, keywords ---
    const uint32_t indeg = c_.indeg_[i];
    const double f = rng.Unit();
    uint64_t cited = static_cast<uint64_t>(indeg * (1.0 + 2.0 * f * f));
    if (rng.Chance(0.3)) cited += 1 + rng.Below(3);
    out_.Lit(",\"cited_by_count\":");
    out_.U64(cited);
    out_.Lit(",\"primary_topic\":");
    PutTopic(0);
    out_.Lit(",\"topics\":[");
    for (int k = 0; k < num_topics_; ++k) {
      if (k) out_.Ch(',');
      PutTopic(k);
    }
    out_.Lit("],\"keywords\":[");
    for (int k = 0; k < num_kw_; ++k) {
      if (k) out_.Ch(',');
      PutKeyword(kw_[k]);
    }
    out_.Ch(']');

    // --- references and related works ---
    ids_.clear();
    for (uint64_t k = c_.ref_off_[i]; k < c_.ref_off_[i + 1]; ++k) {
      const uint32_t j = c_.refs_[k];
      ids_.push_back(j & kExternal ? c_.ExternalId(j & ~kExternal) : c_.WorkId(j));
    }
    std::sort(ids_.begin(), ids_.end());
    out_.Lit(",\"referenced_works_count\":");
    out_.U64(ids_.size());
    out_.Lit(",\"referenced_works\":[");
    for (size_t k = 0; k < ids_.size(); ++k) {
      if (k) out_.Ch(',');
      out_.IdStr("https://openalex.org/W", ids_[k]);
    }
    out_.Lit("],\"related_works\":[");
    PickRelated(rng, i, t);
    for (size_t k = 0; k < ids_.size(); ++k) {
      if (k) out_.Ch(',');
      out_.IdStr("https://openalex.org/W", ids_[k]);
    }
    out_.Ch(']');

    // --- abstract: 7% none, 1% empty, 2.5% of 1,000-8,000 words, 0.3% one
    // of 16 boilerplate texts, 5% in two languages ---
    const double au = rng.Unit();
    const bool minor = type >= kLetter && type <= kParatext;
    if ((minor && rng.Chance(0.7)) || au < 0.07) {
      ++st_.no_abstract;
      out_.Lit(",\"abstract_inverted_index\":null");
    } else if (au < 0.08) {
      ++st_.no_abstract;
      out_.Lit(",\"abstract_inverted_index\":{}");
    } else {
      tok_.clear();
      spans_.clear();
      abstract_words_ = 0;
      size_t target;
      if (au < 0.105)
        target = static_cast<size_t>(1000.0 * DetPow(8.0, rng.Unit()));
      else
        target = static_cast<size_t>(
            std::clamp(static_cast<int>(150.0 * DetExp(0.5 * rng.Normal())), 15, 900));
      if (rng.Chance(0.003)) {  // boilerplate shared by many works
        const uint32_t b = rng.Below(16);
        Rng brng(Mix2(seed_ ^ 0xB011E7, b));
        cur_topic_ = (b * 97) % static_cast<uint32_t>(w_.num_topics_);
        BuildAbstractHubs(brng, b, w_.topics_[cur_topic_], w_.langs_[b % kNumLangs], 60 + 10 * b);
        cur_topic_ = t;
      } else if (rng.Chance(0.05)) {
        const int l2 = static_cast<int>(w_.aliases_.Sample(w_.lang_group_, rng));
        BuildAbstractHubs(rng, i, tp, L, target / 2 + 1);
        BuildAbstractHubs(rng, i, tp, w_.langs_[l2], target / 2 + 1);
      } else {
        BuildAbstractHubs(rng, i, tp, L, target);
      }
      if (abstract_words_ >= 1000) ++st_.long_abstracts;
      st_.max_abstract_words = std::max<uint64_t>(st_.max_abstract_words, abstract_words_);
      PutInvertedIndex();
    }
    out_.Lit(",\"updated_date\":\"2025-01-01T00:00:00.000000\"}\n");
  }

  // ---- hubs profile: authors ----
  void PickTeamHubs(Rng& rng, const Topic& tp, int year, uint64_t i) {
    team_.clear();
    team_unres_.clear();
    const uint32_t mark = static_cast<uint32_t>(i + 1);
    auto add = [&](uint32_t a) {
      if (team_mark_[a] == mark) return false;
      team_mark_[a] = mark;
      team_.push_back(a);
      return true;
    };
    const int f = tp.field;
    big_collab_ = false;
    senior_ = c_.AuthorInSub(tp.subfield, rng);
    if (c_.collab_p_[f] > 0 && rng.Chance(c_.collab_p_[f])) {
      big_collab_ = true;
      const auto& fc = c_.field_collabs_[f];
      const uint32_t c = fc[w_.aliases_.Sample(c_.collab_group_[f], rng)];
      const double keep = 0.85 + 0.15 * rng.Unit();
      for (uint64_t k = c_.collab_off_[c]; k < c_.collab_off_[c + 1]; ++k)
        if (rng.Chance(keep)) add(c_.collab_members_[k]);
      if (team_.empty()) add(senior_);
      senior_ = team_[0];
    } else {
      uint32_t n;
      if (rng.Chance(0.015)) {
        n = 20 + rng.Below(80);  // consortium papers
      } else {
        const double age = static_cast<double>(year - c_.first_year_) / (c_.num_years_ - 1);
        const double mean = 1.0 + 4.0 * age;
        const double u1 = 1.0 - rng.Unit(), u2 = 1.0 - rng.Unit();
        const double x = -0.5 * mean * DetLog(u1 * u2);
        n = std::min<uint32_t>(40, 1 + static_cast<uint32_t>(x + 0.5));
      }
      add(senior_);
      const int s = tp.subfield;
      for (uint32_t tries = 0; team_.size() < n && tries < 4 * n + 20; ++tries) {
        const double u = rng.Unit();
        uint32_t a;
        if (u < (n >= 20 ? 0.3 : 0.7)) {
          const uint32_t anchor = rng.Chance(0.85) ? senior_ : team_[rng.Below(team_.size())];
          const uint64_t b = c_.circle_off_[anchor], e = c_.circle_off_[anchor + 1];
          if (b == e) continue;
          a = c_.circle_[b + rng.Below64(e - b)];
        } else if (u < 0.86) {
          a = c_.AuthorInSub(s, rng);
        } else if (u < 0.96) {
          a = c_.AuthorUniformInSub(s, rng);
        } else {
          a = static_cast<uint32_t>(rng.Below64(c_.NumAuthors()));
        }
        add(a);
      }
      if (team_.size() > 1 && rng.Chance(0.6))
        std::rotate(team_.begin(), team_.begin() + 1, team_.end());
    }
    if (rng.Chance(0.085)) {  // a conflated author id
      const uint32_t m = c_.mega_authors_[w_.aliases_.Sample(c_.mega_group_, rng)];
      if (add(m)) std::swap(team_.back(), team_[rng.Below(team_.size())]);
    }
    for (size_t k = 0; k < team_.size(); ++k) team_unres_.push_back(rng.Chance(0.04));
    // Corresponding authors: the senior one, and for large teams a few more.
    corr_.clear();
    for (size_t k = 0; k < team_.size(); ++k)
      if (team_[k] == senior_) corr_.push_back(static_cast<uint32_t>(k));
    if (team_.size() >= 10 && rng.Chance(0.3)) {
      const uint32_t extra = 1 + rng.Below(3);
      for (uint32_t k = 0; k < extra; ++k) {
        const uint32_t p = rng.Below(team_.size());
        if (std::find(corr_.begin(), corr_.end(), p) == corr_.end()) corr_.push_back(p);
      }
    }
    st_.max_team = std::max<uint64_t>(st_.max_team, team_.size());
    if (team_.size() >= 100) ++st_.teams_100;
  }

  void AuthorNameHubs(uint32_t a, std::string& display, std::string& raw, bool& orcid,
                      std::string& orcid_str) {
    AuthorName(a, display, raw, orcid, orcid_str);
    const uint64_t h = Mix2(seed_ ^ 0x4A71BE, a);
    if (h % 3 != 0) return;
    const char* cc = kCountries[w_.institutions_[c_.author_inst_[a]].country].code;
    for (size_t k = 0; k < std::size(kNativeNames); ++k) {
      const NativeNames& nn = kNativeNames[k];
      if (std::strcmp(nn.country, cc) != 0) continue;
      const auto& fn = c_.native_first_[k];
      const auto& ln = c_.native_last_[k];
      const std::string& first = fn[(h >> 8) % fn.size()];
      const std::string& last = ln[(h >> 24) % ln.size()];
      display = nn.family_first ? last : first;
      if (nn.spaced) display.push_back(' ');
      display += nn.family_first ? first : last;
      raw = display;
      return;
    }
  }

  void PutAuthorshipsHubs(Rng& rng) {
    const uint64_t mark = ++authorship_mark_;
    size_t ninst = 0, ncountry = 0;
    out_.Lit(",\"authorships\":[");
    for (size_t k = 0; k < team_.size(); ++k) {
      const uint32_t a = team_[k];
      const bool unresolved = team_unres_[k];
      ++st_.authorships;
      if (unresolved)
        ++st_.unresolved;
      else
        ++author_works_[a];
      if (k) out_.Ch(',');
      out_.Lit("{\"author_position\":\"");
      if (k == 0)
        out_.Lit("first");
      else if (k + 1 == team_.size())
        out_.Lit("last");
      else
        out_.Lit("middle");
      out_.Lit("\",\"author\":{\"id\":");
      if (unresolved)
        out_.Null();
      else
        out_.IdStr("https://openalex.org/A", 5000000000ULL + uint64_t{a} * 11);
      bool orcid = false;
      AuthorNameHubs(a, name_, raw_name_, orcid, orcid_);
      out_.Lit(",\"display_name\":");
      out_.JsonStr(name_);
      out_.Lit(",\"orcid\":");
      if (orcid && !unresolved)
        out_.JsonStr(orcid_);
      else
        out_.Null();
      out_.Lit("},\"institutions\":[");
      uint32_t inst[3];
      int ni = 0;
      const double u = rng.Unit();
      if (u >= 0.03) {
        inst[ni++] = u < 0.10 ? w_.aliases_.Sample(w_.inst_group_, rng) : c_.author_inst_[a];
        const double extra = big_collab_ ? 0.25 : 0.08;
        for (int e = 0; e < 2 && ni < 3 && rng.Chance(e == 0 ? extra : 0.3); ++e) {
          const uint32_t more = w_.aliases_.Sample(w_.inst_group_, rng);
          bool dup = false;
          for (int j = 0; j < ni; ++j) dup |= inst[j] == more;
          if (!dup) inst[ni++] = more;
        }
      }
      for (int j = 0; j < ni; ++j) {
        if (j) out_.Ch(',');
        out_.Raw(w_.institutions_[inst[j]].json);
        if (inst_mark_[inst[j]] != mark) {
          inst_mark_[inst[j]] = mark;
          ++ninst;
        }
      }
      out_.Lit("],\"countries\":[");
      int shown[3], ns = 0;
      for (int j = 0; j < ni; ++j) {
        const int cc = w_.institutions_[inst[j]].country;
        bool dup = false;
        for (int q = 0; q < ns; ++q) dup |= shown[q] == cc;
        if (dup) continue;
        if (ns) out_.Ch(',');
        shown[ns++] = cc;
        out_.Ch('"');
        out_.Raw(kCountries[cc].code, 2);
        out_.Ch('"');
        if (country_mark_[cc] != mark) {
          country_mark_[cc] = mark;
          ++ncountry;
        }
      }
      out_.Lit("],\"is_corresponding\":");
      out_.Bool(std::find(corr_.begin(), corr_.end(), k) != corr_.end());
      out_.Lit(",\"raw_author_name\":");
      out_.JsonStr(raw_name_);
      out_.Ch('}');
    }
    out_.Lit("],\"institutions_distinct_count\":");
    out_.U64(ninst);
    out_.Lit(",\"countries_distinct_count\":");
    out_.U64(ncountry);
    out_.Lit(",\"corresponding_author_ids\":[");
    bool any = false;
    for (uint32_t k : corr_) {
      if (team_unres_[k]) continue;
      if (any) out_.Ch(',');
      any = true;
      out_.IdStr("https://openalex.org/A", 5000000000ULL + uint64_t{team_[k]} * 11);
    }
    out_.Ch(']');
  }

  // ---- hubs profile: text ----
  enum HKind { kHGeneral, kHTopic, kHTopic2, kHSub, kHField, kHRare, kHLatin, kHNumber, kHFunc };
  static constexpr uint64_t kGenVocab = 100000, kTermBase = kFuncWords + 30000, kTermRange = 300000;

  // Technical terms nest as real vocabularies do: a field uses 15,000 of
  // a language's 300,000 technical terms (fields overlap), a subfield 4,000
  // of its field's and a topic 1,500 of its subfield's; term k of each is its
  // k-th most frequent. The same rank in two languages is the same concept.
  static uint64_t FieldTerm(int f, uint64_t k) {
    return kTermBase + Mix2(0xF1E1D0000ULL + static_cast<uint64_t>(f), k) % kTermRange;
  }
  uint64_t SubTerm(int s, uint64_t k) const {
    return FieldTerm(kSubfieldField(s), Mix2(0x5B0000000ULL + static_cast<uint64_t>(s), k) % 15000);
  }
  uint64_t TopicTerm(uint32_t t, uint64_t k) const {
    return SubTerm(w_.topics_[t].subfield, Mix2(0x70C1C000000ULL + t, k) % 4000);
  }
  int kSubfieldField(int s) const { return w_.sub_field_[s]; }

  static int HKindDraw(Rng& rng, bool title) {
    const double u = rng.Unit();
    if (title)
      return u < 0.12   ? kHGeneral
             : u < 0.62 ? kHTopic
             : u < 0.76 ? kHSub
             : u < 0.84 ? kHField
             : u < 0.86 ? kHRare
             : u < 0.93 ? kHLatin
             : u < 0.96 ? kHNumber
                        : kHFunc;
    return u < 0.48    ? kHGeneral
           : u < 0.75  ? kHTopic
           : u < 0.77  ? kHTopic2
           : u < 0.86  ? kHSub
           : u < 0.92  ? kHField
           : u < 0.94  ? kHRare
           : u < 0.975 ? kHLatin
                       : kHNumber;
  }

  // A word of the given kind into word_. Returns true for a word of the
  // language L, false for a Latin-script insert or a number.
  bool HWord(Rng& rng, int kind, const Topic& tp, const Lang& L, uint64_t i, bool title) {
    uint64_t r = 0;
    bool term = true;
    switch (kind) {
      case kHGeneral:
        term = false;
        r = title ? kFuncWords + ZipfDraw(rng, 20000, 0.9, top_title_gen_)
                  : ZipfDraw(rng, kGenVocab, 1.1, top_gen_);
        break;
      case kHFunc:
        term = false;
        r = rng.Below(kFuncWords);
        break;
      case kHTopic:
      case kHTopic2: {
        const uint32_t tt = kind == kHTopic2 && num_topics_ > 1
                                ? topics_[1 + rng.Below(num_topics_ - 1)]
                                : cur_topic_;
        r = TopicTerm(tt, ZipfDraw(rng, 1500, 1.1, top_topic_));
        break;
      }
      case kHSub:
        r = SubTerm(tp.subfield, ZipfDraw(rng, 4000, 1.1, top_sub_));
        break;
      case kHField:
        r = FieldTerm(tp.field, ZipfDraw(rng, 15000, 1.1, top_field_));
        break;
      case kHRare:
        r = kTermBase + kTermRange + Mix2(i, rng.Next()) % (uint64_t{1} << 36);
        break;
      case kHLatin:
        LatinInsert(rng, tp);
        return false;
      default:
        NumberWord(rng, L);
        return false;
    }
    LangWord(L, r, word_, fold_);
    if (r < kFuncWords) return true;
    const Script sc = L.def->script;
    if (sc == kKana || sc == kHangul) {
      if (rng.Chance(0.35)) word_ += L.func[rng.Below(12)];  // particle
    } else if (rng.Chance(0.3)) {
      const std::string& e = L.ends[rng.Below(static_cast<uint32_t>(L.ends.size()))];
      if (!e.empty()) {
        if (sc == kGreek && word_.size() >= 2 &&
            word_.compare(word_.size() - 2, 2, "\xCF\x82") == 0)
          word_.replace(word_.size() - 2, 2, "\xCF\x83");  // sigma before an ending
        word_ += e;
        if (sc == kLatin && HasEnglishFunctionWord(word_, fold_)) word_ += L.syl[0];
      }
    }
    if (sc == kArabic && L.al && rng.Chance(0.35))
      word_.insert(0, "\xD8\xA7\xD9\x84");  // the article al-
    if (L.def->noun_caps) {
      const bool noun = term ? (Mix(r) & 3) != 0 : (Mix(r) & 3) == 0;
      if (term && kind == kHTopic && rng.Chance(0.05)) {  // a compound noun
        LangWord(L, TopicTerm(cur_topic_, ZipfDraw(rng, 1500, 1.1, top_topic_)), scratch_, fold_);
        word_ += scratch_;
      }
      if (noun) CapitalizeFirst(word_, 0, false);
    }
    return true;
  }

  // An English technical term, an acronym or a code: the Latin-script words
  // that real non-English abstracts carry.
  void LatinInsert(Rng& rng, const Topic& tp) {
    const double u = rng.Unit();
    if (u < 0.45) {
      word_ = w_.vocab_.Word(w_.topic_terms_[tp.term_off + w_.aliases_.Sample(tp.term_group, rng)]);
      if (!HasEnglishFunctionWord(word_, fold_)) return;
    }
    if (u < 0.88) {
      const uint32_t p =
          w_.topic_phrases_[tp.phrase_off + w_.aliases_.Sample(tp.phrase_group, rng)];
      word_.clear();
      for (uint32_t k = w_.phrase_off_[p]; k < w_.phrase_end_[p]; ++k) {
        const char c = w_.vocab_.Word(w_.phrase_words_[k])[0];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) word_.push_back(Upper(c));
      }
      if (word_.size() < 2 || HasEnglishFunctionWord(word_, fold_)) word_.push_back('X');
      return;
    }
    word_.clear();
    const uint64_t x = rng.Next();
    const int letters = 2 + static_cast<int>(x % 3);
    for (int k = 0; k < letters; ++k)
      word_.push_back(static_cast<char>('A' + (x >> (8 + 5 * k)) % 26));
    if (HasEnglishFunctionWord(word_, fold_)) word_.push_back('Q');  // "AN" -> "ANQ"
    if (x & (uint64_t{1} << 40)) word_.push_back('-');
    AppendU64(word_, 1 + (x >> 44) % 99);
  }

  void NumberWord(Rng& rng, const Lang& L) {
    word_.clear();
    const uint32_t v = rng.Below(10);
    const char dec = L.def->decimal_comma ? ',' : '.';
    if (v < 3) {
      AppendU64(word_, 2 + rng.Below(998));
    } else if (v < 6) {
      AppendU64(word_, rng.Below(10));
      word_.push_back(dec);
      AppendU64(word_, 10 + rng.Below(90));
    } else if (v < 8) {
      AppendU64(word_, 1 + rng.Below(99));
      word_.push_back(dec);
      AppendU64(word_, rng.Below(10));
      // "12,5 %" with a no-break space where the typography asks for one.
      const char* c = L.def->code;
      if (!std::strcmp(c, "de") || !std::strcmp(c, "fr") || !std::strcmp(c, "ru") ||
          !std::strcmp(c, "pl"))
        word_ += "\xC2\xA0%";
      else
        word_.push_back('%');
    } else {
      AppendU64(word_, 1950 + rng.Below(76));
    }
    if (!L.digits.empty() && rng.Chance(0.4)) {  // native digits
      std::string out;
      for (char ch : word_) {
        if (ch >= '0' && ch <= '9')
          out += L.digits[ch - '0'];
        else if (ch == '.' && L.def->script == kArabic)
          out += "\xD9\xAB";  // Arabic decimal separator
        else
          out.push_back(ch);
      }
      word_.swap(out);
    }
  }

  // Appends word w as tokens (split at spaces: Vietnamese); with glue, its
  // first part extends the previous token (scripts written without spaces).
  void HTok(std::string_view w, bool glue) {
    size_t b = 0;
    for (size_t k = 0; k <= w.size(); ++k) {
      if (k < w.size() && w[k] != ' ') continue;
      if (k > b) {
        const uint32_t len = static_cast<uint32_t>(k - b);
        if (glue && !spans_.empty()) {
          tok_.append(w.data() + b, len);
          spans_.back().len += len;
        } else {
          spans_.push_back({static_cast<uint32_t>(tok_.size()), len});
          tok_.append(w.data() + b, len);
        }
      }
      glue = false;
      b = k + 1;
    }
  }

  // Sentences of `target` words in language L, appended to tok_/spans_.
  // zh and ja are written without spaces: a run of native words is one
  // token, broken only by Latin inserts and numbers (a quarter of their
  // abstracts have none and are a single token). 2% of sentences run on for
  // 60-200 words without a comma.
  void BuildAbstractHubs(Rng& rng, uint64_t i, const Topic& tp, const Lang& L, size_t target) {
    const bool cjk = !L.def->spaces;
    const bool pure = cjk && rng.Chance(0.25);
    const Script sc = L.def->script;
    const bool caps = sc == kLatin || sc == kCyrillic || sc == kGreek;
    bool prev_native = false;
    for (size_t words = 0; words < target;) {
      const bool runon = rng.Chance(0.02);
      const size_t len = runon ? 60 + rng.Below(141)
                               : static_cast<size_t>(std::clamp(
                                     static_cast<int>(17.0 * DetExp(0.45 * rng.Normal())), 4, 60));
      int paren = 0, quote = 0;
      for (size_t w = 0; w < len; ++w, ++words) {
        int kind = HKindDraw(rng, false);
        if (pure && (kind == kHLatin || kind == kHNumber)) kind = kHGeneral;
        const bool native = HWord(rng, kind, tp, L, i, false);
        if (w == 0 && caps && native) CapitalizeFirst(word_, 0, L.turkish);
        if (w > 0 && paren == 0 && quote == 0 && rng.Chance(0.015)) {
          word_.insert(0, cjk ? "\xEF\xBC\x88" : "(");
          paren = 1 + static_cast<int>(rng.Below(3));
        } else if (w > 0 && paren == 0 && quote == 0 && rng.Chance(0.008)) {
          word_.insert(0, L.def->qopen);
          quote = 1 + static_cast<int>(rng.Below(2));
        }
        const bool last = w + 1 == len;
        if (paren > 0 && (--paren == 0 || last)) {
          word_ += cjk ? "\xEF\xBC\x89" : ")";
          paren = 0;
        }
        if (quote > 0 && (--quote == 0 || last)) {
          word_ += L.def->qclose;
          quote = 0;
        }
        if (last)
          word_ += L.def->stop;
        else if (!runon && rng.Chance(0.075))
          word_ += L.def->comma;
        HTok(word_, cjk && native && prev_native);
        prev_native = native;
      }
      abstract_words_ += len;
    }
  }

  void BuildTitleHubs(Rng& rng, uint64_t i, const Topic& tp, int type, const Lang& L) {
    title_.clear();
    const bool cjk = !L.def->spaces;
    const Script sc = L.def->script;
    const bool caps = sc == kLatin || sc == kCyrillic || sc == kGreek;
    if ((type >= kLetter && type <= kParatext && rng.Chance(0.5)) || rng.Chance(0.002)) {
      // Generic titles ("Editorial", "Erratum") repeat across works.
      LangWord(L, kFuncWords + 7 + rng.Below(3), title_, fold_);
      CapitalizeFirst(title_, 0, L.turkish);
      return;
    }
    const size_t n =
        static_cast<size_t>(std::clamp(static_cast<int>(9.0 * DetExp(0.4 * rng.Normal())), 2, 24));
    const size_t colon =
        n >= 4 && rng.Chance(0.2) ? 1 + rng.Below(static_cast<uint32_t>(n - 2)) : n;
    bool prev_native = false;
    for (size_t w = 0; w < n; ++w) {
      const bool native = HWord(rng, HKindDraw(rng, true), tp, L, i, true);
      if ((w == 0 || w == colon + 1) && caps && native) CapitalizeFirst(word_, 0, L.turkish);
      if (w > 0 && !(cjk && native && prev_native)) title_.push_back(' ');
      title_ += word_;
      if (w == colon) title_ += cjk ? "\xEF\xBC\x9A" : ":";
      prev_native = native;
    }
    if (caps && rng.Chance(0.01)) UpperAll(title_, L.turkish);
    while (!titles_.Insert(HashBytes(title_.data(), title_.size()))) {
      HWord(rng, kHRare, tp, L, i, true);
      if (!cjk) title_.push_back(' ');
      title_ += word_;
    }
  }

  // ---- topics and keywords ----
  void PickTopics(Rng& rng, uint32_t t) {
    topics_[0] = t;
    num_topics_ = 1;
    const double u = rng.Unit();
    const int want = u < 0.25 ? 1 : u < 0.6 ? 2 : 3;
    const Topic& tp = w_.topics_[t];
    for (int tries = 0; num_topics_ < want && tries < 10; ++tries) {
      const double v = rng.Unit();
      uint32_t cand;
      if (v < 0.6) {
        const auto& l = w_.sub_topics_[tp.subfield];
        cand = l[rng.Below(l.size())];
      } else if (v < 0.9) {
        const auto& subs = w_.field_subs_[tp.field];
        const auto& l = w_.sub_topics_[subs[rng.Below(subs.size())]];
        cand = l[rng.Below(l.size())];
      } else {
        cand = rng.Below(w_.num_topics_);
      }
      bool dup = false;
      for (int k = 0; k < num_topics_; ++k) dup |= topics_[k] == cand;
      if (!dup) topics_[num_topics_++] = cand;
    }
    topic_score_[0] = 9000 + rng.Below(1000);
    for (int k = 1; k < num_topics_; ++k)
      topic_score_[k] =
          topic_score_[k - 1] - std::min<uint32_t>(topic_score_[k - 1] - 100, 50 + rng.Below(1500));
  }

  void PickKeywords(Rng& rng, const Topic& tp) {
    const int want = 2 + static_cast<int>(rng.Below(4));
    num_kw_ = 0;
    num_kw_phrases_ = 0;
    for (int tries = 0; num_kw_ < want && tries < 20; ++tries) {
      Keyword k;
      if (num_kw_ == 0 || rng.Chance(0.7)) {
        const uint32_t p =
            w_.topic_phrases_[tp.phrase_off + w_.aliases_.Sample(tp.phrase_group, rng)];
        k.words = &w_.phrase_words_[w_.phrase_off_[p]];
        k.n = w_.phrase_end_[p] - w_.phrase_off_[p];
      } else {
        k.words = &w_.topic_terms_[tp.term_off + w_.aliases_.Sample(tp.term_group, rng)];
        k.n = 1;
      }
      bool dup = false;
      for (int j = 0; j < num_kw_; ++j) dup |= kw_[j].words == k.words;
      if (dup) continue;
      if (k.n > 1) ++num_kw_phrases_;
      kw_[num_kw_++] = k;
    }
    // Phrase keywords first so kw_[0] is a phrase for the title; then scores
    // descending, like OpenAlex.
    std::stable_partition(kw_, kw_ + num_kw_, [](const Keyword& k) { return k.n > 1; });
    uint32_t s = 4500 + rng.Below(3500);
    for (int j = 0; j < num_kw_; ++j) {
      kw_[j].score = s;
      s -= std::min<uint32_t>(s - 300, 100 + rng.Below(900));
    }
  }

  void PutTopic(int k) {
    const Topic& tp = w_.topics_[topics_[k]];
    out_.Raw(tp.json_head);
    out_.Frac4(topic_score_[k]);
    out_.Raw(tp.json_tail);
  }

  void PutKeyword(const Keyword& k) {
    scratch_.clear();
    for (uint32_t j = 0; j < k.n; ++j) {
      if (j) scratch_.push_back('-');
      for (char ch : w_.vocab_.Word(k.words[j])) {
        if (ch >= 'A' && ch <= 'Z')
          scratch_.push_back(static_cast<char>(ch + 32));
        else if (ch == '\'')
          continue;
        else if (ch == ' ' || ch == '/' || ch == ',')
          scratch_.push_back('-');
        else
          scratch_.push_back(ch);
      }
    }
    out_.Lit("{\"id\":\"https://openalex.org/keywords/");
    out_.Raw(scratch_);
    out_.Lit("\",\"display_name\":");
    scratch_.clear();
    for (uint32_t j = 0; j < k.n; ++j) {
      if (j) scratch_.push_back(' ');
      scratch_ += w_.vocab_.Word(k.words[j]);
    }
    scratch_[0] = Upper(scratch_[0]);
    out_.JsonStr(scratch_);
    out_.Lit(",\"score\":");
    out_.Frac4(k.score);
    out_.Ch('}');
  }

  // ---- title ----
  void AppendRare(Rng& rng, const Topic& tp, bool title_case, bool first) {
    RareTerm(tp.rare_base + ZipfDraw(rng, tp.rare_n, 1.1, tp.rare_top), rare_, w_.syllables_,
             w_.rare_ends_);
    if (title_case)
      AppendTitleWord(title_, rare_, first);
    else
      title_ += rare_;
  }

  void AppendPhraseTitle(const uint32_t* words, uint32_t n, bool first) {
    for (uint32_t j = 0; j < n; ++j) {
      if (j) title_.push_back(' ');
      AppendTitleWord(title_, w_.vocab_.Word(words[j]), first && j == 0);
    }
  }

  void BuildTitle(Rng& rng, uint64_t i, const Topic& tp, int type) {
    if (type == kBookChapter && rng.Chance(0.02)) {  // a few generic chapter titles, as in OpenAlex
      static const char* const kGeneric[] = {"Introduction", "Conclusion", "Preface"};
      title_ = kGeneric[rng.Below(3)];
      return;
    }
    for (int attempt = 0;; ++attempt) {
      const char* pat;
      if (type == kReview)
        pat = kReviewTitles[rng.Below(std::size(kReviewTitles))];
      else if (type == kDataset)
        pat = kDatasetTitles[rng.Below(std::size(kDatasetTitles))];
      else
        pat = kArticleTitles[rng.Below(std::size(kArticleTitles))];
      title_.clear();
      const bool quote = rng.Chance(0.003);
      for (const char* p = pat; *p; ++p) {
        if (*p != '{') {
          title_.push_back(*p);
          continue;
        }
        const char code = p[1];
        p += 2;  // at '}'
        const bool first = title_.empty();
        switch (code) {
          case 'P':
            if (quote) title_.push_back('"');
            AppendPhraseTitle(kw_[0].words, kw_[0].n, first);
            if (quote) title_.push_back('"');
            break;
          case 'Q': {
            const uint32_t q =
                w_.topic_phrases_[tp.phrase_off + w_.aliases_.Sample(tp.phrase_group, rng)];
            AppendPhraseTitle(&w_.phrase_words_[w_.phrase_off_[q]],
                              w_.phrase_end_[q] - w_.phrase_off_[q], first);
            break;
          }
          case 'T':
            AppendTitleWord(
                title_,
                w_.vocab_.Word(
                    w_.topic_terms_[tp.term_off + w_.aliases_.Sample(tp.term_group, rng)]),
                first);
            break;
          case 'N':
            title_ += w_.title_nouns_[rng.Below(w_.title_nouns_.size())];
            break;
          case 'A':
            title_ += w_.title_adjs_[rng.Below(w_.title_adjs_.size())];
            break;
          case 'G':
            title_ += w_.title_gerunds_[rng.Below(w_.title_gerunds_.size())];
            break;
          case 'X':
            AppendRare(rng, tp, true, first);
            break;
        }
      }
      int words = 1;
      for (char ch : title_) words += ch == ' ';
      if (words < 6) {
        title_ += " in ";
        AppendTitleWord(
            title_,
            w_.vocab_.Word(w_.topic_terms_[tp.term_off + w_.aliases_.Sample(tp.term_group, rng)]),
            false);
        title_.push_back(' ');
        title_ += w_.title_nouns_[rng.Below(w_.title_nouns_.size())];
        words += 3;
      }
      if (words > 15 && attempt < 8) continue;
      break;
    }
    for (size_t k = 0; k + 2 < title_.size(); ++k)  // "A Improved" -> "An Improved"
      if (title_[k] == 'A' && title_[k + 1] == ' ' && (k == 0 || title_[k - 1] == ' ') &&
          std::strchr("AEIOUaeiou", title_[k + 2]) != nullptr)
        title_.insert(k + 1, "n");
    // Distinguish a repeated title with a rare term, as real titles do.
    while (!titles_.Insert(HashBytes(title_.data(), title_.size()))) {
      title_ += " in ";
      AppendRare(rng, tp, true, false);
      (void)i;
    }
  }

  // ---- dates and urls ----
  void PutDate(Rng& rng, int year) {
    static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    int month = 1, day = 1;
    if (!rng.Chance(0.12)) {  // many records carry only the year, as January 1
      int d = static_cast<int>(rng.Below(leap ? 366 : 365));
      for (month = 1;; ++month) {
        const int len = kDays[month - 1] + (month == 2 && leap);
        if (d < len) break;
        d -= len;
      }
      day = d + 1;
    }
    char b[10];
    b[0] = static_cast<char>('0' + year / 1000);
    b[1] = static_cast<char>('0' + year / 100 % 10);
    b[2] = static_cast<char>('0' + year / 10 % 10);
    b[3] = static_cast<char>('0' + year % 10);
    b[4] = '-';
    b[5] = static_cast<char>('0' + month / 10);
    b[6] = static_cast<char>('0' + month % 10);
    b[7] = '-';
    b[8] = static_cast<char>('0' + day / 10);
    b[9] = static_cast<char>('0' + day % 10);
    out_.Raw(b, 10);
  }

  void PutPdfUrl(const Source& so, uint64_t i) {
    out_.Lit("\"https://pub.example.org/");
    out_.Raw(so.slug);
    out_.Ch('/');
    out_.U64(i);
    out_.Lit(".pdf\"");
  }

  // ---- authors ----
  void PickTeam(Rng& rng, int s, int year, uint64_t i) {
    team_.clear();
    uint32_t n;
    if (rng.Below(5000) == 0) {
      n = 100 + rng.Below(201);
    } else {
      const double mean = 2.6 + 2.4 * (year - kFirstYear) / (kNumYears - 1) - 1.0;
      const double u1 = 1.0 - rng.Unit(), u2 = 1.0 - rng.Unit();
      const double x = -0.5 * mean * DetLog(u1 * u2);  // Erlang-2 with the given mean
      n = std::min<uint32_t>(30, 1 + static_cast<uint32_t>(x + 0.5));
    }
    const uint32_t senior = c_.AuthorInSub(s, rng);
    team_.push_back(senior);
    const bool big = n >= 100;
    for (uint32_t tries = 0; team_.size() < n && tries < 4 * n + 20; ++tries) {
      const double u = rng.Unit();
      uint32_t a;
      if (u < (big ? 0.2 : 0.75)) {
        const uint32_t anchor = rng.Chance(0.85) ? senior : team_[rng.Below(team_.size())];
        const uint64_t b = c_.circle_off_[anchor], e = c_.circle_off_[anchor + 1];
        if (b == e) continue;
        a = c_.circle_[b + rng.Below64(e - b)];
      } else if (u < 0.88) {
        a = c_.AuthorInSub(s, rng);
      } else if (u < 0.97) {
        a = c_.AuthorUniformInSub(s, rng);
      } else {
        a = static_cast<uint32_t>(rng.Below64(c_.NumAuthors()));
      }
      if (std::find(team_.begin(), team_.end(), a) != team_.end()) continue;
      team_.push_back(a);
    }
    senior_last_ = team_.size() > 1 && rng.Chance(0.75);
    if (senior_last_) std::rotate(team_.begin(), team_.begin() + 1, team_.end());
    (void)i;
  }

  void AuthorName(uint32_t a, std::string& display, std::string& raw, bool& orcid,
                  std::string& orcid_str) {
    const uint64_t h = Mix2(seed_ ^ 0xA17A0A17ULL, a);
    const int home_culture = kCountries[w_.institutions_[c_.author_inst_[a]].country].culture;
    const int culture = (h % 100) < 80 ? home_culture : static_cast<int>((h >> 8) % kNumCultures);
    const auto& fn = c_.first_names_[culture];
    const auto& ln = c_.last_names_[culture];
    const std::string& first = fn[(h >> 12) % fn.size()];
    const std::string& last = ln[(h >> 24) % ln.size()];
    display = first;
    if ((h >> 36) % 5 == 0 && culture != 1 && culture != 7) {
      display.push_back(' ');
      display.push_back(static_cast<char>('A' + (h >> 40) % 26));
      display.push_back('.');
    }
    display.push_back(' ');
    display += last;
    if ((h >> 46) % 6 == 0) {  // initials, as printed on the paper
      raw.clear();
      size_t cp = 1;
      while (cp < first.size() && (static_cast<unsigned char>(first[cp]) & 0xC0) == 0x80) ++cp;
      raw.append(first, 0, cp);
      raw += ". ";
      raw += last;
    } else {
      raw = display;
    }
    orcid = (h >> 52) % 10 < 4;
    if (orcid) {
      const uint64_t x = (uint64_t{a} * 7919 + 1234567) % 10000000;
      int d[15] = {0, 0, 0, 0, 0, 0, 0, 1 + static_cast<int>(a / 10000000 % 3)};
      uint64_t y = x;
      for (int k = 14; k >= 8; --k, y /= 10) d[k] = static_cast<int>(y % 10);
      int total = 0;
      for (int k = 0; k < 15; ++k) total = (total + d[k]) * 2;
      const int check = (12 - total % 11) % 11;
      orcid_str = "https://orcid.org/";
      for (int k = 0; k < 15; ++k) {
        if (k && k % 4 == 0) orcid_str.push_back('-');
        orcid_str.push_back(static_cast<char>('0' + d[k]));
      }
      orcid_str.push_back(check == 10 ? 'X' : static_cast<char>('0' + check));
    }
  }

  void PutAuthorships(Rng& rng) {
    const uint32_t corresponding = senior_last_ ? team_.back() : team_.front();
    insts_seen_.clear();
    countries_seen_.clear();
    out_.Lit(",\"authorships\":[");
    for (size_t k = 0; k < team_.size(); ++k) {
      const uint32_t a = team_[k];
      ++author_works_[a];
      ++st_.authorships;
      if (k) out_.Ch(',');
      out_.Lit("{\"author_position\":\"");
      if (k == 0)
        out_.Lit("first");
      else if (k + 1 == team_.size())
        out_.Lit("last");
      else
        out_.Lit("middle");
      out_.Lit("\",\"author\":{\"id\":");
      out_.IdStr("https://openalex.org/A", 5000000000ULL + uint64_t{a} * 11);
      bool orcid = false;
      AuthorName(a, name_, raw_name_, orcid, orcid_);
      out_.Lit(",\"display_name\":");
      out_.JsonStr(name_);
      out_.Lit(",\"orcid\":");
      if (orcid)
        out_.JsonStr(orcid_);
      else
        out_.Null();
      out_.Lit("},\"institutions\":[");
      uint32_t inst[2];
      int ni = 0;
      const double u = rng.Unit();
      if (u >= 0.02) {
        inst[ni++] = u < 0.10 ? w_.aliases_.Sample(w_.inst_group_, rng) : c_.author_inst_[a];
        if (rng.Chance(0.05)) {
          const uint32_t second = w_.aliases_.Sample(w_.inst_group_, rng);
          if (second != inst[0]) inst[ni++] = second;
        }
      }
      for (int j = 0; j < ni; ++j) {
        if (j) out_.Ch(',');
        out_.Raw(w_.institutions_[inst[j]].json);
        if (std::find(insts_seen_.begin(), insts_seen_.end(), inst[j]) == insts_seen_.end())
          insts_seen_.push_back(inst[j]);
      }
      out_.Lit("],\"countries\":[");
      for (int j = 0; j < ni; ++j) {
        const int cc = w_.institutions_[inst[j]].country;
        if (j == 1 && w_.institutions_[inst[0]].country == cc) break;
        if (j) out_.Ch(',');
        out_.Ch('"');
        out_.Raw(kCountries[cc].code, 2);
        out_.Ch('"');
        if (std::find(countries_seen_.begin(), countries_seen_.end(), cc) == countries_seen_.end())
          countries_seen_.push_back(cc);
      }
      out_.Lit("],\"is_corresponding\":");
      out_.Bool(a == corresponding);
      out_.Lit(",\"raw_author_name\":");
      out_.JsonStr(raw_name_);
      out_.Ch('}');
    }
    st_.max_team = std::max<uint64_t>(st_.max_team, team_.size());
    if (team_.size() >= 100) ++st_.teams_100;
    out_.Lit("],\"institutions_distinct_count\":");
    out_.U64(insts_seen_.size());
    out_.Lit(",\"countries_distinct_count\":");
    out_.U64(countries_seen_.size());
    out_.Lit(",\"corresponding_author_ids\":[");
    out_.IdStr("https://openalex.org/A", 5000000000ULL + uint64_t{corresponding} * 11);
    out_.Ch(']');
  }

  // ---- related works ----
  void PickRelated(Rng& rng, uint64_t i, uint32_t t) {
    ids_.clear();
    const uint32_t want = 8 + rng.Below(5);
    const int s = w_.topics_[t].subfield;
    const uint32_t tb = c_.topic_off_[t], tn = c_.topic_off_[t + 1] - tb;
    const uint32_t sb = c_.sub_off_[s], sn = c_.sub_off_[s + 1] - sb;
    for (uint32_t tries = 0; ids_.size() < want && tries < 4 * want; ++tries) {
      uint64_t j;
      if (tn > want + 1 || (tn > 1 && tries < 2 * want))
        j = c_.topic_list_[tb + rng.Below(tn)];
      else if (sn > 1)
        j = c_.sub_list_[sb + rng.Below(sn)];
      else
        j = rng.Below64(c_.n_);
      if (j == i) continue;
      const uint64_t id = c_.WorkId(j);
      if (std::find(ids_.begin(), ids_.end(), id) != ids_.end()) continue;
      ids_.push_back(id);
    }
  }

  // ---- abstract ----
  void Emit(std::string_view w, bool cap) {
    // "a" before a vowel becomes "an".
    if (!spans_.empty() && spans_.back().len == 1 && !w.empty() &&
        std::strchr("aeiouAEIOU", w[0]) != nullptr) {
      const char prev = tok_[spans_.back().off];
      if (prev == 'a' || prev == 'A') AppendToLast('n');
    }
    const uint32_t off = static_cast<uint32_t>(tok_.size());
    tok_ += w;
    if (cap) tok_[off] = Upper(tok_[off]);
    spans_.push_back({off, static_cast<uint32_t>(w.size())});
  }
  void AppendToLast(char ch) {
    tok_.push_back(ch);
    ++spans_.back().len;
  }
  void EmitPos(Rng& rng, const PosList& l, bool cap) {
    Emit(w_.vocab_.Word(l.ids[w_.aliases_.Sample(l.group, rng)]), cap);
  }
  void EmitRare(Rng& rng, const Topic& tp, bool cap) {
    RareTerm(tp.rare_base + ZipfDraw(rng, tp.rare_n, 1.1, tp.rare_top), rare_, w_.syllables_,
             w_.rare_ends_);
    Emit(rare_, cap);
  }

  // Fills one template slot; returns the index of the slot's first token.
  size_t EmitSlot(Rng& rng, char slot, const Topic& tp, bool cap) {
    const size_t first = spans_.size();
    switch (slot) {
      case 'N':
        EmitPos(rng, w_.nouns_, cap);
        if (rng.Chance(0.05)) {  // "analysis of catalytic"
          Emit("of", false);
          EmitSlot(rng, 'T', tp, false);
        }
        break;
      case 'J':
        EmitPos(rng, w_.adjectives_, cap);
        break;
      case 'V':
        EmitPos(rng, w_.verbs_, cap);
        break;
      case 'S':
        EmitPos(rng, w_.verbs3_, cap);
        break;
      case 'W':
        EmitPos(rng, w_.verbs_plural_, cap);
        break;
      case 'D':
        EmitPos(rng, w_.participles_, cap);
        break;
      case 'R':
        EmitRare(rng, tp, cap);
        break;
      case 'T': {
        if (rng.Chance(0.05)) {
          EmitRare(rng, tp, cap);
          break;
        }
        const Topic& src = num_topics_ > 1 && rng.Chance(0.15)
                               ? w_.topics_[topics_[1 + rng.Below(num_topics_ - 1)]]
                               : tp;
        const std::string_view w =
            w_.vocab_.Word(w_.topic_terms_[src.term_off + w_.aliases_.Sample(src.term_group, rng)]);
        if (rng.Chance(0.003)) {  // a scare-quoted term
          rare_ = "\"";
          rare_ += w;
          rare_ += "\"";
          Emit(rare_, false);
        } else {
          Emit(w, cap);
        }
        break;
      }
      case 'P': {
        const uint32_t* words;
        uint32_t n;
        if (num_kw_phrases_ > 0 && rng.Chance(0.45)) {
          const Keyword& k = kw_[rng.Below(num_kw_phrases_)];
          words = k.words;
          n = k.n;
        } else {
          const uint32_t p =
              w_.topic_phrases_[tp.phrase_off + w_.aliases_.Sample(tp.phrase_group, rng)];
          words = &w_.phrase_words_[w_.phrase_off_[p]];
          n = w_.phrase_end_[p] - w_.phrase_off_[p];
        }
        for (uint32_t j = 0; j < n; ++j) Emit(w_.vocab_.Word(words[j]), cap && j == 0);
        if (n >= 2 && rng.Chance(0.12)) {  // "graph neural network (GNN)"
          rare_ = "(";
          for (uint32_t j = 0; j < n; ++j) rare_.push_back(Upper(w_.vocab_.Word(words[j])[0]));
          rare_ += ")";
          Emit(rare_, false);
        }
        break;
      }
      case '#': {
        rare_.clear();
        const uint32_t v = rng.Below(10);
        if (v < 4) {
          AppendU64(rare_, 2 + rng.Below(998));
        } else if (v < 7) {
          AppendU64(rare_, rng.Below(10));
          rare_.push_back('.');
          AppendU64(rare_, 10 + rng.Below(90));
        } else if (v < 9) {
          AppendU64(rare_, 1 + rng.Below(99));
          rare_.push_back('.');
          AppendU64(rare_, rng.Below(10));
          rare_.push_back('%');
        } else {
          AppendU64(rare_, 1 + rng.Below(9));
          rare_.push_back('.');
          AppendU64(rare_, rng.Below(10));
          rare_ += "-fold";
        }
        Emit(rare_, false);
        break;
      }
    }
    return first;
  }

  void BuildAbstract(Rng& rng, const Topic& tp) {
    tok_.clear();
    spans_.clear();
    const double len = 150.0 * DetExp(0.35 * rng.Normal());
    const size_t target = static_cast<size_t>(std::clamp(static_cast<int>(len), 80, 230));
    while (spans_.size() < target) {
      const size_t tok_before = tok_.size(), spans_before = spans_.size();
      const auto& tmpl = w_.templates_[rng.Below(w_.templates_.size())];
      for (size_t k = 0; k < tmpl.size(); ++k) {
        const TemplateItem& it = tmpl[k];
        if (!it.slot) {
          Emit(it.text, false);
          continue;
        }
        const size_t first = EmitSlot(rng, it.slot, tp, k == 0);
        if (!it.pre.empty()) {  // "(" before the slot's first token
          tok_.insert(spans_[first].off, it.pre);
          spans_[first].len += static_cast<uint32_t>(it.pre.size());
          for (size_t q = first + 1; q < spans_.size(); ++q)
            spans_[q].off += static_cast<uint32_t>(it.pre.size());
        }
        for (char ch : it.post) AppendToLast(ch);
      }
      if (spans_.size() > 250) {  // the sentence would pass 250 words: drop it
        tok_.resize(tok_before);
        spans_.resize(spans_before);
        break;
      }
    }
  }

  void PutInvertedIndex() {
    // Group equal tokens in first-occurrence order; positions chained per
    // token.
    const size_t n = spans_.size();
    uniq_.clear();
    next_.assign(n, -1);
    size_t tsize = kTable;  // 1024 for every default-profile abstract
    while (tsize < 2 * n) tsize <<= 1;
    table_.assign(tsize, -1);
    const uint32_t tmask = static_cast<uint32_t>(tsize - 1);
    for (size_t p = 0; p < n; ++p) {
      const Span sp = spans_[p];
      const char* s = tok_.data() + sp.off;
      uint32_t h = 2166136261u;
      for (uint32_t k = 0; k < sp.len; ++k) h = (h ^ static_cast<unsigned char>(s[k])) * 16777619u;
      uint32_t slot = h & tmask;
      for (;; slot = (slot + 1) & tmask) {
        const int32_t u = table_[slot];
        if (u < 0) {
          table_[slot] = static_cast<int32_t>(uniq_.size());
          uniq_.push_back({static_cast<uint32_t>(p), static_cast<int32_t>(p)});
          break;
        }
        const Span& o = spans_[uniq_[u].first];
        if (o.len == sp.len && std::memcmp(tok_.data() + o.off, s, sp.len) == 0) {
          next_[uniq_[u].last] = static_cast<int32_t>(p);
          uniq_[u].last = static_cast<int32_t>(p);
          break;
        }
      }
    }
    out_.Lit(",\"abstract_inverted_index\":{");
    for (size_t u = 0; u < uniq_.size(); ++u) {
      if (u) out_.Ch(',');
      const Span& sp = spans_[uniq_[u].first];
      out_.JsonStr(std::string_view(tok_.data() + sp.off, sp.len));
      out_.Lit(":[");
      for (int32_t p = static_cast<int32_t>(uniq_[u].first); p >= 0; p = next_[p]) {
        if (p != static_cast<int32_t>(uniq_[u].first)) out_.Ch(',');
        out_.U64(static_cast<uint64_t>(p));
      }
      out_.Ch(']');
    }
    out_.Ch('}');
  }

  struct Uniq {
    uint32_t first;
    int32_t last;
  };
  static constexpr uint32_t kTable = 1024;

  const World& w_;
  const Corpus& c_;
  Out& out_;
  uint64_t seed_;
  Stats& st_;
  HashSet titles_;
  std::vector<uint32_t> author_works_;
  uint32_t topics_[3] = {}, topic_score_[3] = {};
  int num_topics_ = 0;
  Keyword kw_[5] = {};
  int num_kw_ = 0, num_kw_phrases_ = 0;
  std::string title_, rare_, scratch_, name_, raw_name_, orcid_, tok_;
  std::vector<Span> spans_;
  std::vector<Uniq> uniq_;
  std::vector<int32_t> next_;
  std::vector<int32_t> table_;
  // Hubs profile.
  uint32_t cur_topic_ = 0, senior_ = 0;
  bool big_collab_ = false;
  std::vector<uint8_t> team_unres_;
  std::vector<uint32_t> corr_, team_mark_;
  std::vector<uint64_t> inst_mark_;
  uint64_t country_mark_[kNumCountries] = {}, authorship_mark_ = 0;
  std::string doi_, word_, fold_;
  uint64_t abstract_words_ = 0;
  double top_gen_ = 1, top_title_gen_ = 1, top_topic_ = 1, top_sub_ = 1, top_field_ = 1;
  std::vector<uint32_t> team_, insts_seen_;
  std::vector<int> countries_seen_;
  bool senior_last_ = false;
  std::vector<uint64_t> ids_;
};

// ---------------------------------------------------------------------------

void Usage(FILE* f) {
  std::fputs(
      "usage: litgraph-gen-works --works N [--seed S] [--profile NAME] [--out FILE|-] "
      "[--gzip-free]\n"
      "Writes N synthetic OpenAlex works as JSON lines; same N, seed and profile, "
      "same bytes.\n"
      "  --works N     number of works (required)\n"
      "  --seed S      random seed (default 1)\n"
      "  --profile P   default (the tuned corpus) or hubs (multilingual, no English\n"
      "                function words, heavy citation hubs, huge author lists)\n"
      "  --out FILE    output file, '-' for stdout (default)\n"
      "  --gzip-free   accepted for compatibility; output is always "
      "uncompressed\n",
      f);
}

bool ParseU64(const char* s, uint64_t& v) {
  if (!*s) return false;
  v = 0;
  for (; *s; ++s) {
    if (*s < '0' || *s > '9') return false;
    if (v > (UINT64_MAX - 9) / 10) return false;
    v = v * 10 + static_cast<uint64_t>(*s - '0');
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t n = 0, seed = 1;
  bool have_n = false, hubs = false;
  std::string profile = "default";
  std::string out_path = "-";
  for (int k = 1; k < argc; ++k) {
    const std::string_view a = argv[k];
    if (a == "-h" || a == "--help") {
      Usage(stdout);
      return 0;
    }
    if (a == "--gzip-free") continue;
    if (a != "--works" && a != "--seed" && a != "--out" && a != "--profile") {
      std::fprintf(stderr, "litgraph-gen-works: error: unknown option '%s'\n", argv[k]);
      Usage(stderr);
      return 2;
    }
    if (k + 1 >= argc) {
      std::fprintf(stderr, "litgraph-gen-works: error: %s needs a value\n", argv[k]);
      return 2;
    }
    const char* v = argv[++k];
    if (a == "--out") {
      out_path = v;
    } else if (a == "--profile") {
      profile = v;
      if (profile != "default" && profile != "hubs") {
        std::fprintf(stderr,
                     "litgraph-gen-works: error: --profile: unknown profile '%s' (default, hubs)\n",
                     v);
        return 2;
      }
      hubs = profile == "hubs";
    } else if (!ParseU64(v, a == "--works" ? n : seed)) {
      std::fprintf(stderr, "litgraph-gen-works: error: %s: not a non-negative integer: '%s'\n",
                   argv[k - 1], v);
      return 2;
    } else if (a == "--works") {
      have_n = true;
    }
  }
  if (!have_n || n >= (uint64_t{1} << 31)) {
    std::fprintf(stderr, "litgraph-gen-works: error: --works N is required (N < 2^31)\n");
    Usage(stderr);
    return 2;
  }
  FILE* f = stdout;
  if (out_path != "-") {
    f = std::fopen(out_path.c_str(), "wb");
    if (!f) {
      std::fprintf(stderr, "litgraph-gen-works: error: %s: %s\n", out_path.c_str(),
                   std::strerror(errno));
      return 1;
    }
  }
  const auto start = std::chrono::steady_clock::now();
  Stats st;
  World world(n, seed, hubs);
  world.Build();
  Corpus corpus(world, n, seed);
  if (hubs) {
    corpus.PrePassHubs();
    if (n > 0) corpus.BuildGraphHubs(st);
    corpus.BuildAuthorsHubs();
  } else {
    corpus.PrePass();
    if (n > 0) corpus.BuildGraph(st);
    corpus.BuildAuthors();
  }
  const double setup_secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  Out out(f);
  {
    Writer writer(world, corpus, out, seed, st);
    for (uint64_t i = 0; i < n && out.ok(); ++i) writer.Work(i);
    writer.Finish();
  }
  bool ok = out.Flush();
  st.bytes = out.bytes();
  if (f != stdout) {
    ok = std::fclose(f) == 0 && ok;
  } else {
    ok = std::fflush(stdout) == 0 && ok;
  }
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fprintf(stderr,
               "litgraph-gen-works: works=%llu refs=%llu in_set_refs=%llu "
               "dangling_refs=%llu "
               "later_refs=%llu max_in_degree=%llu authors_pool=%llu authors_used=%llu "
               "authorships=%llu max_works_per_author=%llu bytes=%llu "
               "setup_seconds=%.2f seconds=%.2f profile=%s max_refs_per_work=%llu "
               "works_without_refs=%llu max_authors_per_work=%llu works_100plus_authors=%llu "
               "authorships_without_id=%llu works_without_abstract=%llu "
               "abstracts_1000plus_words=%llu max_abstract_words=%llu\n",
               (unsigned long long)n, (unsigned long long)st.refs, (unsigned long long)st.inset,
               (unsigned long long)st.dangling, (unsigned long long)st.forward,
               (unsigned long long)st.max_indeg, (unsigned long long)corpus.NumAuthors(),
               (unsigned long long)st.distinct_authors, (unsigned long long)st.authorships,
               (unsigned long long)st.max_author_works, (unsigned long long)st.bytes, setup_secs,
               secs, profile.c_str(), (unsigned long long)st.max_refs,
               (unsigned long long)st.zero_ref_works, (unsigned long long)st.max_team,
               (unsigned long long)st.teams_100, (unsigned long long)st.unresolved,
               (unsigned long long)st.no_abstract, (unsigned long long)st.long_abstracts,
               (unsigned long long)st.max_abstract_words);
  if (!ok) {
    std::fprintf(stderr, "litgraph-gen-works: error: write failed: %s\n", std::strerror(errno));
    return 1;
  }
  return 0;
}
