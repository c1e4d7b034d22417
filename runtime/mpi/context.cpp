// dp::mpi::context: MPI's lifetime and dp::mpi's own communicator.
#include "dp/mpi.hpp"

namespace dp::mpi {

context::context(int &argc, char **&argv) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    // Only the thread that made the context calls MPI; the runtime's worker
    // threads never do.
    const int code = MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    if (code != MPI_SUCCESS)
      detail::check(code, MPI_COMM_NULL, "context");
    finalize_ = true;
  }
  adopt(MPI_COMM_WORLD);
}

context::context(MPI_Comm comm) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized)
    throw dp::error("dp::mpi::context: MPI is not initialised; construct the context from "
                    "(argc, argv) or call MPI_Init first");
  adopt(comm);
}

void context::adopt(MPI_Comm comm) {
  detail::check(MPI_Comm_dup(comm, &comm_), comm, "context");
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

context::~context() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized)
    return;
  if (comm_ != MPI_COMM_NULL)
    MPI_Comm_free(&comm_);
  if (finalize_)
    MPI_Finalize();
}

} // namespace dp::mpi
