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

// libxml2 reports encoding and I/O errors through its per-thread generic error
// channel (printed to standard error), not through the parser's structured
// handler. Collect the first such message while Remodel parses, then restore
// whatever handler the thread had.
#include <stdarg.h>
#include <stdio.h>

typedef struct {
    int count;
    char first[512];
    xmlGenericErrorFunc previous;
    void *previousContext;
} remodel_xml_generic_errors;

static void remodel_xml_collect_generic_error(void *context, const char *format, ...) {
    remodel_xml_generic_errors *errors = (remodel_xml_generic_errors *)context;
    if (errors == NULL || format == NULL) return;
    if (errors->count++ == 0) {
        va_list arguments;
        va_start(arguments, format);
        vsnprintf(errors->first, sizeof errors->first, format, arguments);
        va_end(arguments);
    }
}

static inline void remodel_xml_begin_collecting_generic_errors(remodel_xml_generic_errors *errors) {
    errors->count = 0;
    errors->first[0] = 0;
    errors->previous = xmlGenericError;
    errors->previousContext = xmlGenericErrorContext;
    xmlSetGenericErrorFunc(errors, remodel_xml_collect_generic_error);
}

static inline void remodel_xml_end_collecting_generic_errors(remodel_xml_generic_errors *errors) {
    xmlSetGenericErrorFunc(errors->previousContext, errors->previous);
}

#endif
