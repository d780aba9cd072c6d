// What memsim models of a platform file (platform_xml.h), as an allow-list: every element
// and attribute not listed here is refused by name, since SimGrid would act on it behind
// memsim's back (a host's speed_file or state_file makes SimGrid open any path and abort on
// its content or block on a FIFO; core="0" aborts; a <trace> changes rates over time).
// SimGrid is then given memsim's own copy of the checked tree, not the file's path, so it
// loads exactly what was checked (nothing is read twice, nothing else is opened).
#pragma once

#include <string>

#include <boost/property_tree/ptree_fwd.hpp>

namespace memsim::platform_xml {

// The tree Boost parsed: one <platform> whose elements, attributes and props are all on
// the list (docs/tiers.md), each attribute once, every value printable UTF-8 text, no
// text between elements. Throws InputError "FILE: element 'ELEM': WHAT".
void check_allowed(const std::string& file, const boost::property_tree::ptree& tree);

// The checked tree as SimGrid 3.32 reads it: declaration, document type, elements and
// attributes in the file's order.
std::string write_platform(const boost::property_tree::ptree& tree);

}  // namespace memsim::platform_xml
