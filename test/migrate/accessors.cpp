// Arrays a class keeps private behind element accessors (LULESH's Domain:
// `Real_t& x(Index_t idx) { return m_x[idx]; }` over a std::vector, or a
// pointer member): a loop calling them on an object borrows each member
// through its accessor (`&domain.x(0)`), over the elements its bounds
// reach (from null where they reach none: an empty vector has no element
// 0 to take the address of), and the kernel indexes the borrowed field as
// it called the accessor (`domain_x(i)`); the object itself stays on the
// host.
#include <vector>

typedef double Real_t;
typedef int Index_t;

class Domain {
public:
  explicit Domain(Index_t n) : m_x(n), m_xd(n), m_mass(new Real_t[n]), m_nodelist(8 * n), m_symm(n) {}
  ~Domain() { delete[] m_mass; }
  Real_t &x(Index_t idx) { return m_x[idx]; }
  Real_t &xd(Index_t idx) { return m_xd[idx]; }
  const Real_t &mass(Index_t idx) const { return m_mass[idx]; }
  Index_t &nodelist(Index_t idx) { return m_nodelist[idx]; }
  // By value: not an element accessor (no element to borrow from).
  Index_t symm(Index_t idx) { return m_symm[idx]; }
  // Not the element of its parameter: not one either.
  Real_t &first(Index_t) { return m_x[0]; }

private:
  std::vector<Real_t> m_x, m_xd;
  Real_t *m_mass;
  std::vector<Index_t> m_nodelist, m_symm;
};

void advance(Domain &domain, const Real_t dt, Index_t numNode) {
#pragma omp parallel for firstprivate(numNode)
  for (Index_t i = 0; i < numNode; ++i) {
    domain.xd(i) += dt / domain.mass(i);
    domain.x(i) += domain.xd(i) * dt;
  }
// DIAG: accessors.cpp:[[@LINE-4]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// The one it only reads is read through a copy where it overlaps those
// the loop writes (dp::borrow_read).
// REWRITE:      dp::field<1, Real_t> dp_domain_xd = dp::borrow(numNode > 0 ? &domain.xd(0) : nullptr, numNode > 0 ? numNode : 0);
// REWRITE-NEXT: dp::field<1, Real_t> dp_domain_x = dp::borrow(numNode > 0 ? &domain.x(0) : nullptr, numNode > 0 ? numNode : 0);
// REWRITE-NEXT: dp::field<1, const Real_t> dp_domain_mass = dp::borrow_read(numNode > 0 ? &domain.mass(0) : nullptr, numNode > 0 ? numNode : 0, dp_domain_xd, dp_domain_x);
// REWRITE-NEXT: dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, numNode)), [=](dp::index<1> idx, dp::field<1, Real_t> &domain_xd, const dp::field<1, const Real_t> &domain_mass, dp::field<1, Real_t> &domain_x) {
// REWRITE-NEXT:   const Index_t i = idx[0];
// REWRITE-NEXT:   domain_xd(i) += dt / domain_mass(i);
// REWRITE-NEXT:   domain_x(i) += domain_xd(i) * dt;
}

// Through a list: how far the loop reaches into 'x' is the list's to say,
// and only the object knows its members' lengths.
void gather(Domain &domain, Real_t *out, Index_t numElem) {
#pragma omp parallel for
  for (Index_t k = 0; k < numElem; ++k)
    out[k] = domain.x(domain.nodelist(8 * k)) + domain.x(domain.nodelist(8 * k + 1));
// DIAG: accessors.cpp:[[@LINE-1]]:14: warning: not converted: 'domain.x' cannot become a dp::field: it is a member of another object, which keeps its memory (line [[@LINE-1]]) [dp-migrate]
// DIAG: accessors.cpp:[[@LINE-2]]:14: note: the call-site could borrow 'domain.x', but the loop's accesses do not show how far it reaches; no data clause can name an accessor's member to give it
}

void boundary(Domain &domain, Index_t n) {
#pragma omp parallel for
  for (Index_t i = 0; i < n; ++i)
    domain.xd(domain.symm(i)) = 0;
// DIAG: accessors.cpp:[[@LINE-1]]:15: warning: not converted: the loop calls 'symm', not a const member function, on 'domain', of which each iteration of a kernel holds a copy it cannot change (a change would be a race between iterations); make 'symm' const if it changes nothing [dp-migrate]
}

void reset(Domain &domain, Index_t n) {
#pragma omp parallel for
  for (Index_t i = 0; i < n; ++i)
    domain.first(i) = 0;
// DIAG: accessors.cpp:[[@LINE-1]]:5: warning: not converted: the loop calls 'first', not a const member function, on 'domain', of which each iteration of a kernel holds a copy it cannot change (a change would be a race between iterations); make 'first' const if it changes nothing [dp-migrate]
}
// SUMMARY: migrated 1 of 4 loops (3 refused)
