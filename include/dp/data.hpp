/// \file
/// Data regions (after OpenACC's `data` and `update` constructs): control
/// over when fields move between host and device, never over whether host
/// access is coherent.
///
///     {
///       dp::data_region region(dp::copyin(a, b), dp::copy(c), dp::copyout(d), dp::create(tmp));
///       ...                      // call-sites: these fields stay resident on the device
///       dp::update_host(c);      // c's device data to the host now
///       dp::update_device(a);    // host changes of a to the device now
///     }                          // c and d copied back; a, b and tmp released
///
/// In the untranslated program and on the host backend a region moves no
/// data, and is checked the same way.
#pragma once

#include <cstddef>
#include <exception>
#include <type_traits>
#include <string>
#include <vector>

#include "detail/storage.hpp"
#include "field.hpp"
#include "options.hpp"

namespace dp {

namespace detail {

/// What a data clause says about its fields (OpenACC's names).
enum class data_kind { copyin, copy, copyout, create };

/// The clause's name, as the user wrote it.
const char *data_kind_name(data_kind k);

/// The fields of one clause: their data blocks, each held while the
/// region is.
struct data_clause {
  data_kind kind;
  std::vector<storage_ref> blocks;
};

template <int N, class T> storage_ref block_of(const field<N, T> &f) {
  storage *s = field_access::owner(f);
  if (s)
    s->retain();
  return storage_ref(s);
}

template <class... F> data_clause make_clause(data_kind kind, const F &...fields) {
  data_clause c{kind, {}};
  (c.blocks.push_back(block_of(fields)), ...);
  return c;
}

/// How a translated program moves data where its call-sites run on a
/// device (the emulated one or a GPU); installed by the launch runtime.
/// Absent (null) in the untranslated program and while call-sites run on
/// the host: regions then move nothing.
struct device_data_ops {
  /// The device copy current on q (null: the default queue), a transfer
  /// only where it is stale.
  void (*to_device)(storage &block, queue_state *q);
  /// A device copy attached and declared current without a transfer.
  void (*assume_device)(storage &block);
  /// The host copy current: now when q is null, else asynchronously on q.
  void (*to_host)(storage &block, queue_state *q);
};
/// The operations of the device this program's call-sites run on, or null.
const device_data_ops *device_data();
/// Installs them (the launch runtime, where call-sites run on a device).
void set_device_data(const device_data_ops *(*which)());

/// Opens a region over `clauses` (registering what it holds, moving data);
/// a dp::error for a field named twice, or held by a live region with
/// another clause.
void open_region(const std::vector<data_clause> &clauses);
/// Closes it: copies back and releases what no other live region holds;
/// throws the error of a launch whose data could not come back.
void close_region(const std::vector<data_clause> &clauses) noexcept(false);
void update_host_block(storage *block, queue_state *q);
void update_device_block(storage *block, queue_state *q);
bool present_block(const storage *block);

} // namespace detail

/// Fields copied to the device when the region opens; released when it
/// closes (OpenACC copyin).
template <int... N, class... T> detail::data_clause copyin(const field<N, T> &...fields) {
  return detail::make_clause(detail::data_kind::copyin, fields...);
}
/// Fields copied to the device when the region opens and back when it
/// closes (OpenACC copy).
template <int... N, class... T> detail::data_clause copy(const field<N, T> &...fields) {
  return detail::make_clause(detail::data_kind::copy, fields...);
}
/// Fields whose contents before the region are dead: device storage
/// without a transfer, copied back when the region closes (OpenACC
/// copyout). Elements no launch writes are unspecified afterwards.
template <int... N, class... T> detail::data_clause copyout(const field<N, T> &...fields) {
  return detail::make_clause(detail::data_kind::copyout, fields...);
}
/// Device storage without a transfer, released when the region closes
/// (OpenACC create): scratch that lives on the device.
template <int... N, class... T> detail::data_clause create(const field<N, T> &...fields) {
  return detail::make_clause(detail::data_kind::create, fields...);
}

/// A scope in which fields stay resident on the device, with transfers at
/// its start and end as its clauses say. Host access inside stays
/// coherent. A field named twice, or held by another live region with a
/// different clause, is a dp::error.
class data_region {
public:
  template <class... C> explicit data_region(C... clauses) : clauses_{std::move(clauses)...} {
    static_assert((std::is_same<C, detail::data_clause>::value && ...),
                  "dp::data_region takes dp::copyin, dp::copy, dp::copyout and dp::create clauses");
    detail::open_region(clauses_);
  }
  /// Copies back and releases; an asynchronous launch's error is thrown
  /// here unless an exception is already leaving the scope.
  ~data_region() noexcept(false) {
    if (std::uncaught_exceptions() > unwinding_) {
      try {
        detail::close_region(clauses_);
      } catch (...) {
      }
    } else {
      detail::close_region(clauses_);
    }
  }
  data_region(const data_region &) = delete;
  data_region &operator=(const data_region &) = delete;

private:
  std::vector<detail::data_clause> clauses_;
  int unwinding_ = std::uncaught_exceptions();
};

/// Makes the host copy of f current now (a transfer only if it is stale).
template <int N, class T> void update_host(const field<N, T> &f) {
  detail::update_host_block(detail::field_access::owner(f), nullptr);
}
/// The same, asynchronously on q: host access to f waits for it.
template <int N, class T> void update_host(const queue &q, const field<N, T> &f) {
  detail::update_host_block(detail::field_access::owner(f), q.state().get());
}
/// Makes the device copy of f current now (a transfer only if it is
/// stale). Nothing to do where call-sites run on the host.
template <int N, class T> void update_device(const field<N, T> &f) {
  detail::update_device_block(detail::field_access::owner(f), nullptr);
}
/// The same, on q: launches on other queues that use f wait for it.
template <int N, class T> void update_device(const queue &q, const field<N, T> &f) {
  detail::update_device_block(detail::field_access::owner(f), q.state().get());
}
/// True when f has a current device copy; where call-sites run on the
/// host, while a live region holds f.
template <int N, class T> bool present(const field<N, T> &f) {
  return detail::present_block(detail::field_access::owner(f));
}

} // namespace dp
