//===- CallSite.cpp - The names of the call-site model's values -----------===//
//
// What the stubs' comments, diagnostics and `dpstub --list` call each
// conversion, kind, kernel form, domain and sort order of the model.
//
//===----------------------------------------------------------------------===//

#include "dpstub/CallSite.h"

#include <string>

namespace dpstub {

const char *toString(Conversion C) {
  switch (C) {
  case Conversion::SpecialIndex: return "special index";
  case Conversion::ElementalProjection: return "elemental projection";
  case Conversion::PartialProjection: return "partial projection";
  case Conversion::BroadcastField: return "broadcast field";
  case Conversion::BroadcastScalar: return "broadcast scalar";
  }
  return "?";
}

const char *toString(CallKind K) {
  switch (K) {
  case CallKind::Forall: return "forall";
  case CallKind::Reduce: return "reduce";
  case CallKind::Scan: return "scan";
  case CallKind::Sort: return "sort";
  }
  return "?";
}

const char *toString(KernelKind K) {
  switch (K) {
  case KernelKind::FreeFunction: return "function";
  case KernelKind::Lambda: return "lambda";
  case KernelKind::FunctionObject: return "function object";
  }
  return "?";
}

const char *toString(DomainKind K) {
  switch (K) {
  case DomainKind::Grid: return "plain grid";
  case DomainKind::Tiled: return "tiled grid";
  case DomainKind::Where: return "dp::where";
  case DomainKind::LowerTriangle: return "lower triangle";
  case DomainKind::UpperTriangle: return "upper triangle";
  }
  return "?";
}

const char *toString(SortOrder O) {
  switch (O) {
  case SortOrder::Custom: return "custom";
  case SortOrder::Ascending: return "ascending";
  case SortOrder::Descending: return "descending";
  }
  return "?";
}

std::string Location::str() const {
  return File + ":" + std::to_string(Line) + ":" + std::to_string(Column);
}

} // namespace dpstub
