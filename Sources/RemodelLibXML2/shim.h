#ifndef REMODEL_LIBXML2_SHIM_H
#define REMODEL_LIBXML2_SHIM_H

// libxml2's headers pull in ICU when it was built with ICU support, and
// Foundation carries its own ICU: the two clash ('UErrorCode' has different
// definitions). Read the version header first, switch ICU off, then include
// what Remodel uses.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

// xmlFree is a global function pointer, which Swift 6 sees as shared mutable
// state: call it through a function instead.
static inline void remodel_xml_free(void *pointer) {
    xmlFree(pointer);
}

#endif
