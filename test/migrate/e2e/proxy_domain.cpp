// A hydrodynamics proxy application's shape (LULESH's): a Domain class
// keeps its node and element arrays private behind element accessors
// (`Real_t& xd(Index_t idx) { return m_xd[idx]; }`), over std::vector
// and pointer members; scratch arrays come from allocation helpers in
// the style of its header (Allocate<T>(n), Release(&p)). Node loops over
// the accessors become call-sites borrowing each member through its
// accessor; the element loop gathering nodes through the node list stays
// a loop (how far it reaches is the list's to say); a loop over scratch
// arrays indexed through a list converts, its allocation giving the
// length. Every value is a dyadic rational, so every order prints alike.
#include <cstdio>
#include <cstdlib>
#include <vector>

typedef double Real_t;
typedef int Index_t;

template <typename T> T *Allocate(size_t size) { return static_cast<T *>(malloc(sizeof(T) * size)); }

template <typename T> void Release(T **ptr) {
  if (*ptr != NULL) {
    free(*ptr);
    *ptr = NULL;
  }
}

class Domain {
public:
  Domain(Index_t edge) : m_numElem(edge), m_numNode(edge + 1), m_x(edge + 1), m_xd(edge + 1), m_f(edge + 1),
                         m_nodelist(2 * edge), m_e(edge) {
    m_mass = new Real_t[m_numNode];
    for (Index_t n = 0; n < m_numNode; ++n) {
      m_x[n] = n;
      m_xd[n] = 0;
      m_mass[n] = (n % 4) + 1;
    }
    for (Index_t k = 0; k < m_numElem; ++k) {
      m_nodelist[2 * k] = k;
      m_nodelist[2 * k + 1] = k + 1;
      m_e[k] = k % 3;
    }
  }
  ~Domain() { delete[] m_mass; }
  Real_t &x(Index_t idx) { return m_x[idx]; }
  Real_t &xd(Index_t idx) { return m_xd[idx]; }
  Real_t &f(Index_t idx) { return m_f[idx]; }
  const Real_t &mass(Index_t idx) const { return m_mass[idx]; }
  Index_t &nodelist(Index_t idx) { return m_nodelist[idx]; }
  Real_t &e(Index_t idx) { return m_e[idx]; }
  Index_t numNode() const { return m_numNode; }
  Index_t numElem() const { return m_numElem; }

private:
  Index_t m_numElem, m_numNode;
  std::vector<Real_t> m_x, m_xd, m_f;
  Real_t *m_mass;
  std::vector<Index_t> m_nodelist;
  std::vector<Real_t> m_e;
};

static void ResetForces(Domain &domain, Index_t numNode) {
#pragma omp parallel for firstprivate(numNode)
  for (Index_t i = 0; i < numNode; ++i)
    domain.f(i) = Real_t(0.0);
}

// Each element pushes on its two nodes: through the node list, so it
// stays a loop (and its threads would race on a node two elements share).
static void ElementForces(Domain &domain, Index_t numElem) {
  for (Index_t k = 0; k < numElem; ++k) {
    const Real_t push = domain.e(k) * Real_t(0.25);
    domain.f(domain.nodelist(2 * k)) -= push;
    domain.f(domain.nodelist(2 * k + 1)) += push;
  }
}

static void Velocity(Domain &domain, const Real_t dt, const Real_t u_cut, Index_t numNode) {
#pragma omp parallel for firstprivate(numNode)
  for (Index_t i = 0; i < numNode; ++i) {
    Real_t xdtmp = domain.xd(i) + domain.f(i) / domain.mass(i) * dt;
    if (xdtmp < u_cut && xdtmp > -u_cut)
      xdtmp = Real_t(0.0);
    domain.xd(i) = xdtmp;
  }
}

static void Position(Domain &domain, const Real_t dt, Index_t numNode) {
#pragma omp parallel for firstprivate(numNode)
  for (Index_t i = 0; i < numNode; ++i)
    domain.x(i) += domain.xd(i) * dt;
}

static void Scale(Real_t *next, const Real_t *work, const Index_t *order, Index_t numElem) {
#pragma omp parallel for firstprivate(numElem)
  for (Index_t k = 0; k < numElem; ++k)
    next[k] = work[order[k]] * Real_t(0.5) + Real_t(0.125);
}

// Scratch arrays of the step, read through a permutation.
static void Energy(Domain &domain, Index_t numElem) {
  Real_t *work = Allocate<Real_t>(numElem);
  Index_t *order = Allocate<Index_t>(numElem);
  for (Index_t k = 0; k < numElem; ++k) {
    work[k] = domain.e(k);
    order[k] = (k * 7) % numElem;
  }
  Real_t *next = Allocate<Real_t>(numElem);
  Scale(next, work, order, numElem);
  for (Index_t k = 0; k < numElem; ++k)
    domain.e(k) = next[k];
  Release(&next);
  Release(&order);
  Release(&work);
}

int main() {
  Domain domain(64);
  const Real_t dt = 0.5, u_cut = 1.0 / 1024;
  for (int step = 0; step < 6; ++step) {
    ResetForces(domain, domain.numNode());
    ElementForces(domain, domain.numElem());
    Velocity(domain, dt, u_cut, domain.numNode());
    Position(domain, dt, domain.numNode());
    Energy(domain, domain.numElem());
  }
  Real_t sx = 0, sxd = 0, se = 0;
  for (Index_t n = 0; n < domain.numNode(); ++n) {
    sx += domain.x(n);
    sxd += domain.xd(n);
  }
  for (Index_t k = 0; k < domain.numElem(); ++k)
    se += domain.e(k);
  printf("x %.6f xd %.6f e %.6f\n", sx, sxd, se);
  printf("x[1] %.6f x[63] %.6f\n", domain.x(1), domain.x(63));
  return 0;
}
