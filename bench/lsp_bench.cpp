// dpstub-lsp's latency: hover and code action requests on a file already
// parsed (test/e2e/forall_cases.cpp), against the goal of 300 ms. The
// server runs as a child process speaking LSP over pipes, as an editor
// drives it; each request is timed from send to reply, 20 times.
//   build/bench/lsp_bench [SERVER]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

/// A child process's stdin and stdout, framed as LSP messages.
class Channel {
public:
  explicit Channel(const std::string &server) {
    int in[2], out[2];
    if (pipe(in) || pipe(out))
      std::exit(1);
    pid_ = fork();
    if (pid_ == 0) {
      dup2(in[0], 0);
      dup2(out[1], 1);
      close(in[1]);
      close(out[0]);
      execl(server.c_str(), server.c_str(), static_cast<char *>(nullptr));
      std::_Exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_ = fdopen(in[1], "w");
    from_ = fdopen(out[0], "r");
  }
  ~Channel() {
    std::fclose(to_);
    std::fclose(from_);
    waitpid(pid_, nullptr, 0);
  }
  void send(const std::string &json) {
    std::fprintf(to_, "Content-Length: %zu\r\n\r\n%s", json.size(), json.c_str());
    std::fflush(to_);
  }
  /// The next message.
  std::string receive() {
    std::size_t length = 0;
    char line[256];
    while (std::fgets(line, sizeof line, from_) && std::string(line) != "\r\n")
      if (std::sscanf(line, "Content-Length: %zu", &length) == 1) {
      }
    std::string body(length, '\0');
    if (std::fread(&body[0], 1, length, from_) != length)
      std::exit(1);
    return body;
  }
  /// Reads messages until one contains `text`.
  std::string until(const std::string &text) {
    for (;;) {
      std::string m = receive();
      if (m.find(text) != std::string::npos)
        return m;
    }
  }

private:
  pid_t pid_;
  std::FILE *to_, *from_;
};

std::string quoted(const std::string &s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      q += '\\', q += c;
    else if (c == '\n')
      q += "\\n";
    else
      q += c;
  }
  return q + "\"";
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  const std::string server = argc > 1 ? argv[1] : DPSTUB_LSP_PATH;
  const std::string file = DPSTUB_SOURCE_DIR "/test/e2e/forall_cases.cpp";
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  const std::string uri = "file://" + file;
  Channel lsp(server);
  lsp.send(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{"workspace":{"workspaceEdit":{"documentChanges":true,"resourceOperations":["create"]}}}}})");
  lsp.until("\"id\":0");
  const auto open0 = std::chrono::steady_clock::now();
  lsp.send(R"({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":")" + uri +
           R"(","languageId":"cpp","version":1,"text":)" + quoted(text.str()) + "}}}");
  lsp.until("publishDiagnostics");
  const double parse =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - open0).count() * 1e3;

  // A call-site of main(): `dp::forall(g, elemental, out, a, b)`, found by
  // its text (a fixed line number broke when the file grew).
  const std::string call = "dp::forall(g, elemental, out, a, b)";
  const std::string source = text.str();
  const std::size_t offset = source.find(call);
  if (offset == std::string::npos) {
    std::fprintf(stderr, "lsp_bench: no `%s` in %s\n", call.c_str(), file.c_str());
    return 1;
  }
  const std::size_t line_start = source.rfind('\n', offset) + 1; // npos + 1 == 0 on the first line
  const std::string position = R"({"line":)" +
                               std::to_string(std::count(source.begin(), source.begin() + offset, '\n')) +
                               R"(,"character":)" + std::to_string(offset - line_start + 4) + "}";
  const std::string at = R"("textDocument":{"uri":")" + uri + R"("},)";
  std::vector<double> hover, action;
  for (int i = 0; i < 20; ++i) {
    const std::string id = std::to_string(100 + i);
    auto t0 = std::chrono::steady_clock::now();
    lsp.send(R"({"jsonrpc":"2.0","id":)" + id + R"(,"method":"textDocument/hover","params":{)" + at + R"("position":)" + position + "}}");
    if (lsp.until("\"id\":" + id).find("elemental projection") == std::string::npos) {
      std::fprintf(stderr, "lsp_bench: the hover is not the call-site's\n");
      return 1;
    }
    hover.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() * 1e3);
    const std::string id2 = std::to_string(200 + i);
    t0 = std::chrono::steady_clock::now();
    lsp.send(R"({"jsonrpc":"2.0","id":)" + id2 + R"(,"method":"textDocument/codeAction","params":{)" + at +
             R"("range":{"start":)" + position + R"(,"end":)" + position +
             R"(},"context":{"diagnostics":[]}}})");
    if (lsp.until("\"id\":" + id2).find("Translate this") == std::string::npos) {
      std::fprintf(stderr, "lsp_bench: no action for the call-site\n");
      return 1;
    }
    action.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() * 1e3);
  }
  lsp.send(R"({"jsonrpc":"2.0","id":1,"method":"shutdown"})");
  lsp.until("\"id\":1");
  lsp.send(R"({"jsonrpc":"2.0","method":"exit"})");
  std::printf("dpstub-lsp on test/e2e/forall_cases.cpp (medians of 20):\n\n"
              "| request | time | goal |\n|---|---|---|\n"
              "| first analysis (didOpen to diagnostics) | %.0f ms | |\n"
              "| hover on a parsed file | %.2f ms | <= 300 ms%s |\n"
              "| code action (with its workspace edit) on a parsed file | %.2f ms | <= 300 ms%s |\n",
              parse, median(hover), median(hover) <= 300 ? "" : " (missed)", median(action),
              median(action) <= 300 ? "" : " (missed)");
}
