// What dp::record keeps, and the checks of its misuses (detail/recording.hpp).

#include <dp/detail/recording.hpp>
#include <dp/error.hpp>
#include <dp/options.hpp>

#include <cstring>

namespace dp::detail {

namespace {
thread_local recording *current = nullptr;

/// The wait that is a misuse's error: host access to what a recording
/// writes, while it is made.
class recording_guard final : public completion {
public:
  explicit recording_guard(std::string message) : message_(std::move(message)) {}
  void wait() override { throw dp::error(message_); }
  void wait_quietly() noexcept override {}
  bool done() const override { return true; }
  const void *queue() const override { return nullptr; }

private:
  std::string message_;
};

std::string where(const source_site &at) {
  if (!at.file)
    return "dp::record";
  const char *slash = std::strrchr(at.file, '/');
  return std::string("dp::record at ") + (slash ? slash + 1 : at.file) + ":" +
         std::to_string(at.line);
}
} // namespace

recording::recording(std::shared_ptr<queue_state> queue, source_site at)
    : queue_(std::move(queue)), name_(where(at)) {}

recording::~recording() {
  end(true);
  replayer_.reset(); // its graph and temporaries go before the blocks it addresses
  for (const block_use &u : blocks_)
    if (u.on_device)
      u.block->unpin_device();
}

recording *recording::active() noexcept { return current; }

void recording::begin() {
  if (current)
    current->refuse("a nested " + name_);
  current = this;
  recording_ = true;
}

void recording::end(bool failed) {
  if (!recording_)
    return;
  recording_ = false;
  current = nullptr;
  for (const block_use &u : blocks_)
    if (u.writes)
      u.block->hold(nullptr);
  for (const scalar_use &u : scalars_)
    u.unguard(u.scalar);
  if (replayer_)
    replayer_->end(failed);
}

void recording::run(queue_state &target) {
  if (current)
    current->refuse("a replay of " + name_);
  if (replayer_)
    replayer_->run(*this, target);
}

void recording::call_site(const std::string &site, const queue_state *q) {
  if (q != queue_.get())
    throw dp::error(site + ": a call-site on " + (q ? "another queue" : "the default queue") +
                    " inside " + name_ + ", which records its queue's call-sites only (pass it "
                    "dp::on(q) with the recording's queue)");
  ++sites_;
}

void recording::use(const std::string &site, storage *block, bool writes, bool on_device) {
  for (block_use &u : blocks_)
    if (u.block == block) {
      if (writes && !u.writes)
        block->hold(guard(site, "a field"));
      u.writes = u.writes || writes;
      if (on_device && !u.on_device)
        block->pin_device();
      u.on_device = u.on_device || on_device;
      return;
    }
  block->retain();
  kept_.emplace_back(block);
  if (writes)
    block->hold(guard(site, "a field"));
  if (on_device)
    block->pin_device();
  blocks_.push_back({block, writes, on_device});
}

void recording::refuse_if_active(const char *what) {
  if (recording *r = active())
    r->refuse(what);
}

recording *recording::of_call_site(const std::string &site, const queue_state *q) {
  recording *r = active();
  if (r)
    r->call_site(site, q);
  return r;
}

void recording::refuse(const std::string &what) const {
  throw dp::error(what + " inside " + name_ +
                  ": a recording only records call-sites (it runs nothing, so nothing "
                  "can be waited for or read yet)");
}

void recording::mixed(const std::string &site, const char *kind) const {
  throw dp::error(site + ": runs as " + kind + " inside " + name_ + ", whose call-sites run as " +
                  replayer_->kind() + "; a recording runs on one side (drop the call-site's "
                  "when(...), or record it apart)");
}

pending recording::guard(const std::string &site, const char *what) const {
  return std::make_shared<recording_guard>(
      "host access to " + std::string(what) + " that " + site + " writes, inside " + name_ +
      ": nothing recorded has run yet; read it after a replay (step.run())");
}

} // namespace dp::detail
