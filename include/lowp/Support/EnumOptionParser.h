//===- EnumOptionParser.h - enum pass options that list their values -*- C++ -*-===//
//
// Pass and pipeline options over a closed set of choices are enum-typed
// (`llvm::cl::values`), so a misspelled value fails while the pipeline text
// is parsed, before anything runs. LLVM's parser then says only "Cannot find
// option named 'x'!"; this one names the values the option accepts:
//
//   for the --policy option: 'fp16' is not one of: auto, f16, bf16, fp8, autocast
//
// An enum opts in with LOWP_LISTING_ENUM_OPTION(Type) at namespace scope,
// next to its declaration and before any option of that type is declared.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_SUPPORT_ENUMOPTIONPARSER_H
#define LOWP_SUPPORT_ENUMOPTIONPARSER_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"

#include <string>

namespace mlir::lowp::detail {

/// llvm::cl::parser<DataType> for an enum, with an error that lists the
/// accepted values. The members mirror llvm::cl::parser (MLIR's
/// PassOptions::GenericOptionParser reads `Values` to print options back).
template <typename DataType>
class ListingEnumParser : public llvm::cl::generic_parser_base {
protected:
  class OptionInfo : public GenericOptionInfo {
  public:
    OptionInfo(llvm::StringRef name, DataType v, llvm::StringRef helpStr)
        : GenericOptionInfo(name, helpStr), V(v) {}
    llvm::cl::OptionValue<DataType> V;
  };
  llvm::SmallVector<OptionInfo, 8> Values;

public:
  ListingEnumParser(llvm::cl::Option &o) : generic_parser_base(o) {}
  using parser_data_type = DataType;

  unsigned getNumOptions() const override { return unsigned(Values.size()); }
  llvm::StringRef getOption(unsigned n) const override {
    return Values[n].Name;
  }
  llvm::StringRef getDescription(unsigned n) const override {
    return Values[n].HelpStr;
  }
  const llvm::cl::GenericOptionValue &getOptionValue(unsigned n) const override {
    return Values[n].V;
  }

  /// Returns true on error, as llvm::cl parsers do.
  bool parse(llvm::cl::Option &o, llvm::StringRef argName, llvm::StringRef arg,
             DataType &value) {
    llvm::StringRef argVal = Owner.hasArgStr() ? arg : argName;
    for (const OptionInfo &info : Values) {
      if (info.Name == argVal) {
        value = info.V.getValue();
        return false;
      }
    }
    std::string accepted;
    for (const OptionInfo &info : Values)
      accepted += (accepted.empty() ? "" : ", ") + info.Name.str();
    return o.error("'" + argVal + "' is not one of: " + accepted);
  }

  template <typename DT>
  void addLiteralOption(llvm::StringRef name, const DT &v,
                        llvm::StringRef helpStr) {
    Values.push_back(OptionInfo(name, static_cast<DataType>(v), helpStr));
    llvm::cl::AddLiteralOption(Owner, name);
  }

  void removeLiteralOption(llvm::StringRef name) {
    unsigned n = findOption(name);
    assert(n != Values.size() && "option not found");
    Values.erase(Values.begin() + n);
  }
};

} // namespace mlir::lowp::detail

/// Makes options of enum type `EnumType` (fully qualified) report a bad value
/// with the list of accepted ones. At global namespace scope.
#define LOWP_LISTING_ENUM_OPTION(EnumType)                                     \
  template <>                                                                  \
  class llvm::cl::parser<EnumType>                                             \
      : public ::mlir::lowp::detail::ListingEnumParser<EnumType> {             \
  public:                                                                      \
    using ::mlir::lowp::detail::ListingEnumParser<                             \
        EnumType>::ListingEnumParser;                                          \
  };

#endif // LOWP_SUPPORT_ENUMOPTIONPARSER_H
