//===- dpstub-lsp.cpp - The dpstub language server ------------------------===//
//
// dpstub-lsp [--lit-test] [--log=error|info|verbose]
//
// A Language Server Protocol server over stdin/stdout, run beside clangd:
// hover, diagnostics and code actions at dp:: call-sites (docs/editors.md).
//
//===----------------------------------------------------------------------===//

#include "Server.h"
#include "dpstub/OwnHeaders.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>

namespace cl = llvm::cl;

static cl::opt<bool> LitTest("lit-test",
                             cl::desc("Read '// -----'-delimited messages and pretty-print the "
                                      "output (for transcript tests)"));
static cl::opt<std::string> Log("log", cl::desc("How much to log to stderr: error, info or verbose"),
                                cl::init("error"));

/// An address in this executable, for locating it.
static void anchor() {}

int main(int argc, char **argv) {
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) { OS << "dpstub-lsp " << DPSTUB_VERSION << "\n"; });
  cl::ParseCommandLineOptions(argc, argv, "dpstub-lsp: the dpstub language server\n");
  dpstub::lsp::Logger::setLogLevel(Log == "verbose" ? dpstub::lsp::Logger::Level::Debug
                                   : Log == "info"  ? dpstub::lsp::Logger::Level::Info
                                                    : dpstub::lsp::Logger::Level::Error);
  dpstub::lsp::JSONTransport Transport(stdin, llvm::outs(),
                                       LitTest ? dpstub::lsp::JSONStreamStyle::Delimited
                                               : dpstub::lsp::JSONStreamStyle::Standard,
                                       /*prettyOutput=*/LitTest);
  dpstub::lsp::MessageHandler Messages(Transport);
  dpstub::ServerSettings Settings;
  const std::string Include = "-I" + dpstub::ownIncludeDir(argv[0], reinterpret_cast<void *>(&anchor));
  Settings.FallbackFlags = {"clang++", "-std=c++17", Include};
  Settings.FallbackCFlags = {"clang", Include};
  Settings.Version = DPSTUB_VERSION;
  dpstub::Server Server(Messages, Settings);
  if (llvm::Error E = Transport.run(Messages)) {
    llvm::errs() << "dpstub-lsp: " << llvm::toString(std::move(E)) << "\n";
    return 1;
  }
  return 0;
}
