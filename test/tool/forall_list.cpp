// --list prints the model of every call-site as JSON and writes nothing.
#include <dp/dp.hpp>

void add(float &c, float a, float b) { c = a + b; }
extern void opaque(float &c);

void run(dp::field<1, float> &c, dp::field<1, float> &a) {
  dp::forall(c.get_grid(), add, c, a, 1.5f);
  dp::forall(c.get_grid(), opaque, c);
// DIAG: forall_list.cpp:[[@LINE-1]]:28: warning: dp::forall call-site left untouched: the kernel's body is not visible in this translation unit
}

// LIST: [
// LIST:   {
// LIST:     "file": "forall_list.cpp",
// LIST:     "line": 8,
// LIST:     "column": 3,
// LIST:     "kind": "forall",
// LIST:     "translated": true,
// LIST:     "compute_rank": 1,
// LIST:     "kernel": {
// LIST:       "kind": "function",
// LIST:       "name": "::add",
// LIST:       "signature": "void add(float &c, float a, float b)",
// LIST:       "implicit_index": false,
// LIST:       "mutable": false,
// LIST:       "generic": false
// LIST:     },
// LIST:     "arguments": [
// LIST:       {
// LIST:         "position": 1,
// LIST:         "text": "c",
// LIST:         "actual_type": "dp::field<1, float>",
// LIST:         "actual_rank": 1,
// LIST:         "formal_type": "float &",
// LIST:         "formal_rank": 0,
// LIST:         "conversion": "elemental projection",
// LIST:         "access": "read-write"
// LIST:       },
// LIST:         "text": "1.5f",
// LIST:         "conversion": "broadcast scalar",
// LIST:         "access": "read-only"
// LIST:     "diagnostics": []
// LIST:     "line": 9,
// LIST:     "translated": false,
// LIST:     "diagnostics": [
// LIST:         "level": "warning",
// LIST:         "line": 9,
// LIST:         "column": 28,
// LIST:         "message": "dp::forall call-site left untouched: the kernel's body is not visible in this translation unit"
